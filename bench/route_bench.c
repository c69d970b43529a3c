/* Times the `benes` routing (net/route.c): a batch of 3 packets on 65,536
 * processors, which must cost microseconds (the work follows the batch, not
 * N); full permutations of 1,024, 4,096 and 65,536 processors; batches of
 * 64 of 4,096 and of 65,536 and of 512 of 4,096 (a flood timestep's), whose
 * cost a packet should not grow with N; and half of 4,096 and of 65,536 processors
 * sending to random destinations, some repeated, as under net_bench's
 * heaviest load (route_benes.c's general way). Prints the microseconds per
 * batch; `make bench` runs it. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "net/route.h"

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* A fixed pseudo-random permutation of 0..n-1 (splitmix64, Fisher-Yates). */
static void shuffle(uint32_t *a, uint32_t n, uint64_t x)
{
    for (uint32_t i = 0; i < n; i++)
        a[i] = i;
    for (uint32_t i = n; i > 1; i--) {
        uint64_t z = (x += 0x9E3779B97F4A7C15u);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
        uint32_t j = (uint32_t)((z ^ (z >> 31)) % i), t = a[i - 1];
        a[i - 1] = a[j];
        a[j] = t;
    }
}

/* Routes the batch `reqs` `reps` times with one router; prints and returns
 * the microseconds per batch. */
static double bench(const char *what, unsigned k, const RouteRequest *reqs,
                    size_t n, Route *routes, long reps)
{
    Router *r = router_new(ROUTING_BENES, k, 2, 1);
    if (!r) {
        fprintf(stderr, "route_bench: out of memory\n");
        exit(1);
    }
    double t0 = now_us();
    for (long i = 0; i < reps; i++)
        router_route(r, reqs, n, routes);
    double us = (now_us() - t0) / (double)reps;
    router_free(r);
    printf("benes %-34s N=%-6u %10.3f us/batch (%ld batches)\n", what, 1u << k, us, reps);
    return us;
}

int main(void)
{
    static RouteRequest reqs[1 << 16];
    static Route routes[1 << 16];
    static uint32_t perm[1 << 16];
    const RouteRequest three[3] = {{5, 60000, 0, 0, NULL, 0 }, {6, 5, 0, 1, NULL, 0 }, {40000, 7, 0, 0, NULL, 0 }};
    bench("batch of 3 packets", 16, three, 3, routes, 1000000);
    for (unsigned k = 10; k <= 16; k += k == 10 ? 2 : 4) {
        uint32_t n = 1u << k;
        shuffle(perm, n, k);
        for (uint32_t i = 0; i < n; i++)
            reqs[i] = (RouteRequest){i, perm[i], 0, i % 3, NULL, 0 };
        bench("full permutation", k, reqs, n, routes, k == 10 ? 20000 : k == 12 ? 2000 : 100);
    }
    /* As in the flood program's timesteps (an eighth of 4,096 processors
     * sending, to distinct destinations), and fewer, spread the same way. */
    const struct { unsigned k; uint32_t n; long reps; } spread[] = {
        { 12, 64, 200000 }, { 16, 64, 200000 }, { 12, 512, 20000 } };
    for (size_t b = 0; b < sizeof spread / sizeof spread[0]; b++) {
        uint32_t n = spread[b].n, gap = (1u << spread[b].k) / n;
        char what[40];
        shuffle(perm, 1u << spread[b].k, 12);
        for (uint32_t i = 0; i < n; i++)
            reqs[i] = (RouteRequest){gap * i + i % 8, perm[i], 0, i % 3, NULL, 0 };
        snprintf(what, sizeof what, "batch of %u packets", n);
        bench(what, spread[b].k, reqs, n, routes, spread[b].reps);
    }
    /* As in net_bench's timesteps at load 1.0: half the processors sending,
     * to random destinations, some of them repeated (the general way). */
    for (unsigned k = 12; k <= 16; k += 4) {
        uint32_t n = 1u << k;
        uint64_t x = k;
        for (uint32_t i = 0; i < n / 2; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            reqs[i] = (RouteRequest){2 * i + (uint32_t)(x >> 63), (uint32_t)(x >> 33) % n, 0, i % 3, NULL, 0 };
        }
        bench("random half, repeated destinations", k, reqs, n / 2, routes, k == 12 ? 5000 : 200);
    }
    return 0;
}
