/* Virtual channels (spec/channels.md, --vcs V with V > 1): every switch
 * output port has V buffers, one per channel, and every link V lanes, one
 * `main` slot per channel, with one `temp` slot that the lanes share (and,
 * with --duplex half, both directions). A packet travels on channel
 * `port mod V` for its whole path; a packet blocked on its channel no
 * longer holds up the packets of the others.
 *
 * This is the network stage for V > 1; step.c is the one for V = 1, which
 * keeps its tuned representation, and reference.c does both as the spec
 * writes them (--check compares). Here nothing sleeps: the stage visits
 * what is busy, by bitmaps of the busy output ports, of the links with a
 * packet in a lane (numbered in the spec's link loop order), of the
 * processors with a full output slot and of those with a packet coming
 * down to them. Walking a bitmap's set bits upwards is the spec's loop
 * order, so no list needs sorting. A lane keeps its packet's direction
 * beside it, and routes are read from the route words (net_internal.h),
 * so that a packet that moves between links and buffers has its record in
 * the pool written only when somebody asks where it is (vc_settle), or
 * at once when an observer watches every event.
 *
 * Numbering (net.h): channel buffer `b * V + v` is channel v's buffer of
 * output port b; lane `c * V + v` is lane v of channel c (a link, or one
 * direction of it). Those are the indices that a packet's place and the
 * public functions use when V > 1.
 *
 * The order of the sub-stages. Stages c and d depend only on the state at
 * the start of stage 4 (a claim frees no room before stage e), so they run
 * first; then every lane whose packet is still there is known not to be
 * free, and stages a and b make their claims on free lanes only; e makes
 * them final (channels.md, "The timestep"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/net_internal.h"

/* ---- bitmaps ------------------------------------------------------------------ */

static inline void bit_set(uint64_t *map, uint32_t i) { map[i >> 6] |= 1ull << (i & 63); }
static inline void bit_clear(uint64_t *map, uint32_t i) { map[i >> 6] &= ~(1ull << (i & 63)); }

/* Runs the statement that follows for every set bit i of map (n bits), in
 * ascending order. The walk reads each word of the map once, when it comes
 * to it: the body may clear bits it has passed, not set bits it has not. */
#define FOR_EACH_BIT(map, n, i)                                                       \
    for (uint32_t w_ = 0, nw_ = (uint32_t)(((n) + 63) >> 6); w_ < nw_; w_++)          \
        for (uint64_t m_ = (map)[w_]; m_ != 0; m_ &= m_ - 1)                         \
            for (uint32_t i = w_ << 6 | (uint32_t)__builtin_ctzll(m_), once_ = 1; once_; \
                 once_ = 0)

/* ---- the state ------------------------------------------------------------------ */

enum { FRESH_POPPED = 0x80 };

/* A claim made in stage a or b, made final in stage e. */
typedef struct VcClaim {
    uint32_t sender;        /* a buffer (port) or an adapter */
    uint32_t c, v;          /* the lane it goes into: link channel c's lane v
                               (kept apart: no division by V in the loops) */
} VcClaim;

/* A packet in a lane, listed for stage d: the lane (link channel c's
 * lane v, kept apart: no division by V in the loops), its word (main)
 * and its link. */
typedef struct VcLaneEntry {
    uint32_t c, v, word, link;
} VcLaneEntry;

typedef struct VcEntered {
    uint32_t b, v, x;       /* channel buffer b * V + v, packet */
    uint32_t behind;        /* packets ahead of it as it entered */
} VcEntered;

struct VcNet {
    unsigned V, B;
    uint32_t nchannels;     /* link channels (links, or links x 2 directions) */
    uint32_t *ring;         /* channel buffer cb's places: ring[cb * B ...] */
    uint16_t *head, *count; /* per channel buffer */
    uint8_t *fresh;         /* per channel buffer: packets it took in this
                               stage d, which stage b, before it in the
                               spec, does not see; and FRESH_POPPED once
                               its head left in stage e */
    uint32_t *main;         /* per lane: its packet << 1 | its direction, or 0 */
    uint32_t *port_channel; /* per output port: the channel it sends into */
    uint32_t *temp;         /* per channel: 1 + the sender that claimed it, or 0 */
    uint8_t *pointer;       /* per output port: the round-robin pointer */
    uint32_t *position;     /* per channel: its place in the spec's link loop */
    uint32_t *channel_at;   /* ...and back */
    uint64_t *busy_ports;   /* by port b: some channel buffer holds a packet */
    uint64_t *busy_links;   /* by position: some lane of the channel holds one */
    uint64_t *full_slots;   /* by processor: its output slot holds a packet */
    uint64_t *arrivals;     /* by processor: a packet comes down a lane to it */
    VcClaim *claims;
    size_t nclaims, claims_cap;
    VcEntered *entered;
    size_t nentered, entered_cap;
    VcLaneEntry *lanes;     /* stage d's list */
    size_t lanes_cap;
    uint32_t busy_lanes;    /* lanes holding a packet */
    bool eager;             /* an observer watches: records are kept current */
};

static uint64_t *bitmap_new(size_t bits) { return calloc((bits + 63) / 64 + 1, sizeof(uint64_t)); }

/* The spec's link loop (reference.c, for_each_link): processor links by
 * processor then plane, then the links above each switch in switch
 * order, u0 then u1; a link's up direction before its down direction. */
static void number_links(VcNet *vc, const Layout *lay)
{
    uint32_t at = 0;
    unsigned dirs = lay->cfg.full_duplex ? 2 : 1;
    for (uint32_t p = 0; p < lay->nprocs; p++)
        for (unsigned plane = 0; plane < lay->cfg.planes; plane++)
            for (unsigned d = 0; d < dirs; d++)
                vc->channel_at[at++] = link_channel(lay, proc_link(lay, p, plane), d);
    for (uint32_t s = 0; s < lay->nswitches; s++) {
        unsigned l = sw_layer(lay, s);
        for (unsigned b = 0; b < 2 && l < lay->cfg.k; b++)
            for (unsigned d = 0; d < dirs; d++)
                vc->channel_at[at++] = link_channel(lay, up_link(lay, s, l, b), d);
    }
    for (uint32_t i = 0; i < at; i++)
        vc->position[vc->channel_at[i]] = i;
}

void vc_free(VcNet *vc)
{
    if (!vc)
        return;
    free(vc->ring);
    free(vc->head);
    free(vc->count);
    free(vc->fresh);
    free(vc->main);
    free(vc->port_channel);
    free(vc->temp);
    free(vc->pointer);
    free(vc->position);
    free(vc->channel_at);
    free(vc->busy_ports);
    free(vc->busy_links);
    free(vc->full_slots);
    free(vc->arrivals);
    free(vc->claims);
    free(vc->entered);
    free(vc->lanes);
    free(vc);
}

VcNet *vc_new(const Layout *lay)
{
    VcNet *vc = calloc(1, sizeof *vc);
    if (!vc)
        return NULL;
    vc->V = lay->cfg.vcs;
    vc->B = lay->cfg.buffer;
    vc->nchannels = 2 * lay->nswitches * (lay->cfg.full_duplex ? 2 : 1);
    size_t cbs = (size_t)lay->nbuffers * vc->V, lanes = (size_t)vc->nchannels * vc->V;
    vc->ring = calloc(cbs * vc->B, sizeof *vc->ring);
    vc->head = calloc(cbs, sizeof *vc->head);
    vc->count = calloc(cbs, sizeof *vc->count);
    vc->fresh = calloc(cbs, sizeof *vc->fresh);
    vc->main = calloc(lanes, sizeof *vc->main);
    vc->temp = calloc(vc->nchannels, sizeof *vc->temp);
    vc->port_channel = calloc(lay->nbuffers, sizeof *vc->port_channel);
    vc->pointer = calloc(lay->nbuffers, 1);
    vc->position = calloc(vc->nchannels, sizeof *vc->position);
    vc->channel_at = calloc(vc->nchannels, sizeof *vc->channel_at);
    vc->busy_ports = bitmap_new(lay->nbuffers);
    vc->busy_links = bitmap_new(vc->nchannels);
    vc->full_slots = bitmap_new(lay->nprocs);
    vc->arrivals = bitmap_new(lay->nprocs);
    if (!vc->ring || !vc->head || !vc->count || !vc->fresh || !vc->main || !vc->port_channel || !vc->temp || !vc->pointer ||
        !vc->position || !vc->channel_at || !vc->busy_ports || !vc->busy_links ||
        !vc->full_slots || !vc->arrivals) {
        vc_free(vc);
        return NULL;
    }
    number_links(vc, lay);
    for (uint32_t b = 0; b < lay->nbuffers; b++) {
        if ((b & 3) >= 2 && sw_layer(lay, b >> 2) == lay->cfg.k)
            continue;                           /* (the top layer has no up ports) */
        unsigned layer, dir;
        uint32_t heading = claim_heading(lay, b, &layer, &dir);
        vc->port_channel[b] = link_channel(lay, claim_link(lay, b, heading, dir), dir);
    }
    return vc;
}

/* ---- what others ask -------------------------------------------------------------- */

uint32_t vc_buffer_count(const VcNet *vc, uint32_t cb) { return vc->count[cb]; }

uint32_t vc_buffer_packet_at(const VcNet *vc, uint32_t cb, uint32_t i)
{
    if (i >= vc->count[cb])
        return NET_NIL;
    uint32_t at = vc->head[cb] + i;
    return vc->ring[(size_t)cb * vc->B + (at >= vc->B ? at - vc->B : at)];
}

uint32_t vc_lane_packet(const VcNet *vc, uint32_t lane) { return vc->main[lane] >> 1; }

/* ---- packets' places ------------------------------------------------------------ */

/* A packet's record says where it is as the one-channel stage's does
 * (net_internal.h), but for the lane or channel buffer. */
static void place_on_lane(Net *net, uint32_t x, uint32_t link, unsigned dir, uint32_t lane)
{
    settle_on_link(net, x, link, dir, AWAKE);
    net->lay.pool[x].at = lane;
}

static void place_in_buffer(Net *net, uint32_t x, uint32_t b, uint32_t cb)
{
    settle_in_buffer(net, x, b, NET_NIL, AWAKE);
    net->lay.pool[x].at = cb;
}

void vc_settle(Net *net)
{
    VcNet *vc = net->lay.vc;
    Layout *lay = &net->lay;
    FOR_EACH_BIT(vc->busy_links, vc->nchannels, pos) {
        uint32_t c = vc->channel_at[pos];
        for (unsigned v = 0; v < vc->V; v++) {
            uint32_t w = vc->main[c * vc->V + v];
            if (w != 0)
                place_on_lane(net, w >> 1, channel_link(lay, c), w & 1, c * vc->V + v);
        }
    }
    FOR_EACH_BIT(vc->busy_ports, lay->nbuffers, b)
        for (unsigned v = 0; v < vc->V; v++) {
            uint32_t cb = b * vc->V + v;
            for (uint32_t i = 0; i < vc->count[cb]; i++)
                place_in_buffer(net, vc_buffer_packet_at(vc, cb, i), b, cb);
        }
}

/* Whether some lane of channel c holds a packet; keeps its bit. */
static void update_link_bit(VcNet *vc, uint32_t c)
{
    for (unsigned v = 0; v < vc->V; v++)
        if (vc->main[(size_t)c * vc->V + v] != NET_NIL) {
            bit_set(vc->busy_links, vc->position[c]);
            return;
        }
    bit_clear(vc->busy_links, vc->position[c]);
}

/* ---- injection ------------------------------------------------------------------- */

void vc_injected(Net *net, uint32_t p)
{
    bit_set(net->lay.vc->full_slots, p);
}

/* ---- counting ---------------------------------------------------------------------- */

static void count_link_collision(Net *net, unsigned dir, unsigned layer, unsigned v)
{
    NetStats *st = &net->counts.stats;
    st->link_collisions[dir][layer]++;
    st->link_total++;
    st->vc_link[v]++;
}

static void count_buffer_collision(Net *net, uint32_t b, unsigned v)
{
    NetStats *st = &net->counts.stats;
    unsigned l = sw_layer(&net->lay, b >> 2), dir = (b & 3) >= 2 ? DIR_UP : DIR_DOWN;
    st->buffer_collisions[dir][l]++;
    st->buffer_total++;
    st->vc_buffer[v]++;
}

/* ---- c. delivery ------------------------------------------------------------------- */

/* Stage c for processor p: the packets in the down lanes of its links,
 * oldest first, enter their input ports if those have room. */
static void deliver_to(Net *net, uint32_t p)
{
    VcNet *vc = net->lay.vc;
    Layout *lay = &net->lay;
    uint32_t lanes[2 * 8], n = 0, channel[2];        /* (channel: by plane) */
    for (unsigned plane = 0; plane < lay->cfg.planes; plane++) {
        uint32_t c = channel[plane] = link_channel(lay, proc_link(lay, p, plane), DIR_DOWN);
        for (unsigned v = 0; v < vc->V; v++) {
            uint32_t lane = c * vc->V + v, w = vc->main[lane], x = w >> 1;
            if (w != 0 && (w & 1) == DIR_DOWN) {
                uint32_t i = n++;           /* insertion by id: oldest first */
                while (i > 0 && lay->pool[vc->main[lanes[i - 1]] >> 1].info.id > lay->pool[x].info.id) {
                    lanes[i] = lanes[i - 1];
                    i--;
                }
                lanes[i] = lane;
            }
        }
    }
    bool waiting = false;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t x = vc->main[lanes[i]] >> 1;
        Packet *pk = &lay->pool[x];
        uint32_t slot = p * lay->cfg.ports + pk->port;
        InputPort *port = &lay->ports[slot];
        if (port->count >= lay->cfg.port_depth) {
            net->counts.stats.port_waits++;
            waiting = true;
            net_emit(net, EV_PORT_WAIT, x, p, PLACE_PORT, 1, 0);
            continue;
        }
        vc->main[lanes[i]] = 0;
        vc->busy_lanes--;
        update_link_bit(vc, channel[pk->plane]);
        net_deliver(net, x, p);
    }
    if (!waiting)
        bit_clear(vc->arrivals, p);
}

/* ---- d. forwarding ------------------------------------------------------------------ */

/* Packet x enters channel buffer cb (of port b), which has room. */
static void enter(Net *net, uint32_t x, uint32_t b, uint32_t cb, unsigned v, bool report)
{
    VcNet *vc = net->lay.vc;
    uint32_t ahead = vc->count[cb], at = vc->head[cb] + ahead;
    vc->ring[(size_t)cb * vc->B + (at >= vc->B ? at - vc->B : at)] = x;
    if (ahead + 1 > net->counts.stats.max_buffer)
        net->counts.stats.max_buffer = ahead + 1;
    vc->count[cb] = (uint16_t)(ahead + 1);
    bit_set(vc->busy_ports, b);
    vc->fresh[cb]++;
    vc->entered[vc->nentered++] = (VcEntered){ b, v, x, ahead };
    if (vc->eager)
        place_in_buffer(net, x, b, cb);
    net->moved = true;
    if (report)
        net_emit(net, EV_ENTERED, x, cb, PLACE_BUFFER, sw_layer(&net->lay, b >> 2), 0);
}

/* Stage d for a multicast x on lane `lane` (channel v) that goes down from
 * switch s of layer l: into every down buffer of its channel below which
 * its set has members, all at once, or it stays whole (one buffer
 * collision, at the first full one). The copy takes the next id: lanes are
 * visited in the spec's loop order. */
static void forward_set(Net *net, uint32_t x, uint32_t lane, uint32_t s, unsigned l, unsigned v)
{
    VcNet *vc = net->lay.vc;
    McPart part[2];
    mc_split(net, x, l, part);
    for (unsigned q = 0; q < 2; q++)
        if (part[q].n != 0 && vc->count[(4 * s + q) * vc->V + v] >= vc->B) {
            count_buffer_collision(net, 4 * s + q, v);
            net_emit(net, EV_BUFFER_FULL, x, (4 * s + q) * vc->V + v, PLACE_BUFFER, l, 0);
            return;
        }
    vc->main[lane] = 0;
    vc->busy_lanes--;
    if (part[0].n != 0 && part[1].n != 0) {
        uint32_t y = mc_divide(net, x, part);
        net->lay.pool[y].info.id = net->next_id++;
        net->counts.stats.copies++;
        net->in_flight++;
        enter(net, x, 4 * s, 4 * s * vc->V + v, v, true);
        enter(net, y, 4 * s + 1, (4 * s + 1) * vc->V + v, v, false);
        if (net->event) {          /* (which reports the copy entering) */
            Split split = { 0, x, y, s, (4 * s + 1) * vc->V + v };
            net_emit_split(net, &split);
        }
        return;
    }
    unsigned q = part[0].n != 0 ? 0 : 1;
    enter(net, x, 4 * s + q, (4 * s + q) * vc->V + v, v, true);
}

/* Stage d for the packet x in lane `lane` of link `link`: into channel v's
 * buffer of the output port its route names in the switch ahead, if that
 * has room; else it stays (a buffer collision). */
static void forward(Net *net, uint32_t x, unsigned dir, uint32_t link, uint32_t lane, unsigned v)
{
    VcNet *vc = net->lay.vc;
    Layout *lay = &net->lay;
    uint32_t s = link >> 1, up, down;
    unsigned l = sw_layer(lay, s);
    if (dir == DIR_DOWN) {
        unsigned q;
        s = down_target(lay, link, l, &q);
        l--;
    }
    packet_route(lay, x, &up, &down);
    /* (It turns at layer l when no up port is left above l: the route's up
     * word has a 1 at bit count - 1.) */
    bool going_down = dir == DIR_DOWN || (up >> l) == 0;
    if (going_down && lay->multicast && lay->pool[x].set.hi != 0) {
        forward_set(net, x, lane, s, l, v);
        return;
    }
    uint32_t b;
    int chosen = -1;
    if (going_down)
        b = 4 * s + ((down >> (l - 1)) & 1);
    else if (!lay->cfg.adaptive)
        b = 4 * s + 2 + ((up >> (l - 1)) & 1);
    else {
        unsigned c0 = vc->count[(4 * s + 2) * vc->V + v], c1 = vc->count[(4 * s + 3) * vc->V + v];
        chosen = c0 == c1 ? (int)((down >> (l - 1)) & 1) : c1 < c0;
        b = 4 * s + 2 + (unsigned)chosen;
    }
    uint32_t cb = b * vc->V + v;
    if (vc->count[cb] >= vc->B) {
        count_buffer_collision(net, b, v);
        net_emit(net, EV_BUFFER_FULL, x, cb, PLACE_BUFFER, l, 0);
        return;
    }
    if (chosen >= 0) {
        uint32_t bit = (uint32_t)chosen << (l - 1);
        lay->pool[x].routing |= bit;
        if (lay->compact)
            lay->routes[x] |= bit;
    }
    vc->main[lane] = 0;
    vc->busy_lanes--;
    enter(net, x, b, cb, v, true);
    if (chosen >= 0)
        net_emit(net, EV_ADAPTIVE_CHOICE, x, cb, PLACE_BUFFER, l, (unsigned)chosen);
}

/* How far ahead stage d and e ask for the memory they will need: the
 * route word of a packet on a lane, then the buffer it will enter, and the
 * head of a buffer that sends. */
enum { AHEAD_ROUTE = 16, AHEAD_BUFFER = 8, AHEAD_HEAD = 8 };

/* Where lane entry e's packet is heading, as far as its route says: the
 * channel buffer it will enter, for a prefetch (the real choice is made in
 * order, in forward). */
static uint32_t heading_buffer(const Layout *lay, const VcNet *vc, const VcLaneEntry *e)
{
    uint32_t up, down, s = e->link >> 1, x = e->word >> 1;
    unsigned l = sw_layer(lay, s), dir = e->word & 1;
    if (dir == DIR_DOWN) {
        unsigned q;
        s = down_target(lay, e->link, l, &q);
        l--;
    }
    packet_route(lay, x, &up, &down);
    unsigned q = route_out(up, down, l, dir == DIR_UP);
    return (4 * s + q) * vc->V + e->v;
}

/* Stage d: the packets in lanes, in the spec's link order (a link's lanes
 * in channel order), listed first so that what each one needs can be
 * asked for ahead. */
static void stage_forward(Net *net)
{
    VcNet *vc = net->lay.vc;
    const Layout *lay = &net->lay;
    size_t n = 0;
    FOR_EACH_BIT(vc->busy_links, vc->nchannels, pos) {
        uint32_t c = vc->channel_at[pos], link = channel_link(lay, c);
        bool last = sw_layer(lay, link >> 1) == 1;
        for (unsigned v = 0; v < vc->V; v++) {
            uint32_t lane = c * vc->V + v, w = vc->main[lane];
            if (w == 0 || (last && (w & 1) == DIR_DOWN))
                continue;                               /* stage c's */
            vc->lanes[n++] = (VcLaneEntry){ c, v, w, link };
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (i + AHEAD_ROUTE < n && lay->compact)
            PREFETCH(&lay->routes[vc->lanes[i + AHEAD_ROUTE].word >> 1]);
        if (i + AHEAD_BUFFER < n) {
            uint32_t cb = heading_buffer(lay, vc, &vc->lanes[i + AHEAD_BUFFER]);
            PREFETCH(&vc->count[cb]);
            PREFETCH(&vc->ring[(size_t)cb * vc->B + vc->head[cb]]);
        }
        const VcLaneEntry *e = &vc->lanes[i];
        forward(net, e->word >> 1, e->word & 1, e->link, e->c * vc->V + e->v, e->v);
    }
    for (size_t i = 0; i < n; i++)
        update_link_bit(vc, vc->lanes[i].c);
}

/* ---- a, b. claims ---------------------------------------------------------------- */

static void claim(Net *net, uint32_t sender, uint32_t c, unsigned v)
{
    VcNet *vc = net->lay.vc;
    vc->temp[c] = sender + 1;
    vc->claims[vc->nclaims++] = (VcClaim){ sender, c, v };
}

/* Stage a for processor p's output slot: its packet claims the temp slot
 * of its first link if its lane is free (it always is unclaimed: stage a
 * comes first); else a link collision. */
static void adapter_claims(Net *net, uint32_t p)
{
    VcNet *vc = net->lay.vc;
    uint32_t x = net->lay.out_slot[p];
    const Packet *pk = &net->lay.pool[x];
    unsigned v = pk->port % vc->V;
    uint32_t c = link_channel(&net->lay, proc_link(&net->lay, p, pk->plane), DIR_UP);
    uint32_t lane = c * vc->V + v;
    if (vc->main[lane] == 0) {
        claim(net, adapter_sender(&net->lay, pk->plane, p), c, v);
        return;
    }
    count_link_collision(net, DIR_UP, 1, v);
    net_emit(net, EV_LINK_COLLISION, x, lane, PLACE_LINK, 1, 0);
}

/* Stage b for output port b: its non-empty channel buffers in round-robin
 * order from its pointer; the first whose lane is free claims the temp
 * slot (if it is still unclaimed), and every other one that holds a
 * packet is held up: a link collision each. What held a packet is what
 * held one at the start of stage 4: the packets that entered in this
 * stage d come after. */
static void port_claims(Net *net, uint32_t b)
{
    VcNet *vc = net->lay.vc;
    unsigned dir = (b & 3) >= 2 ? DIR_UP : DIR_DOWN;
    unsigned layer = sw_layer(&net->lay, b >> 2) + (dir == DIR_UP);   /* (its link's) */
    uint32_t c = vc->port_channel[b];
    bool tried = false;
    for (unsigned i = 0, v = vc->pointer[b]; i < vc->V; i++, v = v + 1 == vc->V ? 0 : v + 1) {
        uint32_t cb = b * vc->V + v, lane = c * vc->V + v;
        if (vc->count[cb] == vc->fresh[cb])
            continue;
        if (!tried && vc->main[lane] == 0) {
            tried = true;
            if (vc->temp[c] == 0) {
                claim(net, b, c, v);
                continue;
            }
        }
        count_link_collision(net, dir, layer, v);
        if (net->event)
            net_emit(net, EV_LINK_COLLISION, vc_buffer_packet_at(vc, cb, 0), lane, PLACE_LINK,
                     layer, 0);
    }
}

/* ---- e. claims made final ------------------------------------------------------------ */

static void commit(Net *net, const VcClaim *cl)
{
    VcNet *vc = net->lay.vc;
    Layout *lay = &net->lay;
    uint32_t x, h = cl->sender;
    if (is_adapter(lay, h)) {
        uint32_t p = adapter_proc(lay, h);
        x = lay->out_slot[p];
        lay->out_slot[p] = NET_NIL;
        bit_clear(vc->full_slots, p);
        list_push(&net->woken, p);
    } else {
        uint32_t cb = h * vc->V + cl->v;
        x = vc_buffer_packet_at(vc, cb, 0);
        vc->head[cb] = (uint16_t)(vc->head[cb] + 1u == vc->B ? 0 : vc->head[cb] + 1u);
        vc->count[cb]--;
        vc->fresh[cb] |= FRESH_POPPED;
        vc->pointer[h] = (uint8_t)(cl->v + 1 == vc->V ? 0 : cl->v + 1);
        bool busy = false;
        for (unsigned v = 0; v < vc->V && !busy; v++)
            busy = vc->count[h * vc->V + v] != 0;
        if (!busy)
            bit_clear(vc->busy_ports, h);
    }
    uint32_t c = cl->c, lane = c * vc->V + cl->v;
    vc->temp[c] = 0;
    unsigned layer, dir;
    uint32_t heading = claim_heading(lay, h, &layer, &dir);
    uint32_t link = claim_link(lay, h, heading, dir);
    vc->main[lane] = x << 1 | dir;
    vc->busy_lanes++;
    bit_set(vc->busy_links, vc->position[c]);
    if (dir == DIR_DOWN && layer == 1)
        bit_set(vc->arrivals, heading_value(heading) & (lay->nprocs - 1));
    if (vc->eager)
        place_on_lane(net, x, link, dir, lane);
    net->counts.stats.links_crossed++;
    net->moved = true;
    net_emit(net, EV_CLAIMED, x, lane, PLACE_LINK, layer, 0);
}

/* After stage e: a packet that entered a buffer in stage d and is not at
 * its head now queues behind another packet: a buffer collision. It is at
 * the head if nothing was ahead of it, or one packet that left in stage e
 * (a buffer sends one packet a timestep). */
static void queued_collisions(Net *net)
{
    VcNet *vc = net->lay.vc;
    for (size_t i = 0; i < vc->nentered; i++) {
        const VcEntered *e = &vc->entered[i];
        uint32_t cb = e->b * vc->V + e->v;
        if (e->behind == (vc->fresh[cb] & FRESH_POPPED ? 1u : 0u))
            continue;
        count_buffer_collision(net, e->b, e->v);
        net_emit(net, EV_QUEUED, e->x, cb, PLACE_BUFFER, sw_layer(&net->lay, e->b >> 2), 0);
    }
}

static void *grow(void *items, size_t *cap, size_t n, size_t size)
{
    if (n <= *cap)
        return items;
    size_t c = *cap ? *cap : 256;
    while (c < n)
        c *= 2;
    void *p = realloc(items, c * size);
    if (!p)
        abort();            /* a few bytes per packet in flight: cannot fail in practice */
    *cap = c;
    return p;
}

void vc_step(Net *net)
{
    VcNet *vc = net->lay.vc;
    Layout *lay = &net->lay;
    /* Each packet on a lane enters at most one list entry in stage d (two,
     * split), and each slot or port makes at most one claim. */
    vc->entered = grow(vc->entered, &vc->entered_cap, 2 * (size_t)vc->busy_lanes + 2,
                       sizeof *vc->entered);
    vc->claims = grow(vc->claims, &vc->claims_cap, net->in_flight + 1, sizeof *vc->claims);
    vc->lanes = grow(vc->lanes, &vc->lanes_cap, (size_t)vc->busy_lanes + 1, sizeof *vc->lanes);
    net_list_reserve(&net->woken, 2 * net->in_flight + 2);
    if (lay->multicast)
        pool_reserve(net, vc->busy_lanes);
    vc->nentered = 0;
    vc->nclaims = 0;
    vc->eager = net->event != NULL;
    FOR_EACH_BIT(vc->arrivals, lay->nprocs, p)                      /* c */
        deliver_to(net, p);
    stage_forward(net);                                             /* d */
    FOR_EACH_BIT(vc->full_slots, lay->nprocs, p)                    /* a */
        adapter_claims(net, p);
    FOR_EACH_BIT(vc->busy_ports, lay->nbuffers, b)                  /* b */
        port_claims(net, b);
    for (size_t i = 0; i < vc->nclaims; i++) {                      /* e */
        if (i + AHEAD_HEAD < vc->nclaims) {
            const VcClaim *ahead = &vc->claims[i + AHEAD_HEAD];
            uint32_t cb = ahead->sender * vc->V + ahead->v;
            if (!is_adapter(lay, ahead->sender))
                PREFETCH(&vc->ring[(size_t)cb * vc->B + vc->head[cb]]);
        }
        commit(net, &vc->claims[i]);
    }
    queued_collisions(net);
    for (size_t i = 0; i < vc->nentered; i++)
        vc->fresh[vc->entered[i].b * vc->V + vc->entered[i].v] = 0;
    for (size_t i = 0; i < vc->nclaims; i++)
        if (!is_adapter(lay, vc->claims[i].sender))
            vc->fresh[vc->claims[i].sender * vc->V + vc->claims[i].v] = 0;
}

/* ---- its invariants ----------------------------------------------------------------- */

static bool bit_is(const uint64_t *map, uint32_t i) { return map[i >> 6] >> (i & 63) & 1; }

int vc_check(const Net *net, char *err, size_t size)
{
    const VcNet *vc = net->lay.vc;
    const Layout *lay = &net->lay;
    char name[64];
    uint32_t lanes = 0;
    for (uint32_t c = 0; c < vc->nchannels; c++) {
        bool busy = false;
        for (unsigned v = 0; v < vc->V; v++)
            if (vc->main[c * vc->V + v] != 0) {
                busy = true;
                lanes++;
            }
        if (busy != bit_is(vc->busy_links, vc->position[c]) || vc->temp[c] != 0) {
            net_link_name(net, channel_link(lay, c), name, sizeof name);
            snprintf(err, size, "net/%s: its lanes' busy bit or temp slot is wrong", name);
            return -1;
        }
    }
    if (lanes != vc->busy_lanes) {
        snprintf(err, size, "net: %u lanes hold packets, %u counted", lanes, vc->busy_lanes);
        return -1;
    }
    for (uint32_t b = 0; b < lay->nbuffers; b++) {
        bool busy = false;
        for (unsigned v = 0; v < vc->V; v++) {
            busy |= vc->count[b * vc->V + v] != 0;
            if (vc->fresh[b * vc->V + v] != 0) {
                net_buffer_name(net, b * vc->V + v, name, sizeof name);
                snprintf(err, size, "net/%s: stage d's count left set", name);
                return -1;
            }
        }
        if (busy != bit_is(vc->busy_ports, b) || vc->pointer[b] >= vc->V) {
            net_buffer_name(net, b * vc->V, name, sizeof name);
            snprintf(err, size, "net/%s: its port's busy bit or pointer is wrong", name);
            return -1;
        }
    }
    for (uint32_t p = 0; p < lay->nprocs; p++) {
        uint32_t x = lay->out_slot[p];
        if ((x != NET_NIL) != bit_is(vc->full_slots, p)) {
            snprintf(err, size, "net/p%u: its output slot's bit is wrong", p);
            return -1;
        }
    }
    return 0;
}
