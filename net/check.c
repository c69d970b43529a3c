/* The network's invariants, which the debug build and --check verify after
 * every timestep: each packet in exactly one place, FIFOs and counts
 * consistent, no buffer over B and no port over D, and the fast stage's
 * own bookkeeping (lists, sleepers, hop words) true to the state. */
#include <stdio.h>
#include <stdlib.h>

#include "net/net_internal.h"



#define BROKEN(...) do { snprintf(err, size, __VA_ARGS__); free(seen); free(marks); return -1; } while (0)

/* Walks one FIFO, checking its links, count and bound; marks its packets. */
static int check_fifo(const Net *net, uint32_t head, uint32_t tail, uint32_t count,
                      uint32_t index, PacketPlace place, uint32_t bound, uint8_t *seen,
                      const char *what, char *err, size_t size)
{
    uint32_t n = 0, last = NET_NIL;
    for (uint32_t y = count ? head : NET_NIL; y != NET_NIL; y = net->lay.pool[y].next) {
        if (y >= net->pool_cap || seen[y] || ++n > count) {
            snprintf(err, size, "%s: broken list (packet %u)", what, y);
            return -1;
        }
        seen[y] = 1;
        if (net->lay.pool[y].place != place || net->lay.pool[y].at != index) {
            snprintf(err, size, "%s: holds packet #%llu that places itself elsewhere",
                     what, (unsigned long long)net->lay.info[y].id);
            return -1;
        }
        last = y;
    }
    if (n != count || (n && last != tail)) {
        snprintf(err, size, "%s: count %u but %u packets linked", what, count, n);
        return -1;
    }
    if (n > bound) {
        snprintf(err, size, "%s: overflow, %u packets in %u places", what, n, bound);
        return -1;
    }
    return 0;
}

/* Whether packet x's travelling route is its route. */
static bool route_matches(const Net *net, uint32_t x)
{
    return !net->lay.compact || net->lay.routes[x] == packet_route_word(&net->lay, &net->lay.pool[x]);
}

int net_check(Net *net, char *err, size_t size)
{
    size_t senders = sender_count(net);
    uint8_t *seen = calloc(net->pool_cap ? net->pool_cap : 1, 1);
    uint8_t *marks = calloc(senders, 1);    /* per sender: 1 listed as a claimant */
    char name[64];
    uint64_t in_flight = 0, in_ports = 0, asleep = 0, refused_awake = 0;
    if (!seen || !marks) {
        free(seen);
        free(marks);
        snprintf(err, size, "out of memory");
        return -1;
    }
    net_settle(net);
#define PACKET_OK(x) ((x) != NET_NIL && (x) < net->pool_cap && !seen[x] && \
                      net->lay.pool[x].place != PLACE_FREE)
    for (uint32_t p = 0; p < net->lay.nprocs; p++) {
        uint32_t x = net->lay.out_slot[p];
        if (x == NET_RESERVED)
            BROKEN("net/p%u: output slot reserved between timesteps", p);
        if (x == NET_NIL)
            continue;
        if (!PACKET_OK(x) || net->lay.pool[x].place != PLACE_SLOT || net->lay.pool[x].at != p ||
            net->lay.info[x].src != p)
            BROKEN("net/p%u: output slot holds a packet that is not there", p);
        seen[x] = 1;
        in_flight++;
    }
    for (uint32_t b = 0; b < net->lay.nbuffers; b++) {
        const Sender *f = &net->lay.senders[b];
        if (f->hop != 0 && (!net->lay.compact || f->hop != hop_word(&net->lay, b))) {
            net_buffer_name(net, b, name, sizeof name);
            BROKEN("net/%s: hop word 0x%x, not that of its link", name, f->hop);
        }
        if (f->count == 0 && f->waiting == 0 && net->entered[b] == 0)
            continue;
        net_buffer_name(net, b, name, sizeof name);
        if (f->count > net->lay.cfg.buffer)
            BROKEN("net/%s: overflow, %u packets in %u places", name, f->count, net->lay.cfg.buffer);
        if (net->lay.rings != NULL && f->ring.head >= ring_capacity(&net->lay, f) && f->count)
            BROKEN("net/%s: head at place %u of a ring of %u", name, f->ring.head,
                   ring_capacity(&net->lay, f));
        if (net->entered[b])
            BROKEN("net/%s: entry count not reset", name);
        if (f->waiting && f->count < net->lay.cfg.buffer)
            BROKEN("net/%s: packets sleep on it, but it has room", name);
        for (uint32_t i = 0; i < f->count; i++) {
            uint32_t x = buffer_packet_at(&net->lay, b, i);
            if (!PACKET_OK(x) || net->lay.pool[x].place != PLACE_BUFFER || net->lay.pool[x].at != b)
                BROKEN("net/%s: place %u holds a packet that is not there (lost or duplicated)",
                       name, i + 1);
            if (!route_matches(net, x))
                BROKEN("net/%s: place %u carries a route that is not its packet's", name, i + 1);
            unsigned port = place_port(buffer_place_word(&net->lay, b, i));
            if (port != next_port(&net->lay, b, x))
                BROKEN("net/%s: place %u says its packet takes port %u next, but its route "
                       "says %u", name, i + 1, port, next_port(&net->lay, b, x));
            seen[x] = 1;
            in_flight++;
        }
        for (unsigned a = 0; a < 4; a++) {
            if (!((f->waiting >> a) & 1))
                continue;
            uint32_t s = b >> 2, sh = arrival_keeper(&net->lay, s, sw_layer(&net->lay, s), a);
            const Sender *hb = &net->lay.senders[sh];
            if ((hb->slot & (SLOT_BLOCKED | SLOT_ASLEEP)) != (SLOT_BLOCKED | SLOT_ASLEEP))
                BROKEN("net/%s: the packet arriving on port %u sleeps on it, but is not asleep",
                       name, a);
            uint32_t up, down;
            packet_route(&net->lay, hb->slot_packet, &up, &down);
            if (4 * s + route_out(up, down, sw_layer(&net->lay, s), a < 2) != b)
                BROKEN("net/%s: a packet sleeps on it that is going elsewhere", name);
            asleep++;
        }
    }
    for (size_t h = 0; h < senders; h++) {
        const Sender *hb = &net->lay.senders[h];
        uint8_t fl = hb->slot;
        if (fl == 0)
            continue;
        if (h < net->lay.nbuffers)
            net_buffer_name(net, (uint32_t)h, name, sizeof name);
        else
            snprintf(name, sizeof name, "p%zu.adapter%zu", (h - net->lay.nbuffers) >> net->lay.cfg.k,
                     (h - net->lay.nbuffers) & (net->lay.nprocs - 1));
        if ((fl & (SLOT_ASLEEP | SLOT_UP | CLAIM_ASLEEP | CLAIM_UP_ASLEEP)) && !(fl & SLOT_BLOCKED))
            BROKEN("net/%s: slot flags 0x%x without a refused packet", name, fl);
        if ((fl & (CLAIM_ASLEEP | CLAIM_UP_ASLEEP)) && !(fl & SLOT_ASLEEP))
            BROKEN("net/%s: a claim sleeps on a slot whose packet is awake", name);
        if ((fl & CLAIM_UP_ASLEEP) && net->lay.cfg.full_duplex)
            BROKEN("net/%s: an upward claim sleeps on it with --duplex full", name);
        uint32_t x = hb->slot_packet;
        if (!(fl & SLOT_ASLEEP)) {
            refused_awake += (fl & SLOT_BLOCKED) != 0;
            continue;
        }
        if (!PACKET_OK(x) || net->lay.pool[x].place != PLACE_LINK)
            BROKEN("net/%s: its slot holds a sleeping packet that is not there", name);
        if (!route_matches(net, x))
            BROKEN("net/%s: its slot carries a route that is not its packet's", name);
        if (net->lay.pool[x].asleep == ASLEEP_PORT) {
            uint32_t port = net->lay.info[x].dst * net->lay.cfg.ports + net->lay.pool[x].port;
            bool listed = false;
            for (uint32_t y = net->lay.ports[port].waiting; y != NET_NIL; y = net->lay.info[y].next_waiting)
                listed |= y == x;
            if (!listed || net->lay.info[x].keeper != h)
                BROKEN("net/%s: its packet sleeps on an input port that does not know it", name);
            if (net->lay.ports[port].count < net->lay.cfg.port_depth)
                BROKEN("net/%s: its packet sleeps on an input port with room", name);
            asleep++;
        }
        seen[x] = 1;
        in_flight++;
        asleep += ((fl & CLAIM_ASLEEP) != 0) + ((fl & CLAIM_UP_ASLEEP) != 0);
    }
    for (unsigned l = 0; l < net->nlanes; l++) {
        const NetLane *ln = &net->lane[l];
        for (unsigned layer = 0; layer < LIST_LAYERS; layer++)
            for (size_t i = 0; i < ln->claimants[layer].n; i++) {
                uint32_t h = ln->claimants[layer].items[i];
                if (h >= senders || lane_index(net, h) != l)
                    BROKEN("net: lane %u lists a claimant that is not its own (entry %zu)", l, i);
                if (sender_list_layer(&net->lay, h) != layer)
                    BROKEN("net: a claimant is listed in layer %u, not its own", layer);
                if (marks[h]++)
                    BROKEN("net: a claimant is listed twice (entry %zu of lane %u)", i, l);
            }
        for (unsigned c = 0; c < ARRIVAL_CLASSES; c++)
            for (unsigned layer = 0; layer < LIST_LAYERS; layer++)
                for (size_t i = 0; i < ln->on_links[c][layer].n; i++) {
                    const OnLink *e = &ln->on_links[c][layer].items[i];
                    uint32_t x = e->packet, sh = keeper_of(e->keeper);
                    if (!PACKET_OK(x) || net->lay.pool[x].place != PLACE_LINK || sh >= senders ||
                        lane_index(net, sh) != l)
                        BROKEN("net: the list of packets on links holds one that is not "
                               "(list %u, entry %zu)", c, i);
                    if (link_list_layer(&net->lay, c, e->target) != layer)
                        BROKEN("net: packet #%llu is listed in layer %u, not the one it arrives at",
                               (unsigned long long)net->lay.info[x].id, layer);
                    if (!route_matches(net, x))
                        BROKEN("net: packet #%llu is listed with a route that is not its own",
                               (unsigned long long)net->lay.info[x].id);
                    /* It goes where its slot's keeper sends it (with --duplex
                     * half, an upward packet's slot is held by the port it
                     * enters, and its sender is the sender below). */
                    uint32_t sender = sh, sw = e->target >> 2;
                    if (c < 2 && !net->lay.cfg.full_duplex) {
                        if (sh != 4 * sw + c)
                            BROKEN("net: packet #%llu is listed going to 0x%x from sender %u",
                                   (unsigned long long)net->lay.info[x].id, e->target, sh);
                        sender = up_sender(&net->lay, sw, sw_layer(&net->lay, sw), c);
                    }
                    unsigned cl;
                    uint32_t want = hop_target(&net->lay, sender, x, &cl);
                    if (cl != c)
                        BROKEN("net: packet #%llu is listed arriving in class %u, not %u",
                               (unsigned long long)net->lay.info[x].id, c, cl);
                    if (want != e->target)
                        BROKEN("net: packet #%llu is listed going to 0x%x, not 0x%x",
                               (unsigned long long)net->lay.info[x].id, e->target, want);
                    const Sender *hb = &net->lay.senders[sh];
                    if (keeper_refused(e->keeper)) {
                        if ((hb->slot & (SLOT_BLOCKED | SLOT_ASLEEP)) != SLOT_BLOCKED ||
                            hb->slot_packet != x)
                            BROKEN("net: packet #%llu was refused, but its slot does not hold it",
                                   (unsigned long long)net->lay.info[x].id);
                        refused_awake--;
                    } else if (hb->slot & SLOT_BLOCKED) {
                        BROKEN("net: packet #%llu is on a link whose slot another packet blocks",
                               (unsigned long long)net->lay.info[x].id);
                    }
                    seen[x] = 1;
                    in_flight++;
                }
    }
    if (refused_awake != 0)
        BROKEN("net: %lld refused packets are in slots but not listed", (long long)refused_awake);
    /* Every sender with a packet to send claims: listed once, or asleep. */
    for (size_t h = 0; h < senders; h++) {
        bool has;
        if (h < net->lay.nbuffers) {
            has = net->lay.senders[h].count != 0;
        } else {
            uint32_t x = net->lay.out_slot[adapter_proc(&net->lay, (uint32_t)h)];
            has = x != NET_NIL && net->lay.pool[x].plane == sender_plane(&net->lay, (uint32_t)h);
        }
        bool sleeps = has && claim_sleeps(net, (uint32_t)h);
        if (has != (marks[h] || sleeps) || (marks[h] && sleeps)) {
            if (h < net->lay.nbuffers)
                net_buffer_name(net, (uint32_t)h, name, sizeof name);
            else
                snprintf(name, sizeof name, "adapter of p%u", adapter_proc(&net->lay, (uint32_t)h));
            BROKEN("net/%s: %s, but %s", name, has ? "has a packet to send" : "has nothing to send",
                   marks[h] ? "is listed as a claimant" : sleeps ? "its claim sleeps" : "is not listed");
        }
    }
    for (uint32_t p = 0; p < net->lay.nprocs; p++)
        if (net->arrivals_down[p])
            BROKEN("net/p%u: arrival bits 0x%x left set after stage c", p, net->arrivals_down[p]);
    if (!net->lay.cfg.full_duplex)
        for (size_t c = 0; c < 2 * (size_t)net->lay.nswitches; c++)
            if (net->lay.channels[c].temp != TEMP_FREE) {
                net_link_name(net, (uint32_t)c, name, sizeof name);
                BROKEN("net/%s: temp slot still claimed after the timestep", name);
            }
    for (size_t i = 0; i < (size_t)net->lay.nprocs * net->lay.cfg.ports; i++) {
        const InputPort *f = &net->lay.ports[i];
        if (f->count == 0)
            continue;
        char what[80];
        snprintf(what, sizeof what, "net/p%zu.port%zu", i / net->lay.cfg.ports, i % net->lay.cfg.ports);
        if (check_fifo(net, f->head, f->tail, f->count, (uint32_t)i, PLACE_PORT, net->lay.cfg.port_depth,
                       seen, what, err, size) != 0) {
            free(seen);
            free(marks);
            return -1;
        }
        in_ports += f->count;
    }
    if (in_flight != net->in_flight)
        BROKEN("net: %llu packets found in flight, %llu counted",
               (unsigned long long)in_flight, (unsigned long long)net->in_flight);
    if (in_flight + in_ports != net->outstanding)
        BROKEN("net: packet pool has %u outstanding, %llu found (a packet was lost)",
               net->outstanding, (unsigned long long)(in_flight + in_ports));
    if (net->counts.stats.sent != net->counts.stats.read + in_flight + in_ports)
        BROKEN("net: %llu packets sent, but %llu read + %llu in flight + %llu in ports",
               (unsigned long long)net->counts.stats.sent, (unsigned long long)net->counts.stats.read,
               (unsigned long long)in_flight, (unsigned long long)in_ports);
    if (asleep != net->counts.asleep)
        BROKEN("net: %llu packets asleep, %llu counted", (unsigned long long)asleep,
               (unsigned long long)net->counts.asleep);
#undef PACKET_OK
    free(seen);
    free(marks);
    return 0;
}
