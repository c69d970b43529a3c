/* The state of the network stage for virtual channels (vchannels.c, which
 * says how it works): its records and how they are found. Private to net/
 * and its tests, which break it on purpose to see the check catch it. */
#ifndef NET_VCHANNELS_H
#define NET_VCHANNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/hot.h"
#include "net/encode.h"
#include "net/state.h"

typedef struct VcNet VcNet;

/* A channel buffer: a FIFO of packets, threaded through VcNet.next (by
 * pool index) from head to tail, since few buffers hold more than one
 * packet: a ring of B places each would be mostly empty memory. Two
 * packets need no thread (the head and the tail), so it is laid only
 * from three on: with three or more, next[] leads from the head to the
 * tail; with two, next[head] means nothing. */
typedef struct __attribute__((packed)) VcQueue {
    uint32_t head, tail;    /* pool indices, meaningful while count > 0 */
    uint16_t count;
} VcQueue;

/* An output port with its V channel buffers, in one record: what stage b
 * reads of a port and stage d writes when a packet enters one of its
 * buffers. Under heavy traffic every port's record is read and written
 * in each timestep, so its size is the stage's memory traffic: the
 * buffers are packed (10 bytes, not 12), and for V = 4 a record is 48
 * bytes, the four ports of a switch three cache lines (port_at). The
 * inlet its packets go to, from which link_of_port finds its link (with
 * --duplex half the other direction of that link, whose lanes are the
 * same, comes to the port's own inlet: inlet b is port b's). Bit v of
 * `nonempty`: channel v's buffer holds a packet. Of a port that held a
 * packet at the start of stage d, which stage b visits, bit v of `newly`:
 * channel v's buffer held none then and took one in stage d (stage b,
 * before d in the spec, does not see those); of `second`: it held one,
 * and a packet entered behind it (a buffer collision, counted at once,
 * unless stage b sends the one ahead). Stage b clears both. */
typedef struct VcPort {
    uint32_t inlet;
    uint8_t pointer;        /* the round-robin pointer */
    uint8_t nonempty, newly, second;
    VcQueue queue[];
} VcPort;

/* The bytes of a port's record: its buffers, rounded up to a word; one of
 * up to a line is packed, and spans two lines at most, and a larger one
 * takes whole lines, so as to span as few as it can. vc_new and vc_step's
 * copy for V = 4 both take it from here. */
#define VC_PORT_BYTES(V) ((sizeof(VcPort) + (V) * sizeof(VcQueue) + 3) & ~(size_t)3)
#define VC_PORT_SIZE(V) \
    (VC_PORT_BYTES(V) <= 64 ? VC_PORT_BYTES(V) : (VC_PORT_BYTES(V) + 63) & ~(size_t)63)

_Static_assert(VC_PORT_SIZE(4) == 48,
               "a switch with four channels is three cache lines (vc_step's copy for V = 4)");

/* A claim made in stage a or b, made final in stage e: the sender (a port
 * or an adapter), and the lane it goes into, lane v of the inlet. */
typedef struct VcClaim {
    uint32_t sender, inlet, v;
} VcClaim;

/* A packet in a lane that comes to a switch, gathered for stage d: the
 * packet and its lane (inlet << lane_shift | v). */
typedef struct VcArrival {
    uint32_t x, lane;
} VcArrival;

/* ...and for stage d in the spec's order (run_stages), with its link
 * channel's place in the spec's link loop and its channel. */
typedef struct VcSorted {
    VcArrival a;
    uint32_t position, v;
} VcSorted;

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
    uint32_t nswitch_inlets;    /* 4 * nswitches: the processors' inlets follow */
    uint32_t ninlets;
    uint32_t nwords;        /* the words of lane_busy */
    uint32_t nlinks;
    unsigned port_size;     /* the bytes of a VcPort with its buffers (VC_PORT_SIZE) */
    unsigned lane_shift;    /* log2 of the words per inlet (V rounded up) */
    unsigned char *ports;   /* the VcPort records, by output port */
    uint32_t *lanes;        /* by inlet: its V lanes, each a packet or 0 */
    uint64_t *lane_busy;    /* by lane (inlet << lane_shift | v): it holds a packet
                               (but for the lanes stage d has gathered: gather) */
    uint64_t *lane_words;   /* by word of lane_busy that holds switches' lanes:
                               it may have a bit set (it has, if it has one) */
    uint32_t *temp;         /* with has_temp, by link: the stage in which its
                               temp slot was last claimed */
    uint32_t *next;         /* by pool index: the packet behind it in its buffer */
    uint32_t next_cap;
    uint32_t *down_inlet;   /* by link: the inlet of its down direction */
    uint32_t *channel_of;   /* by inlet: its link channel */
    uint32_t *position;     /* by link channel: its place in the spec's link loop */
    uint64_t *full_slots;   /* by processor: its output slot holds a packet */
    uint64_t *arrivals;     /* by processor: a packet comes down a lane to it */
    uint64_t *busy_ports;   /* by port b: some channel buffer holds a packet */
    uint64_t *held_ports;   /* ...at the start of this timestep's stage d (stage b's) */
    VcClaim *claims;
    size_t nclaims, claims_cap;
    VcEntered *entered;
    size_t nentered, entered_cap;
    VcArrival *arrived;     /* stage d's packets, gathered */
    size_t arrived_cap;
    VcSorted *sorted;       /* ...and sorted, by run_stages */
    size_t sorted_cap;
    uint32_t *order;        /* what a stage visits, gathered from a bitmap */
    size_t order_cap;
    uint16_t *robin;        /* with V <= ROBIN_TABLE_V, round_robin's table */
    bool eager;             /* an observer watches: records are kept current */
};

static inline VcPort *port_at(const VcNet *vc, uint32_t b)
{
    return (VcPort *)(vc->ports + (size_t)b * vc->port_size);
}

/* The link that port b sends into. Link 2S + x has its up direction come
 * to inlet 4S + x, and its down direction sent by port 4S + x: so that
 * inlet is the one an up port sends into, and a down port's own number. */
static inline uint32_t link_of_port(const VcNet *vc, uint32_t b)
{
    uint32_t up = b & 2 ? port_at(vc, b)->inlet : b;
    return 2 * (up >> 2) + (up & 1);
}

/* The lanes of an inlet. */
static inline uint32_t *lanes_at(const VcNet *vc, uint32_t inlet)
{
    return vc->lanes + lane_word(inlet, 0, vc->lane_shift);
}

/* Which lanes of an inlet hold a packet: bit v, lane v. (An inlet's
 * lanes are never split between two words of lane_busy.) */
static inline unsigned inlet_busy(const VcNet *vc, uint32_t inlet)
{
    uint32_t first = lane_word(inlet, 0, vc->lane_shift);
    return (unsigned)(vc->lane_busy[first >> 6] >> (first & 63)) & ((1u << vc->V) - 1);
}

/* Processor p's inlet on a plane, and the inlet of the up direction of
 * link 2S + x (port x of switch S). */
static inline uint32_t proc_inlet(const Layout *lay, const VcNet *vc, uint32_t p, unsigned plane)
{
    return vc->nswitch_inlets + proc_on_plane(lay->cfg.k, p, plane);
}

static inline uint32_t up_inlet(uint32_t link) { return 2 * link - (link & 1); }

/* The direction of the packets that come to an inlet. */
static inline unsigned inlet_dir(const VcNet *vc, uint32_t inlet)
{
    return inlet >= vc->nswitch_inlets || (inlet & 2) ? DIR_DOWN : DIR_UP;
}

/* What is in channel buffer cb: its count, and the packet at place i (0
 * the head), or NET_NIL; the packet in a lane (wire c * V + v), or
 * NET_NIL. (A packet is a pool index, never 0: NET_NIL is an empty lane's
 * word.) */
static inline uint32_t vc_buffer_count(const VcNet *vc, uint32_t cb)
{
    return port_at(vc, cb / vc->V)->queue[cb % vc->V].count;
}

static inline uint32_t vc_buffer_packet_at(const VcNet *vc, uint32_t cb, uint32_t i)
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

static inline uint32_t vc_lane_packet(const VcNet *vc, uint32_t lane)
{
    uint32_t c = lane / vc->V, v = lane % vc->V;
    if (!vc->has_temp)          /* one direction of link c >> 1 */
        return lanes_at(vc, c & 1 ? vc->down_inlet[c >> 1] : up_inlet(c >> 1))[v];
    uint32_t x = lanes_at(vc, up_inlet(c))[v];
    return x != NET_NIL ? x : lanes_at(vc, vc->down_inlet[c])[v];
}

/* The channel stage (vchannels.c), which replaces step.c's with V > 1: its
 * state made for a layout, and what vc_new allocates, in bytes; the packet
 * just put in processor p's output slot; stage 4. */
VcNet *vc_new(const Layout *lay);
uint64_t vc_bytes(const Layout *lay);
void vc_free(VcNet *vc);
void vc_injected(Net *net, uint32_t p);
void vc_step(Net *net);

/* Writes into the pool where each packet in a lane or buffer is (net_settle). */
void vc_settle(Net *net);

/* Sets the number of the last stage run (for the tests: its numbers wrap
 * after 2^32 timesteps); and checks the stage's own bookkeeping true to
 * that (the bitmaps, the claims and stage d's counts cleared): 0, or -1
 * with what is broken in err. */
void vc_set_stage(VcNet *vc, uint32_t now);
int vc_check(const Net *net, char *err, size_t size);

#endif
