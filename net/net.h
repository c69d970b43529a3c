/* The network: two planes of folded Beneš networks of 2x2 crossbar switches,
 * the links between them, and each processor's network adapter
 * (spec/machine.md, thesis 4.1-4.2 and 5.1-5.5). This is what the rest of
 * the emulator sees of it; how it keeps its state is its own business
 * (net/state.h; net/net.c lists the files).
 *
 * A timestep reaches the network in three calls: during stage 1 the
 * processors' INs take packets from input ports (net_take) and their OUTs
 * reserve output slots (net_reserve_out); stage 3 puts each routed packet
 * in its slot (net_inject); stage 4, the network's five sub-stages a-e, is
 * net_step. Between timesteps the network answers questions about where
 * its packets are, for --state, --step, the report and the deadlock
 * message.
 *
 * Words. The code says what machine.md and channels.md say, and these,
 * one meaning each:
 *
 *   code word   spec word, or what it is
 *   ---------   ------------------------------------------------------
 *   switch      a 2x2 crossbar switch (machine.md)
 *   buffer      a switch output buffer, B places (machine.md)
 *   link        a link, with its main and temp slots (machine.md)
 *   direction   up or down (DIR_UP, DIR_DOWN)
 *   wire        what a packet on a link occupies: the link in half
 *               duplex, one direction of it in full duplex (where
 *               machine.md calls each direction a separate link)
 *   channel     a virtual channel, v = port mod V (channels.md); never
 *               a link or a direction
 *   lane        a channel's slot on a wire (channels.md); never anything
 *               else
 *   channel buffer  one channel's buffer of an output port (channels.md)
 *   sender      what claims a link: a buffer, or an adapter's output slot
 *   keeper      the sender that keeps the state of a wire's slots
 *   share       a thread's share of the network stage: one plane's lists
 *               and counters (net_use_shares); not a spec word
 *   port        an input port of a processor's adapter (machine.md)
 *
 * Components are named by numbers that reports and tests share (no
 * division anywhere: N/2 = H is a power of two):
 *
 *   switch  S = (plane * k + layer - 1) * H + j     j in [0, H), layer 1..k
 *   buffer  4S + q      the output buffer of port q of switch S,
 *                       q = 0 d0, 1 d1, 2 u0, 3 u1
 *   link    2S + x      the link attached to down port x of switch S: for
 *                       layer 1 the link of processor 2j + x, else the link
 *                       from an up port of a switch of the layer below. So a
 *                       link's layer is the layer of the switch above it.
 *   wire    what a packet on a link occupies: with --duplex half one
 *           wire per link, shared by both directions (wire = link);
 *           with --duplex full one per direction, 2 * link + dir.
 *   port    p * P + n   input port n of processor p.
 *
 * With V > 1 virtual channels (channels.md) a buffer and a wire are
 * each V places for packets, one per virtual channel v, and a packet's
 * place and the functions below name them by
 *
 *   channel buffer  b * V + v    channel v's buffer of output port b
 *   lane            c * V + v    lane v of wire c
 *
 * which, with V = 1, are b and c. */
#ifndef NET_NET_H
#define NET_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/parallel.h"
#include "net/route.h"

typedef struct Net Net;

/* How switches pass on a message of several words (messages.md,
 * --switching): a head enters a buffer with room for one flit (wormhole)
 * or for the whole message (cut-through, store-and-forward), and under
 * store-and-forward leaves it only once its tail is there too. */
typedef enum NetSwitching {
    SWITCHING_WORMHOLE, SWITCHING_CUT_THROUGH, SWITCHING_STORE_FORWARD, SWITCHING_COUNT
} NetSwitching;

const char *switching_name(NetSwitching switching);
int switching_parse(const char *name, NetSwitching *switching);

typedef struct NetConfig {
    unsigned k;            /* log2 of the number of processors, >= 1 */
    unsigned planes;       /* 1 or 2 */
    bool full_duplex;      /* --duplex full */
    unsigned buffer;       /* places per switch output buffer, B */
    unsigned ports;        /* input ports per processor, P */
    unsigned port_depth;   /* places per input port, D */
    bool adaptive;         /* up ports chosen as packets climb (--routing adaptive) */
    unsigned vcs;          /* virtual channels V (channels.md), 1..8; 0 is 1 */
    NetSwitching switching;  /* --switching (messages.md) */
} NetConfig;

/* The most virtual channels a network may have. */
enum { NET_MAX_VCS = 8 };

/* "No packet": what net_take returns when the port is empty. */
#define NET_NIL 0u

typedef enum PacketPlace {
    PLACE_FREE,            /* not a packet (any more) */
    PLACE_SLOT,            /* in its source's adapter output slot */
    PLACE_LINK,            /* on a link */
    PLACE_BUFFER,          /* in a switch output buffer */
    PLACE_PORT             /* delivered, in an input port of its destination */
} PacketPlace;

enum { DIR_UP = 0, DIR_DOWN = 1 };

/* A packet and where it is, as the network describes it to its readers (a
 * copy: it does not change when the network does). */
typedef struct NetPacket {
    uint64_t id;           /* creation order, from 0 */
    uint64_t created;      /* the timestep of its OUT */
    uint32_t src, dst;
    uint32_t data;         /* the word it carries */
    uint32_t flit, length; /* its index in its message (0: the head) and the
                              message's words (messages.md): 0 and 1 for a
                              one-word packet */
    unsigned port;         /* its destination's input port */
    Route route;           /* (adaptive: the up ports chosen so far) */
    PacketPlace place;
    uint32_t at;           /* the processor (slot), wire, buffer or port */
    unsigned dir;          /* DIR_UP or DIR_DOWN */
    unsigned layer;        /* of its link, or of its buffer's switch */
    unsigned links;        /* links crossed so far */
    unsigned position;     /* in a buffer or input port: 1 at the head */
    unsigned queued;       /* ...of that many */
    bool multicast;        /* it goes to a set (`dst` is its lowest member) */
    DestSet set;           /* ...which is this (its members, if a list, are the
                              network's, until its next step) */
} NetPacket;

/* The statistics of machine.md that the network keeps, from the start of
 * the run. Layers are numbered 1..k; index 0 is unused. */
typedef struct NetStats {
    uint64_t *link_collisions[2];     /* [dir][layer] */
    uint64_t *buffer_collisions[2];   /* [dir][layer] */
    uint64_t link_total, buffer_total;
    uint64_t sent, delivered, read;
    uint64_t multicasts;              /* send requests made by MOUT */
    uint64_t messages;                /* ...by SEND (messages.md) */
    uint64_t flits_sent;              /* words of all requests (1 for OUT, MOUT) */
    uint64_t flits_delivered;         /* words into input ports, copies included */
    uint64_t copies;                  /* packets made by splits (multicast.md) */
    uint64_t links_crossed, port_waits;
    uint64_t latency_min, latency_max, latency_sum;
    uint64_t *latency_hist;           /* [latency] = packets, grown on demand */
    size_t latency_hist_len;
    uint32_t max_buffer;              /* largest occupancy after stage d */
    uint64_t vc_link[NET_MAX_VCS];    /* with V > 1: collisions by channel */
    uint64_t vc_buffer[NET_MAX_VCS];  /* (with V = 1: link_total, buffer_total) */
} NetStats;

/* What happened to a packet, for --trace and --routes (adaptive choices). */
typedef enum NetEventKind {
    EV_CREATED,            /* injected into its adapter's output slot */
    EV_CLAIMED,            /* a claim made final: it is now on a link */
    EV_LINK_COLLISION,     /* a failed claim */
    EV_BUFFER_FULL,        /* refused by a buffer without room for it: a buffer
                              collision (a body flit behind its own message's
                              flits is none, and has no event, messages.md) */
    EV_ENTERED,            /* entered a switch output buffer */
    EV_QUEUED,             /* entered behind another packet: a buffer collision */
    EV_PORT_WAIT,          /* waited on its final link for a full input port */
    EV_DELIVERED,          /* entered its destination's input port */
    EV_READ,               /* taken by IN */
    EV_ADAPTIVE_CHOICE,    /* chose up port `value` at layer `layer` */
    EV_SPLIT,              /* split at switch `place`: the copy is packet `copy` */
    EV_BUFFER_OWNED        /* a head refused by a buffer that message `owner`
                              owns: a buffer collision */
} NetEventKind;

typedef struct NetEvent {
    NetEventKind kind;
    uint64_t timestep;
    const NetPacket *packet;   /* as it is at the event */
    uint32_t place;            /* the place concerned (wire, buffer, processor;
                                  a switch, for EV_SPLIT) */
    PacketPlace place_kind;    /* what `place` is */
    unsigned layer, value;
    const NetPacket *copy;     /* EV_SPLIT: the copy made */
    uint64_t owner;            /* EV_BUFFER_OWNED: the id of the message owning it */
} NetEvent;

typedef void NetEventFn(void *ctx, const NetEvent *ev);

/* ---- lifecycle ------------------------------------------------------------ */

/* The bytes of memory a network of this shape holds when busy: every
 * buffer, link, port and table at its full size (the packets aside). */
uint64_t net_bytes(const NetConfig *cfg);

/* Builds an empty network; NULL if memory cannot be had (errno ENOMEM),
 * or if it has too many ports and adapters to number (EFBIG: net_new
 * explains). */
Net *net_new(const NetConfig *cfg);
void net_free(Net *net);

/* Asks for every event, in the order the spec's loops meet them (a run
 * with an observer is slower: no packet sleeps, and the planes run one
 * after the other). Call before the first packet is injected. */
void net_observe(Net *net, NetEventFn *fn, void *ctx);

/* Gives each of two planes a share of its own (a thread's share of the
 * network stage), which `runner` runs on two threads at once in every
 * timestep with at least `parallel_min` packets to handle (step.c explains
 * why that changes nothing). Call before the first
 * packet is injected, with no observer. Returns 0, or -1 if memory cannot
 * be had, the network has one plane, an observer or virtual channels
 * (nothing is changed then). */
int net_use_shares(Net *net, Runner *runner, void *ctx, size_t parallel_min);

/* Runs the reference stage (reference.c: stage 4 as machine.md writes it,
 * on a state of its own) beside the fast one: in every timestep both run,
 * and the whole state -- where every packet is, in what order, with what
 * route -- and the statistics must be the same after it. Call before the
 * first packet is injected. Returns 0, or -1 if memory cannot be had or a
 * packet was injected already. */
int net_compare_with_reference(Net *net);

/* NULL while the two stages agree; else their first difference (after
 * which the reference stage is not run again). */
const char *net_reference_error(const Net *net);

/* ---- a timestep ------------------------------------------------------------ */

/* Stage 1 of timestep t begins (reads and their events belong to it). */
void net_begin_timestep(Net *net, uint64_t t);

/* Stage 1, for OUT: whether processor p's output slot is empty, and taking it
 * for this timestep's send request. */
bool net_out_free(const Net *net, uint32_t p);
void net_reserve_out(Net *net, uint32_t p);

/* The number of earlier send requests of processor p (for plane choice),
 * counting this one as made. */
uint64_t net_count_request(Net *net, uint32_t p);

/* Stage 1, before the processors run: asks the memory system for input port
 * `port` of processor p, which an IN is about to read (a hint with no
 * effect on the run; nothing for a port that does not exist, whose IN
 * faults). Under load an IN's time is mostly the miss on its port. */
void net_prefetch_port(const Net *net, uint32_t p, uint32_t port);

/* Stage 1, for IN: removes the oldest packet of input port `port` of
 * processor p, if any, storing its word; returns the packet, or NET_NIL.
 * It touches only p's ports, so processors may take concurrently; each
 * taken packet must then be passed to net_release_read, serially and in
 * processor order (it counts the read, reports it and frees the packet). */
uint32_t net_take(Net *net, uint32_t p, uint32_t port, uint32_t *word);
void net_release_read(Net *net, uint32_t taken);

/* A packet taken by net_take, until it is released. */
void net_taken_packet(const Net *net, uint32_t taken, NetPacket *pk);

/* net_take and net_release_read at once (for tests and tools). */
bool net_in_take(Net *net, uint32_t p, uint32_t port, uint32_t *word);

/* Stage 3: makes the packet of a routed request and puts it in the source's
 * output slot (reserved in stage 1): a message of the request's words, one
 * (OUT, MOUT) or req->length (SEND). Returns its id. */
uint64_t net_inject(Net *net, const RouteRequest *req, const Route *route,
                    const uint32_t *words, uint64_t timestep);

/* What stage 4 of a timestep did, as the timestep loop needs it to decide
 * what comes next. */
typedef struct NetStepResult {
    bool moved;             /* some packet changed place: a delivery, a
                               forward into a buffer, a claim made final */
    bool busy;              /* packets remain in output slots, links or buffers */
    const uint32_t *woken;  /* the processors whose input port received a
                               packet or whose output slot emptied (some
                               more than once) ... */
    size_t nwoken;          /* ...and how many */
} NetStepResult;

/* Stage 4, sub-stages a-e, of timestep t. The result is the network's,
 * until its next net_step. */
const NetStepResult *net_step(Net *net, uint64_t t);

/* ---- after a timestep --------------------------------------------------------- */

const NetStats *net_stats(const Net *net);

/* Whether some packet changed place in the last net_step (a delivery, a
 * forward into a buffer, a claim made final). */
bool net_moved(const Net *net);

/* Packets in output slots, on links and in buffers (a message's flits
 * each); and whether any is. */
uint64_t net_in_flight(const Net *net);
bool net_busy(const Net *net);

/* Words in input ports, not read yet (one per packet or flit). */
uint64_t net_unread(const Net *net);

/* The id the next packet made will have. */
uint64_t net_next_id(const Net *net);

/* The processors whose input port received a packet or whose output slot
 * emptied in the last net_step (some more than once): *n of them. */
const uint32_t *net_woken(const Net *net, size_t *n);

/* Packets in input port `port` of processor p. */
uint32_t net_port_count(const Net *net, uint32_t p, uint32_t port);

/* Packets in buffer b. */
uint32_t net_buffer_count(const Net *net, uint32_t b);

/* Whether a message of several words owns channel buffer b (numbered as
 * above), or input port `port` of processor p (messages.md): from when its
 * head entered until its tail enters; its id in *id. */
bool net_buffer_owner(const Net *net, uint32_t b, uint64_t *id);
bool net_port_owner(const Net *net, uint32_t p, uint32_t port, uint64_t *id);

/* The packet, if any, in processor p's output slot; on wire c; at place
 * i (0: the head) of buffer b; at place i of input port `port` of p. Each
 * returns whether there is one, and describes it in *pk. */
bool net_slot_packet(Net *net, uint32_t p, NetPacket *pk);
bool net_link_packet(Net *net, uint32_t c, NetPacket *pk);
bool net_buffer_packet(Net *net, uint32_t b, uint32_t i, NetPacket *pk);
bool net_port_packet(Net *net, uint32_t p, uint32_t port, uint32_t i, NetPacket *pk);

/* The packet with this id, wherever it is (for tests and tools: it looks
 * at every packet). Returns false if it is not in the network any more. */
bool net_find_packet(Net *net, uint64_t id, NetPacket *pk);

/* A packet's name in reports: "#5", or flit i of a message of several
 * words "#5.2" (messages.md). */
void net_packet_name(const NetPacket *pk, char *buf, size_t size);

/* Calls fn for every packet in an output slot, link or buffer, in a fixed
 * order (slots by processor, each with the flits its message has still to
 * offer, then links, then buffers, each by index). */
void net_for_each_in_flight(Net *net, void (*fn)(void *ctx, const NetPacket *pk), void *ctx);

/* Calls fn for every packet waiting in an input port: by processor, port,
 * then oldest first. */
void net_for_each_unread(Net *net, void (*fn)(void *ctx, const NetPacket *pk), void *ctx);

/* After a deadlock: whether some packet could not move even if every input
 * port were emptied (a network deadlock), as opposed to a program deadlock. */
bool net_is_stuck(Net *net);

/* After a deadlock: the packet that packet pk (in a slot, on a link or in a
 * buffer) waits for -- the packet on the link it must claim, the head of its
 * buffer, or the head of the full buffer it must enter (the first of the
 * two an adaptive packet may climb into) -- described in *blocker. False
 * when no packet holds it up: it waits on its last link for its
 * destination's input port, or it could move. */
bool net_blocker(Net *net, const NetPacket *pk, NetPacket *blocker);

/* Checks every invariant of the network (each packet in exactly one place,
 * FIFO counts and links consistent, no buffer over B, no port over D, pool
 * count). Returns 0, or -1 with a message naming the component in err. */
int net_check(Net *net, char *err, size_t size);

/* ---- names --------------------------------------------------------------------- */

/* Names a packet's place the way reports and traces show it:
 * "output slot of p3", "link p0.cpu3 up", "link p0.l1.s1.u0 down",
 * "buffer p0.l2.s5.u1 place 2 of 3", "input port 0 of p3". */
void net_place_name(const Net *net, const NetPacket *pk, char *buf, size_t size);

/* Names the place of an event: the link claimed or crossed ("link p0.cpu3
 * up"), the buffer entered or refusing ("buffer p0.l2.s5.u1"), the output
 * slot or the input port, the switch of a split ("switch p0.l2.s5"). */
void net_event_place(const Net *net, const NetEvent *ev, char *buf, size_t size);

/* Names link 2S + x by its lower end, without direction ("p0.cpu3",
 * "p0.l1.s1.u0"), and buffer 4S + q ("p0.l2.s5.u1"). */
void net_link_name(const Net *net, uint32_t link, char *buf, size_t size);
void net_buffer_name(const Net *net, uint32_t buffer, char *buf, size_t size);

#endif
