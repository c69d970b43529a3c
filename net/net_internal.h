/* The network's representation, private to net/: its structures, the
 * numbering its files share (net.h gives the public part of it), and the
 * declarations of what one file of net/ asks of another.
 *
 *   net.c        construction, shares, the reference stage beside this one
 *   pool.c       the packet pool
 *   adapter.c    the adapters: output slots, injection, input ports, reads
 *   sleep.c      sleeping packets, and waking them
 *   step.c       the fast network stage (stage 4, a-e)
 *   observe.c    where packets are: settling, describing, naming, events
 *   deadlock.c   a network deadlock told from a program deadlock
 *   check.c      the invariants, one checker per component
 *   reference.c  stage 4 exactly as machine.md writes it
 *   reference_compare.c  ...and its comparison with the fast stage
 *   encode.h     every packed word, with its bit diagram
 *
 * Words used throughout: a *sender* is what claims links: the output port
 * q of switch S with its buffer (index 4S + q), or processor p's adapter
 * on a plane (from index 4 * switches on). The state of a link's slot is
 * kept by one sender, its *keeper* (slot_keeper). A packet is named by its
 * *pool index* (1, 2, ...; NET_NIL is 0). In the code, x is a pool index,
 * h a sender, b a buffer, s a switch, ki the keeper of a slot and ks its
 * Sender record. */
#ifndef NET_NET_INTERNAL_H
#define NET_NET_INTERNAL_H

#include "common/hot.h"
#include "net/encode.h"
#include "net/net.h"
#include "net/reference.h"
#include "net/topology.h"

/* Waiting packets sleep (sleep.c explains): what on. */
typedef enum PacketSleep {
    AWAKE,                 /* handled every timestep */
    ASLEEP_BUFFER,         /* on a link, refused by a full buffer */
    ASLEEP_PORT,           /* on its last link, waiting for a full input port */
    ASLEEP_CLAIM           /* claiming a link whose packet sleeps */
} PacketSleep;

/* What a packet is, from the OUT that makes it on (Packet.info): what
 * the network stage reads only where the spec's order depends on age, and
 * a copy takes from its original. */
typedef struct PacketInfo {
    uint64_t id;           /* creation order, from 0 */
    uint64_t created;      /* timestep of its OUT */
    uint32_t src, dst;
} PacketInfo;

/* A multicast packet's destinations (multicast.md; multicast.c): a slice
 * of a list of members that it shares with its copies, or a range of
 * processors but its source. A packet whose set has one member is a
 * unicast (hi is 0, and info.dst its destination). */
typedef struct PacketSet {
    uint32_t list;          /* the list (Net.lists) it shares, or 0 for a range */
    uint32_t lo, hi;        /* the list's members [lo, hi), or processors [lo, hi);
                               hi is 0 for a unicast */
} PacketSet;

/* A packet's record in the pool: one cache line, so that whoever reads or
 * writes a packet whole -- injection, delivery, an IN, a multicast's split
 * -- reads or writes one line. While it is in flight, the network stage
 * does not touch it but to split a multicast: the packet travels as its
 * index through the buffers' places and the links' lists, and where it is
 * -- place, at, dir, layer, links, asleep, and next for a buffer's order
 * -- is written here only when somebody asks (net_settle), and at every
 * event when an observer watches. In an input port, `next` threads the
 * port's FIFO. */
typedef struct Packet {
    uint32_t next;         /* next packet in the same input port (or buffer,
                              once settled), or NET_NIL */
    uint32_t at;           /* place index: processor (its source, in the
                              output slot), wire, buffer or input port */
    uint32_t routing;      /* route: up ports (adaptive: filled in as it climbs) */
    uint32_t addressing;   /* route: down ports = low `count` bits of dst */
    uint32_t data;         /* the word it carries */
    uint8_t dir;           /* DIR_UP or DIR_DOWN */
    uint8_t place;         /* PacketPlace */
    uint8_t layer;         /* layer of its link or buffer's switch */
    uint8_t count, plane;  /* route */
    uint8_t port;          /* destination input port */
    uint8_t links;         /* links crossed so far (at most 2k) */
    uint8_t asleep;        /* PacketSleep: what it sleeps on, if anything */
    PacketSet set;         /* its destinations, if more than one */
    PacketInfo info;
} Packet;

_Static_assert(sizeof(Packet) == 64, "a packet is a cache line");

/* A packet asleep on an input port (Layout.port_waits, by pool index):
 * the keeper of the slot of its last link, and the next packet asleep on
 * that port. */
typedef struct PortWait {
    uint32_t keeper, next;
} PortWait;

/* An input port: a FIFO of packets threaded through Packet.next. */
typedef struct InputPort {
    uint32_t head, tail;   /* pool indices, NET_NIL when empty */
    uint16_t count;        /* packets in it (at most 1024) */
    uint16_t unused;
    uint32_t waiting;      /* the first packet asleep until it has room
                              (the others: their PortWait.next) */
} InputPort;

/* How many places a buffer keeps itself: buffers of up to this many places
 * (the default is 5) need nothing else; deeper ones keep their places in a
 * ring of their own, grown as they fill (Layout.rings). */
enum { INLINE_PLACES = 5 };

/* A sender: the output port q of switch S (index 4S + q), or from index
 * 4 * switches on a processor's adapter in one plane. Half a cache line,
 * which holds the port's output buffer -- a FIFO of packets in its places,
 * head first (a packet that leaves moves the others up), or for deeper
 * buffers a cyclic ring -- and the state of the slot of the link it keeps
 * (slot_keeper), so that a packet leaving a buffer touches this Sender
 * only, and a packet entering one the Sender it enters and its route
 * word. */
typedef struct Sender {
    uint16_t count;        /* packets in its buffer */
    uint8_t waiting;       /* bit a: the packet arriving on port a of this
                              switch sleeps until this buffer has room */
    uint8_t slot;          /* SLOT_* (encode.h): the state of the slot it keeps */
    uint32_t hop;          /* where the packets it sends go: a hop word
                              (encode.h), or 0 until it first sends */
    uint32_t slot_packet;  /* the packet in the slot it keeps, while that
                              packet is refused there (SLOT_BLOCKED); for
                              every packet on a link after net_settle */
    union {
        uint32_t place[INLINE_PLACES];  /* its packets: place words (encode.h) */
        struct {                        /* or, deeper buffers (Layout.rings): */
            uint16_t head;              /* the place of its head in its ring */
            uint8_t size;               /* its ring has min(8 << size, B) places */
        } ring;
    };
} Sender;

_Static_assert(sizeof(Sender) == 32, "two senders share a cache line");

/* What a half-duplex link has besides its main slot: its temp slot, the
 * sender that claims it in this timestep (a temp word, encode.h). */
typedef struct TempSlot {
    uint32_t temp;
} TempSlot;

/* A growable vector of packet (or other) indices. */
typedef struct IndexList {
    uint32_t *items;
    size_t n, cap;
} IndexList;

/* A packet on a link, awake: the packet itself, where it goes (the buffer
 * it will enter, or on the last link down the processor on a plane it
 * comes to: hop_target) and the keeper of the link's slot, with
 * KEEPER_REFUSED when the packet was refused before and so is in the slot
 * (encode.h). Stages d and c find all they need here, and write only the
 * line of the buffer the packet enters. */
typedef struct OnLink {
    uint32_t packet, target, keeper;
} OnLink;

typedef struct OnLinkList {
    OnLink *items;
    size_t n, cap;
} OnLinkList;

/* A packet that entered a buffer right behind its head in a stage d: a
 * buffer collision, unless the head leaves in that timestep's stage e
 * (step.c, take_back_collisions). */
typedef struct Behind {
    uint32_t buffer, packet;
} Behind;

typedef struct BehindList {
    Behind *items;
    size_t n, cap;
} BehindList;

/* Stage d visits the packets on links in four rounds, by the port they
 * arrive on (d0, d1, u0, u1), and stage c delivers those coming down last
 * links: so the packets on links are kept by arrival class. And stages d
 * and e go through the network a layer at a time (step.c explains), so
 * the lists are kept by the layer of the switch concerned as well: the
 * one a packet on a link arrives at (deliveries: layer 1), the one a
 * claimant's buffer belongs to (adapters: layer 1). Layers are 1..k, k <=
 * 24; index 0 is unused. */
enum { ARRIVE_DELIVERY = 4, ARRIVAL_CLASSES = 5, LIST_LAYERS = 32 };

/* A part of a multicast's set (mc_split): its members below one down port
 * of a switch, how many (0: none) and the lowest. */
typedef struct McPart {
    PacketSet set;
    uint32_t n, lowest;
} McPart;

/* A list of members, ascending, shared by a multicast and its copies. */
typedef struct MemberList {
    uint32_t *members;
    uint32_t n, refs;       /* how many members; packets that hold it */
} MemberList;

/* A split in a stage d (multicast.md): the copy gets its id after the
 * stage, in the spec's loop order of the links the packets came on. */
typedef struct Split {
    uint64_t key;           /* the place of that link in the loop */
    uint32_t packet, copy;  /* pool indices */
    uint32_t sw;            /* the switch */
    uint32_t buffer;        /* the buffer the copy entered */
} Split;

typedef struct SplitList {
    Split *items;
    size_t n, cap;
    uint64_t *order;        /* room for 2 * cap words: mc_give_ids sorts here */
} SplitList;

/* What the network stage counts: machine.md's statistics, and the sleeping
 * packets (step.c), whose collisions and port waits are added every
 * timestep: by direction and layer, as the collisions are charged. */
typedef struct Counters {
    NetStats stats;
    uint64_t *asleep_link[2], *asleep_buffer[2];
    uint64_t asleep_port, asleep;     /* port waiters; all sleepers */
} Counters;

/* A thread's share of the network stage (step.c): the active lists of the
 * packets it handles and the counters it adds to. Without shares there is
 * one, for both planes, counting straight into the network's statistics;
 * with shares each plane has its own, and its counters are added after
 * each timestep. */
typedef struct NetShare {
    /* Senders whose packet claims a link this timestep (buffers and
     * adapters), and awake packets on links, by [class][layer] (above);
     * and the next timestep's. */
    IndexList claimants[LIST_LAYERS], next_claimants[LIST_LAYERS];
    OnLinkList on_links[ARRIVAL_CLASSES][LIST_LAYERS];
    OnLinkList next_on_links[ARRIVAL_CLASSES][LIST_LAYERS];
    IndexList touched;              /* with an observer: buffers entered in this stage d */
    BehindList behind;              /* packets that entered right behind a head in it */
    IndexList woken;                /* processors whose output slot emptied */
    SplitList splits;               /* multicasts split in this stage d */
    Counters *counts;               /* where it counts: the network's, or delta */
    Counters delta;                 /* with shares: this timestep's counts */
    bool moved;
    bool roomy;                     /* its lists have all the room they can need */
} NetShare;


/* Where everything is: the network's shape and options, and its arrays.
 * The network stage reads these for every packet and never changes them
 * during a timestep (the pool's arrays move only when injection grows
 * them), so its loops work on a copy of their own (step.c), which the
 * compiler can keep in registers across the loops' stores. */
typedef struct Layout {
    NetConfig cfg;
    uint32_t nprocs, half;          /* N and H = N/2 */
    uint32_t nswitches;             /* planes * k * H */
    uint32_t nbuffers;              /* 4 * nswitches: the first adapter's sender */
    uint8_t row_layer[64];          /* the layer of the switches of row s >> (k - 1) */
    bool compact;                   /* routes are words of routes[] (k <= 16) */
    Packet *pool;                   /* packet storage */
    uint32_t *routes;               /* each packet's route as it travels, by pool
                                       index (route_word) */
    Sender *senders;                /* 4 per switch, 4S + q; then the adapters,
                                       4 * nswitches + (plane << k | p) */
    uint32_t **rings;               /* buffers of more than INLINE_PLACES places:
                                       each one's ring, or NULL until used */
    TempSlot *temp_slots;           /* --duplex half: per link */
    PortWait *port_waits;           /* by pool index */
    bool multicast;                 /* a multicast was made: sets to look at */
    InputPort *ports;               /* P per processor */
    uint32_t *out_slot;             /* per processor: packet, NET_NIL or NET_RESERVED */
    struct VcNet *vc;               /* with V > 1 virtual channels: their network
                                       stage's state (vchannels.c), else NULL */
} Layout;

struct Net {
    Layout lay;
    bool settled;                   /* the pool says where every packet is (net_settle) */
    uint32_t pool_cap, outstanding;
    uint32_t *free_stack, nfree;    /* the free pool indices, the next on top */
    uint64_t next_id;               /* id of the next packet made */
    MemberList *lists;              /* multicasts' lists of members, from index 1 */
    uint32_t nlists, lists_cap;
    uint32_t *free_lists, nfree_lists;   /* indices of lists no packet holds */
    uint8_t *entered;               /* per buffer, with an observer: packets
                                       that entered it in this timestep's
                                       stage d (<= 4), else 0 */
    uint64_t *requests_made;        /* per processor: send requests so far */
    uint64_t in_flight;             /* packets in slots, links and buffers */
    NetShare *share;                /* the active lists: one share, or one per plane (2) */
    unsigned nshares;
    Runner *runner;                 /* with shares: runs them at once */
    void *runner_ctx;
    size_t parallel_min;            /* ...when a timestep has this many packets to handle */
    uint8_t *arrivals_down;         /* per processor: bit plane, a packet
                                       arrives down that plane's link */
    uint32_t *arriving;             /* ...and which, by processor on a plane */
    IndexList woken;                /* processors whose input port received a
                                       packet or whose output slot emptied in
                                       this timestep's network stage (the
                                       machine wakes the ones that wait) */
    Counters counts;
    NetEventFn *event;              /* optional observer (trace, routes) */
    void *event_ctx;
    Reference *reference;           /* run beside this one, if asked for */
    char *reference_error;          /* ...its first difference, or NULL */
    uint64_t timestep;              /* the timestep being run */
    bool moved;                     /* something changed place this timestep */
    NetStepResult result;           /* ...and the rest of net_step's answer */
};

#define NET_RESERVED UINT32_MAX   /* an output slot promised to a request */

/* Switch (plane, layer, j). */
static inline uint32_t sw_index(const Layout *lay, unsigned plane, unsigned layer, uint32_t j)
{
    return ((plane * lay->cfg.k + layer - 1) << (lay->cfg.k - 1)) + j;
}

static inline uint32_t sw_j(const Layout *lay, uint32_t s) { return s & (lay->half - 1); }

/* The layer (1..k) of switch s: s >> (k - 1) is its row, plane * k +
 * layer - 1, whose layer a table gives (net_new). */
static inline unsigned sw_layer(const Layout *lay, uint32_t s)
{
    return lay->row_layer[s >> (lay->cfg.k - 1)];
}

/* The wire of link `link` that a packet travelling in `dir` is on. */
static inline uint32_t link_wire(const Layout *lay, uint32_t link, unsigned dir)
{
    return lay->cfg.full_duplex ? 2 * link + dir : link;
}

static inline uint32_t wire_link(const Layout *lay, uint32_t c)
{
    return lay->cfg.full_duplex ? c >> 1 : c;
}

/* The plane-`plane` link of processor p (layer 1). */
static inline uint32_t proc_link(const Layout *lay, uint32_t p, unsigned plane)
{
    return 2 * sw_index(lay, plane, 1, topo_proc_switch(p)) + topo_proc_port(p);
}

/* The link above up port b of switch s at layer l < k: link 2S' + x, where
 * S' = (l+1, j') is the switch it reaches and x the down port it arrives on.
 * The topology's functions read and replace bit l - 1 of j = s mod H, which
 * is bit l - 1 of s itself (l - 1 < k - 1), so they are given s: the bits
 * above j (plane and layer) pass through, and + H is the layer above. */
static inline uint32_t up_link(const Layout *lay, uint32_t s, unsigned l, unsigned b)
{
    uint32_t upper = topo_up_switch(l, s, b) + lay->half;
    return 2 * upper + topo_up_arrival_port(l, s);
}

/* The link attached to port q (0 d0, 1 d1, 2 u0, 3 u1) of switch s at layer l. */
static inline uint32_t port_link(const Layout *lay, uint32_t s, unsigned l, unsigned q)
{
    return q < 2 ? 2 * s + q : up_link(lay, s, l, q - 2);
}

/* Where a packet going down link 2S + x (link layer l > 1) arrives: the
 * switch below and its up port (2 + b). As in up_link, bit l - 2 of j is
 * that of S, and - H is the layer below. */
static inline uint32_t down_target(const Layout *lay, uint32_t link, unsigned l, unsigned *q)
{
    uint32_t s = link >> 1;
    *q = 2 + topo_down_arrival_port(l, s);
    return topo_down_switch(l, s, link & 1) - lay->half;
}

/* ---- senders --------------------------------------------------------------
 *
 * A sender sends into one link: a switch's down port into the link below
 * it (to the switch below, or at layer 1 to a processor), an up port into
 * the link above it, an adapter into its processor's link. The packet it
 * sends is heading, once on the link, for `claim_heading`: the port of the
 * switch it will enter, or the processor it comes down to.
 *
 * The state of a link's slot (encode.h, the slot word) is kept by one
 * sender, its keeper (slot_keeper): with --duplex full the link's only
 * sender in that direction; with --duplex half, where both ends of a link
 * send into its one slot, the down port of the switch above. */

static inline bool is_adapter(const Layout *lay, uint32_t h) { return h >= lay->nbuffers; }

/* The adapter of processor p in a plane, and back. */
static inline uint32_t adapter_sender(const Layout *lay, unsigned plane, uint32_t p)
{
    return lay->nbuffers + proc_on_plane(lay->cfg.k, p, plane);
}

static inline uint32_t adapter_proc(const Layout *lay, uint32_t h)
{
    return pop_proc(lay->cfg.k, h - lay->nbuffers);
}

/* The plane of switch s: its row s >> (k - 1) is plane * k + layer - 1. */
static inline unsigned sw_plane(const Layout *lay, uint32_t s)
{
    return (s >> (lay->cfg.k - 1)) >= lay->cfg.k;
}

static inline unsigned sender_plane(const Layout *lay, uint32_t h)
{
    if (is_adapter(lay, h))
        return pop_plane(lay->cfg.k, h - lay->nbuffers);
    return sw_plane(lay, h >> 2);
}

/* Where a packet that sender h sends will be heading on the link (a
 * heading, encode.h), with the layer of that link, and its direction. */
HOT uint32_t claim_heading(const Layout *lay, uint32_t h, unsigned *layer, unsigned *dir)
{
    if (is_adapter(lay, h)) {
        uint32_t p = adapter_proc(lay, h);
        uint32_t s = sw_index(lay, sender_plane(lay, h), 1, topo_proc_switch(p));
        *layer = 1;
        *dir = DIR_UP;
        return heading_port(4 * s + topo_proc_port(p));
    }
    uint32_t s = h >> 2;
    unsigned q = h & 3, l = sw_layer(lay, s);
    if (q >= 2) {                   /* up, into a down port of the switch above */
        uint32_t link = up_link(lay, s, l, q - 2);
        *layer = l + 1;
        *dir = DIR_UP;
        return heading_port(4 * (link >> 1) + (link & 1));
    }
    *layer = l;
    *dir = DIR_DOWN;
    if (l == 1)
        return heading_proc(proc_on_plane(lay->cfg.k, topo_down_proc(sw_j(lay, s), q),
                                          sw_plane(lay, s)));
    unsigned arrival;
    uint32_t below = down_target(lay, 2 * s + q, l, &arrival);
    return heading_port(4 * below + arrival);
}

/* The link (2S + x) that sender h sends into, given its claim_heading. */
static inline uint32_t claim_link(const Layout *lay, uint32_t h, uint32_t heading, unsigned dir)
{
    (void)lay;
    if (dir == DIR_UP) {            /* into down port x of the switch S above */
        uint32_t port = heading_value(heading);
        return 2 * (port >> 2) + (port & 1);
    }
    return 2 * (h >> 2) + (h & 3);
}

/* The keeper of the slot of the link that h sends into. */
static inline uint32_t slot_keeper(const Layout *lay, uint32_t h, uint32_t heading, unsigned dir)
{
    if (lay->cfg.full_duplex || dir == DIR_DOWN)
        return h;
    return heading_value(heading);  /* 4S + x: the down port x of the switch above */
}

/* The sender that sends up into link 2S + x, S at layer l: the adapter of
 * processor 2j + x at layer 1, else an up port of the switch below. */
static inline uint32_t up_sender(const Layout *lay, uint32_t s, unsigned l, unsigned x)
{
    if (l == 1)
        return adapter_sender(lay, sw_plane(lay, s), topo_down_proc(sw_j(lay, s), x));
    unsigned q;
    uint32_t below = down_target(lay, 2 * s + x, l, &q);
    return 4 * below + q;
}

/* The keeper of the slot of the link that arrives on port a of switch s
 * (at layer l): from below (a = 0, 1) the link 2s + a going up, from above
 * (a = 2, 3) the link above up port a - 2 going down. */
static inline uint32_t arrival_keeper(const Layout *lay, uint32_t s, unsigned l, unsigned a)
{
    if (a >= 2) {
        uint32_t link = up_link(lay, s, l, a - 2);
        return 4 * (link >> 1) + (link & 1);
    }
    return lay->cfg.full_duplex ? up_sender(lay, s, l, a) : 4 * s + a;
}

/* ---- buffers -------------------------------------------------------------- */

/* The places of buffer b (its Sender buf): on its own line, or its ring;
 * each holds a place word (encode.h). */
static inline uint32_t *places_of(const Layout *lay, Sender *buf, uint32_t b)
{
    return lay->rings == NULL ? buf->place : lay->rings[b];
}

/* How many places its ring has now: B, or for deeper buffers what it has
 * grown to. */
static inline unsigned ring_capacity(const Layout *lay, const Sender *buf)
{
    if (lay->rings == NULL)
        return lay->cfg.buffer;
    unsigned cap = 8u << buf->ring.size;
    return cap < lay->cfg.buffer ? cap : lay->cfg.buffer;
}

/* The place word of buffer b's head (b holds a packet): the first of its own
 * places, or its ring's head. */
static inline uint32_t head_word(const Layout *lay, const Sender *buf, uint32_t b)
{
    return lay->rings == NULL ? buf->place[0] : lay->rings[b][buf->ring.head];
}

/* ---- routes and hops ----------------------------------------------------------- */

/* Packet pk's route word (encode.h), which networks of k <= 16 keep by
 * pool index; larger networks read the route from the pool. */
static inline uint32_t packet_route_word(const Layout *lay, const Packet *pk)
{
    return lay->compact ? route_word(pk->routing, pk->count, pk->addressing) : 0;
}

/* Packet x's route: its up ports with a 1 above them at bit count - 1, and
 * its down ports. */
HOT void packet_route(const Layout *lay, uint32_t x, uint32_t *up, uint32_t *down)
{
    if (lay->compact) {
        uint32_t w = lay->routes[x];
        *up = route_word_up(w);
        *down = route_word_down(w);
    } else {
        const Packet *pk = &lay->pool[x];
        *up = pk->routing | 1u << (pk->count - 1);
        *down = pk->addressing;
    }
}

/* The output port of switch layer l that a packet with route (up, down)
 * takes, arriving going up or coming down. */
HOT unsigned route_out(uint32_t up, uint32_t down, unsigned l, bool going_up)
{
    if (going_up && (up >> l) != 0)
        return 2 + ((up >> (l - 1)) & 1);
    return (down >> (l - 1)) & 1;             /* the turn, or on the way down */
}

/* The output port that packet x, in buffer b, will take in the switch that
 * b's link leads to (0 when the link goes down to a processor). */
HOT unsigned next_port(const Layout *lay, uint32_t b, uint32_t x)
{
    uint32_t up, down;
    packet_route(lay, x, &up, &down);
    unsigned l = sw_layer(lay, b >> 2);
    if ((b & 3) >= 2) {             /* up, into the switch of layer l + 1 */
        bool turns = (up >> (l + 1)) == 0;
        return turns ? (down >> l) & 1 : 2 + ((up >> l) & 1);
    }
    /* Down, into an up port of layer l - 1: bit l - 2 of down (from layer
     * 1, nothing: the shift by one more makes it 0 without a branch). */
    return ((down << 1) >> (l - 1)) & 1;
}

/* Where a packet that sender h sends will go once it is on the link, but
 * for the port it takes there: 4S for switch S ahead, whose buffer 4S + q
 * its route names (q: next_port, for an adapter route_out at layer 1); or
 * on the last link down, the processor on a plane it comes to. *class is
 * its arrival class: the port it arrives on, or ARRIVE_DELIVERY. This is
 * claim_heading's walk written out for the hot path, without the heading
 * it would have to unpack; test_net_internals checks that the two agree
 * for every sender. */
HOT uint32_t hop_switch(const Layout *lay, uint32_t h, unsigned *class)
{
    if (is_adapter(lay, h)) {
        uint32_t p = adapter_proc(lay, h);
        *class = topo_proc_port(p);
        return 4 * sw_index(lay, sender_plane(lay, h), 1, topo_proc_switch(p));
    }
    uint32_t s = h >> 2;
    unsigned q = h & 3, l = sw_layer(lay, s);
    if (q >= 2) {                   /* up, into a down port of the switch above */
        *class = topo_up_arrival_port(l, s);
        return 4 * (topo_up_switch(l, s, q - 2) + lay->half);
    }
    if (l == 1) {                   /* down the last link */
        *class = ARRIVE_DELIVERY;
        return proc_on_plane(lay->cfg.k, topo_down_proc(sw_j(lay, s), q), sw_plane(lay, s));
    }
    *class = 2 + topo_down_arrival_port(l, s);
    return 4 * (topo_down_switch(l, s, q) - lay->half);
}

/* The layer of the lists (NetShare) that sender h is listed in as a
 * claimant: its switch's, or for an adapter 1. */
static inline unsigned sender_list_layer(const Layout *lay, uint32_t h)
{
    return is_adapter(lay, h) ? 1 : sw_layer(lay, h >> 2);
}

/* ...and that a packet on a link, of arrival class c going to `target`
 * (hop_target), is listed in: the layer of the switch it arrives at, or
 * for a delivery 1. */
static inline unsigned link_list_layer(const Layout *lay, unsigned c, uint32_t target)
{
    return c == ARRIVE_DELIVERY ? 1 : sw_layer(lay, target >> 2);
}

/* Buffer b's hop word (Sender.hop, encode.h), in networks whose routes are
 * words. Stage e works it out the first time a buffer sends and reads it
 * after that, from the line it reads for the claim anyway: working it out
 * for every claim would cost a walk of the topology and a branch on the
 * direction that the host cannot predict. It is written when the buffer
 * is first used, not when the network is made, so that an idle network
 * touches no buffer. */
_Static_assert(LIST_LAYERS == 1 << HOP_LAYER_BITS, "a hop word keeps a list's layer");

HOT uint32_t hop_word(const Layout *lay, uint32_t b)
{
    unsigned class;
    uint32_t ahead = hop_switch(lay, b, &class);
    return hop_pack(ahead, class, link_list_layer(lay, class, ahead));
}

/* Where packet x, sent by sender h, will go once it is on the link: the
 * buffer that its route names in the switch ahead, which it will try to
 * enter in the next stage d (for adaptive routing, on the way up, u0:
 * stage d chooses), or on the last link down, the processor on a plane it
 * comes to; with its arrival class. Stage e adds to hop_switch the port
 * kept in the place word of a buffer's head, or for an adapter's packet
 * the first port of its route. */
HOT uint32_t hop_target(const Layout *lay, uint32_t h, uint32_t x, unsigned *class)
{
    uint32_t base = hop_switch(lay, h, class);
    if (is_adapter(lay, h)) {
        uint32_t up, down;
        packet_route(lay, x, &up, &down);
        return base + route_out(up, down, 1, true);
    }
    return base + next_port(lay, h, x);
}

/* The links a packet has crossed: in a buffer of switch layer l, or on a
 * link of layer l, going up or down, with its route's count c. */
static inline unsigned links_in_buffer(unsigned l, unsigned dir, unsigned c)
{
    return dir == DIR_UP ? l : 2 * c - l;
}

static inline unsigned links_on_link(unsigned l, unsigned dir, unsigned c)
{
    return dir == DIR_UP ? l : 2 * c - l + 1;
}

/* The link (2S + x) whose slot sender ki keeps, for a packet on it going
 * `dir`: with --duplex full the link ki sends into, with --duplex half the
 * link below down port x of S = ki >> 2. */
static inline uint32_t slot_link(const Layout *lay, uint32_t ki, unsigned dir)
{
    if (dir == DIR_UP && lay->cfg.full_duplex) {
        unsigned layer, d;
        uint32_t heading = claim_heading(lay, ki, &layer, &d);
        return claim_link(lay, ki, heading, d);
    }
    return 2 * (ki >> 2) + (ki & 3);
}

/* Records in the pool that packet x is on link `link` going `dir` (its
 * place for reports and observers; net_settle). */
static inline void settle_on_link(Net *net, uint32_t x, uint32_t link, unsigned dir,
                                  PacketSleep asleep)
{
    Packet *pk = &net->lay.pool[x];
    unsigned l = sw_layer(&net->lay, link >> 1);
    pk->place = PLACE_LINK;
    pk->at = link_wire(&net->lay, link, dir);
    pk->dir = (uint8_t)dir;
    pk->layer = (uint8_t)l;
    pk->links = (uint8_t)links_on_link(l, dir, pk->count);
    pk->asleep = (uint8_t)asleep;
}

/* ...that it is in buffer b, before packet `next` (NET_NIL: the last). */
static inline void settle_in_buffer(Net *net, uint32_t x, uint32_t b, uint32_t next,
                                    PacketSleep asleep)
{
    Packet *pk = &net->lay.pool[x];
    unsigned l = sw_layer(&net->lay, b >> 2), dir = (b & 3) >= 2 ? DIR_UP : DIR_DOWN;
    pk->place = PLACE_BUFFER;
    pk->at = b;
    pk->next = next;
    pk->dir = (uint8_t)dir;
    pk->layer = (uint8_t)l;
    pk->links = (uint8_t)links_in_buffer(l, dir, pk->count);
    pk->asleep = (uint8_t)asleep;
}

/* The link and direction of an awake packet on a link: listed in class c
 * with its target and keeper word (OnLink). */
static inline uint32_t listed_link(const Layout *lay, unsigned c, uint32_t target, uint32_t ki,
                                   unsigned *dir)
{
    if (c < 2) {
        *dir = DIR_UP;
        return 2 * (target >> 2) + c;
    }
    *dir = DIR_DOWN;
    return slot_link(lay, keeper_of(ki), DIR_DOWN);
}

/* The share that handles sender h's packets: its plane's, or the only one. */
static inline unsigned share_index(const Net *net, uint32_t h)
{
    return net->nshares > 1 ? sender_plane(&net->lay, h) : 0;
}

/* Writes into the pool where each packet in flight is (Packet: place, at,
 * dir, layer, links, asleep, and next in a buffer), and into each link's
 * slot the packet on it, for every reader; until the next net_step or
 * net_inject (net.c). */
void net_settle(Net *net);

/* Describes packet x as it is in the pool (settled). */
void net_describe(const Net *net, uint32_t x, NetPacket *pk);

/* The packet `i` places behind the head of buffer b (0: the head), or
 * NET_NIL beyond its count; the packet on wire c, or NET_NIL (it
 * settles the network). */
uint32_t buffer_packet_at(const Layout *lay, uint32_t b, uint32_t i);
uint32_t link_packet_at(Net *net, uint32_t c);

/* Whether packets may sleep (sleep.c): not when every event must be
 * reported. */
static inline bool may_sleep(const Net *net) { return net->event == NULL; }

/* Each timestep, every sleeper fails once more: its collision or port
 * wait is added (sleep.c; called when some packet sleeps). */
void count_sleepers(Net *net);

/* Wakes the claimants asleep on the slot that sender ki keeps (its Sender
 * ks): puts them in woken[] (at most two) and returns how many (sleep.c). */
unsigned wake_claims(Net *net, Counters *st, uint32_t ki, Sender *ks, uint32_t woken[2]);

/* Makes a packet and gives it a pool index; frees one (pool.c). Before a
 * stage that makes copies, room for n more, so that pool_take, unlike
 * pool_alloc, never moves the pool's arrays. */
uint32_t pool_alloc(Net *net);
void pool_release(Net *net, uint32_t x);
void pool_reserve(Net *net, size_t n);
uint32_t pool_take(Net *net);

/* Multicast (multicast.c). Packet x's set made from a request's (at
 * least one member; one: a unicast); its set as reports show it (false
 * for a unicast); the parts of its set below the two down ports of a
 * switch of layer l (mc_split, below), for a list; x divided into those
 * parts, returning the copy (without an id yet); the copies' ids, given
 * after a stage d. */
void mc_make(Net *net, uint32_t x, const DestSet *set);
bool mc_describe(const Net *net, uint32_t x, DestSet *set);
void mc_split_list(const Net *net, const Packet *pk, unsigned l, McPart part[2]);
uint32_t mc_divide(Net *net, uint32_t x, const McPart part[2]);
void mc_give_ids(Net *net);

/* The part [lo, hi) of a range set of a packet from processor src: the
 * range's members are its processors but the source. */
static inline void mc_range_part(McPart *part, uint32_t lo, uint32_t hi, uint32_t src)
{
    bool has_src = src >= lo && src < hi;
    part->set = (PacketSet){ 0, lo, hi };
    part->n = hi > lo ? hi - lo - has_src : 0;
    part->lowest = lo == src ? lo + 1 : lo;
}

/* The parts of packet x's set below the two down ports of a switch of
 * layer l that it reaches going down. The members below such a switch
 * agree in every bit from l up, so in ascending order they are grouped by
 * bit l - 1: the parts are a cut of the range, found by arithmetic (here,
 * in the stage's loop: a broadcast splits at every switch on its way),
 * or of the list's slice, found by a binary search (multicast.c). */
static inline void mc_split(const Net *net, uint32_t x, unsigned l, McPart part[2])
{
    const Packet *pk = &net->lay.pool[x];
    if (pk->set.list) {
        mc_split_list(net, pk, l, part);
        return;
    }
    uint32_t bit = 1u << (l - 1), lo = pk->set.lo, hi = pk->set.hi;
    uint32_t cut = (lo & ~(2 * bit - 1)) + bit;        /* the first with the bit set */
    mc_range_part(&part[0], lo, hi < cut ? hi : cut, pk->info.src);
    mc_range_part(&part[1], lo > cut ? lo : cut, hi, pk->info.src);
}

/* The place, in the spec's loop over links, of the link that a packet
 * arriving at switch s in a class comes on (a split's key). */
static inline uint64_t mc_link_key(const Layout *lay, uint32_t s, unsigned class)
{
    uint64_t procs = (uint64_t)lay->nprocs * lay->cfg.planes;
    unsigned l = sw_layer(lay, s), dirs = lay->cfg.full_duplex ? 2 : 1;
    if (class >= 2)                         /* down the link above up port class - 2 */
        return procs + ((uint64_t)s * 2 + (class - 2)) * dirs + (dirs - 1);
    if (l == 1)                             /* up a processor's link */
        return (uint64_t)topo_down_proc(sw_j(lay, s), class) * lay->cfg.planes +
               sw_plane(lay, s);
    unsigned port;                          /* up the link above a lower switch */
    uint32_t below = down_target(lay, 2 * s + class, l, &port);
    return procs + ((uint64_t)below * 2 + (port - 2)) * dirs;
}

/* For an observer, after mc_give_ids: a split, and the copy it made
 * entering its buffer (observe.c). */
void net_emit_split(Net *net, const Split *split);

/* Tells the observer, if any, what happened to packet x at `place`
 * (observe.c). */
void net_emit(Net *net, NetEventKind kind, uint32_t x, uint32_t place, PacketPlace place_kind,
              unsigned layer, unsigned value);

/* For the invariant check and the deadlock analysis (observe.c): whether
 * sender h's claim (it has a packet to send) sleeps; the keeper of
 * wire c's slot; how many senders there are; the place word of the
 * i-th packet of buffer b. */
bool claim_sleeps(const Net *net, uint32_t h);
uint32_t wire_keeper(const Layout *lay, uint32_t c);
size_t sender_count(const Net *net);
uint32_t buffer_place_word(const Layout *lay, uint32_t b, uint32_t i);

/* Stage 4 of timestep t in the reference stage, and the comparison of its
 * outcome with the fast stage's; and the record of the first difference,
 * after which the reference stage is not run again (net.c). */
void net_step_reference(Net *net, uint64_t t);
void net_reference_failed(Net *net, const char *what);

/* Virtual channels, V > 1 (vchannels.c): the state of their network
 * stage, which replaces step.c's; the packet just put in processor p's
 * output slot; stage 4; and what is in channel buffer cb (its count, the
 * packet at place i, 0 the head, or NET_NIL) and in a lane. */
typedef struct VcNet VcNet;
VcNet *vc_new(const Layout *lay);
uint64_t vc_bytes(const Layout *lay);
void vc_free(VcNet *vc);
void vc_injected(Net *net, uint32_t p);
void vc_step(Net *net);
uint32_t vc_buffer_count(const VcNet *vc, uint32_t cb);
uint32_t vc_buffer_packet_at(const VcNet *vc, uint32_t cb, uint32_t i);
uint32_t vc_lane_packet(const VcNet *vc, uint32_t lane);
/* Writes into the pool where each packet in a lane or buffer is (net_settle). */
void vc_settle(Net *net);
/* Sets the number of the last stage run (for the tests: its numbers wrap
 * after 2^32 timesteps). */
void vc_set_stage(VcNet *vc, uint32_t now);
/* ...and its own bookkeeping true to that (the bitmaps, the claims and
 * stage d's counts cleared): 0, or -1 with what is broken in err. */
int vc_check(const Net *net, char *err, size_t size);

/* Counts a delivered packet's latency (step.c); and stage c's delivery of
 * packet x, which has left its link, into its input port of processor p,
 * which has room (adapter.c). */
void net_record_latency(NetStats *st, uint64_t latency);
void net_deliver(Net *net, uint32_t x, uint32_t p);

/* Makes room for n entries in a list (step.c); and appends to a list
 * that has room. */
void net_list_reserve(IndexList *l, size_t n);
void net_links_reserve(OnLinkList *l, size_t n);

static inline void list_push(IndexList *l, uint32_t x)
{
    l->items[l->n++] = x;
}

static inline void links_push(OnLinkList *l, uint32_t x, uint32_t target, uint32_t keeper)
{
    l->items[l->n++] = (OnLink){ x, target, keeper };
}

/* Wakes the packets asleep on input port `port` (an index into net->lay.ports:
 * processor * ports + port) after an IN read it (step.c). */
void net_wake_port(Net *net, uint32_t port);

#endif
