/* The routing algorithms of spec/routing.md behind one Router: their names,
 * the router's life cycle, the simple algorithms (greedy, valiant, random,
 * dmodk, adaptive), and routes printed as --routes shows them. `benes` and
 * `benes-full` live in route_benes.c.
 *
 * A route goes up `count` layers, taking up port bit l-1 of `routing` at
 * layer l < count, and down by the destination's low `count` bits. Any up
 * ports reach the destination as long as count >= cmin(src, dst)
 * (net/topology.h), so the algorithms differ only in the plane, the turn and
 * the up ports, and so in which packets meet. */
#include "net/route_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/topology.h"

const char *routing_name(RoutingAlgorithm alg)
{
    switch (alg) {
    case ROUTING_BENES:      return "benes";
    case ROUTING_BENES_FULL: return "benes-full";
    case ROUTING_GREEDY:     return "greedy";
    case ROUTING_VALIANT:    return "valiant";
    case ROUTING_RANDOM:     return "random";
    case ROUTING_DMODK:      return "dmodk";
    case ROUTING_ADAPTIVE:   return "adaptive";
    }
    return NULL;  /* not a RoutingAlgorithm */
}

int routing_parse(const char *name, RoutingAlgorithm *alg)
{
    for (int a = 0; a < ROUTING_COUNT; a++) {
        if (strcmp(name, routing_name((RoutingAlgorithm)a)) == 0) {
            *alg = (RoutingAlgorithm)a;
            return 0;
        }
    }
    return -1;
}

/* Allocates the scratch arrays `alg` uses (route_internal.h); -1 if out of
 * memory. calloc leaves them zero, as they must be between batches. */
static int router_alloc(Router *r, size_t procs)
{
    switch (r->alg) {
    case ROUTING_BENES:
    case ROUTING_BENES_FULL:
        r->order = calloc(procs, sizeof *r->order);
        r->spill = calloc(procs, sizeof *r->spill);
        r->queue = calloc(procs, sizeof *r->queue);
        r->next_s = calloc(procs, sizeof *r->next_s);
        r->next_d = calloc(procs, sizeof *r->next_d);
        r->side = calloc(procs, sizeof *r->side);
        r->head_s = calloc(procs, sizeof *r->head_s);
        r->head_d = calloc(procs, sizeof *r->head_d);
        r->mark = calloc(procs, sizeof *r->mark);
        r->walk_heads[0] = calloc(2 * procs, sizeof *r->walk_heads[0]);
        r->group_ends = calloc(procs + 1, sizeof *r->group_ends);
        return r->order && r->spill && r->queue && r->next_s && r->next_d && r->side &&
               r->head_s && r->head_d && r->mark && r->walk_heads[0] && r->group_ends ? 0 : -1;
    case ROUTING_GREEDY:
        r->at = calloc(procs, sizeof *r->at);
        r->mark = calloc(procs, sizeof *r->mark);
        return r->at && r->mark ? 0 : -1;
    case ROUTING_VALIANT:
    case ROUTING_RANDOM:
    case ROUTING_DMODK:
    case ROUTING_ADAPTIVE:
        return 0;
    }
    return -1;
}

/* k is limited to 31 so that a route's bit strings fit in 32 bits; errno is
 * EINVAL for a bad argument, ENOMEM when out of memory. */
Router *router_new(RoutingAlgorithm alg, unsigned k, unsigned planes, uint64_t seed)
{
    if (!routing_name(alg) || k < 1 || k > 31 || planes < 1 || planes > 2) {
        errno = EINVAL;
        return NULL;
    }
    Router *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->alg = alg;
    r->k = k;
    r->planes = planes;
    r->rng = seed;
    r->group_bits = ROUTE_GROUP_BITS;
    if (router_alloc(r, (size_t)1 << k) != 0) {
        router_free(r);
        errno = ENOMEM;
        return NULL;
    }
    return r;
}

int router_use_runner(Router *r, Runner *runner, void *ctx, size_t parallel_min)
{
    if ((r->alg != ROUTING_BENES && r->alg != ROUTING_BENES_FULL) || r->planes != 2)
        return 0;
    size_t procs = (size_t)1 << r->k;
    uint32_t *heads = calloc(2 * procs, sizeof *heads);
    if (!heads)
        return -1;
    free(r->walk_heads[1]);
    r->walk_heads[1] = heads;
    r->walk_base[1] = 0;
    r->runner = runner;
    r->runner_ctx = ctx;
    r->parallel_min = parallel_min;
    return 0;
}

void router_free(Router *r)
{
    if (!r)
        return;
    free(r->order);
    free(r->spill);
    free(r->queue);
    free(r->next_s);
    free(r->next_d);
    free(r->side);
    free(r->head_s);
    free(r->walk_heads[0]);
    free(r->walk_heads[1]);
    free(r->group_ends);
    free(r->head_d);
    free(r->at);
    free(r->mark);
    free(r);
}

/* splitmix64, exactly as routing.md prints it. */
static uint64_t route_draw(Router *r)
{
    uint64_t z = (r->rng += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

/* The default plane: the one the source alternates to. */
static uint8_t route_plane(const Router *r, const RouteRequest *req)
{
    return r->planes == 2 ? (uint8_t)(req->nth % 2) : 0;
}

/* greedy: layer by layer, each packet in batch order takes up port 0 from
 * its switch unless an earlier packet of its plane went up from that switch
 * at this layer. A layer's choices depend only on the layers below, so
 * deciding all packets one layer at a time gives the packet-by-packet
 * result, with one mark array cleared after each layer. */
static void route_greedy(Router *r, const RouteRequest *reqs, size_t n, Route *routes)
{
    uint32_t half = (uint32_t)1 << (r->k - 1);  /* switches per layer */
    for (size_t i = 0; i < n; i++)
        r->at[i] = topo_proc_switch(reqs[i].src);
    for (unsigned l = 1; l < r->k; l++) {
        for (size_t i = 0; i < n; i++) {
            uint8_t *used = &r->mark[routes[i].plane * half + r->at[i]];
            routes[i].routing |= (uint32_t)(*used != 0) << (l - 1);
            *used = 1;
        }
        for (size_t i = 0; i < n; i++) {
            r->mark[routes[i].plane * half + r->at[i]] = 0;
            r->at[i] = topo_up_switch(l, r->at[i], (routes[i].routing >> (l - 1)) & 1);
        }
    }
}

/* valiant and random: one draw per up port, in batch order then layer
 * order; the up port is the draw's top bit. */
static void route_random(Router *r, size_t n, Route *routes)
{
    for (size_t i = 0; i < n; i++)
        for (unsigned l = 1; l < routes[i].count; l++)
            routes[i].routing |= (uint32_t)(route_draw(r) >> 63) << (l - 1);
}

void router_route(Router *r, const RouteRequest *reqs, size_t n, Route *routes)
{
    if (r->alg == ROUTING_BENES || r->alg == ROUTING_BENES_FULL) {
        route_benes(r, reqs, n, routes, r->alg == ROUTING_BENES);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned count = topo_cmin(reqs[i].src, reqs[i].dst);
        if (r->alg == ROUTING_GREEDY || r->alg == ROUTING_VALIANT)
            count = r->k;
        else if (route_is_multicast(&reqs[i]))   /* (to its lowest member, turning higher) */
            count = route_multicast_count(&reqs[i], count);
        routes[i].plane = route_plane(r, &reqs[i]);
        routes[i].count = (uint8_t)count;
        routes[i].routing = 0;
        routes[i].addressing = reqs[i].dst & route_low_mask(routes[i].count);
    }
    switch (r->alg) {
    case ROUTING_GREEDY:
        route_greedy(r, reqs, n, routes);
        break;
    case ROUTING_VALIANT:
    case ROUTING_RANDOM:
        route_random(r, n, routes);
        break;
    case ROUTING_DMODK:
        for (size_t i = 0; i < n; i++)
            routes[i].routing = reqs[i].dst & route_low_mask(routes[i].count - 1u);
        break;
    case ROUTING_ADAPTIVE:     /* the network chooses the up ports */
    case ROUTING_BENES:        /* handled above */
    case ROUTING_BENES_FULL:
        break;
    }
}

/* The low `digits` bits of v in binary, most significant first, after "0b". */
static void route_bits(char *out, uint32_t v, unsigned digits)
{
    *out++ = '0';
    *out++ = 'b';
    for (unsigned i = digits; i-- > 0;)
        *out++ = (char)('0' + ((v >> i) & 1));
    *out = '\0';
}

/* A route that turns at layer 1 has no up port to choose, so it shows
 * "routing -" even under adaptive routing. */
void route_describe(char *buf, size_t size, const Route *route, int adaptive, bool multicast)
{
    char up[40], down[40];
    unsigned c = route->count;
    if (c > 32)                      /* not a route; keep the buffers safe */
        c = 32;
    if (c <= 1)
        strcpy(up, "-");
    else if (adaptive)
        strcpy(up, "(adaptive)");
    else
        route_bits(up, route->routing, c - 1);
    if (multicast)
        strcpy(down, "-");
    else
        route_bits(down, route->addressing, c);
    snprintf(buf, size, "plane %u count %u routing %s addressing %s",
             (unsigned)route->plane, (unsigned)route->count, up, down);
}

void route_format(char *buf, size_t size, uint64_t packet_id, const RouteRequest *req,
                  const Route *route, int adaptive)
{
    char text[128], dst[160];
    bool multicast = route_is_multicast(req);
    route_describe(text, sizeof text, route, adaptive, multicast);
    dest_name(dst, sizeof dst, multicast ? req->set : NULL, req->dst);
    char length[24] = "";
    if (req->length > 1)
        snprintf(length, sizeof length, " length %" PRIu32, req->length);
    snprintf(buf, size, "route #%" PRIu64 " p%" PRIu32 "->%s port %" PRIu32 "%s %s",
             packet_id, req->src, dst, req->port, length, text);
}
