/* The packet pool: where packets live from the OUT that makes them to the
 * IN that reads them. A packet is named by its pool index (from 1: 0 is
 * NET_NIL) and keeps it all its life, so what moves through the network
 * is that index; its record (Packet) and its route word are two arrays
 * by that index (Layout.pool, .routes), and with V > 1 channels the thread
 * of the channel buffer it is in (Layout.next_place). */
#include <stdlib.h>
#include <string.h>

#include "net/layout.h"
#include "net/message.h"
#include "net/pool.h"

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
    /* A packet is a cache line, aligned. Place words keep
     * a pool index in 28 bits (encode.h); a pool that large would take
     * 16 GB. */
    Packet *pool = NULL;
    if (cap > 1u << 28 || posix_memalign((void **)&pool, 64, (size_t)cap * sizeof *pool))
        abort();                /* more packets than slots, links and buffers: cannot happen */
    uint32_t *routes = realloc(lay->routes, (size_t)cap * sizeof *routes);
    PortWait *port_waits = realloc(lay->port_waits, (size_t)cap * sizeof *port_waits);
    uint32_t *free_stack = realloc(net->free_stack, (size_t)cap * sizeof *free_stack);
    if (routes)
        lay->routes = routes;
    if (port_waits)
        lay->port_waits = port_waits;
    if (free_stack)
        net->free_stack = free_stack;
    if (!routes || !port_waits || !free_stack)
        abort();
    if (lay->cfg.vcs > 1) {          /* (channel buffers' threads) */
        uint32_t *next_place = realloc(lay->next_place, (size_t)cap * sizeof *next_place);
        if (!next_place)
            abort();
        lay->next_place = next_place;
    }
    /* (Zeros: a route for the zeroed padding of step.c's lists, at 0, and
     * what a multicast's copy, which keeps no route word while it is a
     * multicast, has there until it is a unicast: multicast.c.) */
    memset(routes + net->pool_cap, 0,
           (size_t)(cap - net->pool_cap) * sizeof *routes);
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
    messages_grow(net);
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
        PREFETCH(&net->lay.routes[later]);
    }
    return x;
}

void pool_release(Net *net, uint32_t x)
{
    net->lay.pool[x].place = PLACE_FREE;
    if (net->lay.messages)               /* (a packet made later is one word until told) */
        net->lay.flits[x] = (FlitOf){ 0, 0, false };
    net->free_stack[net->nfree++] = x;
    net->outstanding--;
}
