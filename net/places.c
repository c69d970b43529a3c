/* Where packets are, for whoever asks between timesteps -- --state,
 * --step, the report, the deadlock message, the tests -- and what the
 * network counts. The fast stages do not keep a packet's place in its
 * record; net_settle writes it there from the stage's own state when
 * somebody asks, and every query below settles first. */
#include <stdio.h>
#include <stdlib.h>

#include "net/events.h"
#include "net/layout.h"
#include "net/message.h"
#include "net/places.h"
#include "net/sleep.h"

/* net_settle: from the lists of packets on links, the lanes of refused
 * packets, the buffers' places and the output slots. */
static void settle_packets(Net *net)
{
    Layout *lay = &net->lay;
    unsigned vs = lay->vshift;
    /* Lanes: those of refused packets are kept; the rest are written from
     * the lists of packets on links, below. */
    size_t senders = sender_count(net);
    for (uint32_t h = 0; h < senders; h++)
        for (unsigned v = 0; v < lay->cfg.vcs; v++) {
            Sender *ks = &lay->senders[channel_of(lay, h, v)];
            if (!(ks->slot & SLOT_BLOCKED)) {
                ks->slot_packet = NET_NIL;
            } else if (ks->slot & SLOT_ASLEEP) {
                unsigned dir = ks->slot & SLOT_UP ? DIR_UP : DIR_DOWN;
                uint32_t link = slot_link(lay, h, dir);
                bool last = dir == DIR_DOWN && sw_layer(lay, link >> 1) == 1;
                settle_on_link(net, ks->slot_packet, link, dir, v,
                               last ? ASLEEP_PORT : ASLEEP_BUFFER);
            }
        }
    for (unsigned i = 0; i < net->nshares; i++)
        for (unsigned c = 0; c < ARRIVAL_CLASSES; c++)
            for (unsigned layer = 1; layer <= lay->cfg.k; layer++) {
                const OnLinkList *l = &net->share[i].on_links[c][layer];
                for (size_t j = 0; j < l->n; j++) {
                    const OnLink *e = &l->items[j];
                    unsigned dir, v = target_channel(e->target, vs);
                    uint32_t link = listed_link(lay, c, target_of(e->target, vs), e->keeper, &dir);
                    settle_on_link(net, e->packet, link, dir, v, AWAKE);
                    lay->senders[channel_of(lay, keeper_of(e->keeper), v)].slot_packet = e->packet;
                }
            }
    for (uint32_t b = 0; b < lay->nbuffers; b++)
        for (unsigned v = 0; v < lay->cfg.vcs; v++) {
            uint32_t c = channel_of(lay, b, v), count = buffer_count(lay, c);
            for (uint32_t i = 0; i < count; i++)
                settle_in_buffer(net, buffer_packet_at(lay, c, i), c,
                                 buffer_packet_at(lay, c, i + 1),
                                 i == 0 && claim_sleeps(net, b) ? ASLEEP_CLAIM : AWAKE);
        }
    for (uint32_t p = 0; p < net->lay.nprocs; p++) {
        uint32_t x = net->lay.out_slot[p];
        if (x == NET_NIL || x == NET_RESERVED)
            continue;
        Packet *pk = &net->lay.pool[x];
        pk->place = PLACE_SLOT;
        pk->at = p;
        pk->asleep = claim_sleeps(net, adapter_sender(&net->lay, pk->plane, p)) ? ASLEEP_CLAIM : AWAKE;
    }
}

void net_settle(Net *net)
{
    if (net->settled)
        return;
    net->settled = true;
    if (net->in_flight != 0)
        settle_packets(net);
}

bool net_buffer_owner(const Net *net, uint32_t b, uint64_t *id)
{
    const Layout *lay = &net->lay;
    uint32_t m = lay->messages ? lay->owner[channel_of_public(lay, b)] : 0;
    if (m != 0)
        *id = lay->message[m].id;
    return m != 0;
}

bool net_port_owner(const Net *net, uint32_t p, uint32_t port, uint64_t *id)
{
    const Layout *lay = &net->lay;
    uint32_t m = lay->messages ? lay->port_owner[(size_t)p * lay->cfg.ports + port] : 0;
    if (m != 0)
        *id = lay->message[m].id;
    return m != 0;
}

void net_packet_name(const NetPacket *pk, char *buf, size_t size)
{
    if (pk->length > 1)
        snprintf(buf, size, "#%llu.%u", (unsigned long long)pk->id, pk->flit);
    else
        snprintf(buf, size, "#%llu", (unsigned long long)pk->id);
}

void net_for_each_in_flight(Net *net, void (*fn)(void *ctx, const NetPacket *pk), void *ctx)
{
    NetPacket pk;
    if (net->in_flight == 0)
        return;
    for (uint32_t p = 0; p < net->lay.nprocs; p++)
        if (net_slot_packet(net, p, &pk)) {
            fn(ctx, &pk);
            uint32_t m = flit_message(&net->lay, net->lay.out_slot[p]);
            for (uint32_t i = m != 0 ? net->lay.message[m].made : pk.length; i < pk.length; i++) {
                pk.flit = i;              /* (the flits the slot still holds) */
                pk.data = net->lay.message[m].words[i];
                fn(ctx, &pk);
            }
        }
    unsigned V = net->lay.cfg.vcs;
    size_t lanes = 2 * (size_t)net->lay.nswitches * (net->lay.cfg.full_duplex ? 2 : 1) * V;
    for (size_t c = 0; c < lanes; c++)
        if (net_link_packet(net, (uint32_t)c, &pk))
            fn(ctx, &pk);
    for (uint32_t b = 0; b < net->lay.nbuffers * V; b++)
        for (uint32_t i = 0; net_buffer_packet(net, b, i, &pk); i++)
            fn(ctx, &pk);
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

void net_for_each_unread(Net *net, void (*fn)(void *ctx, const NetPacket *pk), void *ctx)
{
    uint32_t *heads = malloc(((size_t)net->outstanding + 1) * sizeof *heads);
    size_t n = 0;
    if (!heads)
        return;
    for (uint32_t x = 0; x < net->pool_cap; x++)
        if (net->lay.pool[x].place == PLACE_PORT && net->lay.ports[net->lay.pool[x].at].head == x)
            heads[n++] = net->lay.pool[x].at;
    qsort(heads, n, sizeof *heads, compare_u32);
    for (size_t i = 0; i < n; i++)
        for (uint32_t y = net->lay.ports[heads[i]].head; y != NET_NIL; y = net->lay.pool[y].next) {
            NetPacket pk;
            net_describe(net, y, &pk);
            fn(ctx, &pk);
        }
    free(heads);
}

uint32_t link_packet_at(Net *net, uint32_t c)
{
    net_settle(net);
    unsigned V = net->lay.cfg.vcs;
    uint32_t ki = wire_keeper(&net->lay, c / V);
    uint32_t x = net->lay.senders[channel_of(&net->lay, ki, c % V)].slot_packet;
    if (x != NET_NIL && net->lay.pool[x].place == PLACE_LINK && net->lay.pool[x].at == c)
        return x;
    return NET_NIL;
}

uint32_t net_buffer_count(const Net *net, uint32_t b)
{
    return buffer_count(&net->lay, channel_of_public(&net->lay, b));
}

bool net_slot_packet(Net *net, uint32_t p, NetPacket *pk)
{
    uint32_t x = net->lay.out_slot[p];
    if (x == NET_NIL || x == NET_RESERVED)
        return false;
    net_settle(net);
    net_describe(net, x, pk);
    return true;
}

bool net_link_packet(Net *net, uint32_t c, NetPacket *pk)
{
    uint32_t x = link_packet_at(net, c);
    if (x == NET_NIL)
        return false;
    net_describe(net, x, pk);
    return true;
}

bool net_buffer_packet(Net *net, uint32_t b, uint32_t i, NetPacket *pk)
{
    uint32_t count = net_buffer_count(net, b);
    if (i >= count)
        return false;
    net_settle(net);
    net_describe_fields(net, buffer_packet_at(&net->lay, channel_of_public(&net->lay, b), i), pk);
    pk->position = i + 1;
    pk->queued = count;
    return true;
}

bool net_port_packet(Net *net, uint32_t p, uint32_t port, uint32_t i, NetPacket *pk)
{
    const InputPort *f = &net->lay.ports[(size_t)p * net->lay.cfg.ports + port];
    if (i >= f->count)
        return false;
    uint32_t x = f->head;
    for (uint32_t n = 0; n < i; n++)
        x = net->lay.pool[x].next;
    net_describe_fields(net, x, pk);
    pk->position = i + 1;
    pk->queued = f->count;
    return true;
}

bool net_find_packet(Net *net, uint64_t id, NetPacket *pk)
{
    net_settle(net);
    for (uint32_t x = 1; x < net->pool_cap; x++)
        if (net->lay.pool[x].place != PLACE_FREE && net->lay.pool[x].info.id == id) {
            net_describe(net, x, pk);
            return true;
        }
    return false;
}

const NetStats *net_stats(const Net *net) { return &net->counts.stats; }
bool net_moved(const Net *net) { return net->moved; }
uint64_t net_in_flight(const Net *net) { return net->in_flight + net->flits_waiting; }
uint64_t net_unread(const Net *net)
{
    return net->counts.stats.flits_delivered - net->flits_read;
}
bool net_busy(const Net *net) { return net->in_flight != 0; }
uint64_t net_next_id(const Net *net) { return net->next_id; }

const uint32_t *net_woken(const Net *net, size_t *n)
{
    *n = net->woken.n;
    return net->woken.items;
}
