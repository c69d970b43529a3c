/* The reference network stage: stage 4 of the timestep as spec/machine.md
 * writes it, on a state of its own (reference.c), and its comparison with
 * the fast stage (reference_compare.c; net.h, net_compare_with_reference).
 * Private to net/ (and to the unit tests that drive the reference alone).
 *
 * It moves flits (messages.md): a message of L words is L flits, each a
 * record of its own that points to the message's record (id, source,
 * destination, port, route, creation timestep), so that the choices an
 * adaptive head makes are the route its body flits follow. A one-word
 * packet is a message of one flit. */
#ifndef NET_REFERENCE_H
#define NET_REFERENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "net/net.h"

typedef struct Reference Reference;

/* "No flit", "no message", "no sender". */
enum { REF_NONE = UINT32_MAX };

/* A message (messages.md, "Words"): what every flit of it has. A send
 * request makes one; a multicast's split makes one for the copy. */
typedef struct RefMessage {
    uint64_t id, created;
    uint32_t src, dst, port;   /* dst: a multicast's lowest member */
    uint32_t length;           /* L, its words: 1 for OUT and MOUT */
    Route route;               /* adaptive: the up ports its head chose so far */
    uint32_t *members;         /* a multicast's destinations, ascending */
    uint32_t nmembers;         /* ...how many (0 for a unicast) */
} RefMessage;

/* A flit: word `flit` of message `msg` (a message number), kept where it
 * is (an output slot, a lane, a buffer, an input port). A one-word packet
 * is flit 0 of a message of one word. */
typedef struct RefFlit {
    uint32_t msg;              /* its message's number */
    uint32_t flit;             /* its index: 0 the head, length - 1 the tail */
    unsigned dir;              /* DIR_UP or DIR_DOWN */
} RefFlit;

/* Record numbers in use, for messages or flits: a freed number is reused. */
typedef struct RefNumbers {
    uint32_t used, cap;        /* numbers handed out so far; records allocated */
    uint32_t *free, nfree;     /* freed numbers */
} RefNumbers;

/* A cyclic FIFO of flit numbers: a switch output buffer, an input port. */
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
    RefMessage *message;       /* by message number */
    RefNumbers messages;
    RefFlit *flit;             /* by flit number */
    RefNumbers flits;
    uint32_t *slot;            /* per processor: the flit its output slot offers
                                  next (its message's others follow), or REF_NONE */
    uint32_t *main;            /* per lane: its flit */
    uint32_t *temp;            /* per wire: the sender that claims it */
    uint32_t *temp_lane;       /* ...and, with V > 1, the lane it claims */
    uint32_t *failed;          /* V = 1: the claims of stages a and b that failed
                                  at once, sender and wire, counted in stage e */
    size_t nfailed;
    Queue *buffer;             /* per channel buffer, B places */
    uint32_t *owner;           /* per channel buffer: the message that owns it
                                  (its head entered, its tail not yet), or REF_NONE */
    uint8_t *pointer;          /* per buffer b, with V > 1: the round-robin pointer */
    unsigned *held;            /* per channel buffer, with V > 1: its count at
                                  the start of stage 4 (0 if it takes no part
                                  in stage b) */
    Queue *port;               /* per input port p * P + n, D places */
    uint32_t *port_owner;      /* ...the message that owns it, or REF_NONE */
    uint32_t *entered;         /* stage d's entries: buffer, flit, buffer, ... */
    size_t nentered;
    uint64_t in_flight;        /* flits not in an input port: in output slots
                                  (those not offered yet too), on links, in
                                  buffers */
    uint64_t next_id;          /* of the next copy a split makes */
    bool moved;
    NetStats stats;
};

/* The i-th flit of a queue of `size` places (0: the head). */
static inline uint32_t queue_at(const Queue *q, unsigned i, unsigned size)
{
    return q->item[(q->head + i) % size];
}

/* An empty network of this shape; NULL if memory cannot be had. */
Reference *reference_new(const NetConfig *cfg);
void reference_free(Reference *ref);

/* Stage 3: the message `id` of a routed request (req->length words; 0 is
 * one) enters its output slot, which offers its flits one a timestep. */
void reference_inject(Reference *ref, uint64_t id, const RouteRequest *req, const Route *route,
                      uint64_t timestep);

/* Stage 1: an IN takes the word at the head of input port `port` of
 * processor p: the oldest flit there, which the fast network says is
 * `taken` (its id and flit index are compared). Returns 0, or -1 with a
 * message in err if the reference has another flit there, or none. */
int reference_read(Reference *ref, uint32_t p, uint32_t port, const NetPacket *taken,
                   char *err, size_t size);

/* Stage 4, sub-stages a to e, of timestep t. */
void reference_step(Reference *ref, uint64_t t);

/* Whether the fast network `net` is in the same state as the reference
 * after a timestep: every flit (id and index) in the same place and order,
 * with the same route, and the same statistics. An output slot is
 * compared by the flit it offers next. Returns 0, or -1 with the first
 * difference in err. */
int reference_compare(const Reference *ref, Net *net, char *err, size_t size);

#endif
