/* Multicast in the network alone (spec/multicast.md): every processor
 * broadcasts at once to all the others, into an empty network, and every
 * input port that holds a packet is read every timestep (those of the
 * processors the last network stage delivered to), so that only the
 * network limits throughput. At N = 4,096 that is 4,096 packets that the
 * switches split into 16.7 M copies. Prints the copies' hops (links
 * crossed) per second, of the whole run and of the network stage alone
 * ("stage hops/s", the time in net_step), and the timesteps the broadcast
 * took.
 *
 *   broadcast_bench [--procs N] [--duplex half|full] [--routing NAME] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/net.h"
#include "net/route.h"
#include "bench/clock.h"

int main(int argc, char **argv)
{
    uint32_t n = 4096;
    bool full = true;
    RoutingAlgorithm alg = ROUTING_BENES;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--procs")) n = (uint32_t)atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--duplex")) full = !strcmp(argv[i + 1], "full");
        else if (!strcmp(argv[i], "--routing")) routing_parse(argv[i + 1], &alg);
    }
    unsigned k = 0;
    while ((1u << k) < n)
        k++;
    n = 1u << k;
    NetConfig cfg = { k, 2, full, 5, 16, 1, alg == ROUTING_ADAPTIVE, 1, SWITCHING_WORMHOLE };
    Net *net = net_new(&cfg);
    Router *router = router_new(alg, k, 2, 1);
    DestSet *sets = malloc(n * sizeof *sets);
    RouteRequest *reqs = malloc(n * sizeof *reqs);
    Route *routes = malloc(n * sizeof *routes);
    uint32_t *arrived = malloc(n * sizeof *arrived);
    uint8_t *listed = calloc(n, 1);
    if (!net || !router || !sets || !reqs || !routes || !arrived || !listed) {
        fprintf(stderr, "broadcast_bench: out of memory\n");
        return 1;
    }
    double start = bench_now(), in_stage = 0;
    for (uint32_t p = 0; p < n; p++) {
        sets[p] = dest_set_broadcast(p, n, true);
        reqs[p] = (RouteRequest){ p, dest_set_min(&sets[p]), p % 16, 0, &sets[p], 0 };
        net_reserve_out(net, p);
    }
    router_route(router, reqs, n, routes);
    for (uint32_t p = 0; p < n; p++)
        net_inject(net, &reqs[p], &routes[p], &(uint32_t){ p }, 1);
    size_t narrived = 0;
    uint64_t t = 1;
    for (;; t++) {
        net_begin_timestep(net, t);
        for (size_t i = 0; i < narrived; i++) {
            uint32_t w;
            for (unsigned port = 0; port < cfg.ports; port++)
                while (net_in_take(net, arrived[i], port, &w))
                    ;
            listed[arrived[i]] = 0;
        }
        double stage_start = bench_now();
        const NetStepResult *r = net_step(net, t);
        in_stage += bench_now() - stage_start;
        narrived = 0;                   /* (each processor once) */
        for (size_t i = 0; i < r->nwoken; i++)
            if (!listed[r->woken[i]]) {
                listed[r->woken[i]] = 1;
                arrived[narrived++] = r->woken[i];
            }
        if (!r->busy)
            break;
    }
    double secs = bench_now() - start;
    const NetStats *st = net_stats(net);
    printf("%-6s %-6s %-8s %10s %12s %10s %12s %14s\n", "N", "duplex", "routing", "copies",
           "hops", "timesteps", "hops/s", "stage hops/s");
    printf("%-6u %-6s %-8s %10llu %12llu %10llu %12.3g %14.3g\n", n, full ? "full" : "half",
           routing_name(alg), (unsigned long long)st->copies,
           (unsigned long long)st->links_crossed, (unsigned long long)t,
           st->links_crossed / secs, st->links_crossed / in_stage);
    if (st->delivered != (uint64_t)n * (n - 1)) {
        fprintf(stderr, "broadcast_bench: %llu delivered, not %llu\n",
                (unsigned long long)st->delivered, (unsigned long long)n * (n - 1));
        return 1;
    }
    free(sets);
    free(reqs);
    free(routes);
    free(arrived);
    free(listed);
    router_free(router);
    net_free(net);
    return 0;
}
