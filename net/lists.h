/* The network stage's growable lists: of indices (packets, senders,
 * processors), of packets on links, of packets that entered a buffer right
 * behind its head. A stage reserves room for all it may push before its
 * loops run, so that a push needs no check. */
#ifndef NET_LISTS_H
#define NET_LISTS_H

#include <stddef.h>
#include <stdint.h>

/* A growable vector of packet (or other) indices. */
typedef struct IndexList {
    uint32_t *items;
    size_t n, cap;
} IndexList;

/* A packet on a link, awake: the packet itself, where it goes (the buffer
 * it will enter, or on the last link down the processor on a plane it
 * comes to: hop_target) and the keeper of the link's slot, with
 * KEEPER_REFUSED when the packet was refused before and so is in the slot
 * (encode.h). Stages d and c find all they need here, and write only the
 * line of the buffer the packet enters. */
typedef struct OnLink {
    uint32_t packet, target, keeper;
} OnLink;

typedef struct OnLinkList {
    OnLink *items;
    size_t n, cap;
} OnLinkList;

/* A packet that entered a buffer right behind its head in a stage d: a
 * buffer collision, unless the head leaves in that timestep's stage e
 * (step.c, take_back_collisions). */
typedef struct Behind {
    uint32_t buffer, packet;
} Behind;

typedef struct BehindList {
    Behind *items;
    size_t n, cap;
} BehindList;

/* Makes room for n entries of `size` bytes in the array *items of capacity
 * *cap, whose first `used` are kept; the new room is zeroed (the stage's
 * loops look ahead into it). Aborts if memory cannot be had: a few words
 * per packet in flight. */
void list_grow(void **items, size_t *cap, size_t used, size_t n, size_t size);

/* Makes room for n entries in a list; and appends to a list that has room. */
void net_list_reserve(IndexList *l, size_t n);
void net_links_reserve(OnLinkList *l, size_t n);

static inline void list_push(IndexList *l, uint32_t x)
{
    l->items[l->n++] = x;
}

static inline void links_push(OnLinkList *l, uint32_t x, uint32_t target, uint32_t keeper)
{
    l->items[l->n++] = (OnLink){ x, target, keeper };
}

#endif
