/* The network stage alone: random traffic injected straight into the
 * network (no processors), every input port that holds a packet read every
 * timestep (those of the processors the last network stage delivered to),
 * so that only the network limits throughput. Prints packet hops (links crossed)
 * per second and collisions per hop for a range of offered loads; "stage
 * hops/s" counts only the time spent in net_step (sub-stages a-e), without
 * the traffic generator, the router and the reading of ports; "latency"
 * is the mean latency of the packets delivered.
 *
 *   net_bench [--procs N] [--duplex half|full] [--routing NAME] [--steps S]
 *             [--load L]   (L one of the table's loads: that row only)
 *             [--vcs V]    (virtual channels, spec/channels.md)
 *             [--buffer B] (places per buffer; 5)
 *             [--length W] (messages of W words under wormhole switching,
 *                          spec/messages.md; hops count their flits)
 *
 * Load L means each processor with an empty output slot sends a packet (or
 * a message) in a timestep with probability L, to a uniformly random
 * destination. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/net.h"
#include "net/route.h"
#include "bench/clock.h"

static uint64_t rng = 12345;

static uint32_t draw(uint32_t n)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((rng >> 33) % n);
}

int main(int argc, char **argv)
{
    uint32_t n = 4096;
    bool full = true;
    RoutingAlgorithm alg = ROUTING_BENES;
    uint64_t steps = 2000;
    double only_load = 0;
    unsigned vcs = 1, buffer = 5;
    uint32_t length = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--procs")) n = (uint32_t)atol(argv[i + 1]);
        else if (!strcmp(argv[i], "--duplex")) full = !strcmp(argv[i + 1], "full");
        else if (!strcmp(argv[i], "--routing")) routing_parse(argv[i + 1], &alg);
        else if (!strcmp(argv[i], "--steps")) steps = (uint64_t)atoll(argv[i + 1]);
        else if (!strcmp(argv[i], "--load")) only_load = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--vcs")) vcs = (unsigned)atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--buffer")) buffer = (unsigned)atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--length")) length = (uint32_t)atol(argv[i + 1]);
    }
    unsigned k = 0;
    while ((1u << k) < n)
        k++;
    static const double loads[] = { 0.05, 0.1, 0.2, 0.5, 1.0 };
    printf("%-6s %-6s %-10s %5s %12s %12s %14s %14s %8s\n", "N", "duplex", "routing", "load",
           "hops/s", "hops/step", "collisions/hop", "stage hops/s", "latency");
    for (size_t li = 0; li < sizeof loads / sizeof loads[0]; li++) {
        if (only_load > 0 && loads[li] != only_load)
            continue;
        NetConfig cfg = { k, 2, full, buffer, 4, 1, alg == ROUTING_ADAPTIVE, vcs, SWITCHING_WORMHOLE };
        Net *net = net_new(&cfg);
        Router *router = router_new(alg, k, 2, 1);
        RouteRequest *reqs = malloc(n * sizeof *reqs);
        Route *routes = malloc(n * sizeof *routes);
        uint32_t *words = malloc((size_t)n * length * sizeof *words);
        uint32_t threshold = (uint32_t)(loads[li] * 1000000);
        /* The processors whose ports the last timestep filled (net_woken
         * lists them, with those whose output slot emptied): reading only
         * theirs empties every port, as a machine's processors would,
         * without a pass over all N * P ports. */
        uint32_t *arrived = NULL;
        size_t narrived = 0, arrived_cap = 0;
        double start = bench_now(), in_stage = 0;
        for (uint64_t t = 1; t <= steps; t++) {
            net_begin_timestep(net, t);
            size_t batch = 0;
            for (size_t i = 0; i < narrived; i++) {
                uint32_t w;
                for (unsigned port = 0; port < cfg.ports; port++)
                    while (net_in_take(net, arrived[i], port, &w))
                        ;
            }
            for (uint32_t p = 0; p < n; p++) {
                if (net_out_free(net, p) && draw(1000000) < threshold) {
                    net_reserve_out(net, p);
                    uint32_t dst = draw(n), port = draw(cfg.ports);   /* (in this order) */
                    reqs[batch] = (RouteRequest){ p, dst, port, net_count_request(net, p), NULL,
                                                  length > 1 ? length : 0 };
                    for (uint32_t w = 0; w < length; w++)
                        words[batch * length + w] = p + w;
                    batch++;
                }
            }
            router_route(router, reqs, batch, routes);
            for (size_t i = 0; i < batch; i++)
                net_inject(net, &reqs[i], &routes[i], &words[i * length], t);
            double stage_start = bench_now();
            net_step(net, t);
            in_stage += bench_now() - stage_start;
            size_t nwoken;
            const uint32_t *woken = net_woken(net, &nwoken);
            if (nwoken > arrived_cap) {
                arrived_cap = 2 * nwoken;
                arrived = realloc(arrived, arrived_cap * sizeof *arrived);
                if (!arrived) {
                    fprintf(stderr, "net_bench: out of memory\n");
                    return 1;
                }
            }
            narrived = nwoken;
            memcpy(arrived, woken, narrived * sizeof *arrived);
        }
        double secs = bench_now() - start;
        const NetStats *st = net_stats(net);
        printf("%-6u %-6s %-10s %5.2f %12.3g %12.1f %14.3f %14.3g %8.1f\n", n,
               full ? "full" : "half", routing_name(alg), loads[li], st->links_crossed / secs,
               (double)st->links_crossed / steps,
               (double)(st->link_total + st->buffer_total) / (double)st->links_crossed,
               st->links_crossed / in_stage,
               st->delivered ? (double)st->latency_sum / (double)st->delivered : 0.0);
        free(arrived);
        free(reqs);
        free(routes);
        free(words);
        router_free(router);
        net_free(net);
    }
    return 0;
}
