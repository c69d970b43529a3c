/* After a deadlock (machine.md, Termination): whether the network itself
 * is stuck -- some packet could not move even if every processor read
 * every port, a network deadlock -- or only the program is; and, for the
 * report that says why, which packet holds up a packet. */
#include <stdlib.h>

#include "net/events.h"
#include "net/layout.h"
#include "net/message.h"
#include "net/multicast.h"
#include "net/places.h"

/* A packet whose blockers are looked for, as blockers reads it. */
typedef struct Waiter {
    uint32_t x;
    const Packet *pk;
    unsigned v;            /* its channel */
    uint32_t m;            /* its message, 0 for a one-word packet */
    bool head;             /* its message's head (a one-word packet is one) */
} Waiter;

/* blockers, for a packet on a link: heading for an input port, or for a
 * buffer. */
static int blockers_on_link(Net *net, const Waiter *w, const uint32_t *rear, uint32_t deps[2],
                            bool *all)
{
    const Layout *lay = &net->lay;
    const Packet *pk = w->pk;
    unsigned V = lay->cfg.vcs;
    uint32_t link = wire_link(lay, pk->at / V), s;
    unsigned l;
    if (pk->dir == DIR_UP) {
        s = link >> 1;
        l = pk->layer;
    } else if (pk->layer == 1) {
        /* Only an input port can hold it -- and a message that owns the
         * port, until its tail comes (messages.md). */
        uint32_t owner = lay->messages && w->head
                       ? lay->port_owner[(size_t)pk->info.dst * lay->cfg.ports + pk->port] : 0;
        if (owner == 0 || owner == w->m)
            return -1;
        deps[0] = rear[owner];
        return 1;
    } else {
        unsigned q;
        s = down_target(lay, link, pk->layer, &q);
        l = pk->layer - 1u;
    }
    int n = 0;
    unsigned first, last;
    bool down = pk->dir == DIR_DOWN || l == pk->count;
    if (down && pk->set.hi != 0) {
        /* A multicast going down needs every buffer below which its set
         * has members: it waits for the full ones among them. */
        McPart part[2];
        mc_split(net, w->x, l, part);
        for (unsigned out = 0; out < 2; out++) {
            uint32_t cb = (4 * s + out) * V + w->v;
            if (part[out].n != 0 && net_buffer_count(net, cb) >= lay->cfg.buffer)
                deps[n++] = buffer_packet_at(lay, channel_of_public(lay, cb), 0);
        }
        *all = true;
        return n ? n : -1;
    }
    if (pk->dir == DIR_UP && l < pk->count) {
        unsigned b = (pk->routing >> (l - 1)) & 1;
        first = last = 2 + b;
        if (lay->cfg.adaptive) {
            first = 2;
            last = 3;
        }
    } else {
        first = last = (pk->addressing >> (l - 1)) & 1;
    }
    for (unsigned out = first; out <= last; out++) {
        uint32_t cb = (4 * s + out) * V + w->v, c = channel_of_public(lay, cb);
        uint32_t owner = lay->messages ? lay->owner[c] : 0;
        if (owner != 0 && owner != w->m) {  /* owned by another message, until its tail comes */
            deps[n++] = rear[owner];
            continue;
        }
        if (room_for_flit(lay, w->x, flit_kind(lay, w->x), net_buffer_count(net, cb),
                          lay->cfg.buffer))
            return -1;
        deps[n++] = buffer_packet_at(lay, c, 0);
    }
    return n;
}

/* The packets that packet x waits for, if it cannot move now: at most two
 * (an adaptive packet may climb through either up buffer, and a multicast
 * may need both down buffers). Returns how many are written to deps; -1 if
 * x could move as soon as input ports were read (or at once). *all says
 * whether x needs every one of them to move (a multicast) or any one (an
 * adaptive packet). The network is settled. With virtual channels, what
 * holds a packet up is on its own channel: the packet on its lane, the
 * head of its channel's buffer; a claim on a free lane may lose the link
 * to another channel, but the round-robin gives every channel its turn. */
static int blockers(Net *net, uint32_t x, const uint32_t *rear, uint32_t deps[2], bool *all)
{
    *all = false;
    const Layout *lay = &net->lay;
    const Packet *pk = &lay->pool[x];
    unsigned V = lay->cfg.vcs, v = pk->port % V;
    uint32_t m = flit_message(lay, x);
    bool head = flit_index(lay, x) == 0;
    if (m != 0 && head && pk->place == PLACE_BUFFER &&
        lay->cfg.switching == SWITCHING_STORE_FORWARD &&
        buffer_packet_at(lay, channel_of_public(lay, pk->at), 0) == x &&
        lay->message[m].tail_buffer != channel_of_public(lay, pk->at)) {
        deps[0] = rear[m];               /* a head waiting for its tail */
        return 1;
    }
    if (pk->place == PLACE_SLOT ||
        (pk->place == PLACE_BUFFER && buffer_packet_at(lay, channel_of_public(lay, pk->at), 0) == x)) {
        uint32_t h = pk->place == PLACE_SLOT ? adapter_sender(lay, pk->plane, pk->at) : pk->at / V;
        unsigned layer, dir;
        uint32_t heading = claim_heading(lay, h, &layer, &dir);
        uint32_t link = claim_link(lay, h, heading, dir);
        /* (With --duplex half, whichever way the lane's packet goes.) */
        uint32_t y = link_packet_at(net, link_wire(lay, link, dir) * V + v);
        if (y == NET_NIL)
            return -1;
        deps[0] = y;
        return 1;
    }
    if (pk->place == PLACE_BUFFER) {
        deps[0] = buffer_packet_at(lay, channel_of_public(lay, pk->at), 0);
        return 1;
    }
    return blockers_on_link(net, &(Waiter){ x, pk, v, m, head }, rear, deps, all);
}

/* For each message of several words, its rearmost flit in an output slot,
 * on a link or in a buffer (the one its ownerships wait for), by message;
 * NULL without messages, or if memory cannot be had. */
static uint32_t *rearmost_flits(const Net *net)
{
    const Layout *lay = &net->lay;
    if (!lay->messages)
        return NULL;
    uint32_t *rear = calloc((size_t)net->nmessages + 1, sizeof *rear);
    if (!rear)
        abort();                     /* (a few words a message) */
    for (uint32_t x = 1; rear && x < net->pool_cap; x++) {
        uint32_t m = lay->flits[x].message;
        uint8_t place = lay->pool[x].place;
        if (m != 0 && place != PLACE_FREE && place != PLACE_PORT &&
            (rear[m] == NET_NIL || lay->flits[x].index > lay->flits[rear[m]].index))
            rear[m] = x;
    }
    return rear;
}

bool net_is_stuck(Net *net)
{
    /* A packet can eventually move if it is free to move, or if one of the
     * packets it waits for can. Iterate to the fixpoint; what is left
     * waits in a cycle, which no reading of input ports can break. */
    net_settle(net);
    uint32_t *rear = rearmost_flits(net);
    uint8_t *can = calloc(net->pool_cap ? net->pool_cap : 1, 1);
    if (!can)
        return false;
    bool changed = true, stuck = false;
    while (changed) {
        changed = false;
        for (uint32_t x = 0; x < net->pool_cap; x++) {
            uint8_t place = net->lay.pool[x].place;
            if (can[x] || place == PLACE_FREE || place == PLACE_PORT)
                continue;
            uint32_t deps[2];
            bool all;
            int n = blockers(net, x, rear, deps, &all);
            bool ok = n < 0;
            if (!ok) {
                int free = 0;
                for (int i = 0; i < n; i++)
                    free += can[deps[i]] || net->lay.pool[deps[i]].place == PLACE_PORT;
                ok = all ? free == n : free > 0;
            }
            if (ok) {
                can[x] = 1;
                changed = true;
            }
        }
    }
    for (uint32_t x = 0; x < net->pool_cap; x++) {
        uint8_t place = net->lay.pool[x].place;
        if (!can[x] && place != PLACE_FREE && place != PLACE_PORT)
            stuck = true;
    }
    free(can);
    free(rear);
    return stuck;
}

bool net_blocker(Net *net, const NetPacket *pk, NetPacket *blocker)
{
    net_settle(net);
    uint32_t x = NET_NIL;
    if (pk->place == PLACE_SLOT && pk->at < net->lay.nprocs)
        x = net->lay.out_slot[pk->at];
    else if (pk->place == PLACE_LINK)
        x = link_packet_at(net, pk->at);
    else if (pk->place == PLACE_BUFFER && pk->at < net->lay.nbuffers * net->lay.cfg.vcs &&
             pk->position >= 1)
        x = buffer_packet_at(&net->lay, channel_of_public(&net->lay, pk->at), pk->position - 1);
    if (x == NET_NIL || x == NET_RESERVED || net->lay.pool[x].info.id != pk->id)
        return false;
    if (pk->place == PLACE_SLOT && flit_index(&net->lay, x) != pk->flit) {
        net_describe(net, x, blocker);   /* a flit still to come waits behind the one out */
        return true;
    }
    uint32_t deps[2], *rear = rearmost_flits(net);
    bool all;
    int n = blockers(net, x, rear, deps, &all);
    free(rear);
    if (n <= 0 || deps[0] == NET_NIL)
        return false;
    net_describe(net, deps[0], blocker);
    return true;
}
