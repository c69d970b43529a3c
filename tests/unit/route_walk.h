/* Shared by the routing tests: a route followed through the wiring of
 * net/topology.h, link by link, and the combinatorial collision check.
 *
 * Timing. A batch is sent in one timestep into an empty network; a packet
 * that meets nobody crosses its h-th link (h = 1 .. 2c) in a fixed timestep:
 * it claims the link at t + 2h - 2, holds its main slot until stage d of
 * t + 2h - 1, and enters the next switch's output buffer then (machine.md).
 * So, as long as nobody has waited, two packets can only meet by using the
 * same link, or entering the same output buffer, at the same hop number h;
 * the first such meeting happens with everybody still on time, so a batch
 * with none meets no collision and no wait, and a batch with one collides.
 *
 * Hop numbers. Going up, the link above layer L (L = 0: the processor link)
 * is always hop L + 1; coming down from a turn at layer c it is hop 2c - L.
 * L + 1 = 2c - L has no integer solution, so two packets can never cross one
 * link in opposite directions at the same hop: half duplex adds no conflict
 * to full duplex at the route level. check_batch counts such meetings all
 * the same, and the tests assert that there are none. */
#ifndef TESTS_UNIT_ROUTE_WALK_H
#define TESTS_UNIT_ROUTE_WALK_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "net/route.h"
#include "net/topology.h"
#include "tests/perm.h"

enum { WALK_UP = 0, WALK_DOWN = 1 };   /* a link key's direction bit */

/* Where a batch's packets go: one key per link crossing and per entry into
 * an output buffer, packed so that equal resources at equal hops sort
 * together. */
typedef struct Keys {
    uint64_t *link, *buf;
    size_t nlink, nbuf, cap;
    uint64_t *tmp;      /* check_batch's room to sort in, cap keys */
} Keys;

/* Link ids of one plane: processor p is p; up port b of switch (l, j) is
 * N + 2 * ((l - 1) * N/2 + j) + b. A link key is plane, link, hop, then the
 * direction in the lowest bit. */
static inline void keys_link(Keys *ks, unsigned plane, uint64_t link,
                             unsigned hop, unsigned dir)
{
    ks->link[ks->nlink++] = (uint64_t)plane << 62 | link << 16 | hop << 1 | dir;
}

/* Output buffer ids: port (d0, d1, u0, u1 = 0..3) of switch (l, j) is
 * 4 * ((l - 1) * N/2 + j) + port; the hop is that of the link just crossed. */
static inline void keys_buf(Keys *ks, unsigned plane, uint64_t sw, unsigned port,
                            unsigned hop)
{
    ks->buf[ks->nbuf++] = (uint64_t)plane << 62 | (sw * 4 + port) << 16 | hop;
}

/* Follows one route from its source through the wiring, recording its links
 * and buffers, and returns the processor it reaches (or UINT32_MAX if the
 * route is not even shaped like one). */
static inline uint32_t walk_route(unsigned k, const RouteRequest *q,
                                  const Route *r, Keys *ks)
{
    uint64_t n = 1u << k, half = n / 2;
    unsigned c = r->count, hop = 1;
    if (c < 1 || c > k)
        return UINT32_MAX;
    uint32_t j = topo_proc_switch(q->src);
    keys_link(ks, r->plane, q->src, hop, WALK_UP);
    for (unsigned l = 1; l < c; l++) {
        unsigned b = (r->routing >> (l - 1)) & 1;
        uint64_t sw = (l - 1) * half + j;
        keys_buf(ks, r->plane, sw, 2 + b, hop++);
        keys_link(ks, r->plane, n + 2 * sw + b, hop, WALK_UP);
        j = topo_up_switch(l, j, b);
    }
    for (unsigned l = c;; l--) {
        unsigned d = (r->addressing >> (l - 1)) & 1;
        keys_buf(ks, r->plane, (l - 1) * half + j, d, hop++);
        if (l == 1) {
            keys_link(ks, r->plane, topo_down_proc(j, d), hop, WALK_DOWN);
            return hop == 2 * c ? topo_down_proc(j, d) : UINT32_MAX;
        }
        uint32_t below = topo_down_switch(l, j, d);
        uint64_t sw = (l - 2) * half + below;
        keys_link(ks, r->plane, n + 2 * sw + topo_down_arrival_port(l, j), hop,
                  WALK_DOWN);
        j = below;
    }
}

/* A route as route.h promises it: count in [cmin, k], a plane that exists,
 * addressing the low count bits of dst, no routing bit at or above layer
 * count, and the wiring followed up and down leads from src to dst. */
static inline int route_valid(unsigned k, unsigned planes, const RouteRequest *q,
                              const Route *r)
{
    uint64_t link[64], buf[64];  /* a route has at most 2k <= 62 of each */
    Keys one = {link, buf, 0, 0, 64, NULL};
    unsigned c = r->count;
    uint32_t low = c >= 32 ? 0xFFFFFFFFu : (1u << c) - 1;
    return c >= topo_cmin(q->src, q->dst) && c <= k && r->plane < planes &&
           r->addressing == (q->dst & low) && (r->routing >> (c - 1)) == 0 &&
           walk_route(k, q, r, &one) == q->dst;
}

typedef struct Conflicts {
    long invalid;       /* routes that are not valid */
    long same_dir;      /* two packets on one link, one direction, one hop */
    long opposite_dir;  /* ... in opposite directions (half duplex only) */
    long buffer;        /* two packets entering one output buffer, one hop */
} Conflicts;

/* keys_sort A N TMP: A's N keys in increasing order, TMP room for N more.
 * A radix sort, a byte at a time from the lowest, skipping the bytes all
 * keys share; insertion for a few keys. (qsort, calling a comparison for
 * each pair it weighs, took most of the routing tests' time.) */
static inline void keys_sort(uint64_t *a, size_t n, uint64_t *tmp)
{
    if (n < 32) {
        for (size_t i = 1; i < n; i++) {
            uint64_t x = a[i];
            size_t j = i;
            for (; j > 0 && a[j - 1] > x; j--)
                a[j] = a[j - 1];
            a[j] = x;
        }
        return;
    }
    static size_t count[8][256];
    memset(count, 0, sizeof count);
    for (size_t i = 0; i < n; i++)
        for (unsigned d = 0; d < 8; d++)
            count[d][(a[i] >> (8 * d)) & 0xFF]++;
    uint64_t *from = a, *to = tmp;
    for (unsigned d = 0; d < 8; d++) {
        if (count[d][(a[0] >> (8 * d)) & 0xFF] == n)
            continue;               /* (every key has this byte) */
        size_t at = 0;
        for (unsigned v = 0; v < 256; v++) {
            size_t c = count[d][v];
            count[d][v] = at;
            at += c;
        }
        for (size_t i = 0; i < n; i++)
            to[count[d][(from[i] >> (8 * d)) & 0xFF]++] = from[i];
        uint64_t *t = from;
        from = to;
        to = t;
    }
    if (from != a)
        for (size_t i = 0; i < n; i++)
            a[i] = from[i];
}

static Keys walk_keys;  /* grown as needed, never freed: reused by each batch */

/* Walks every route of a batch and counts its meetings. */
static inline Conflicts check_batch(unsigned k, unsigned planes,
                                    const RouteRequest *reqs, size_t n,
                                    const Route *routes)
{
    Conflicts cf = {0, 0, 0, 0};
    Keys *ks = &walk_keys;
    size_t need = n * 2 * (size_t)k + 1;
    if (need > ks->cap) {
        ks->link = realloc(ks->link, need * sizeof *ks->link);
        ks->buf = realloc(ks->buf, need * sizeof *ks->buf);
        ks->tmp = realloc(ks->tmp, need * sizeof *ks->tmp);
        ks->cap = need;
    }
    ks->nlink = ks->nbuf = 0;
    for (size_t i = 0; i < n; i++) {
        if (route_valid(k, planes, &reqs[i], &routes[i]))
            walk_route(k, &reqs[i], &routes[i], ks);
        else
            cf.invalid++;
    }
    keys_sort(ks->link, ks->nlink, ks->tmp);
    keys_sort(ks->buf, ks->nbuf, ks->tmp);
    for (size_t i = 1; i < ks->nlink; i++) {
        if (ks->link[i] == ks->link[i - 1])
            cf.same_dir++;
        else if (ks->link[i] >> 1 == ks->link[i - 1] >> 1)
            cf.opposite_dir++;
    }
    for (size_t i = 1; i < ks->nbuf; i++)
        cf.buffer += ks->buf[i] == ks->buf[i - 1];
    return cf;
}

#endif
