/* The network's invariants, which the debug build and --check verify after
 * every timestep: each packet in exactly one place, FIFOs and counts
 * consistent, no buffer over B and no port over D, and the fast stage's
 * own bookkeeping (lists, sleepers, hop words) true to the state. One
 * checker per component; each returns 0, or -1 after writing what it found
 * broken, naming the component, into the audit's message. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/plural.h"
#include "net/events.h"
#include "net/layout.h"
#include "net/message.h"
#include "net/multicast.h"
#include "net/places.h"
#include "net/sleep.h"

/* What the checkers share. */
typedef struct Audit {
    Net *net;
    const Layout *lay;
    uint8_t *seen;            /* per pool index: found in a place */
    uint8_t *listed;          /* per sender: listed as a claimant */
    size_t senders;
    uint64_t in_flight;       /* packets found in slots, on links, in buffers */
    uint64_t in_ports;
    uint64_t asleep;          /* sleepers found */
    int64_t refused_awake;    /* refused packets in slots, less those listed */
    char *err;
    size_t size;
} Audit;

static int broken(Audit *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->err, a->size, fmt, ap);
    va_end(ap);
    return -1;
}

/* The same, for what a sender's channel c keeps: "net/p0.l1.s0.u0: ..."
 * for a buffer ("... vc1" for one of several channels), "net/p1.adapter3:
 * ..." for an adapter. (Named only when broken: naming costs more than
 * checking.) */
static int broken_at(Audit *a, uint32_t c, const char *fmt, ...)
{
    char name[64], what[256];
    uint32_t h = channel_sender(a->lay, c);
    if (!is_adapter(a->lay, h))
        net_buffer_name(a->net, channel_public(a->lay, c), name, sizeof name);
    else
        snprintf(name, sizeof name, "p%u.adapter%u", sender_plane(a->lay, h),
                 adapter_proc(a->lay, h));
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(a->err, a->size, "net/%s: %s", name, what);
    return -1;
}

/* Whether x names a packet in flight not found anywhere else yet. */
static bool unseen_packet(const Audit *a, uint32_t x)
{
    return x != NET_NIL && x < a->net->pool_cap && !a->seen[x] &&
           a->lay->pool[x].place != PLACE_FREE;
}

/* Whether packet x's travelling route is its route (a multicast going
 * down keeps none: multicast.c). */
static bool route_matches(const Layout *lay, uint32_t x)
{
    const Packet *pk = &lay->pool[x];
    return !lay->compact || (pk->set.hi != 0 && pk->dir == DIR_DOWN) ||
           lay->routes[x] == packet_route_word(lay, pk);
}

static uint64_t id_of(const Audit *a, uint32_t x)
{
    return a->lay->pool[x].info.id;
}

/* ---- places ------------------------------------------------------------------ */

static int check_output_slots(Audit *a)
{
    for (uint32_t p = 0; p < a->lay->nprocs; p++) {
        uint32_t x = a->lay->out_slot[p];
        if (x == NET_RESERVED)
            return broken(a, "net/p%u: output slot reserved between timesteps", p);
        if (x == NET_NIL)
            continue;
        const Packet *pk = &a->lay->pool[x];
        if (!unseen_packet(a, x) || pk->place != PLACE_SLOT || pk->at != p ||
            a->lay->pool[x].info.src != p)
            return broken(a, "net/p%u: output slot holds a packet that is not there", p);
        a->seen[x] = 1;
        a->in_flight++;
    }
    return 0;
}

/* The `count` packets of channel c's buffer, place by place. */
static int check_places(Audit *a, uint32_t c, uint32_t count)
{
    uint32_t b = channel_sender(a->lay, c);
    for (uint32_t i = 0; i < count; i++) {
        uint32_t x = buffer_packet_at(a->lay, c, i);
        if (!unseen_packet(a, x) || a->lay->pool[x].place != PLACE_BUFFER ||
            a->lay->pool[x].at != channel_public(a->lay, c))
            return broken_at(a, c, "place %u holds a packet that is not there (lost or "
                          "duplicated)", i + 1);
        if (!route_matches(a->lay, x))
            return broken_at(a, c, "place %u carries a route that is not its packet's",
                          i + 1);
        if (a->lay->pool[x].port % a->lay->cfg.vcs != channel_v(a->lay, c))
            return broken_at(a, c, "place %u holds a packet of another channel", i + 1);
        uint32_t word = buffer_place_word(a->lay, c, i);
        unsigned port = place_port(word), want = next_port(a->lay, b, x);
        bool splits = a->lay->pool[x].set.hi != 0 && (b & 3) < 2;     /* (by its set) */
        if (port != want && !splits)
            return broken_at(a, c, "place %u says its packet takes port %u next, but its "
                          "route says %u", i + 1, port, want);
        if (place_flit(word) != flit_kind(a->lay, x))
            return broken_at(a, c, "place %u says its packet is a flit of kind %u, but it is "
                          "of kind %u", i + 1, place_flit(word), flit_kind(a->lay, x));
        a->seen[x] = 1;
        a->in_flight++;
    }
    return 0;
}

/* The packets that sleep until buffer b has room, or until the message
 * that owns it lets it go: one per port a of its switch whose bit is set,
 * each refused there and going there (with one channel: nothing sleeps
 * with more); one that waits for an owner, a head, while another message
 * owns it. */
static int check_waiting(Audit *a, uint32_t b, const Sender *buf)
{
    uint32_t s = b >> 2;
    unsigned l = sw_layer(a->lay, s);
    if ((buf->waiting & WAIT_ROOM) & (buf->waiting >> 4))
        return broken_at(a, b, "a packet sleeps on both its room and its owner");
    for (unsigned bit = 0; bit < 8; bit++) {
        unsigned port = bit & 3;
        if (!((buf->waiting >> bit) & 1))
            continue;
        const Sender *keeper = &a->lay->senders[arrival_keeper(a->lay, s, l, port)];
        if ((keeper->slot & (SLOT_BLOCKED | SLOT_ASLEEP)) != (SLOT_BLOCKED | SLOT_ASLEEP))
            return broken_at(a, b, "the packet arriving on port %u sleeps on it, but is not "
                          "asleep", port);
        uint32_t up, down, x = keeper->slot_packet;
        packet_route(a->lay, x, &up, &down);
        bool going_here = 4 * s + route_out(up, down, l, port < 2) == b;
        if (a->lay->pool[x].set.hi != 0 && (b & 3) < 2) {
            McPart part[2];                  /* a multicast: one of the buffers it needs */
            mc_split(a->net, x, l, part);
            going_here = part[b & 1].n != 0;
        }
        if (!going_here)
            return broken_at(a, b, "a packet sleeps on it that is going elsewhere");
        if (bit < 4 && room_for_flit(a->lay, x, flit_kind(a->lay, x), buffer_count(a->lay, b),
                                     a->lay->cfg.buffer))
            return broken_at(a, b, "a packet sleeps on it until it has room, but it has room "
                             "for it");
        if (bit >= 4 && (flit_index(a->lay, x) != 0 || a->lay->owner[b] == 0 ||
                         a->lay->owner[b] == flit_message(a->lay, x)))
            return broken_at(a, b, "a packet sleeps until another message lets it go, but it "
                             "is not a head, or no other message owns it");
        if ((keeper->slot & SLOT_QUIET) &&
            (flit_index(a->lay, x) == 0 || buffer_count(a->lay, b) == 0 ||
             !same_message(a->lay, x, place_packet(buffer_head_word(a->lay, b)))))
            return broken_at(a, b, "a packet sleeps on it without collisions, but is not held "
                             "up by its own message");
        a->asleep++;
    }
    return 0;
}

/* With V > 1, channel c's queue: its thread leads from its head to its
 * tail in its count's steps; and its record, which keeps only a lane,
 * holds no buffer. */
static int check_queue(Audit *a, uint32_t c, uint32_t count)
{
    const Layout *lay = a->lay;
    const Sender *rec = &lay->senders[c];
    if (rec->count != 0 || rec->hop != 0 || rec->waiting != 0)
        return broken_at(a, c, "its record holds a buffer with V > 1");
    if (count < 3)
        return 0;                        /* (no thread) */
    const ChannelQueue *q = queue_of(lay, c);
    uint32_t w = q->head;
    for (uint32_t i = 1; i < count && place_packet(w) < a->net->pool_cap; i++)
        w = lay->next_place[place_packet(w)];
    if (w != q->tail)
        return broken_at(a, c, "its queue's thread does not reach its tail");
    return 0;
}

/* Channel c's buffer: its hop word (with V > 1, its port's), count, ring
 * or queue, places and sleepers. */
/* Messages (messages.md): in a buffer or port, packet x may follow packet
 * `before` (NET_NIL: x is first) only as the next flit of the same
 * message, or as a head after a tail: a message's flits are consecutive,
 * in index order, since no head enters a place another message owns. */
static bool follows(const Layout *lay, uint32_t before, uint32_t x)
{
    if (before == NET_NIL)
        return true;
    uint32_t m = flit_message(lay, before);
    if (m != 0 && m == flit_message(lay, x))
        return lay->flits[x].index == lay->flits[before].index + 1;
    return flit_is_tail(lay, before) && flit_index(lay, x) == 0;
}

/* ...and a place's owner is the message of its last packet while that is
 * not a tail, or one none of whose flits is there any more (the place is
 * empty then), or none. */
static bool owner_agrees(const Layout *lay, uint32_t last, uint32_t owner)
{
    if (last == NET_NIL)
        return true;
    return flit_is_tail(lay, last) ? owner == 0 : owner == flit_message(lay, last);
}

/* The order of a buffer's flits, and its owner. */
static int check_flits_in_buffer(Audit *a, uint32_t c, uint32_t count)
{
    const Layout *lay = a->lay;
    uint32_t before = NET_NIL;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t x = buffer_packet_at(lay, c, i);
        if (!follows(lay, before, x))
            return broken_at(a, c, "flit %u of message #%llu at place %u follows another "
                             "message's flit, or not its own flit before it",
                             flit_index(lay, x), (unsigned long long)id_of(a, x), i + 1);
        before = x;
    }
    if (!owner_agrees(lay, before, lay->owner[c]))
        return broken_at(a, c, "owned by message %u, which its flits do not say",
                         lay->owner[c]);
    return 0;
}

static int check_buffer(Audit *a, uint32_t c)
{
    const Layout *lay = a->lay;
    const Sender *buf = &lay->senders[c];
    uint32_t b = channel_sender(lay, c), count = buffer_count(lay, c);
    uint32_t hop = lay->cfg.vcs == 1 ? buf->hop : channel_v(lay, c) == 0 ? turn_of(lay, b)->hop : 0;
    if (hop != 0 && (!lay->compact || hop != hop_word(lay, b)))
        return broken_at(a, c, "hop word 0x%x, not that of its link", hop);
    if (lay->cfg.vcs > 1 && check_queue(a, c, count) != 0)
        return -1;
    if (count == 0 && buf->waiting == 0 && a->net->entered[c] == 0)
        return 0;
    if (count > lay->cfg.buffer)
        return broken_at(a, c, "overflow, %u packets in %u %s", count, lay->cfg.buffer,
                         plural(lay->cfg.buffer, "place", "places"));
    if (lay->rings != NULL && buf->count && buf->ring.head >= ring_capacity(lay, buf))
        return broken_at(a, c, "head at place %u of a ring of %u", buf->ring.head,
                      ring_capacity(lay, buf));
    if (a->net->entered[c])
        return broken_at(a, c, "entry count not reset");
    if (check_places(a, c, count) != 0)
        return -1;
    if (lay->messages && check_flits_in_buffer(a, c, count) != 0)
        return -1;
    return check_waiting(a, b, buf);
}

/* With V > 1, port b's turn: its mask of busy buffers true to their
 * counts, its pointer a channel, its stamp not from a stage to come. */
static int check_turn(Audit *a, uint32_t b)
{
    const Layout *lay = a->lay;
    const PortTurn *turn = turn_of(lay, b);
    unsigned nonempty = 0;
    for (unsigned v = 0; v < lay->cfg.vcs; v++)
        nonempty |= (unsigned)(buffer_count(lay, channel_of(lay, b, v)) != 0) << v;
    if (turn->nonempty != nonempty || turn->pointer >= lay->cfg.vcs || turn->stamp > lay->now)
        return broken_at(a, channel_of(lay, b, 0), "its port's mask of busy buffers, pointer "
                         "or stamp is wrong");
    return 0;
}

static int check_buffers(Audit *a)
{
    for (uint32_t b = 0; b < a->lay->nbuffers; b++) {
        for (unsigned v = 0; v < a->lay->cfg.vcs; v++)
            if (check_buffer(a, channel_of(a->lay, b, v)) != 0)
                return -1;
        if (a->lay->cfg.vcs > 1 && check_turn(a, b) != 0)
            return -1;
    }
    return 0;
}

/* A packet asleep on an input port, in the slot that sender h keeps. */
static int check_port_sleeper(Audit *a, uint32_t h, uint32_t x)
{
    const Layout *lay = a->lay;
    uint32_t port = lay->pool[x].info.dst * lay->cfg.ports + lay->pool[x].port;
    bool listed = false;
    for (uint32_t y = lay->ports[port].waiting; y != NET_NIL; y = lay->port_waits[y].next)
        listed |= y == x;
    if (!listed || lay->port_waits[x].keeper != h)
        return broken_at(a, h, "its packet sleeps on an input port that does not know it");
    if (lay->ports[port].count < lay->cfg.port_depth)
        return broken_at(a, h, "its packet sleeps on an input port with room");
    a->asleep++;
    return 0;
}

/* The slot (lane) that a sender's channel c keeps (encode.h, the slot
 * word). */
static int check_slot(Audit *a, uint32_t c)
{
    const Sender *keeper = &a->lay->senders[c];
    uint32_t h = channel_sender(a->lay, c);
    uint8_t fl = keeper->slot;
    if (fl == 0)
        return 0;
    if ((fl & (SLOT_ASLEEP | SLOT_UP | CLAIM_ASLEEP | CLAIM_UP_ASLEEP)) && !(fl & SLOT_BLOCKED))
        return broken_at(a, c, "slot flags 0x%x without a refused packet", fl);
    if ((fl & (CLAIM_ASLEEP | CLAIM_UP_ASLEEP)) && !(fl & SLOT_ASLEEP))
        return broken_at(a, c, "a claim sleeps on a slot whose packet is awake");
    if (((fl & SLOT_QUIET) && !(fl & SLOT_ASLEEP)) || ((fl & CLAIM_QUIET) && !(fl & CLAIM_ASLEEP)) ||
        ((fl & CLAIM_UP_QUIET) && !(fl & CLAIM_UP_ASLEEP)))
        return broken_at(a, c, "slot flags 0x%x: a quiet sleeper that does not sleep", fl);
    if ((fl & CLAIM_UP_ASLEEP) && a->lay->cfg.full_duplex)
        return broken_at(a, c, "an upward claim sleeps on it with --duplex full");
    if ((fl & SLOT_ASLEEP) && a->lay->cfg.vcs > 1)
        return broken_at(a, c, "a packet sleeps in its lane with V > 1");
    if (!(fl & SLOT_ASLEEP)) {
        a->refused_awake += (fl & SLOT_BLOCKED) != 0;     /* (listed: check_link_lists) */
        return 0;
    }
    uint32_t x = keeper->slot_packet;
    if (!unseen_packet(a, x) || a->lay->pool[x].place != PLACE_LINK)
        return broken_at(a, c, "its slot holds a sleeping packet that is not there");
    if (!route_matches(a->lay, x))
        return broken_at(a, c, "its slot carries a route that is not its packet's");
    if (a->lay->pool[x].asleep == ASLEEP_PORT && check_port_sleeper(a, h, x) != 0)
        return -1;
    a->seen[x] = 1;
    a->in_flight++;
    a->asleep += ((fl & CLAIM_ASLEEP) != 0) + ((fl & CLAIM_UP_ASLEEP) != 0);
    return 0;
}

static int check_slots(Audit *a)
{
    const Layout *lay = a->lay;
    for (uint32_t h = 0; h < a->senders; h++) {
        unsigned blocked = 0;
        for (unsigned v = 0; v < lay->cfg.vcs; v++) {
            uint32_t c = channel_of(lay, h, v);
            if (check_slot(a, c) != 0)
                return -1;
            blocked |= (unsigned)(lay->senders[c].slot & SLOT_BLOCKED) << v;
        }
        if (lay->cfg.vcs > 1 && turn_of(lay, h)->blocked != blocked)
            return broken_at(a, channel_of(lay, h, 0), "its mask of blocked lanes is wrong");
    }
    return 0;
}

/* ---- the fast stage's lists ------------------------------------------------ */

static int check_claimant_lists(Audit *a, unsigned share)
{
    const NetShare *sh = &a->net->share[share];
    for (unsigned layer = 0; layer < LIST_LAYERS; layer++)
        for (size_t i = 0; i < sh->claimants[layer].n; i++) {
            uint32_t h = sh->claimants[layer].items[i];
            if (h >= a->senders || share_index(a->net, h) != share)
                return broken(a, "net: share %u lists a claimant that is not its own (entry %zu)",
                              share, i);
            if (sender_list_layer(a->lay, h) != layer)
                return broken(a, "net: a claimant is listed in layer %u, not its own", layer);
            if (a->listed[h]++)
                return broken(a, "net: a claimant is listed twice (entry %zu of share %u)", i,
                              share);
        }
    return 0;
}

/* Entry e of the list of packets on links of class c and a layer. */
static int check_on_link(Audit *a, unsigned share, unsigned c, unsigned layer, size_t i,
                         const OnLink *e)
{
    const Layout *lay = a->lay;
    uint32_t x = e->packet, ki = keeper_of(e->keeper);
    if (!unseen_packet(a, x) || lay->pool[x].place != PLACE_LINK || ki >= a->senders ||
        share_index(a->net, ki) != share)
        return broken(a, "net: the list of packets on links holds one that is not "
                      "(list %u, entry %zu)", c, i);
    unsigned long long id = id_of(a, x);
    unsigned vs = lay->vshift, v = target_channel(e->target, vs);
    uint32_t target = target_of(e->target, vs);
    if (link_list_layer(lay, c, target) != layer)
        return broken(a, "net: packet #%llu is listed in layer %u, not the one it arrives at",
                      id, layer);
    if (lay->pool[x].port % lay->cfg.vcs != v)
        return broken(a, "net: packet #%llu is listed in lane %u, not its channel's", id, v);
    if (!route_matches(lay, x))
        return broken(a, "net: packet #%llu is listed with a route that is not its own", id);
    if (keeper_flit(e->keeper) != flit_kind(lay, x))
        return broken(a, "net: packet #%llu is listed as a flit of kind %u, not %u", id,
                      keeper_flit(e->keeper), flit_kind(lay, x));
    /* It goes where its slot's keeper sends it (with --duplex half, an
     * upward packet's slot is kept by the port it enters, and its sender
     * is the one below). */
    uint32_t sender = ki, sw = target >> 2;
    if (c < 2 && !lay->cfg.full_duplex) {
        if (ki != 4 * sw + c)
            return broken(a, "net: packet #%llu is listed going to 0x%x from sender %u", id,
                          target, ki);
        sender = up_sender(lay, sw, sw_layer(lay, sw), c);
    }
    unsigned cl;
    uint32_t want = hop_target(lay, sender, x, &cl);
    if (cl != c)
        return broken(a, "net: packet #%llu is listed arriving in class %u, not %u", id, c, cl);
    /* (A multicast going down, woken from the buffer it slept on, is listed
     * going to that one: what counts for it is the switch.) */
    bool splits = lay->pool[x].set.hi != 0 && (want & 3) < 2;
    if (splits ? want >> 2 != target >> 2 : want != target)
        return broken(a, "net: packet #%llu is listed going to 0x%x, not 0x%x", id, target,
                      want);
    const Sender *keeper = &lay->senders[channel_of(lay, ki, v)];
    if (keeper_refused(e->keeper)) {
        if ((keeper->slot & (SLOT_BLOCKED | SLOT_ASLEEP)) != SLOT_BLOCKED ||
            keeper->slot_packet != x)
            return broken(a, "net: packet #%llu was refused, but its slot does not hold it", id);
        a->refused_awake--;
    } else if (keeper->slot & SLOT_BLOCKED) {
        return broken(a, "net: packet #%llu is on a link whose slot another packet blocks", id);
    }
    a->seen[x] = 1;
    a->in_flight++;
    return 0;
}

static int check_link_lists(Audit *a, unsigned share)
{
    const NetShare *sh = &a->net->share[share];
    for (unsigned c = 0; c < ARRIVAL_CLASSES; c++)
        for (unsigned layer = 0; layer < LIST_LAYERS; layer++)
            for (size_t i = 0; i < sh->on_links[c][layer].n; i++)
                if (check_on_link(a, share, c, layer, i, &sh->on_links[c][layer].items[i]) != 0)
                    return -1;
    return 0;
}

static int check_lists(Audit *a)
{
    for (unsigned share = 0; share < a->net->nshares; share++)
        if (check_claimant_lists(a, share) != 0 || check_link_lists(a, share) != 0)
            return -1;
    if (a->refused_awake != 0)
        return broken(a, "net: refused packets in slots but not listed: %lld",
                      (long long)a->refused_awake);
    return 0;
}

/* Every sender with a packet to send claims: it is listed once, or its
 * claim sleeps. */
static int check_claimants(Audit *a)
{
    const Layout *lay = a->lay;
    char name[64];
    for (uint32_t h = 0; h < a->senders; h++) {
        bool has = false;
        if (!is_adapter(lay, h)) {
            for (unsigned v = 0; v < lay->cfg.vcs; v++)
                has |= buffer_count(lay, channel_of(lay, h, v)) != 0;
        } else {
            uint32_t x = lay->out_slot[adapter_proc(lay, h)];
            has = x != NET_NIL && lay->pool[x].plane == sender_plane(lay, h);
        }
        bool sleeps = has && claim_sleeps(a->net, h);
        if (has == (a->listed[h] || sleeps) && !(a->listed[h] && sleeps))
            continue;
        if (is_adapter(lay, h))
            snprintf(name, sizeof name, "adapter of p%u", adapter_proc(lay, h));
        else
            net_buffer_name(a->net, h * lay->cfg.vcs, name, sizeof name);
        return broken(a, "net/%s: %s, but %s", name,
                      has ? "has a packet to send" : "has nothing to send",
                      a->listed[h] ? "is listed as a claimant"
                                   : sleeps ? "its claim sleeps" : "is not listed");
    }
    return 0;
}

/* What stages c and b use within a timestep is cleared by its end. */
static int check_cleared(Audit *a)
{
    char name[64];
    for (uint32_t p = 0; p < a->lay->nprocs; p++)
        if (a->net->arrivals_down[p])
            return broken(a, "net/p%u: arrival bits 0x%x left set after stage c", p,
                          a->net->arrivals_down[p]);
    if (a->lay->cfg.full_duplex)
        return 0;
    for (uint32_t link = 0; link < 2 * a->lay->nswitches; link++)
        if (a->lay->temp_slots[link].temp > a->lay->now) {
            net_link_name(a->net, link, name, sizeof name);
            return broken(a, "net/%s: temp slot claimed in a stage to come", name);
        }
    return 0;
}

/* ---- input ports and totals ------------------------------------------------------ */

/* Input port i (p * P + port): its FIFO's links, count and bound. */
static int check_port(Audit *a, uint32_t i)
{
    const Layout *lay = a->lay;
    const InputPort *f = &lay->ports[i];
    uint32_t p = i / lay->cfg.ports, port = i % lay->cfg.ports, n = 0, last = NET_NIL;
    for (uint32_t y = f->head; y != NET_NIL; y = lay->pool[y].next) {
        if (y >= a->net->pool_cap || a->seen[y] || ++n > f->count)
            return broken(a, "net/p%u.port%u: broken list (packet %u)", p, port, y);
        if (lay->messages && !follows(lay, last, y))
            return broken(a, "net/p%u.port%u: flit %u of message #%llu follows another "
                          "message's flit, or not its own flit before it", p, port,
                          flit_index(lay, y), (unsigned long long)id_of(a, y));
        a->seen[y] = 1;
        if (lay->pool[y].place != PLACE_PORT || lay->pool[y].at != i)
            return broken(a, "net/p%u.port%u: holds packet #%llu that places itself elsewhere",
                          p, port, (unsigned long long)id_of(a, y));
        last = y;
    }
    if (n != f->count || last != f->tail)
        return broken(a, "net/p%u.port%u: count %u but %u %s linked", p, port, f->count, n,
                      plural(n, "packet", "packets"));
    if (lay->messages && !owner_agrees(lay, last, lay->port_owner[i]))
        return broken(a, "net/p%u.port%u: owned by message %u, which its flits do not say", p,
                      port, lay->port_owner[i]);
    if (n > lay->cfg.port_depth)
        return broken(a, "net/p%u.port%u: overflow, %u packets in %u %s", p, port, n,
                      lay->cfg.port_depth, plural(lay->cfg.port_depth, "place", "places"));
    a->in_ports += n;
    return 0;
}

static int check_ports(Audit *a)
{
    uint32_t ports = a->lay->nprocs * a->lay->cfg.ports;
    for (uint32_t i = 0; i < ports; i++)
        if (a->lay->ports[i].count != 0 && check_port(a, i) != 0)
            return -1;
    return 0;
}

/* A flit of a message in flight, where the audit found it. */
typedef struct FlitSeen {
    uint32_t message, index, links, packet;
} FlitSeen;

static int flit_order(const void *a, const void *b)
{
    const FlitSeen *x = a, *y = b;
    if (x->message != y->message)
        return x->message < y->message ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* The flits of every message in path order along the network: none has
 * crossed more links than the flit before it (messages.md: the body
 * follows its head, in order). Every place the audit saw is settled, so
 * each flit's record says how many links it has crossed. */
static int check_path_order(Audit *a)
{
    const Layout *lay = a->lay;
    if (!lay->messages)
        return 0;
    size_t n = 0;
    for (uint32_t x = 0; x < a->net->pool_cap; x++)
        n += a->seen[x] && lay->flits[x].message != 0;
    FlitSeen *flits = malloc((n ? n : 1) * sizeof *flits);
    if (!flits)
        return broken(a, "out of memory");
    n = 0;
    for (uint32_t x = 0; x < a->net->pool_cap; x++)
        if (a->seen[x] && lay->flits[x].message != 0)
            flits[n++] = (FlitSeen){ lay->flits[x].message, lay->flits[x].index,
                                     lay->pool[x].links, x };
    qsort(flits, n, sizeof *flits, flit_order);
    int rc = 0;
    for (size_t i = 1; i < n && rc == 0; i++)
        if (flits[i].message == flits[i - 1].message && flits[i].links > flits[i - 1].links)
            rc = broken(a, "net: flit %u of message #%llu has crossed %u links, ahead of flit "
                        "%u, which has crossed %u", flits[i].index,
                        (unsigned long long)id_of(a, flits[i].packet), flits[i].links,
                        flits[i - 1].index, flits[i - 1].links);
    free(flits);
    return rc;
}

static int check_totals(Audit *a)
{
    const Net *net = a->net;
    const NetStats *st = &net->counts.stats;
    typedef unsigned long long ull;
    if (a->in_flight != net->in_flight)
        return broken(a, "net: packets in flight: %llu found, %llu counted", (ull)a->in_flight,
                      (ull)net->in_flight);
    if (a->in_flight + a->in_ports != net->outstanding)
        return broken(a, "net: packet pool has %u outstanding, %llu found (a packet was lost)",
                      net->outstanding, (ull)(a->in_flight + a->in_ports));
    if (st->flits_sent + st->copies !=
        net->flits_read + a->in_flight + a->in_ports + net->flits_waiting)
        return broken(a, "net: words sent %llu + copies made %llu, but read %llu + in flight "
                      "%llu + in ports %llu + still in output slots %llu",
                      (ull)st->flits_sent, (ull)st->copies, (ull)net->flits_read,
                      (ull)a->in_flight, (ull)a->in_ports, (ull)net->flits_waiting);
    if (a->asleep != net->counts.asleep)
        return broken(a, "net: packets asleep: %llu found, %llu counted", (ull)a->asleep,
                      (ull)net->counts.asleep);
    return 0;
}

int net_check(Net *net, char *err, size_t size)
{
    Audit a = { net, &net->lay, NULL, NULL, sender_count(net), 0, 0, 0, 0, err, size };
    a.seen = calloc(net->pool_cap ? net->pool_cap : 1, 1);
    a.listed = calloc(a.senders, 1);
    int rc = -1;
    if (!a.seen || !a.listed) {
        snprintf(err, size, "out of memory");
    } else {
        net_settle(net);
        rc = check_output_slots(&a) || check_buffers(&a) || check_slots(&a) ||
             check_lists(&a) || check_claimants(&a) || check_cleared(&a) ||
             check_ports(&a) || check_path_order(&a) || check_totals(&a) ? -1 : 0;
    }
    free(a.seen);
    free(a.listed);
    return rc;
}
