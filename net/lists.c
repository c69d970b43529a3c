/* The network stage's growable lists (lists.h). In a timestep each packet
 * enters each of the stage's lists at most once, so room for the packets
 * in flight at its start is enough. */
#include "net/lists.h"

#include <stdlib.h>
#include <string.h>

void list_grow(void **items, size_t *cap, size_t used, size_t n, size_t size)
{
    if (n <= *cap)
        return;
    size_t grown = *cap ? 2 * *cap : 256;
    while (grown < n)
        grown *= 2;
    /* (calloc rather than realloc and memset: a large block is a mapping of
     * its own, whose pages are zero until written, so that room a list
     * never fills costs neither time nor memory.) */
    void *p = calloc(grown, size);
    if (!p)
        abort();        /* a few bytes per packet in flight: cannot fail in practice */
    if (used)
        memcpy(p, *items, used * size);
    free(*items);
    *items = p;
    *cap = grown;
}

void net_list_reserve(IndexList *l, size_t n)
{
    void *items = l->items;
    list_grow(&items, &l->cap, l->n, n, sizeof *l->items);
    l->items = items;
}

void net_links_reserve(OnLinkList *l, size_t n)
{
    void *items = l->items;
    list_grow(&items, &l->cap, l->n, n, sizeof *l->items);
    l->items = items;
}
