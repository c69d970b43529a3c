/* Routes and the routing algorithms (spec/routing.md, thesis 4.3-4.4, 5.4).
 *
 * A route is (plane, count, routing, addressing): the packet goes up
 * `count` layers of its plane, taking up port bit l-1 of `routing` at each
 * layer l < count, turns at layer `count` and comes down taking down port
 * bit l-1 of `addressing` at each layer l <= count; addressing is always the
 * low `count` bits of the destination.
 *
 * Every algorithm receives the batch of send requests made in one timestep
 * (in increasing source order, at most one per source) and returns a route
 * for each. All are deterministic; the random ones draw from one splitmix64
 * generator seeded by --seed, in the order routing.md fixes. */
#ifndef NET_ROUTE_H
#define NET_ROUTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/parallel.h"

typedef struct Route {
    uint8_t plane;        /* 0 or 1 */
    uint8_t count;        /* the layer at which the packet turns, 1..k */
    uint32_t routing;     /* bit l-1: up port at layer l, for l < count */
    uint32_t addressing;  /* bit l-1: down port at layer l, for l <= count */
} Route;

/* The destinations of a multicast (multicast.md): n distinct processors,
 * a list in ascending order or a range of processors but one. */
typedef struct DestSet {
    const uint32_t *members;    /* the list, or NULL for a range */
    uint32_t n;                 /* how many destinations, >= 1 */
    uint32_t lo, hi;            /* a range: the processors in [lo, hi)... */
    uint32_t except;            /* ...but this one (DEST_NONE: none) */
    bool all;                   /* every processor of the machine but the source */
} DestSet;

#define DEST_NONE UINT32_MAX

/* One send request of a batch. */
typedef struct RouteRequest {
    uint32_t src, dst;    /* processors; a multicast's lowest destination */
    uint32_t port;        /* destination input port (not used for routing) */
    uint64_t nth;         /* requests `src` made before this one: the plane
                             it alternates to is nth % 2 */
    const DestSet *set;   /* a multicast's destinations (MOUT), or NULL */
    uint32_t length;      /* words of the message of a SEND (messages.md);
                             0 for OUT and MOUT, which send one (not used
                             for routing) */
} RouteRequest;

/* Whether a request goes to more than one processor: a multicast of one
 * destination is a unicast in every respect but the count of multicasts. */
static inline bool route_is_multicast(const RouteRequest *req)
{
    return req->set != NULL && req->set->n > 1;
}

/* The destinations of a broadcast from src: every processor below `bound`
 * (>= 1) but src; `all` when bound is the machine's size. */
DestSet dest_set_broadcast(uint32_t src, uint32_t bound, bool all);

/* Member i (0 <= i < n) of a set, members ascending; a range skips its
 * exception. */
static inline uint32_t dest_set_member(const DestSet *set, uint32_t i)
{
    if (set->members)
        return set->members[i];
    uint32_t d = set->lo + i;
    return set->except >= set->lo && d >= set->except ? d + 1 : d;
}

/* A set's lowest and highest members. */
static inline uint32_t dest_set_min(const DestSet *set) { return dest_set_member(set, 0); }
static inline uint32_t dest_set_max(const DestSet *set) { return dest_set_member(set, set->n - 1); }

/* Whether processor d is a member. */
bool dest_set_has(const DestSet *set, uint32_t d);

/* The lowest layer from which every destination of a multicast from src
 * can be reached going down: the largest cmin(src, d). */
unsigned dest_set_count(const DestSet *set, uint32_t src);

/* A set as reports show it (multicast.md): "all", or "{1,4,5}" with its
 * members ascending, at most 8 then "...+N" for N more. */
void dest_set_format(char *buf, size_t size, const DestSet *set);

/* A packet's or request's destination as reports show it: its set when
 * it is a multicast (set not NULL), else "p5" for processor dst. */
void dest_name(char *buf, size_t size, const DestSet *set, uint32_t dst);

typedef enum RoutingAlgorithm {
    ROUTING_BENES,        /* looping algorithm, plane split, early turn (default) */
    ROUTING_BENES_FULL,   /* looping algorithm, every packet turns at layer k */
    ROUTING_GREEDY,       /* thesis 4.3 step 2 as printed */
    ROUTING_VALIANT,      /* random up ports, count = k */
    ROUTING_RANDOM,       /* random up ports, count = cmin */
    ROUTING_DMODK,        /* up port at layer l = bit l-1 of the destination */
    ROUTING_ADAPTIVE      /* up ports chosen in the network (net.c), count = cmin */
} RoutingAlgorithm;

enum { ROUTING_COUNT = ROUTING_ADAPTIVE + 1 };

/* "benes", "benes-full", ...; and the reverse (returns 0, or -1 if unknown). */
const char *routing_name(RoutingAlgorithm alg);
int routing_parse(const char *name, RoutingAlgorithm *alg);

typedef struct Router Router;

/* A router for N = 2^k processors (k >= 1) with `planes` planes (1 or 2).
 * Allocates what it needs once; routing a batch allocates nothing and costs
 * in proportion to the batch times k, never to N. NULL if out of memory. */
Router *router_new(RoutingAlgorithm alg, unsigned k, unsigned planes, uint64_t seed);
void router_free(Router *router);

/* Routes one batch: routes[i] for reqs[i]. For ROUTING_ADAPTIVE, `routing`
 * is left 0: the network fills it in as the packet climbs. */
void router_route(Router *router, const RouteRequest *reqs, size_t n, Route *routes);

/* Lets `benes` and `benes-full` route the two planes of a batch of at least
 * `parallel_min` requests on two threads at once, when its terminals are
 * distinct (route_benes.c): the planes share nothing then, so the routes
 * are the same as on one thread. Returns 0, or -1 if memory cannot be had
 * (nothing is changed then); other algorithms and one plane: 0, no effect. */
int router_use_runner(Router *router, Runner *runner, void *ctx, size_t parallel_min);

/* Describes a route without its request: "plane 0 count 2 routing 0b1
 * addressing 0b01" (as route_format does after the request); a
 * multicast's addressing is "-" (its way down is fixed by its set). */
void route_describe(char *buf, size_t size, const Route *route, int adaptive, bool multicast);

/* Formats a route as --routes prints it (routing.md) after its timestep
 * ("t=18 "), without a newline:
 * "route #3 p3->p1 port 0 plane 0 count 2 routing 0b1 addressing 0b01"
 * ("routing -" when count is 1, "routing (adaptive)" for adaptive; a
 * multicast's destination is its set, "p3->{1,4,5}", "p3->all"; a message
 * of several words says "length L" after its port). */
void route_format(char *buf, size_t size, uint64_t packet_id, const RouteRequest *req,
                  const Route *route, int adaptive);

#endif
