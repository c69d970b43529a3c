/* A processor's network adapter (adapter.c): its output slot and input
 * ports. net.c tells the network stage and the reference stage of what
 * happens here. */
#ifndef NET_ADAPTER_H
#define NET_ADAPTER_H

#include <stdint.h>

#include "net/state.h"

/* Stage 3: makes the packet of a routed request (the head of its message,
 * of the request's words), in its source's output slot; returns its pool
 * index. */
uint32_t adapter_inject(Net *net, const RouteRequest *req, const Route *route,
                        const uint32_t *words, uint64_t timestep);

/* After an IN took packet x: counts and reports the read and frees the
 * packet; returns the input port (an index into net->lay.ports) it left. */
uint32_t adapter_release(Net *net, uint32_t x);

/* Stage c: packet x, which has left its link, enters its input port of
 * processor p, which has room. */
void net_deliver(Net *net, uint32_t x, uint32_t p);

#endif
