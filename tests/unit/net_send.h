/* Packets with routes of the test's choosing, for the network's unit tests
 * (test_net.c, test_net_internals.c): no router, so that a test can send
 * any route, non-minimal ones too. */
#ifndef TESTS_UNIT_NET_SEND_H
#define TESTS_UNIT_NET_SEND_H

#include <stdio.h>

#include "net/net.h"
#include "tests/check.h"

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

/* Runs stage 4 of timestep t; then the reference stage, if it runs, must
 * agree, and (when `check`) the network's invariants must hold. */
static inline void step_checked(Net *net, uint64_t t, bool check)
{
    char err[256];
    net_step(net, t);
    if (net_reference_error(net)) {
        printf("  t=%llu: %s\n", (unsigned long long)t, net_reference_error(net));
        CHECK(!"the fast stage agrees with the reference stage");
    }
    if (check && net_check(net, err, sizeof err) != 0) {
        printf("  t=%llu: %s\n", (unsigned long long)t, err);
        CHECK(!"network invariants hold");
    }
}

#endif
