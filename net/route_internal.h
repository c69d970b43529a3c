/* The router's state, shared by route.c and route_benes.c. router_new
 * allocates each scratch array once, with one entry per processor (a batch
 * has at most one request per source), and only for the algorithm that
 * uses it. The arrays indexed by terminal, destination or switch are zero
 * between batches (but for walk_heads): a batch clears exactly the entries
 * it set, so its cost follows the batch, never N. */
#ifndef NET_ROUTE_INTERNAL_H
#define NET_ROUTE_INTERNAL_H

#include <stdbool.h>

#include "net/route.h"
#include "net/topology.h"

/* A request's count, given its unicast count: for a multicast, raised to
 * the lowest layer from which its whole set is reached (multicast.md). */
static inline unsigned route_multicast_count(const RouteRequest *req, unsigned unicast)
{
    if (!route_is_multicast(req))
        return unicast;
    unsigned c = dest_set_count(req->set, req->src);
    return c > unicast ? c : unicast;
}

struct Router {
    RoutingAlgorithm alg;
    unsigned k;            /* N = 2^k processors */
    unsigned planes;       /* 1 or 2 */
    uint64_t rng;          /* splitmix64 state; persists across batches */
    /* benes and benes-full; the first six hold or are indexed by batch
     * positions. What each holds is that of the reference way (benes_level);
     * the two fast ways use them for their own ends, said where they do
     * (route_benes.c: benes_plane). */
    uint32_t *order;       /* positions grouped by sub-network, each group in
                              batch (= source) order */
    uint32_t *spill;       /* scratch of the stable partition of `order` */
    uint32_t *queue;       /* the breadth-first queue */
    uint32_t *next_s;      /* 1 + next position with the same source terminal */
    uint32_t *next_d;      /* 1 + next position with the same destination one */
    uint8_t *side;         /* sub-network given at this level, or ROUTE_UNSET */
    uint32_t *head_s;      /* by terminal: 1 + first position with that s */
    uint32_t *head_d;      /* by terminal: 1 + first position with that d */
    /* greedy */
    uint32_t *at;          /* by batch position: switch index at this layer */
    /* benes: by destination, bit p set if plane p carries a request to it
     * (and bit 2 by source, if the batch has a request from it);
     * greedy: by plane * N/2 + switch, set if a packet went up from it. */
    uint8_t *mark;
    /* benes: route every batch the reference way, group by group and
     * breadth first (route_benes.c, benes_level), for the tests that
     * compare it with the ways used (benes_levels, benes_bfs_levels). */
    bool reference_only;
    /* benes, the fast ways: the sub-networks with at most 2^group_bits
     * terminals are routed one by one (benes_route_plane). */
    unsigned group_bits;
    /* benes, the fast ways: each plane's heads by key, two arrays of one
     * entry per processor, and the base of their values, which only grows
     * (benes_levels: they are not zero between batches); plane 1's only
     * with a runner (router_use_runner), so that both planes can be routed
     * at once. */
    uint32_t *walk_heads[2];
    uint32_t walk_base[2];
    /* benes on batches with repeated terminals: where each group of
     * packets ends, when its sub-networks are routed one by one (zero
     * between batches). */
    uint32_t *group_ends;
    Runner *runner;
    void *runner_ctx;
    size_t parallel_min;
};

enum { ROUTE_UNSET = 2 };  /* `side` of a packet not yet given a sub-network */
/* Router.group_bits unless a test sets it: heads of 2^12 terminals, 16 KiB
 * each, stay in the cache. */
enum { ROUTE_GROUP_BITS = 12 };

/* benes and benes-full (route_benes.c): fills plane, count, routing and
 * addressing of every route; count = cmin(src, dst) when turn_early. */
void route_benes(Router *r, const RouteRequest *reqs, size_t n, Route *routes,
                 int turn_early);

/* A mask of the low `bits` bits (bits <= 32). */
static inline uint32_t route_low_mask(unsigned bits)
{
    return bits >= 32 ? 0xFFFFFFFFu : (1u << bits) - 1;
}

#endif
