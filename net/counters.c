/* The network's counters (counters.h). */
#include "net/counters.h"

#include <stdlib.h>

/* A zeroed array of n entries (n may be 0). */
static void *zeroed(size_t n, size_t size)
{
    return n ? calloc(n, size) : malloc(1);
}

int counters_init(Counters *c, unsigned k)
{
    for (int d = 0; d < 2; d++) {
        c->stats.link_collisions[d] = zeroed(k + 1, sizeof(uint64_t));
        c->stats.buffer_collisions[d] = zeroed(k + 1, sizeof(uint64_t));
        c->asleep_link[d] = zeroed(k + 1, sizeof(uint64_t));
        c->asleep_buffer[d] = zeroed(k + 1, sizeof(uint64_t));
        if (!c->stats.link_collisions[d] || !c->stats.buffer_collisions[d] ||
            !c->asleep_link[d] || !c->asleep_buffer[d])
            return -1;
    }
    return 0;
}

void counters_free(Counters *c)
{
    for (int d = 0; d < 2; d++) {
        free(c->stats.link_collisions[d]);
        free(c->stats.buffer_collisions[d]);
        free(c->asleep_link[d]);
        free(c->asleep_buffer[d]);
    }
    free(c->stats.latency_hist);
}

void net_record_latency(NetStats *st, uint64_t latency)
{
    if (st->delivered == 1 || latency < st->latency_min)
        st->latency_min = latency;
    if (latency > st->latency_max)
        st->latency_max = latency;
    st->latency_sum += latency;
    if (latency >= st->latency_hist_len) {
        size_t len = st->latency_hist_len ? st->latency_hist_len : 64;
        while (len <= latency)
            len *= 2;
        uint64_t *h = realloc(st->latency_hist, len * sizeof *h);
        if (!h)
            abort();
        for (size_t i = st->latency_hist_len; i < len; i++)
            h[i] = 0;
        st->latency_hist = h;
        st->latency_hist_len = len;
    }
    st->latency_hist[latency]++;
}

