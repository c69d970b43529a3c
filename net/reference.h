/* The reference network stage: stage 4 of the timestep as spec/machine.md
 * writes it, on a state of its own (reference.c), and its comparison with
 * the fast stage (reference_compare.c; net.h, net_compare_with_reference).
 * Private to net/. */
#ifndef NET_REFERENCE_H
#define NET_REFERENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "net/net.h"

typedef struct Reference Reference;

/* "No packet", "no sender". */
enum { REF_NONE = UINT32_MAX };

typedef struct RefPacket {
    uint64_t id, created;
    uint32_t src, dst, port;   /* dst: a multicast's lowest member */
    Route route;
    unsigned dir;              /* DIR_UP or DIR_DOWN */
    uint32_t *members;         /* a multicast's destinations, ascending */
    uint32_t nmembers;         /* ...how many (0 for a unicast) */
} RefPacket;

/* A cyclic FIFO of packet numbers: a switch output buffer, an input port. */
typedef struct Queue {
    uint32_t *item;
    unsigned head, count;
} Queue;

struct Reference {
    NetConfig cfg;
    unsigned k;
    uint32_t n, half, switches, buffers, wires;
    unsigned V;                /* virtual channels (channels.md): buffer b has V
                                  queues, b * V + v, and wire c V lanes,
                                  c * V + v; with V = 1 those are b and c */
    RefPacket *packet;         /* by packet number; a free number is reused */
    uint32_t npackets, cap, *free, nfree;
    uint32_t *slot;            /* per processor: its output slot's packet, or REF_NONE */
    uint32_t *main;            /* per lane: its packet */
    uint32_t *temp;            /* per channel: the sender that claims it */
    uint32_t *temp_lane;       /* ...and, with V > 1, the lane it claims */
    Queue *buffer;             /* per channel buffer, B places */
    uint8_t *pointer;          /* per buffer b, with V > 1: the round-robin pointer */
    unsigned *held;            /* per channel buffer, with V > 1: its count at
                                  the start of stage 4 */
    Queue *port;               /* per input port p * P + n, D places */
    uint32_t *entered;         /* stage d's entries: buffer, packet, buffer, ... */
    size_t nentered;
    uint64_t in_flight;        /* packets in output slots, on links, in buffers */
    uint64_t next_id;          /* of the next copy a split makes */
    bool moved;
    NetStats stats;
};

/* The i-th packet of a queue of `size` places (0: the head). */
static inline uint32_t queue_at(const Queue *q, unsigned i, unsigned size)
{
    return q->item[(q->head + i) % size];
}

/* An empty network of this shape; NULL if memory cannot be had. */
Reference *reference_new(const NetConfig *cfg);
void reference_free(Reference *ref);

/* Stage 3: packet `id` of a routed request enters its output slot. */
void reference_inject(Reference *ref, uint64_t id, const RouteRequest *req, const Route *route,
                      uint64_t timestep);

/* Stage 1: an IN takes the packet at the head of input port `port` of
 * processor p, which the fast network says is packet `id`. Returns 0, or
 * -1 with a message in err if the reference has another packet there. */
int reference_read(Reference *ref, uint32_t p, uint32_t port, uint64_t id, char *err,
                   size_t size);

/* Stage 4, sub-stages a to e, of timestep t. */
void reference_step(Reference *ref, uint64_t t);

/* Whether the fast network `net` is in the same state as the reference
 * after a timestep: every packet in the same place and order, with the
 * same route, and the same statistics. Returns 0, or -1 with the first
 * difference in err. */
int reference_compare(const Reference *ref, Net *net, char *err, size_t size);

#endif
