/* The reference network stage (reference.c): stage 4 of the timestep as
 * spec/machine.md writes it, on a state of its own, for comparison with
 * the fast stage (net.h, net_compare_with_reference). Private to net/. */
#ifndef NET_REFERENCE_H
#define NET_REFERENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "net/net.h"

typedef struct Reference Reference;

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
