/* The network: two planes of folded Beneš networks of 2x2 crossbar switches,
 * the links between them, and each processor's network adapter
 * (spec/machine.md, thesis 4.1-4.2 and 5.1-5.5).
 *
 * Components and how they are numbered (no division anywhere: every index
 * is built from shifts, since N/2 = H is a power of two):
 *
 *   switch  S = (plane * k + layer - 1) * H + j     j in [0, H), layer 1..k
 *   buffer  4S + q      the output buffer of port q of switch S,
 *                       q = 0 d0, 1 d1, 2 u0, 3 u1 (a cyclic FIFO of B places)
 *   link    2S + x      the link attached to down port x of switch S: for
 *                       layer 1 the link of processor 2j + x, else the link
 *                       from an up port of a switch of the layer below. So a
 *                       link's layer is the layer of the switch above it.
 *   channel a link's slots: with --duplex half one channel per link, shared
 *           by both directions; with --duplex full one per direction,
 *           2 * link + dir (dir 0 up, 1 down).
 *   holder  a Buffer: 4S + q the output port q of switch S, and from
 *           4 * nswitches on, plane * N + p, processor p's adapter in a
 *           plane. A holder keeps packets in its places (a switch's output
 *           buffer) and the state of a link's slot (net_internal.h).
 *
 * Memory layout follows the hops: a packet travels as its pool index,
 * copied from place to place: from the places of the buffer it leaves to a
 * list of packets on links (stage e), and from there to the places of the
 * buffer it enters (stage d). A Buffer is half a cache line, with its
 * places and its slot, and a packet's route is a word of its own
 * (Net.routes), so a hop touches the two buffers and the route besides the
 * lists, which are read and written in order; the route is read as the
 * packet enters a buffer (stage d, which knows ahead which packets come),
 * not as it leaves (stage e, where the packet is known only once its
 * buffer is read), since a place keeps the port the packet will take next
 * with it. The pool's record of the packet is read when it is made and
 * delivered only (docs/performance.md, items 39 and 40). Input ports are
 * FIFOs threaded through the packets in the pool. Packets there are named
 * by index (from 1: 0 is NET_NIL).
 *
 * The four network sub-stages of a timestep (machine.md 4a-4e) are one call,
 * net_step; the processors (stage 1), routing (2) and injection (3) happen
 * before it through net_out_free/net_reserve_out, the router and net_inject.
 * The network keeps active lists -- packets that will claim a link (adapter
 * output slots and buffer heads) and packets standing on links -- so a
 * timestep costs in proportion to the packets in flight, never to the size
 * of the network. */
#ifndef NET_NET_H
#define NET_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "net/route.h"

/* "No packet". Pool index 0 is never a packet, so that every slot, link
 * and FIFO that memory fresh from calloc describes is empty: the network's
 * large arrays cost nothing until they are used. */
#define NET_NIL 0u

typedef struct NetConfig {
    unsigned k;            /* log2 of the number of processors, >= 1 */
    unsigned planes;       /* 1 or 2 */
    bool full_duplex;      /* --duplex full */
    unsigned buffer;       /* places per switch output buffer, B */
    unsigned ports;        /* input ports per processor, P */
    unsigned port_depth;   /* places per input port, D */
    bool adaptive;         /* up ports chosen as packets climb (--routing adaptive) */
} NetConfig;

typedef enum PacketPlace {
    PLACE_FREE,            /* free: on the pool's free stack */
    PLACE_SLOT,            /* in its source's adapter output slot */
    PLACE_LINK,            /* in a link channel's main slot */
    PLACE_BUFFER,          /* in a switch output buffer */
    PLACE_PORT             /* delivered, in an input port of its destination */
} PacketPlace;

enum { DIR_UP = 0, DIR_DOWN = 1 };

/* Waiting packets sleep (step.c explains): what on. */
typedef enum PacketSleep {
    AWAKE,                 /* handled every timestep */
    ASLEEP_BUFFER,         /* on a link, refused by a full buffer */
    ASLEEP_PORT,           /* on its last link, waiting for a full input port */
    ASLEEP_CLAIM           /* claiming a link whose packet sleeps */
} PacketSleep;

/* A packet's record in the pool. While it is in flight, the network stage
 * does not touch it: the packet travels as its index through the buffers'
 * places and the links' lists, and where it is -- place, at, dir,
 * layer, links, asleep, and next for a buffer's order -- is written here
 * only when somebody asks (net_settle, step.c), and at every event when an
 * observer watches. In an input port, `next` threads the port's FIFO, as
 * it threads the free list in the pool. */
typedef struct Packet {
    uint32_t next;         /* next packet in the same input port (or buffer,
                              once settled), or NET_NIL */
    uint32_t at;           /* place index: processor (its source, in the
                              output slot), channel, buffer or input port */
    uint32_t routing;      /* route: up ports (adaptive: filled in as it climbs) */
    uint32_t addressing;   /* route: down ports = low `count` bits of dst */
    uint32_t data;         /* the word it carries (here, not in PacketInfo,
                              so that an IN reads one record: `next` and this) */
    uint32_t unused;
    uint8_t dir;           /* DIR_UP or DIR_DOWN */
    uint8_t place;         /* PacketPlace */
    uint8_t layer;         /* layer of its link or buffer's switch */
    uint8_t count, plane;  /* route */
    uint8_t port;          /* destination input port */
    uint8_t links;         /* links crossed so far (at most 2k) */
    uint8_t asleep;        /* PacketSleep: what it sleeps on, if anything */
} Packet;

_Static_assert(sizeof(Packet) == 32, "two packets share a cache line");

/* The rest of a packet (Net.info, by pool index). */
typedef struct PacketInfo {
    uint64_t id;           /* creation order, from 0 */
    uint64_t created;      /* timestep of its OUT */
    uint32_t src, dst;
    uint32_t holder;       /* asleep on an input port: the holder of the slot
                              of its last link (net_internal.h) */
    uint32_t wait_next;    /* next sleeper on the same input port */
} PacketInfo;

/* An input port: a FIFO of packets threaded through Packet.next. */
typedef struct Fifo {
    uint32_t head, tail;   /* packet indices, NET_NIL when empty */
    uint16_t count;        /* packets in it (at most 1024) */
    uint16_t unused;
    uint32_t sleepers;     /* packets asleep until it has room (via
                              PacketInfo.wait_next) */
} Fifo;

/* How many places a buffer keeps itself: buffers of up to this many places
 * (the default is 5) need nothing else; deeper ones keep their places in a
 * ring of their own, grown as they fill (Net.rings). */
enum { INLINE_PLACES = 5 };

/* An output port q of switch S, or (from index 4 * nswitches on) a
 * processor's network adapter in one plane: half a cache line. It holds the
 * port's output buffer, a FIFO of packets in its places (its own places,
 * head first: a packet that leaves moves the others up; or a cyclic ring
 * for deeper buffers), and the
 * state of the channel it sends into (an adapter: its processor's link),
 * so that a packet leaving a buffer touches this Buffer only, and a packet
 * entering one the Buffer it enters and its route word (Net.routes). Both
 * are called holders: of their places, and of the slot of their channel
 * (with --duplex half a link's one slot is held by the down port of the
 * switch above it; net_internal.h, slot_holder). */
typedef struct Buffer {
    uint16_t count;        /* packets in it */
    uint8_t sleepers;      /* bit a: the packet arriving on port a of this
                              switch sleeps until this buffer has room */
    uint8_t flags;         /* SLOT_* (net_internal.h): its slot's state */
    uint32_t hop;          /* where the packets it sends go, as a hop word
                              (net_internal.h), or 0 until it first sends */
    uint32_t link;         /* its slot: the packet on the link, if it was
                              refused there (SLOT_BLOCKED); anything else
                              only between net_settle and the next step */
    union {
        uint32_t place[INLINE_PLACES];  /* packets: place words (net_internal.h) */
        struct {                        /* or, deeper buffers (Net.rings): */
            uint16_t head;              /* the place of its head in its ring */
            uint8_t size;               /* its ring has min(8 << size, B) places */
        } ring;
    };
} Buffer;

_Static_assert(sizeof(Buffer) == 32, "two buffers share a cache line");

/* What a half-duplex channel has besides its slot: the holder that claims
 * it in this timestep, plus one, or 0. */
typedef struct Channel {
    uint32_t temp;
} Channel;

/* A growable vector of packet (or other) indices. */
typedef struct IndexList {
    uint32_t *items;
    size_t n, cap;
} IndexList;

/* A packet on a link, awake: the packet itself, where it goes (the buffer
 * it will enter, or p << 1 | plane on the last link down to processor p:
 * net_internal.h, hop_target) and the holder of the link's slot, with
 * HOLDER_REFUSED when the packet was refused before and so is in the slot.
 * Stages d and c find all they need here, and write only the line of the
 * buffer the packet enters. */
typedef struct OnLink {
    uint32_t packet, target, holder;
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

/* Counters of machine.md's statistics that the network keeps. Layers are
 * numbered 1..k; index 0 is unused. */
typedef struct NetStats {
    uint64_t *link_collisions[2];     /* [dir][layer] */
    uint64_t *buffer_collisions[2];   /* [dir][layer] */
    uint64_t link_total, buffer_total;
    uint64_t sent, delivered, read;
    uint64_t links_crossed, port_waits;
    uint64_t latency_min, latency_max, latency_sum;
    uint64_t *latency_hist;           /* [latency] = packets, grown on demand */
    size_t latency_hist_len;
    uint32_t max_buffer;              /* largest occupancy after stage d */
    /* Sleeping packets, whose collisions and port waits are added every
     * timestep: by direction and layer, as the collisions are charged. */
    uint64_t *asleep_link[2], *asleep_buffer[2];
    uint64_t asleep_port, asleep;     /* port waiters; all sleepers */
} NetStats;

/* What happened to a packet, for --trace and --routes (adaptive choices). */
typedef enum NetEventKind {
    EV_CREATED,            /* injected into its adapter's output slot */
    EV_CLAIMED,            /* a claim made final: it is now on a link */
    EV_LINK_COLLISION,     /* a failed claim */
    EV_BUFFER_FULL,        /* refused by a full buffer */
    EV_ENTERED,            /* entered a switch output buffer */
    EV_QUEUED,             /* entered behind another packet: a buffer collision */
    EV_PORT_WAIT,          /* waited on its final link for a full input port */
    EV_DELIVERED,          /* entered its destination's input port */
    EV_READ,               /* taken by IN */
    EV_ADAPTIVE_CHOICE     /* chose up port `value` at layer `layer` */
} NetEventKind;

typedef struct NetEvent {
    NetEventKind kind;
    uint64_t timestep;
    const Packet *packet;
    const PacketInfo *info;
    uint32_t place;        /* the place concerned (channel, buffer, processor) */
    uint8_t place_kind;    /* PacketPlace of `place` */
    uint8_t layer, value;
} NetEvent;

typedef void NetEventFn(void *ctx, const NetEvent *ev);

/* One lane of the network stage (step.c): the active lists of the packets
 * it handles and the counters it adds to. Without lanes there is one, for
 * both planes, counting straight into the network's statistics; with lanes
 * each plane has its own, and its counters are added after each timestep. */
typedef struct NetLane {
    /* Holders whose packet claims a link this timestep (buffers and
     * adapters), and awake packets on links, by [class][layer] (above);
     * and the next timestep's. */
    IndexList claimers[LIST_LAYERS], next_claimers[LIST_LAYERS];
    OnLinkList on_links[ARRIVAL_CLASSES][LIST_LAYERS];
    OnLinkList next_on_links[ARRIVAL_CLASSES][LIST_LAYERS];
    IndexList touched;              /* with an observer: buffers entered in this stage d */
    BehindList behind;              /* packets that entered right behind a head in it */
    IndexList woken;                /* processors whose output slot emptied */
    NetStats *stats;                /* where it counts: the network's, or delta */
    NetStats delta;                 /* with lanes: this timestep's counts */
    bool moved;
    bool roomy;                     /* its lists have all the room they can need */
} NetLane;


typedef struct Net {
    NetConfig cfg;
    uint32_t nprocs, half;          /* N and H = N/2 */
    uint32_t nswitches;             /* planes * k * H */
    uint32_t nbuffers;              /* 4 * nswitches: the first adapter's holder */
    uint8_t row_layer[64];          /* the layer of the switches of row s >> (k - 1) */
    bool compact;                   /* routes are words of Net.routes (k <= 16) */
    bool settled;                   /* the pool says where every packet is (net_settle) */
    Packet *pool;                   /* packet storage */
    PacketInfo *info;               /* the rest of each packet, by pool index */
    uint32_t *routes;               /* each packet's route as it travels, by pool
                                       index (net_internal.h, route_word) */
    uint32_t pool_cap, outstanding;
    uint32_t *free_stack, nfree;    /* the free pool indices, the next on top */
    uint64_t next_id;               /* id of the next packet made */
    Channel *channels;              /* --duplex half: per link */
    Buffer *buffers;                /* 4 per switch, 4S + q; then the adapters,
                                       4 * nswitches + plane * N + p */
    uint32_t **rings;               /* buffers of more than INLINE_PLACES places:
                                       each one's ring, or NULL until used */
    uint8_t *entered;               /* per buffer, with an observer: packets
                                       that entered it in this timestep's
                                       stage d (<= 4), else 0 */
    Fifo *ports;                    /* P per processor */
    uint32_t *out_slot;             /* per processor: packet, NET_NIL or NET_RESERVED */
    uint64_t *requests_made;        /* per processor: send requests so far */
    uint64_t in_flight;             /* packets in slots, links and buffers */
    NetLane *lane;                  /* the active lists: one lane, or one per plane (2) */
    unsigned nlanes;
    Runner *runner;              /* with lanes: runs them at once */
    void *runner_ctx;
    size_t parallel_min;            /* ...when a timestep has this many packets to handle */
    uint8_t *arrivals_down;         /* per processor: bit plane, a packet
                                       arrives down that plane's link */
    uint32_t *arriving;             /* ...and which, by 2 * processor + plane */
    IndexList woken;                /* processors whose input port received a
                                       packet or whose output slot emptied in
                                       this timestep's network stage (the
                                       machine wakes the ones that wait) */
    NetStats stats;
    NetEventFn *event;              /* optional observer (trace, routes) */
    void *event_ctx;
    uint64_t timestep;              /* the timestep being run */
    bool moved;                     /* something changed place this timestep */
} Net;

#define NET_RESERVED UINT32_MAX   /* an output slot promised to a request */

/* The rest of packet pk of the pool. */
static inline const PacketInfo *net_info(const Net *net, const Packet *pk)
{
    return &net->info[pk - net->pool];
}

/* Builds an empty network; NULL if memory cannot be had (errno set). */
Net *net_new(const NetConfig *cfg);

/* Gives each of two planes a lane of its own, which `runner` runs on two
 * threads at once in every timestep with at least `parallel_min` packets to
 * handle (step.c explains why that changes nothing). Call before the first
 * packet is injected, with no observer (events would come in another
 * order). Returns 0, or -1 if memory cannot be had or the network has one
 * plane (nothing is changed then). */
int net_use_lanes(Net *net, Runner *runner, void *ctx, size_t parallel_min);
void net_free(Net *net);

/* Stage 1, for OUT: whether processor p's output slot is empty, and taking it
 * for this timestep's send request. */
static inline bool net_out_free(const Net *net, uint32_t p) { return net->out_slot[p] == NET_NIL; }
static inline void net_reserve_out(Net *net, uint32_t p) { net->out_slot[p] = NET_RESERVED; }

/* Stage 1, before the processors run: asks the memory system for input port
 * `port` of processor p, which an IN is about to read (a hint with no
 * effect on the run; nothing for a port that does not exist, whose IN
 * faults). Under load an IN's time is mostly the miss on its port. */
static inline void net_prefetch_port(const Net *net, uint32_t p, uint32_t port)
{
#if defined(__GNUC__)
    if (port < net->cfg.ports)
        __builtin_prefetch(&net->ports[(size_t)p * net->cfg.ports + port]);
#else
    (void)net, (void)p, (void)port;
#endif
}

/* Stage 1, for IN: removes the oldest packet of input port `port` of
 * processor p, if any, storing its word; returns the packet, or NET_NIL.
 * It touches only p's ports, so processors may take concurrently; each
 * taken packet must then be passed to net_release_read, serially and in
 * processor order (it counts the read, reports it and frees the packet). */
uint32_t net_take(Net *net, uint32_t p, uint32_t port, uint32_t *word);
void net_release_read(Net *net, uint32_t x);

/* net_take and net_release_read at once (for tests and tools). */
bool net_in_take(Net *net, uint32_t p, uint32_t port, uint32_t *word);

/* The number of earlier send requests of processor p (for plane choice),
 * counting this one as made. */
uint64_t net_count_request(Net *net, uint32_t p);

/* Stage 3: makes the packet of a routed request and puts it in the source's
 * output slot (reserved in stage 1). Returns its id. */
uint64_t net_inject(Net *net, const RouteRequest *req, const Route *route,
                    uint32_t data, uint64_t timestep);

/* Stage 4, sub-stages a-e, of timestep t. Sets net->moved. */
void net_step(Net *net, uint64_t t);

/* Writes into the pool where each packet in flight is (Packet: place, at,
 * dir, layer, links, asleep, and next in a buffer), and into each link's
 * slot the packet on it, for every reader below; until the next net_step or
 * net_inject. net_is_stuck, net_for_each_in_flight, net_link_packet and
 * net_check call it themselves. */
void net_settle(Net *net);

/* The packet `i` places behind the head of buffer b (0: the head), or
 * NET_NIL beyond its count. */
uint32_t net_buffer_packet(const Net *net, uint32_t b, uint32_t i);

/* Whether any packet is in an output slot, a link or a buffer. */
static inline bool net_busy(const Net *net) { return net->in_flight != 0; }

/* After a deadlock: whether some packet could not move even if every input
 * port were emptied (a network deadlock), as opposed to a program deadlock. */
bool net_is_stuck(Net *net);

/* Calls fn for every packet in an output slot, link or buffer, in a fixed
 * order (slots by processor, then links, then buffers, each by index). */
void net_for_each_in_flight(Net *net, void (*fn)(void *ctx, const Packet *pk), void *ctx);

/* Calls fn for every packet waiting in an input port: by processor, port,
 * then oldest first. */
void net_for_each_unread(Net *net, void (*fn)(void *ctx, const Packet *pk), void *ctx);

/* The packet on channel c (2 * link + dir with --duplex full, else link),
 * or NET_NIL. */
uint32_t net_link_packet(Net *net, uint32_t c);

/* Names a packet's place the way reports and traces show it:
 * "slot of p3", "link p0.cpu3 up", "link p0.l1.s1.u0 down",
 * "buffer p0.l2.s5.u1 place 2 of 3", "port 0 of p3". */
void net_place_name(const Net *net, const Packet *pk, char *buf, size_t size);

/* Names the place of an event: the link claimed or crossed ("link p0.cpu3
 * up"), the buffer entered or refusing ("buffer p0.l2.s5.u1"), the output
 * slot or the input port. */
void net_event_place(const Net *net, const NetEvent *ev, char *buf, size_t size);

/* Names link 2S + x by its lower end, without direction ("p0.cpu3",
 * "p0.l1.s1.u0"), and buffer 4S + q ("p0.l2.s5.u1"). */
void net_link_name(const Net *net, uint32_t link, char *buf, size_t size);
void net_buffer_name(const Net *net, uint32_t buffer, char *buf, size_t size);

/* Checks every invariant of the network (each packet in exactly one place,
 * FIFO counts and links consistent, no buffer over B, no port over D, pool
 * count). Returns 0, or -1 with a message naming the component in err. */
int net_check(Net *net, char *err, size_t size);

#endif
