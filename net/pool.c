/* The packet pool: where packets live from the OUT that makes them to the
 * IN that reads them. A packet is named by its pool index (from 1: 0 is
 * NET_NIL) and keeps it all its life, so what moves through the network
 * is that index; its record (Packet), the rest of it (PacketInfo) and its
 * route word are three arrays by that index (Layout.pool, .info, .routes). */
#include <stdlib.h>
#include <string.h>

#include "net/net_internal.h"

/* Packets are made in batches (injection), each writing its records: the
 * lines of the packet made POOL_PREFETCH_DISTANCE after this one are asked for now,
 * which a free list linked through the records could not say (it would
 * wait on each record for the next one's index). */
enum { POOL_PREFETCH_DISTANCE = 8 };

/* Doubles the pool; index 0 stays unused (it is NET_NIL). */
static void pool_grow(Net *net)
{
    Layout *lay = &net->lay;
    uint32_t old = net->pool_cap ? net->pool_cap : 1;
    uint32_t cap = net->pool_cap ? 2 * net->pool_cap : 1024;
    /* Packets are half a cache line, aligned: two a line. Place words keep
     * a pool index in 30 bits (encode.h); a pool that large would take
     * 64 GB. */
    Packet *pool = NULL;
    if (cap > 1u << 30 || posix_memalign((void **)&pool, 64, (size_t)cap * sizeof *pool))
        abort();                /* more packets than slots, links and buffers: cannot happen */
    PacketInfo *info = realloc(lay->info, (size_t)cap * sizeof *info);
    uint32_t *routes = realloc(lay->routes, (size_t)cap * sizeof *routes);
    uint32_t *free_stack = realloc(net->free_stack, (size_t)cap * sizeof *free_stack);
    if (info)
        lay->info = info;
    if (routes)
        lay->routes = routes;
    if (free_stack)
        net->free_stack = free_stack;
    if (!info || !routes || !free_stack || pool_grow_sets(net, cap) != 0)
        abort();
    routes[0] = 0;              /* (a route, for the zeroed padding of step.c's lists) */
    if (lay->pool)
        memcpy(pool, lay->pool, (size_t)net->pool_cap * sizeof *pool);
    free(lay->pool);
    pool[0].place = PLACE_FREE;
    pool[0].count = 1;          /* (a route, for the zeroed padding of step.c's lists) */
    for (uint32_t i = old; i < cap; i++)
        pool[i].place = PLACE_FREE;
    for (uint32_t i = cap; i-- > old;)          /* the lowest on top */
        free_stack[net->nfree++] = i;
    lay->pool = pool;
    net->pool_cap = cap;
}

void pool_reserve(Net *net, size_t n)
{
    while (net->nfree < n)
        pool_grow(net);
}

uint32_t pool_alloc(Net *net)
{
    if (net->nfree == 0)
        pool_grow(net);
    return pool_take(net);
}

uint32_t pool_take(Net *net)
{
    uint32_t x = net->free_stack[--net->nfree];
    net->outstanding++;
    if (net->nfree >= POOL_PREFETCH_DISTANCE) {
        uint32_t later = net->free_stack[net->nfree - POOL_PREFETCH_DISTANCE];
        PREFETCH(&net->lay.pool[later]);
        PREFETCH(&net->lay.info[later]);
        PREFETCH(&net->lay.routes[later]);
        if (net->lay.sets)
            PREFETCH(&net->lay.sets[later]);
    }
    return x;
}

void pool_release(Net *net, uint32_t x)
{
    net->lay.pool[x].place = PLACE_FREE;
    net->free_stack[net->nfree++] = x;
    net->outstanding--;
}
