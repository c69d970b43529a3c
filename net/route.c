/* Routing algorithms (route.h). TEMPORARY: only dmodk, to drive the network
 * tests; the full set of spec/routing.md replaces this file. */
#include "net/route.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/topology.h"

static const char *const names[ROUTING_COUNT] = {
    "benes", "benes-full", "greedy", "valiant", "random", "dmodk", "adaptive"
};

const char *routing_name(RoutingAlgorithm alg) { return names[alg]; }

int routing_parse(const char *name, RoutingAlgorithm *alg)
{
    for (int i = 0; i < ROUTING_COUNT; i++)
        if (strcmp(name, names[i]) == 0) {
            *alg = (RoutingAlgorithm)i;
            return 0;
        }
    return -1;
}

struct Router { RoutingAlgorithm alg; unsigned k, planes; };

Router *router_new(RoutingAlgorithm alg, unsigned k, unsigned planes, uint64_t seed)
{
    (void)seed;
    if (alg != ROUTING_DMODK)
        return NULL;
    Router *r = malloc(sizeof *r);
    if (r)
        *r = (Router){ alg, k, planes };
    return r;
}

void router_free(Router *router) { free(router); }

void router_route(Router *router, const RouteRequest *reqs, size_t n, Route *routes)
{
    for (size_t i = 0; i < n; i++) {
        unsigned c = topo_cmin(reqs[i].src, reqs[i].dst);
        uint32_t low = c >= 32 ? ~0u : (1u << c) - 1;
        routes[i] = (Route){
            .plane = router->planes == 2 ? (uint8_t)(reqs[i].nth & 1) : 0,
            .count = (uint8_t)c,
            .routing = reqs[i].dst & (low >> 1),
            .addressing = reqs[i].dst & low,
        };
    }
}

static void bits(char *buf, uint32_t v, unsigned n)
{
    buf[0] = '0';
    buf[1] = 'b';
    for (unsigned i = 0; i < n; i++)
        buf[2 + i] = (char)('0' + ((v >> (n - 1 - i)) & 1));
    buf[2 + n] = 0;
}

void route_describe(char *buf, size_t size, const Route *route, int adaptive)
{
    char routing[40], addressing[40];
    if (adaptive)
        snprintf(routing, sizeof routing, "(adaptive)");
    else if (route->count == 1)
        snprintf(routing, sizeof routing, "-");
    else
        bits(routing, route->routing, route->count - 1u);
    bits(addressing, route->addressing, route->count);
    snprintf(buf, size, "plane %u count %u routing %s addressing %s", route->plane,
             route->count, routing, addressing);
}

void route_format(char *buf, size_t size, uint64_t timestep, uint64_t packet_id,
                  const RouteRequest *req, const Route *route, int adaptive)
{
    char text[160];
    route_describe(text, sizeof text, route, adaptive);
    snprintf(buf, size, "t=%llu route #%llu p%u->p%u port %u %s",
             (unsigned long long)timestep, (unsigned long long)packet_id, req->src, req->dst,
             req->port, text);
}
