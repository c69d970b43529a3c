/* Packets with routes of the test's choosing, for the network's unit tests
 * (test_net.c, test_net_internals.c): no router, so that a test can send
 * any route, non-minimal ones too. */
#ifndef TESTS_UNIT_NET_SEND_H
#define TESTS_UNIT_NET_SEND_H

#include "net/net.h"

/* Injects src->dst at timestep t on `plane`, turning at layer `count` and
 * taking the up ports of `routing` (bit l - 1 at layer l), its data word
 * 1000 + src; returns its id. */
static inline uint64_t send(Net *net, uint32_t src, uint32_t dst, unsigned port, unsigned plane,
                            unsigned count, uint32_t routing, uint64_t t)
{
    RouteRequest req = { src, dst, port, 0, NULL, 0 };
    Route r = { (uint8_t)plane, (uint8_t)count, routing, dst & ((1u << count) - 1) };
    net_reserve_out(net, src);
    return net_inject(net, &req, &r, &(uint32_t){ 1000 + src }, t);
}

#endif
