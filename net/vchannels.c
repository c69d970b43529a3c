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
 * what is busy. The packets in lanes are in lists by the layer and class
 * they arrive at (VcLanes), made as they are claimed; the busy output
 * ports, the processors with a full output slot and those with a packet
 * coming down to them are bitmaps, whose set bits, walked upwards, come
 * in the spec's loop order. A lane keeps its packet's direction
 * beside it, and routes are read from the route words (net_internal.h),
 * so that a packet that moves between links and buffers has its record in
 * the pool written only when somebody asks where it is (vc_settle), or
 * at once when an observer watches every event.
 *
 * What a hop touches is kept together, as step.c keeps a port's buffer
 * and slot in one Sender: an output port's V channel buffers -- their
 * counts, heads and tails, and what this timestep did to them -- share
 * one record with the link it sends into (VcPort: a cache line for V up
 * to 4), so no claim walks the topology; a buffer's packets are threaded
 * through an array by pool index (VcNet.next), since most buffers hold one
 * packet or none, so memory does not grow with --buffer. A link
 * channel's lanes (and with --duplex half its temp slot) are stored in the
 * spec's link order, so that the busy links' bitmap and the records go
 * the same way, with a byte of which lanes are busy beside them.
 *
 * Numbering (net.h): channel buffer `b * V + v` is channel v's buffer of
 * output port b; lane `c * V + v` is lane v of channel c (a link, or one
 * direction of it). Those are the indices that a packet's place and the
 * public functions use when V > 1; inside, a link channel is named by its
 * *position* in the spec's loop.
 *
 * The order of the sub-stages. Stages c and d depend only on the state at
 * the start of stage 4 (a claim frees no room before stage e), so they run
 * first; then every lane whose packet is still there is known not to be
 * free, and stages a and b make their claims on free lanes only. Without
 * an observer each claim is made final as it is made (claim() says why
 * that is the same); with one, stage e makes them final after all the
 * claims, so that events come in the spec's order (channels.md, "The
 * timestep"). And without an observer or multicasts, stages d and b go
 * through the network a layer at a time (run_layered says why the outcome
 * is the same), so that stage b finds what stage d wrote still in the
 * cache. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/net_internal.h"

/* ---- bitmaps ------------------------------------------------------------------ */

static inline void bit_set(uint64_t *map, uint32_t i) { map[i >> 6] |= 1ull << (i & 63); }
static inline void bit_clear(uint64_t *map, uint32_t i) { map[i >> 6] &= ~(1ull << (i & 63)); }
static inline bool bit_is(const uint64_t *map, uint32_t i) { return map[i >> 6] >> (i & 63) & 1; }

/* Runs the statement that follows for every set bit i of map in [lo, hi),
 * in ascending order; FOR_EACH_BIT for the whole of a map of n bits. The
 * walk reads each word of the map once, when it comes to it: the body may
 * clear bits it has passed, not set bits it has not. */
#define FOR_EACH_BIT_IN(map, lo, hi, i)                                               \
    for (uint32_t w_ = (lo) >> 6, end_ = (hi), nw_ = (end_ + 63) >> 6, lo_ = (lo); w_ < nw_; \
         w_++)                                                                        \
        for (uint64_t m_ = (map)[w_] & (w_ == lo_ >> 6 ? ~0ull << (lo_ & 63) : ~0ull) &  \
                           (w_ == (end_ - 1) >> 6 && (end_ & 63) ? ~(~0ull << (end_ & 63)) \
                                                                 : ~0ull);              \
             m_ != 0; m_ &= m_ - 1)                                                   \
            for (uint32_t i = w_ << 6 | (uint32_t)__builtin_ctzll(m_), once_ = 1; once_; \
                 once_ = 0)

#define FOR_EACH_BIT(map, n, i) FOR_EACH_BIT_IN(map, 0, n, i)

/* Writes the set bits of map in [lo, hi) to out, in ascending order, and
 * returns how many: so that a stage can ask for what it will visit ahead. */
static inline size_t set_bits(const uint64_t *map, uint32_t lo, uint32_t hi, uint32_t *out)
{
    size_t n = 0;
    FOR_EACH_BIT_IN(map, lo, hi, i)
        out[n++] = i;
    return n;
}

/* ---- the state ------------------------------------------------------------------ */

/* A channel buffer: a FIFO of packets, threaded through VcNet.next (by
 * pool index) from head to tail, since few buffers hold more than one
 * packet: a ring of B places each would be mostly empty memory. Two
 * packets need no thread (the head and the tail), so it is laid only
 * from three on: with three or more, next[] leads from the head to the
 * tail; with two, next[head] means nothing. */
typedef struct VcQueue {
    uint32_t head, tail;    /* pool indices, meaningful while count > 0 */
    uint16_t count, unused;
} VcQueue;

/* An output port with its V channel buffers, in one record (for V <= 4,
 * one cache line): what stage b reads of a port and stage d writes when a
 * packet enters one of its buffers. The link it sends into: the position
 * of its channel; where that link goes (`ahead`), and the list of stage d
 * that its packets join there (`list`). Bit v of `nonempty`: channel v's
 * buffer holds a packet. Of a port that held a packet at the start of
 * stage d, which stage b visits, bit v of `newly`: channel v's buffer held
 * none then and took one in stage d (stage b, before d in the spec, does
 * not see those); of `second`: it held one, and a packet entered behind
 * it (a buffer collision, counted at once, unless stage b sends the one
 * ahead). Stage b clears both. */
typedef struct VcPort {
    uint32_t pos;
    uint32_t ahead;         /* 4S of the switch S ahead, or on the last link
                               down the processor on a plane (hop_switch) */
    uint8_t pointer;        /* the round-robin pointer */
    uint8_t nonempty, newly, second;
    uint8_t list;           /* class * LIST_LAYERS + the layer of the switch
                               ahead (hop_list), or class ARRIVE_DELIVERY */
    VcQueue queue[];
} VcPort;

_Static_assert(sizeof(VcPort) + 4 * sizeof(VcQueue) <= 64 &&
                   sizeof(VcPort) + 4 * sizeof(VcQueue) > 32,
               "a port with four channels is a cache line (vc_step's copy for V = 4)");

/* A claim made in stage a or b, made final in stage e: the sender (a port
 * or an adapter), and the lane it goes into, lane v of the link channel
 * at position pos. */
typedef struct VcClaim {
    uint32_t sender, pos, v;
} VcClaim;

/* A packet in a lane, for stage d: the lane (link channel at position
 * pos, lane v), its word (main), where the link goes (VcPort.ahead) and
 * the list it is in; and, once aimed (aim), the output port q (0-3) that
 * its route names in the switch ahead: it goes down from there if q < 2. */
typedef struct VcLaneEntry {
    uint32_t pos, word, ahead;
    uint8_t v, list, out, unused;
} VcLaneEntry;

/* The lists of stage d: the packets in lanes by the list they join,
 * class * LIST_LAYERS + layer, where class is the port of the switch
 * ahead they arrive on (d0, d1, u0, u1) and layer that switch's; those
 * coming down to a processor are stage c's, found by the bitmap of
 * arrivals. A packet joins a list when it is claimed onto a lane, and
 * stays in one while it stays there. Each timestep takes the lists the
 * last one made and makes the next ones. */
typedef struct VcLanes {
    VcLaneEntry *items;
    size_t n, cap;
} VcLanes;

enum { LANE_LISTS = 4 * LIST_LAYERS };

/* With an observer, a packet that entered channel buffer v of port b
 * behind another in stage d: a buffer collision, unless (with one ahead)
 * the head leaves in stage e. */
typedef struct VcEntered {
    uint32_t b, v, x, behind;
} VcEntered;

struct VcNet {
    unsigned V, B;
    bool has_temp;          /* --duplex half: two senders share a link's lanes */
    uint32_t now;           /* this stage's number (a temp slot's stamp) */
    uint32_t nchannels;     /* link channels (links, or links x 2 directions) */
    unsigned port_shift;    /* log2 of the bytes per VcPort */
    unsigned link_shift;    /* log2 of the words per link channel's record */
    unsigned char *ports;   /* the VcPort records, by output port */
    uint32_t *links;        /* by position: a link channel's V lanes' `main`
                               slots (a packet << 1 | its direction, or 0),
                               and with has_temp the stage in which its temp
                               slot was last claimed */
    uint8_t *lane_mask;     /* by position: bit v, lane v holds a packet */
    uint32_t *next;         /* by pool index: the packet behind it in its buffer */
    uint32_t next_cap;
    uint32_t *position;     /* per link channel: its place in the spec's link loop */
    uint32_t *channel_at;   /* ...and back */
    uint64_t *full_slots;   /* by processor: its output slot holds a packet */
    uint64_t *arrivals;     /* by processor: a packet comes down a lane to it */
    uint64_t *busy_ports;   /* by port b: some channel buffer holds a packet */
    uint64_t *held_ports;   /* ...at the start of this timestep's stage d (stage b's) */
    VcLanes *arriving, *arriving_next;  /* [LANE_LISTS]: this timestep's, the next's */
    VcClaim *claims;
    size_t nclaims, claims_cap;
    VcEntered *entered;
    size_t nentered, entered_cap;
    VcLaneEntry *lanes;     /* run_stages' stage d, in the spec's order */
    size_t lanes_cap;
    uint32_t *order;        /* ...and its stage b */
    size_t order_cap;
    uint32_t busy_lanes;    /* lanes holding a packet */
    bool eager;             /* an observer watches: records are kept current */
};

static uint64_t *bitmap_new(size_t bits) { return calloc((bits + 63) / 64 + 1, sizeof(uint64_t)); }

static inline VcPort *port_at(const VcNet *vc, uint32_t b)
{
    return (VcPort *)(vc->ports + ((size_t)b << vc->port_shift));
}

/* The lanes of the link channel at position pos: main[v], then the temp
 * word at main[V]. */
static inline uint32_t *link_at(const VcNet *vc, uint32_t pos)
{
    return vc->links + ((size_t)pos << vc->link_shift);
}

/* A lane's packet has left it. */
static inline void empty_lane(VcNet *vc, uint32_t pos, unsigned v)
{
    link_at(vc, pos)[v] = 0;
    vc->busy_lanes--;
    vc->lane_mask[pos] &= (uint8_t)~(1u << v);
}

/* Room for n items of `size` bytes in items, of capacity *cap. */
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

static inline void join_lanes(VcLanes *l, const VcLaneEntry *e)
{
    if (l->n == l->cap)
        l->items = grow(l->items, &l->cap, l->n + 1, sizeof *l->items);
    l->items[l->n++] = *e;
}

/* Where the packets that sender h sends go (VcPort.ahead) and the list of
 * stage d they join there (VcPort.list). */
static unsigned sender_goes(const Layout *lay, uint32_t h, uint32_t *ahead)
{
    unsigned class;
    *ahead = hop_switch(lay, h, &class);
    return class * LIST_LAYERS + link_list_layer(lay, class, *ahead);
}

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

/* The position of processor p's link channel on a plane in direction dir:
 * processor links come first in the loop above, so it is arithmetic. */
static inline uint32_t proc_position(const Layout *lay, uint32_t p, unsigned plane, unsigned dir)
{
    return lay->cfg.full_duplex ? 2 * (p * lay->cfg.planes + plane) + dir
                                : p * lay->cfg.planes + plane;
}

void vc_free(VcNet *vc)
{
    if (!vc)
        return;
    free(vc->ports);
    free(vc->links);
    free(vc->lane_mask);
    free(vc->next);
    free(vc->position);
    free(vc->channel_at);
    free(vc->full_slots);
    free(vc->arrivals);
    for (unsigned i = 0; i < LANE_LISTS; i++) {
        free(vc->arriving ? vc->arriving[i].items : NULL);
        free(vc->arriving_next ? vc->arriving_next[i].items : NULL);
    }
    free(vc->arriving);
    free(vc->arriving_next);
    free(vc->busy_ports);
    free(vc->held_ports);
    free(vc->claims);
    free(vc->entered);
    free(vc->lanes);
    free(vc->order);
    free(vc);
}

VcNet *vc_new(const Layout *lay)
{
    VcNet *vc = calloc(1, sizeof *vc);
    if (!vc)
        return NULL;
    vc->V = lay->cfg.vcs;
    vc->B = lay->cfg.buffer;
    vc->has_temp = !lay->cfg.full_duplex;
    vc->nchannels = 2 * lay->nswitches * (lay->cfg.full_duplex ? 2 : 1);
    vc->port_shift = 4;
    while ((1u << vc->port_shift) < sizeof(VcPort) + vc->V * sizeof(VcQueue))
        vc->port_shift++;
    while ((1u << vc->link_shift) < vc->V + vc->has_temp)
        vc->link_shift++;
    size_t bytes = (size_t)lay->nbuffers << vc->port_shift;
    if (posix_memalign((void **)&vc->ports, 64, bytes) == 0)
        memset(vc->ports, 0, bytes);
    else
        vc->ports = NULL;
    vc->links = calloc((size_t)vc->nchannels << vc->link_shift, sizeof *vc->links);
    vc->lane_mask = calloc(vc->nchannels, 1);
    vc->position = calloc(vc->nchannels, sizeof *vc->position);
    vc->channel_at = calloc(vc->nchannels, sizeof *vc->channel_at);
    vc->full_slots = bitmap_new(lay->nprocs);
    vc->arrivals = bitmap_new(lay->nprocs);
    vc->arriving = calloc(LANE_LISTS, sizeof *vc->arriving);
    vc->arriving_next = calloc(LANE_LISTS, sizeof *vc->arriving_next);
    vc->busy_ports = bitmap_new(lay->nbuffers);
    vc->held_ports = bitmap_new(lay->nbuffers);
    if (!vc->ports || !vc->links || !vc->lane_mask || !vc->position || !vc->channel_at ||
        !vc->full_slots || !vc->arrivals || !vc->arriving || !vc->arriving_next || !vc->busy_ports ||
        !vc->held_ports) {
        vc_free(vc);
        return NULL;
    }
    vc->now = 1;
    number_links(vc, lay);
    for (uint32_t b = 0; b < lay->nbuffers; b++) {
        if ((b & 3) >= 2 && sw_layer(lay, b >> 2) == lay->cfg.k)
            continue;                           /* (the top layer has no up ports) */
        unsigned layer, dir;
        uint32_t heading = claim_heading(lay, b, &layer, &dir);
        uint32_t c = link_channel(lay, claim_link(lay, b, heading, dir), dir);
        VcPort *pt = port_at(vc, b);
        pt->pos = vc->position[c];
        pt->list = (uint8_t)sender_goes(lay, b, &pt->ahead);
    }
    return vc;
}

/* ---- what others ask -------------------------------------------------------------- */

uint32_t vc_buffer_count(const VcNet *vc, uint32_t cb)
{
    return port_at(vc, cb / vc->V)->queue[cb % vc->V].count;
}

uint32_t vc_buffer_packet_at(const VcNet *vc, uint32_t cb, uint32_t i)
{
    const VcQueue *q = &port_at(vc, cb / vc->V)->queue[cb % vc->V];
    if (i >= q->count)
        return NET_NIL;
    if (i == q->count - 1u)
        return q->tail;
    uint32_t x = q->head;
    while (i-- > 0)
        x = vc->next[x];
    return x;
}

uint32_t vc_lane_packet(const VcNet *vc, uint32_t lane)
{
    return link_at(vc, vc->position[lane / vc->V])[lane % vc->V] >> 1;
}

/* Tells the observer, if there is one (net_emit): the stage's common case
 * pays for a test, not a call. */
HOT void tell(Net *net, NetEventKind kind, uint32_t x, uint32_t place, PacketPlace place_kind,
                unsigned layer, unsigned value)
{
    if (net->event)
        net_emit(net, kind, x, place, place_kind, layer, value);
}

/* ---- packets' places ------------------------------------------------------------ */

/* A packet's record says where it is as the one-channel stage's does
 * (net_internal.h), but for the lane or channel buffer. */
static void place_on_lane(Net *net, uint32_t x, uint32_t c, unsigned dir, unsigned v)
{
    settle_on_link(net, x, channel_link(&net->lay, c), dir, AWAKE);
    net->lay.pool[x].at = c * net->lay.vc->V + v;
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
    for (uint32_t pos = 0; pos < vc->nchannels; pos++) {
        const uint32_t *main = link_at(vc, pos);
        for (unsigned m = vc->lane_mask[pos]; m != 0; m &= m - 1) {
            unsigned v = (unsigned)__builtin_ctz(m);
            place_on_lane(net, main[v] >> 1, vc->channel_at[pos], main[v] & 1, v);
        }
    }
    FOR_EACH_BIT(vc->busy_ports, lay->nbuffers, b)
        for (unsigned v = 0; v < vc->V; v++) {
            uint32_t cb = b * vc->V + v;
            for (uint32_t i = 0; i < vc_buffer_count(vc, cb); i++)
                place_in_buffer(net, vc_buffer_packet_at(vc, cb, i), b, cb);
        }
}

/* ---- injection ------------------------------------------------------------------- */

void vc_injected(Net *net, uint32_t p)
{
    bit_set(net->lay.vc->full_slots, p);
}

/* ---- counting ---------------------------------------------------------------------- */

static inline void count_link_collision(Net *net, unsigned dir, unsigned layer, unsigned v)
{
    NetStats *st = &net->counts.stats;
    st->link_collisions[dir][layer]++;
    st->link_total++;
    st->vc_link[v]++;
}

/* n buffer collisions at channel v's buffer of port b, of a switch of
 * layer l: n is 1, or -1 to take back one that did not happen (enter). */
static inline void count_buffer_collisions(Net *net, uint32_t b, unsigned l, unsigned v, int n)
{
    NetStats *st = &net->counts.stats;
    unsigned dir = (b & 3) >= 2 ? DIR_UP : DIR_DOWN;
    st->buffer_collisions[dir][l] += (uint64_t)n;
    st->buffer_total += (uint64_t)n;
    st->vc_buffer[v] += (uint64_t)n;
}

/* How far ahead the stages ask for the memory they will need: the route
 * word of a packet on a lane, then the port it will enter; a busy port's
 * record, then the link record it sends into (or a processor's lanes
 * down, then their packets' records). */
enum { AHEAD_ROUTE = 32, AHEAD_BUFFER = 16, AHEAD_PORT = 16, AHEAD_LINK = 8 };

/* ---- c. delivery ------------------------------------------------------------------- */

/* Stage c for processor p: the packets in the down lanes of its links,
 * oldest first, enter their input ports if those have room. */
HOT void deliver_to(Net *net, const Layout *lay, VcNet *vc, uint32_t p)
{
    uint32_t lanes[2 * 8], n = 0, pos[2];        /* (lanes: plane << 8 | v) */
    for (unsigned plane = 0; plane < lay->cfg.planes; plane++) {
        pos[plane] = proc_position(lay, p, plane, DIR_DOWN);
        const uint32_t *main = link_at(vc, pos[plane]);
        for (unsigned v = 0; v < vc->V; v++) {
            uint32_t w = main[v], x = w >> 1;
            if (w != 0 && (w & 1) == DIR_DOWN) {
                uint32_t i = n++;           /* insertion by id: oldest first */
                while (i > 0) {
                    uint32_t before = lanes[i - 1];
                    uint32_t y = link_at(vc, pos[before >> 8])[before & 0xff] >> 1;
                    if (lay->pool[y].info.id < lay->pool[x].info.id)
                        break;
                    lanes[i] = before;
                    i--;
                }
                lanes[i] = plane << 8 | v;
            }
        }
    }
    bool waiting = false;
    for (uint32_t i = 0; i < n; i++) {
        unsigned plane = lanes[i] >> 8, v = lanes[i] & 0xff;
        uint32_t *main = link_at(vc, pos[plane]);
        uint32_t x = main[v] >> 1;
        Packet *pk = &lay->pool[x];
        InputPort *port = &lay->ports[p * lay->cfg.ports + pk->port];
        if (port->count >= lay->cfg.port_depth) {
            net->counts.stats.port_waits++;
            waiting = true;
            tell(net, EV_PORT_WAIT, x, p, PLACE_PORT, 1, 0);
            continue;
        }
        empty_lane(vc, pos[plane], v);
        net_deliver(net, x, p);
    }
    if (!waiting)
        bit_clear(vc->arrivals, p);
}

/* Stage c for every processor with a packet coming down to it, in
 * processor order, the lanes of each and then their packets' records
 * asked for ahead. */
HOT void deliveries(Net *net, const Layout *lay, VcNet *vc)
{
    size_t n = set_bits(vc->arrivals, 0, lay->nprocs, vc->order);
    unsigned planes = lay->cfg.planes;
    for (size_t i = 0; i < n; i++) {
        if (i + AHEAD_LINK < n)
            for (unsigned plane = 0; plane < planes; plane++)
                PREFETCH(link_at(vc, proc_position(lay, vc->order[i + AHEAD_LINK], plane, DIR_DOWN)));
        if (i + AHEAD_LINK / 2 < n)
            for (unsigned plane = 0; plane < planes; plane++) {
                uint32_t pos = proc_position(lay, vc->order[i + AHEAD_LINK / 2], plane, DIR_DOWN);
                for (unsigned m = vc->lane_mask[pos]; m != 0; m &= m - 1)
                    PREFETCH(&lay->pool[link_at(vc, pos)[__builtin_ctz(m)] >> 1]);
            }
        deliver_to(net, lay, vc, vc->order[i]);
    }
}

/* ---- d. forwarding ------------------------------------------------------------------ */

/* Packet x enters channel v's buffer of port b, of a switch of layer l,
 * which has room. Stage b must not see it (it comes before stage d in the
 * spec): not the port, if the port held no packet, nor else the buffer, if
 * the buffer held none (`newly`). Behind another packet, it collides;
 * with an observer that is found after stage e, so that events come in
 * the spec's order (queued_collisions), and without one it is counted
 * now and taken back if stage b sends the packet ahead (`second`). */
HOT void enter(Net *net, VcNet *vc, uint32_t x, uint32_t b, unsigned v, unsigned l,
               bool report)
{
    VcPort *pt = port_at(vc, b);
    VcQueue *q = &pt->queue[v];
    uint32_t ahead = q->count;
    if (ahead == 0)
        q->head = x;
    else if (ahead >= 2) {
        if (ahead == 2)
            vc->next[q->head] = q->tail;
        vc->next[q->tail] = x;
    }
    q->tail = x;
    q->count = (uint16_t)(ahead + 1);
    if (ahead + 1 > net->counts.stats.max_buffer)
        net->counts.stats.max_buffer = ahead + 1;
    uint8_t bit = (uint8_t)(1u << v);
    if (pt->nonempty == 0)
        bit_set(vc->busy_ports, b);     /* (not held_ports) */
    else if (!(pt->nonempty & bit) && bit_is(vc->held_ports, b))
        pt->newly |= bit;
    pt->nonempty |= bit;
    if (ahead != 0) {
        if (vc->eager)
            vc->entered[vc->nentered++] = (VcEntered){ b, v, x, ahead };
        else {
            count_buffer_collisions(net, b, l, v, 1);
            if (ahead == 1 && !(pt->newly & bit) && bit_is(vc->held_ports, b))
                pt->second |= bit;
        }
    }
    if (vc->eager)
        place_in_buffer(net, x, b, b * vc->V + v);
    net->moved = true;
    if (report)
        tell(net, EV_ENTERED, x, b * vc->V + v, PLACE_BUFFER, l, 0);
}

static inline bool full(const VcNet *vc, uint32_t b, unsigned v)
{
    return port_at(vc, b)->queue[v].count >= vc->B;
}

static inline unsigned entry_layer(const VcLaneEntry *e) { return e->list & (LIST_LAYERS - 1); }

/* Stage d for a multicast x in lane e that goes down from the switch
 * ahead: into every down buffer of its channel below which its set has
 * members, all at once, or it stays whole (one buffer collision, at the
 * first full one; returns false). The copy takes the next id: lanes are
 * visited in the spec's loop order. */
HOT bool forward_set(Net *net, const Layout *lay, VcNet *vc, uint32_t x, const VcLaneEntry *e)
{
    unsigned v = e->v, l = entry_layer(e);
    uint32_t s = e->ahead >> 2;
    McPart part[2];
    mc_split(net, x, l, part);
    for (unsigned q = 0; q < 2; q++)
        if (part[q].n != 0 && full(vc, 4 * s + q, v)) {
            count_buffer_collisions(net, 4 * s + q, l, v, 1);
            tell(net, EV_BUFFER_FULL, x, (4 * s + q) * vc->V + v, PLACE_BUFFER, l, 0);
            return false;
        }
    empty_lane(vc, e->pos, v);
    if (part[0].n != 0 && part[1].n != 0) {
        uint32_t y = mc_divide(net, x, part);
        lay->pool[y].info.id = net->next_id++;
        net->counts.stats.copies++;
        net->in_flight++;
        enter(net, vc, x, 4 * s, v, l, true);
        enter(net, vc, y, 4 * s + 1, v, l, false);
        if (net->event) {          /* (which reports the copy entering) */
            Split split = { 0, x, y, s, (4 * s + 1) * vc->V + v };
            net_emit_split(net, &split);
        }
        return true;
    }
    enter(net, vc, x, 4 * s + (part[0].n != 0 ? 0 : 1), v, l, true);
    return true;
}

/* The output port (0-3) that the route of the packet in lane e names in
 * the switch ahead (for adaptive routing on the way up, stage d chooses). */
HOT void aim(const Layout *lay, VcLaneEntry *e)
{
    uint32_t up, down;
    unsigned l = entry_layer(e);
    packet_route(lay, e->word >> 1, &up, &down);
    /* (It turns at layer l when no up port is left above l: the route's up
     * word has a 1 at bit count - 1.) */
    bool going_down = (e->word & 1) == DIR_DOWN || (up >> l) == 0;
    e->out = (uint8_t)(going_down ? (down >> (l - 1)) & 1 : 2 + ((up >> (l - 1)) & 1));
}

/* Stage d for the packet in lane e, aimed: into channel v's buffer of the
 * output port its route names in the switch ahead, if that has room; else
 * it stays (a buffer collision), and in the next timestep's list. */
HOT void forward(Net *net, const Layout *lay, VcNet *vc, const VcLaneEntry *e)
{
    uint32_t x = e->word >> 1, s = e->ahead >> 2;
    unsigned v = e->v, l = entry_layer(e);
    bool going_down = e->out < 2;
    if (going_down && lay->multicast && lay->pool[x].set.hi != 0) {
        if (!forward_set(net, lay, vc, x, e))
            join_lanes(&vc->arriving_next[e->list], e);
        return;
    }
    uint32_t b = e->ahead + e->out;
    int chosen = -1;
    if (lay->cfg.adaptive && !going_down) {
        uint32_t up, down;
        packet_route(lay, x, &up, &down);
        unsigned c0 = port_at(vc, 4 * s + 2)->queue[v].count;
        unsigned c1 = port_at(vc, 4 * s + 3)->queue[v].count;
        chosen = c0 == c1 ? (int)((down >> (l - 1)) & 1) : c1 < c0;
        b = 4 * s + 2 + (unsigned)chosen;
    }
    if (full(vc, b, v)) {
        count_buffer_collisions(net, b, l, v, 1);
        tell(net, EV_BUFFER_FULL, x, b * vc->V + v, PLACE_BUFFER, l, 0);
        join_lanes(&vc->arriving_next[e->list], e);
        return;
    }
    if (chosen >= 0) {
        uint32_t bit = (uint32_t)chosen << (l - 1);
        lay->pool[x].routing |= bit;
        if (lay->compact)
            lay->routes[x] |= bit;
    }
    empty_lane(vc, e->pos, v);
    enter(net, vc, x, b, v, l, true);
    if (chosen >= 0)
        tell(net, EV_ADAPTIVE_CHOICE, x, b * vc->V + v, PLACE_BUFFER, l, (unsigned)chosen);
}

/* Stage d for the n packets in lanes listed, in their order, each one's
 * route and port asked for ahead. */
HOT void forward_lanes(Net *net, const Layout *lay, VcNet *vc, VcLaneEntry *lanes, size_t n)
{
    for (size_t i = 0; i < n && i < AHEAD_BUFFER; i++)
        aim(lay, &lanes[i]);
    for (size_t i = 0; i < n; i++) {
        if (i + AHEAD_ROUTE < n && lay->compact)
            PREFETCH(&lay->routes[lanes[i + AHEAD_ROUTE].word >> 1]);
        if (i + AHEAD_BUFFER < n) {
            VcLaneEntry *e = &lanes[i + AHEAD_BUFFER];
            aim(lay, e);
            PREFETCH(port_at(vc, e->ahead + e->out));
        }
        forward(net, lay, vc, &lanes[i]);
    }
}

/* ---- e. claims made final ------------------------------------------------------------ */

/* The claim cl made final: the sender's packet moves into its lane, and
 * joins the list of stage d of the next timestep that its link leads to,
 * or (coming down to a processor) is marked for stage c. */
HOT void commit(Net *net, const Layout *lay, VcNet *vc, const VcClaim *cl)
{
    uint32_t x, h = cl->sender, ahead;
    unsigned dir = DIR_UP, layer = 1, v = cl->v, list;
    if (is_adapter(lay, h)) {
        uint32_t p = adapter_proc(lay, h);
        x = lay->out_slot[p];
        lay->out_slot[p] = NET_NIL;
        bit_clear(vc->full_slots, p);
        list_push(&net->woken, p);
        list = sender_goes(lay, h, &ahead);
    } else {
        VcPort *pt = port_at(vc, h);
        VcQueue *q = &pt->queue[v];
        x = q->head;
        if (--q->count == 0)
            pt->nonempty &= (uint8_t)~(1u << v);
        else
            q->head = q->count == 1 ? q->tail : vc->next[x];
        pt->pointer = (uint8_t)(v + 1 == vc->V ? 0 : v + 1);
        dir = (h >> 1 & 1) ? DIR_UP : DIR_DOWN;
        ahead = pt->ahead;
        list = pt->list;
        if (pt->nonempty == 0)
            bit_clear(vc->busy_ports, h);
    }
    link_at(vc, cl->pos)[v] = x << 1 | dir;
    vc->lane_mask[cl->pos] |= (uint8_t)(1u << v);
    vc->busy_lanes++;
    if (list / LIST_LAYERS == ARRIVE_DELIVERY)
        bit_set(vc->arrivals, ahead & (lay->nprocs - 1));
    else
        join_lanes(&vc->arriving_next[list],
                   &(VcLaneEntry){ cl->pos, x << 1 | dir, ahead, (uint8_t)v, (uint8_t)list, 0, 0 });
    net->counts.stats.links_crossed++;
    net->moved = true;
    if (vc->eager) {
        uint32_t c = vc->channel_at[cl->pos];
        if (!is_adapter(lay, h))            /* (the link's layer) */
            layer = sw_layer(lay, h >> 2) + (dir == DIR_UP);
        place_on_lane(net, x, c, dir, v);
        tell(net, EV_CLAIMED, x, c * vc->V + v, PLACE_LINK, layer, 0);
    }
}

/* ---- a, b. claims ---------------------------------------------------------------- */

/* Whether the temp slot of the link channel at pos is free. Only with
 * --duplex half can two senders claim one; with --duplex full the link's
 * own sender always finds it free. */
static inline bool temp_free(const VcNet *vc, uint32_t pos)
{
    return !vc->has_temp || link_at(vc, pos)[vc->V] != vc->now;
}

/* A claim of lane v of the link channel at pos. Without an
 * observer it is made final at once: what stage e would change is read by
 * nobody else in stages a and b. The sender's buffer and the lane are its
 * own; the temp slot stays claimed, so that the other end of a --duplex
 * half link is held up as it would be by the claim; and with the temp
 * slot taken every channel of that end that holds a packet collides,
 * whether or not its lane is free, so a lane filled early changes no
 * count. With an observer, claims wait for stage e, so that events come
 * in the spec's order. */
HOT void claim(Net *net, const Layout *lay, VcNet *vc, uint32_t sender, uint32_t pos, unsigned v)
{
    VcClaim cl = { sender, pos, v };
    if (vc->has_temp)
        link_at(vc, pos)[vc->V] = vc->now;
    if (vc->eager)
        vc->claims[vc->nclaims++] = cl;
    else
        commit(net, lay, vc, &cl);
}

/* Stage a for processor p's output slot: its packet claims the temp slot
 * of its first link if its lane is free (it always is unclaimed: stage a
 * comes first); else a link collision. */
HOT void adapter_claims(Net *net, const Layout *lay, VcNet *vc, uint32_t p)
{
    uint32_t x = lay->out_slot[p];
    const Packet *pk = &lay->pool[x];
    unsigned v = pk->port % vc->V;
    uint32_t pos = proc_position(lay, p, pk->plane, DIR_UP);
    if (!(vc->lane_mask[pos] >> v & 1)) {
        claim(net, lay, vc, adapter_sender(lay, pk->plane, p), pos, v);
        return;
    }
    count_link_collision(net, DIR_UP, 1, v);
    tell(net, EV_LINK_COLLISION, x, vc->channel_at[pos] * vc->V + v, PLACE_LINK, 1, 0);
}

/* Stage a for every processor with a packet in its output slot, in
 * processor order, each packet's record asked for ahead. */
HOT void adapters_claim(Net *net, const Layout *lay, VcNet *vc)
{
    size_t n = set_bits(vc->full_slots, 0, lay->nprocs, vc->order);
    for (size_t i = 0; i < n; i++) {
        if (i + AHEAD_PORT < n)
            PREFETCH(&lay->pool[lay->out_slot[vc->order[i + AHEAD_PORT]]]);
        adapter_claims(net, lay, vc, vc->order[i]);
    }
}

/* The channels of port b in mask turn (bit i: channel from + i) are held
 * up in stage b: a link collision each, in that order. (A claim that
 * stage e does not wait for has already moved the port's pointer.) */
static inline void held_up(Net *net, const Layout *lay, VcNet *vc, uint32_t b, unsigned from,
                           unsigned turn)
{
    if (turn == 0)
        return;
    const VcPort *pt = port_at(vc, b);
    unsigned V = vc->V, up = b >> 1 & 1;
    unsigned dir = up ? DIR_UP : DIR_DOWN, layer = sw_layer(lay, b >> 2) + up;
    for (; turn != 0; turn &= turn - 1) {
        unsigned v = from + (unsigned)__builtin_ctz(turn);
        v = v >= V ? v - V : v;
        count_link_collision(net, dir, layer, v);
        tell(net, EV_LINK_COLLISION, pt->queue[v].head, vc->channel_at[pt->pos] * V + v,
             PLACE_LINK, layer, 0);
    }
}

/* Stage b for output port b, which held a packet at the start of stage d:
 * its channel buffers that did, in round-robin order from its pointer;
 * the first whose lane is free claims the temp slot (if it is still
 * unclaimed), and every other one is held up: a link collision each. The
 * channels are taken as a mask, rotated so that bit i is channel
 * from + i: the claimant is its lowest bit free of a packet in its lane,
 * and the rest collide. */
HOT void port_claims(Net *net, const Layout *lay, VcNet *vc, uint32_t b)
{
    VcPort *pt = port_at(vc, b);
    unsigned V = vc->V, from = pt->pointer, all_v = (1u << V) - 1;
    unsigned held = pt->nonempty & ~(unsigned)pt->newly, second = pt->second;
    pt->newly = pt->second = 0;
    uint32_t pos = pt->pos;
    unsigned busy = vc->lane_mask[pos];
    unsigned turn = (held >> from | held << (V - from)) & all_v;
    unsigned open = turn & ~(busy >> from | busy << (V - from));
    unsigned colliding = turn;
    if (open != 0 && temp_free(vc, pos)) {
        unsigned i = (unsigned)__builtin_ctz(open), v = from + i;
        v = v >= V ? v - V : v;
        colliding &= ~(1u << i);
        claim(net, lay, vc, b, pos, v);
        if (second >> v & 1)            /* (the packet behind is at the head) */
            count_buffer_collisions(net, b, sw_layer(lay, b >> 2), v, -1);
    }
    held_up(net, lay, vc, b, from, colliding);
}

/* Stage b for the n ports listed, in their order, the records each one
 * needs asked for ahead. */
HOT void claims_from(Net *net, const Layout *lay, VcNet *vc, const uint32_t *ports, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (i + AHEAD_PORT < n)
            PREFETCH(port_at(vc, ports[i + AHEAD_PORT]));
        if (i + AHEAD_LINK < n)
            PREFETCH(link_at(vc, port_at(vc, ports[i + AHEAD_LINK])->pos));
        port_claims(net, lay, vc, ports[i]);
    }
}

/* With an observer, after stage e: a packet that entered a buffer in stage
 * d and is not at its head now queues behind another packet: a buffer
 * collision. It is at the head if nothing was ahead of it (those are not
 * listed), or one packet that left in stage e (a buffer sends one packet
 * a timestep). */
HOT void queued_collisions(Net *net, const Layout *lay, VcNet *vc)
{
    for (size_t i = 0; i < vc->nentered; i++) {
        const VcEntered *e = &vc->entered[i];
        if (e->behind == 1 && port_at(vc, e->b)->queue[e->v].head == e->x)
            continue;       /* (the packet ahead left) */
        unsigned l = sw_layer(lay, e->b >> 2);
        count_buffer_collisions(net, e->b, l, e->v, 1);
        tell(net, EV_QUEUED, e->x, e->b * vc->V + e->v, PLACE_BUFFER, l, 0);
    }
}

/* The next stage's number; when the numbers wrap, every temp slot's
 * stamp is made old again, so that none is ever mistaken for the new
 * stage's. */
static void next_stage(VcNet *vc)
{
    if (++vc->now != 0)
        return;
    if (vc->has_temp)
        for (uint32_t pos = 0; pos < vc->nchannels; pos++)
            link_at(vc, pos)[vc->V] = 0;
    vc->now = 1;
}

void vc_set_stage(VcNet *vc, uint32_t now) { vc->now = now; }

/* The spec's order of stage d: the spec's link loop, and a link's lanes
 * in channel order (positions are that loop's). */
static int in_link_order(const void *a, const void *b)
{
    const VcLaneEntry *e = a, *f = b;
    if (e->pos != f->pos)
        return e->pos < f->pos ? -1 : 1;
    return (e->v > f->v) - (e->v < f->v);
}

/* Stage b for the ports in bits [lo, hi) of held_ports, in port order. */
HOT void claims_in(Net *net, const Layout *lay, VcNet *vc, uint32_t lo, uint32_t hi)
{
    claims_from(net, lay, vc, vc->order, set_bits(vc->held_ports, lo, hi, vc->order));
}

/* Stage 4 in the spec's order (the head of this file), stage d's lists
 * gathered and sorted: for an observer, who sees events in that order,
 * and for multicasts, whose copies take ids in it. */
HOT void run_stages(Net *net, const Layout *lay, VcNet *vc)
{
    deliveries(net, lay, vc);                                       /* c */
    memcpy(vc->held_ports, vc->busy_ports, (lay->nbuffers + 63) / 64 * sizeof *vc->held_ports);
    size_t n = 0;                                                   /* d */
    for (unsigned i = 0; i < LANE_LISTS; i++)
        for (size_t j = 0; j < vc->arriving[i].n; j++)
            vc->lanes[n++] = vc->arriving[i].items[j];
    qsort(vc->lanes, n, sizeof *vc->lanes, in_link_order);
    forward_lanes(net, lay, vc, vc->lanes, n);
    adapters_claim(net, lay, vc);                                   /* a */
    claims_in(net, lay, vc, 0, lay->nbuffers);                      /* b */
    for (size_t i = 0; i < vc->nclaims; i++)                        /* e */
        commit(net, lay, vc, &vc->claims[i]);
    if (vc->eager)
        queued_collisions(net, lay, vc);
}

/* Copies bits [lo, hi) of src to dst. */
static inline void copy_bits(uint64_t *dst, const uint64_t *src, uint32_t lo, uint32_t hi)
{
    for (uint32_t w = lo >> 6; w < (hi + 63) >> 6; w++) {
        uint64_t mask = ~0ull;
        if (w == lo >> 6)
            mask &= ~0ull << (lo & 63);
        if (w == (hi - 1) >> 6 && (hi & 63))
            mask &= ~(~0ull << (hi & 63));
        dst[w] = (dst[w] & ~mask) | (src[w] & mask);
    }
}

/* Stage 4 a layer at a time, as step.c does it, so that stage b finds the
 * records that stage d wrote still in the cache: stage d for the packets
 * arriving at the switches of layer l, then stage b for the ports of layer
 * l - 1, which needed only stages d at l - 2 and l (the switches their
 * links reach) to have run, and stage a after stage d at layer 1. The
 * outcome is the spec's. In stage d only packets entering one switch
 * compete, and those on one channel only (for a buffer, or for adaptive's
 * choice): one link brings at most one packet on a channel, so taking a
 * layer's lists class by class (those arriving on d0 ports, d1, u0, u1)
 * keeps the spec's order among them. In stage b, claims compete only at
 * the two ends of a --duplex half link, whose lower end still claims
 * first. Copies of multicasts take ids in stage d's order, and observers
 * see events in it, so those runs take run_stages.
 *
 * Stage b goes through its ports in port order, so that the packets it
 * sends join the lists of stage d in the order of the links they take,
 * and both stages sweep memory rather than jump about in it. */
HOT void run_layered(Net *net, const Layout *lay, VcNet *vc)
{
    deliveries(net, lay, vc);                                       /* c */
    unsigned k = lay->cfg.k;
    for (unsigned l = 1; l <= k + 1; l++) {
        if (l <= k) {                                               /* d at l */
            for (unsigned plane = 0; plane < lay->cfg.planes; plane++) {
                uint32_t s0 = (plane * k + l - 1) << (k - 1);
                copy_bits(vc->held_ports, vc->busy_ports, 4 * s0, 4 * (s0 + lay->half));
            }
            for (unsigned class = 0; class < 4; class++) {
                VcLanes *list = &vc->arriving[class * LIST_LAYERS + l];
                forward_lanes(net, lay, vc, list->items, list->n);
            }
        }
        if (l == 1) {
            adapters_claim(net, lay, vc);                           /* a */
            continue;
        }
        for (unsigned plane = 0; plane < lay->cfg.planes; plane++) {   /* b at l - 1 */
            uint32_t s0 = (plane * k + l - 2) << (k - 1);
            claims_in(net, lay, vc, 4 * s0, 4 * (s0 + lay->half));
        }
    }
}

void vc_step(Net *net)
{
    VcNet *state = net->lay.vc;
    /* Each packet on a lane enters at most one list entry in stage d (two,
     * split), and each slot or port makes at most one claim. */
    if (net->event)
        state->entered = grow(state->entered, &state->entered_cap,
                              2 * (size_t)state->busy_lanes + 2, sizeof *state->entered);
    bool layered = net->event == NULL && !net->lay.multicast;
    if (!layered) {
        if (net->event)
            state->claims = grow(state->claims, &state->claims_cap, net->in_flight + 1,
                                 sizeof *state->claims);
        state->lanes = grow(state->lanes, &state->lanes_cap, (size_t)state->busy_lanes + 1,
                            sizeof *state->lanes);
    }
    state->order = grow(state->order, &state->order_cap, net->in_flight + 1, sizeof *state->order);
    net_list_reserve(&net->woken, 2 * net->in_flight + 2);
    if (net->lay.multicast)
        pool_reserve(net, state->busy_lanes);
    if (state->next_cap < net->pool_cap) {      /* (every packet, copies included) */
        size_t cap = state->next_cap;
        state->next = grow(state->next, &cap, net->pool_cap, sizeof *state->next);
        state->next_cap = (uint32_t)cap;
    }
    next_stage(state);
    state->nentered = 0;
    state->nclaims = 0;
    state->eager = net->event != NULL;
    /* The stages work on copies of the layout and of this state: through
     * pointers into `net`, the compiler would have to read every field
     * again after each store of a byte (a mask), since it might change it.
     * What they change is in the arrays the copies point to, in `net`, and
     * in the copy of the state, which is kept at the end. */
    Layout lay_copy = net->lay;
    VcNet copy = *state;
    /* The common case, four channels in a full-duplex network routed
     * obliviously, has a copy of the stages of its own, compiled with
     * those as constants: V's arithmetic and the tests for the other
     * cases fall away. */
    if (layered && copy.V == 4 && !copy.has_temp && lay_copy.compact && !lay_copy.cfg.adaptive) {
        copy.V = 4;
        copy.has_temp = false;
        copy.port_shift = 6;
        copy.link_shift = 2;
        lay_copy.cfg.full_duplex = true;
        lay_copy.compact = true;
        lay_copy.cfg.adaptive = false;
        lay_copy.multicast = false;
        run_layered(net, &lay_copy, &copy);
    } else if (layered)
        run_layered(net, &lay_copy, &copy);
    else
        run_stages(net, &lay_copy, &copy);
    /* The lists this timestep made are the next one's. */
    VcLanes *lanes = copy.arriving;
    copy.arriving = copy.arriving_next;
    copy.arriving_next = lanes;
    for (unsigned i = 0; i < LANE_LISTS; i++)
        copy.arriving_next[i].n = 0;
    *state = copy;
}

/* ---- its invariants ----------------------------------------------------------------- */

/* Where the packet in lane word w of the link channel at pos goes: the
 * list and `ahead` its entry must have (VcLaneEntry); the list's class is
 * ARRIVE_DELIVERY for a packet coming down to a processor. */
static void lane_goes(const Layout *lay, const VcNet *vc, uint32_t pos, uint32_t w, unsigned *list,
                      uint32_t *ahead)
{
    uint32_t link = channel_link(lay, vc->channel_at[pos]), s = link >> 1;
    if ((w & 1) == DIR_UP) {                /* into down port link & 1 of s */
        *ahead = 4 * s;
        *list = (link & 1) * LIST_LAYERS + sw_layer(lay, s);
        return;
    }
    const VcPort *sender = port_at(vc, 4 * s + (link & 1));
    *ahead = sender->ahead;
    *list = sender->list;
}

/* The lists of stage d against the lanes: every packet in a lane is in
 * the list its link leads to, once, or (coming down to a processor)
 * marked for stage c; and nothing else is. */
static int check_lists(const Net *net, char *err, size_t size)
{
    const VcNet *vc = net->lay.vc;
    const Layout *lay = &net->lay;
    uint8_t *seen = calloc((size_t)vc->nchannels * vc->V, 1);
    if (!seen) {
        snprintf(err, size, "net: out of memory checking the channels' lists");
        return -1;
    }
    const char *wrong = NULL;
    uint32_t bad = 0;           /* the lane that is wrong: pos * V + v */
    for (unsigned i = 0; i < LANE_LISTS && !wrong; i++)
        for (size_t j = 0; j < vc->arriving[i].n && !wrong; j++) {
            const VcLaneEntry *e = &vc->arriving[i].items[j];
            unsigned list;
            uint32_t ahead;
            if (e->pos >= vc->nchannels || e->v >= vc->V) {
                snprintf(err, size, "net: an entry of the lists of stage d names no lane");
                free(seen);
                return -1;
            }
            bad = e->pos * vc->V + e->v;
            if (link_at(vc, e->pos)[e->v] != e->word || e->word == 0 || seen[bad]++ != 0)
                wrong = "is listed for stage d without its packet, or twice";
            else if (lane_goes(lay, vc, e->pos, e->word, &list, &ahead), list != i || ahead != e->ahead)
                wrong = "is in the wrong list of stage d";
        }
    for (uint32_t pos = 0; pos < vc->nchannels && !wrong; pos++)
        for (unsigned v = 0; v < vc->V && !wrong; v++) {
            uint32_t w = link_at(vc, pos)[v];
            unsigned list;
            uint32_t ahead;
            if (w == 0)
                continue;
            lane_goes(lay, vc, pos, w, &list, &ahead);
            if (list / LIST_LAYERS == ARRIVE_DELIVERY ? !bit_is(vc->arrivals, ahead & (lay->nprocs - 1))
                                                      : !seen[(size_t)pos * vc->V + v]) {
                wrong = "holds a packet that no list of stage c or d has";
                bad = pos * vc->V + v;
            }
        }
    free(seen);
    if (wrong) {
        char name[64];
        net_link_name(net, channel_link(lay, vc->channel_at[bad / vc->V]), name, sizeof name);
        snprintf(err, size, "net/%s: its lane vc%u %s", name, bad % vc->V, wrong);
        return -1;
    }
    return 0;
}

int vc_check(const Net *net, char *err, size_t size)
{
    const VcNet *vc = net->lay.vc;
    const Layout *lay = &net->lay;
    char name[64];
    uint32_t lanes = 0;
    for (uint32_t pos = 0; pos < vc->nchannels; pos++) {
        const uint32_t *main = link_at(vc, pos);
        unsigned mask = 0;
        for (unsigned v = 0; v < vc->V; v++)
            mask |= (main[v] != 0) << v;
        lanes += (uint32_t)__builtin_popcount(mask);
        if (mask != vc->lane_mask[pos] || (vc->has_temp && main[vc->V] > vc->now) ||
            vc->position[vc->channel_at[pos]] != pos) {
            net_link_name(net, channel_link(lay, vc->channel_at[pos]), name, sizeof name);
            snprintf(err, size, "net/%s: its lanes' masks, temp slot or position is wrong",
                     name);
            return -1;
        }
    }
    for (uint32_t p = 0; p < lay->nprocs; p++)
        for (unsigned plane = 0; plane < lay->cfg.planes; plane++)
            for (unsigned d = 0; d < 2; d++)
                if (proc_position(lay, p, plane, d) !=
                    vc->position[link_channel(lay, proc_link(lay, p, plane), d)]) {
                    snprintf(err, size, "net/p%u: its link's place in the link loop is wrong", p);
                    return -1;
                }
    if (lanes != vc->busy_lanes) {
        snprintf(err, size, "net: %u lanes hold packets, %u counted", lanes, vc->busy_lanes);
        return -1;
    }
    for (uint32_t b = 0; b < lay->nbuffers; b++) {
        const VcPort *pt = port_at(vc, b);
        for (unsigned v = 0; v < vc->V; v++) {
            const VcQueue *q = &pt->queue[v];
            if ((q->count != 0) != (pt->nonempty >> v & 1)) {
                net_buffer_name(net, b * vc->V + v, name, sizeof name);
                snprintf(err, size, "net/%s: its port's mask of busy buffers is wrong", name);
                return -1;
            }
            uint32_t x = q->head, i = 1;    /* the thread reaches the tail */
            while (q->count >= 3 && i < q->count && x < vc->next_cap) {
                x = vc->next[x];
                i++;
            }
            if (q->count == 2)
                x = q->tail;
            if (q->count > vc->B || (q->count != 0 && x != q->tail)) {
                net_buffer_name(net, b * vc->V + v, name, sizeof name);
                snprintf(err, size, "net/%s: its count or list is wrong", name);
                return -1;
            }
        }
        if ((pt->nonempty != 0) != bit_is(vc->busy_ports, b) || pt->newly != 0 ||
            pt->second != 0 || pt->pointer >= vc->V) {
            net_buffer_name(net, b * vc->V, name, sizeof name);
            snprintf(err, size, "net/%s: its port's busy bit, stage-d marks or pointer is wrong", name);
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
    return check_lists(net, err, size);
}
