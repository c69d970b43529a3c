/* Memory for one compilation: a bump allocator that hands out zeroed blocks
 * and frees them all at once, and a growable pointer vector for reading
 * lists whose length is not known until their end. Out of memory is not a
 * crash: allocations return NULL and the arena remembers that one failed. */
#include "compiler/internal.h"

#include <stdlib.h>
#include <string.h>

/* One block of the arena; blocks are chained newest first, and only the
 * newest is allocated from. */
struct ArenaBlock {
    ArenaBlock *next;
    size_t used, size;    /* bytes handed out, bytes in data */
    max_align_t data[];   /* aligned for anything */
};

/* Bytes per block: a typical program fits in one; a larger request gets a
 * block of its own size. */
enum { ARENA_BLOCK = 64 * 1024 };

void *arena_alloc(Arena *a, size_t size)
{
    /* round up so that every allocation stays aligned for anything */
    size = (size + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    ArenaBlock *b = a->blocks;
    if (!b || b->size - b->used < size) {
        size_t cap = size > ARENA_BLOCK ? size : ARENA_BLOCK;
        b = malloc(sizeof *b + cap);
        if (!b) {
            a->failed = 1;
            return NULL;
        }
        b->next = a->blocks;
        b->used = 0;
        b->size = cap;
        a->blocks = b;
    }
    void *p = (char *)b->data + b->used;
    b->used += size;
    memset(p, 0, size);
    return p;
}

void arena_free(Arena *a)
{
    while (a->blocks) {
        ArenaBlock *next = a->blocks->next;
        free(a->blocks);
        a->blocks = next;
    }
}

/* Appends, doubling the capacity when full (amortised constant time). */
int vec_push(PtrVec *v, void *item)
{
    if (v->count == v->cap) {
        size_t cap = v->cap ? 2 * v->cap : 8;
        void **items = realloc(v->items, cap * sizeof *items);
        if (!items)
            return -1;
        v->items = items;
        v->cap = cap;
    }
    v->items[v->count++] = item;
    return 0;
}

/* The vector's final contents move into the arena, so that the syntax tree
 * holds no malloc'ed memory of its own; an empty list still gets a valid
 * (one-slot) array. */
void **vec_to_arena(PtrVec *v, Arena *a)
{
    void **copy = arena_alloc(a, (v->count ? v->count : 1) * sizeof *copy);
    if (copy && v->count)
        memcpy(copy, v->items, v->count * sizeof *copy);
    vec_free(v);
    return copy;
}

void vec_free(PtrVec *v)
{
    free(v->items);
    v->items = NULL;
    v->count = v->cap = 0;
}
