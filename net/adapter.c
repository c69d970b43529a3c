/* A processor's network adapter (machine.md, thesis 5.3.1): its output
 * slot, which an OUT reserves in stage 1 and injection fills in stage 3,
 * and its input ports, FIFOs of packets threaded through the pool, which
 * stage c fills and an IN empties. */
#include <stdlib.h>

#include "net/adapter.h"
#include "net/events.h"
#include "net/layout.h"
#include "net/message.h"
#include "net/multicast.h"
#include "net/pool.h"


bool net_out_free(const Net *net, uint32_t p)
{
    return net->lay.out_slot[p] == NET_NIL;
}

void net_reserve_out(Net *net, uint32_t p)
{
    net->lay.out_slot[p] = NET_RESERVED;
}

uint64_t net_count_request(Net *net, uint32_t p)
{
    return net->requests_made[p]++;
}

void net_prefetch_port(const Net *net, uint32_t p, uint32_t port)
{
    if (port < net->lay.cfg.ports)
        PREFETCH(&net->lay.ports[(size_t)p * net->lay.cfg.ports + port]);
}


uint32_t net_take(Net *net, uint32_t p, uint32_t port, uint32_t *word)
{
    InputPort *f = &net->lay.ports[(size_t)p * net->lay.cfg.ports + port];
    if (f->count == 0)
        return NET_NIL;
    uint32_t x = f->head;
    Packet *pk = &net->lay.pool[x];
    *word = pk->data;
    f->head = pk->next;
    if (--f->count == 0)
        f->tail = NET_NIL;
    return x;
}

uint32_t adapter_release(Net *net, uint32_t x)
{
    Packet *pk = &net->lay.pool[x];
    uint32_t port = pk->at;
    net->counts.stats.read += flit_is_tail(&net->lay, x);   /* (messages read) */
    net->flits_read++;
    if (net->event) {
        NetPacket read;
        net_describe(net, x, &read);
        NetEvent ev = { EV_READ, net->timestep, &read, pk->info.dst, PLACE_PORT, 0, 0, NULL, 0 };
        net->event(net->event_ctx, &ev);
    }
    if (net->lay.messages)
        message_read(net, x);
    pool_release(net, x);
    return port;
}

void net_taken_packet(const Net *net, uint32_t taken, NetPacket *pk)
{
    net_describe(net, taken, pk);
}

void net_deliver(Net *net, uint32_t x, uint32_t p)
{
    Packet *pk = &net->lay.pool[x];
    uint32_t slot = p * net->lay.cfg.ports + pk->port;
    InputPort *port = &net->lay.ports[slot];
    pk->place = PLACE_PORT;
    pk->at = slot;
    pk->dir = DIR_DOWN;
    pk->layer = 0;
    pk->links = (uint8_t)(2 * pk->count);
    pk->asleep = AWAKE;
    pk->next = NET_NIL;
    if (port->count++ == 0)
        port->head = x;
    else
        net->lay.pool[port->tail].next = x;
    port->tail = x;
    net->in_flight--;
    list_push(&net->woken, p);
    net->counts.stats.flits_delivered++;
    if (!net->lay.messages || flit_delivered(&net->lay, x, slot)) {   /* a tail: the message */
        net->counts.stats.delivered++;
        net_record_latency(&net->counts.stats, net->timestep - net->lay.pool[x].info.created);
    }
    net->moved = true;
    net_emit(net, x, (NetEvent){ .kind = EV_DELIVERED, .place = p, .place_kind = PLACE_PORT });
}

uint32_t net_port_count(const Net *net, uint32_t p, uint32_t port)
{
    return net->lay.ports[(size_t)p * net->lay.cfg.ports + port].count;
}

uint32_t adapter_inject(Net *net, const RouteRequest *req, const Route *route,
                        const uint32_t *words, uint64_t timestep)
{
    uint32_t x = pool_alloc(net);
    Packet *pk = &net->lay.pool[x];
    *pk = (Packet){
        .next = NET_NIL, .at = req->src, .routing = route->routing, .addressing = route->addressing,
        .data = words[0],
        .port = (uint8_t)req->port, .plane = route->plane, .count = route->count,
        .dir = DIR_UP, .place = PLACE_SLOT, .layer = 0,
        .info = { .id = net->next_id++, .created = timestep, .src = req->src, .dst = req->dst },
    };
    net->lay.routes[x] = packet_route_word(&net->lay, pk);
    net->lay.out_slot[req->src] = x;
    net->in_flight++;
    net->counts.stats.sent++;
    net->counts.stats.multicasts += req->set != NULL;
    net->counts.stats.flits_sent++;
    if (req->set)
        mc_make(net, x, req->set);
    if (req->length != 0)             /* SEND */
        message_make(net, x, words, req->length);
    return x;
}
