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
 *           2 * link + dir (dir 0 up, 1 down). A channel's main slot (the
 *           packet on the link) is kept in the Buffer of the output port
 *           that sends into it, its temp slot and sleepers in Channel.
 *
 * Memory layout follows the hops: a switch's four Buffers are one cache
 * line and hold the main slots of the links they send into, so a packet
 * leaving a buffer finds its link on the same line, and a hop touches about
 * two lines besides the packet's own (docs/performance.md).
 *
 * Buffers and input ports are FIFOs threaded through the packets (a packet
 * is in at most one), so their storage does not grow with B or the port
 * depth. Packets live in a pool and are named by index (from 1: 0 is
 * NET_NIL).
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
    PLACE_FREE,            /* in the pool's free list */
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

/* A packet, as the network stage sees it: what a hop reads and writes, in
 * half a cache line, so that two packets share one. What it carries besides
 * (its number, source, destination, word and time of sending) is in a
 * PacketInfo of the same pool index, read once or twice in its life. */
typedef struct Packet {
    uint32_t next;         /* next packet in the same FIFO, or NET_NIL; on a
                              link, in none: the holder of its main slot
                              (net_internal.h, channel_holder), with
                              SLOT_BLOCKED once it has been refused there */
    uint32_t at;           /* place index: processor (its source, in the
                              output slot), channel, buffer or input port */
    uint32_t routing;      /* route: up ports (adaptive: filled in as it climbs) */
    uint32_t addressing;   /* route: down ports = low `count` bits of dst */
    union {
        uint32_t mark;     /* awake: low 32 bits of the timestep it was last
                              handled on a last link (stage c delivers it
                              once); set when it gets on a link */
        struct {           /* asleep: the direction and layer its collision */
            uint8_t sleep_dir, sleep_layer;  /* or wait is charged to */
        };
    };
    uint32_t wait_next;    /* next sleeper on the same buffer, port or channel */
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
    uint32_t src, dst, data;
    uint32_t unused;
} PacketInfo;

/* An input port: a FIFO of packets threaded through Packet.next. */
typedef struct Fifo {
    uint32_t head, tail;   /* packet indices, NET_NIL when empty */
    uint16_t count;        /* packets in it (at most 1024) */
    uint16_t unused;
    uint32_t sleepers;     /* packets asleep until it has room (via wait_next) */
} Fifo;

/* An output port q of switch S: its buffer, a FIFO threaded through
 * Packet.next, and the main slot of the channel the port sends into. A
 * switch's four are one cache line, so a packet's hop touches the line of
 * the switch it leaves and of the one it enters, and little else (see
 * channel_main in net_internal.h for where every channel's slot is). */
typedef struct Buffer {
    uint32_t head, tail;   /* packet indices, NET_NIL when empty */
    uint16_t count;        /* packets in it (at most 1024) */
    uint8_t entered;       /* with an observer: packets that entered it in
                              this timestep's stage d (<= 4), else 0 */
    uint8_t sleepy;        /* packets sleep until it has room, on buffer_sleepers */
    uint32_t link;         /* a channel's main slot: NET_NIL, or the packet last
                              put on the link, marked if refused (net_internal.h,
                              SLOT_BLOCKED, slot_packet) */
} Buffer;

_Static_assert(sizeof(Buffer) == 16, "a switch's four buffers are one cache line");

/* What a channel has besides its main slot, used far less often. */
typedef struct Channel {
    uint32_t temp;         /* the packet claiming it this timestep, or NET_NIL */
    uint32_t sleepers;     /* claimants asleep until its packet wakes (via wait_next) */
} Channel;

/* A growable vector of packet (or other) indices. */
typedef struct IndexList {
    uint32_t *items;
    size_t n, cap;
} IndexList;

/* A packet on a link and where it is heading (net_internal.h, heading_of):
 * kept with the packet in the lists of stage d, so that the stage finds the
 * switch a packet enters without reading the packet first. */
typedef struct OnLink {
    uint32_t packet, heading;
} OnLink;

typedef struct OnLinkList {
    OnLink *items;
    size_t n, cap;
} OnLinkList;

/* A packet that entered a buffer right behind its head in a stage d: a
 * buffer collision, unless the head leaves in that timestep's stage e
 * (step.c, take_back_collisions). */
typedef struct Behind {
    uint32_t packet, buffer;
} Behind;

typedef struct BehindList {
    Behind *items;
    size_t n, cap;
} BehindList;

/* Stage d visits the packets on links in four rounds, by the port they
 * arrive on (d0, d1, u0, u1), then stage c delivers those coming down last
 * links: so the packets on links are kept in five lists, by arrival class
 * (step.c explains). */
enum { ARRIVE_DELIVERY = 4, ARRIVAL_CLASSES = 5 };

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
    IndexList claimers, next_claimers;  /* packets that claim a link this timestep */
    OnLinkList on_links[ARRIVAL_CLASSES];      /* awake packets in link main slots, */
    OnLinkList next_on_links[ARRIVAL_CLASSES]; /* by arrival class */
    IndexList touched;              /* with an observer: buffers entered in this stage d */
    BehindList behind;              /* packets that entered right behind a head in it */
    IndexList woken;                /* processors whose output slot emptied */
    OnLinkList scratch;             /* room for sorting a list (step.c) */
    NetStats *stats;                /* where it counts: the network's, or delta */
    NetStats delta;                 /* with lanes: this timestep's counts */
    bool moved;
} NetLane;

/* Runs fn(arg, i) for i = 0, 1, ... on threads of the caller's, at least one
 * per lane, and returns when all are done (emu/machine.c lends its workers). */
typedef void NetLaneFn(void *arg, unsigned lane);
typedef void NetRunner(void *ctx, NetLaneFn *fn, void *arg);

typedef struct Net {
    NetConfig cfg;
    uint32_t nprocs, half;          /* N and H = N/2 */
    uint32_t nswitches;             /* planes * k * H */
    Packet *pool;                   /* packet storage */
    PacketInfo *info;               /* the rest of each packet, by pool index */
    uint32_t pool_cap, free_list, outstanding;
    uint64_t next_id;               /* id of the next packet made */
    Channel *channels;              /* per link (half) or link and direction (full) */
    Buffer *buffers;                /* 4 per switch, 4S + q */
    uint32_t *buffer_sleepers;      /* per buffer: packets asleep until it has room */
    uint32_t *adapter_links;        /* full duplex: the main slots of the processors'
                                       up channels, plane * N + p */
    Fifo *ports;                    /* P per processor */
    uint32_t *out_slot;             /* per processor: packet, NET_NIL or NET_RESERVED */
    uint64_t *requests_made;        /* per processor: send requests so far */
    uint64_t in_flight;             /* packets in slots, links and buffers */
    NetLane lane[2];                /* the active lists: one lane, or one per plane */
    unsigned nlanes;
    NetRunner *runner;              /* with lanes: runs them at once */
    void *runner_ctx;
    size_t parallel_min;            /* ...when a timestep has this many packets to handle */
    size_t sort_min;                /* sort a lane's lists of at least this many packets
                                       (step.c; NET_SORT_MIN, tests set 1) */
    uint8_t *arrivals_down;         /* per processor: bit plane, a packet
                                       arrives down that plane's link */
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
#define NET_SORT_MIN 262144       /* Net.sort_min unless changed: 8 MiB of packets */

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
int net_use_lanes(Net *net, NetRunner *runner, void *ctx, size_t parallel_min);
void net_free(Net *net);

/* Stage 1, for OUT: whether processor p's output slot is empty, and taking it
 * for this timestep's send request. */
static inline bool net_out_free(const Net *net, uint32_t p) { return net->out_slot[p] == NET_NIL; }
static inline void net_reserve_out(Net *net, uint32_t p) { net->out_slot[p] = NET_RESERVED; }

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
uint32_t net_link_packet(const Net *net, uint32_t c);

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
int net_check(const Net *net, char *err, size_t size);

#endif
