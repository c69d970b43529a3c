/* What the network stage (step.c, and deliver.c for stage c) does to a
 * sender's channel (state.h): a packet put in or taken from its buffer,
 * the record that keeps a packet's lane, a packet refused into its lane
 * or leaving it, and the collisions, charged by direction and layer
 * (machine.md) and by channel (channels.md). Private to net/. */
#ifndef NET_CHANNEL_H
#define NET_CHANNEL_H

#include <string.h>

#include "common/hot.h"
#include "net/layout.h"
#include "net/lists.h"
#include "net/shares.h"

/* A link collision of lane v of a link of layer `layer`, charged to the
 * claimant's direction (machine.md) and, with V > 1, to its channel
 * (channels.md). */
HOT void count_link_collision(const Layout *lay, Counters *counts, unsigned dir, unsigned layer,
                              unsigned v)
{
    counts->stats.link_collisions[dir][layer]++;
    counts->stats.link_total++;
    if (shape_vcs(lay) > 1)
        counts->stats.vc_link[v]++;
}

/* n buffer collisions (1, or -1 to take back one that did not happen) at
 * channel v's buffer of output port b. */
HOT void count_buffer_collisions(const Layout *lay, Counters *counts, uint32_t b, unsigned v,
                                 int n)
{
    unsigned l = sw_layer(lay, b >> 2), dir = (b & 3) >= 2 ? DIR_UP : DIR_DOWN;
    counts->stats.buffer_collisions[dir][l] += (uint64_t)n;
    counts->stats.buffer_total += (uint64_t)n;
    if (shape_vcs(lay) > 1)
        counts->stats.vc_buffer[v] += (uint64_t)n;
}

/* The record that keeps the lane of a packet on a link (entry e): its
 * channel of the keeper of the link's slots. */
HOT Sender *lane_keeper(const Layout *lay, const OnLink *e)
{
    unsigned v = target_channel(e->target, shape_vshift(lay));
    return &lay->senders[channel_of(lay, keeper_of(e->keeper), v)];
}

/* A packet on a link (entry e) was refused: it is written into its lane,
 * which is blocked until it leaves. */
HOT Sender *refuse(const Layout *lay, const OnLink *e, bool going_up)
{
    Sender *ks = lane_keeper(lay, e);
    if (shape_vcs(lay) > 1)
        turn_of(lay, keeper_of(e->keeper))->blocked |=
            (uint8_t)(1u << target_channel(e->target, shape_vshift(lay)));
    ks->slot_packet = e->packet;
    ks->slot = (uint8_t)((ks->slot & ~SLOT_UP) | SLOT_BLOCKED | (going_up ? SLOT_UP : 0));
    return ks;
}

/* A packet on a link (entry e) gets off it: its slot, if it was refused
 * there, is free again. */
HOT void leave_link(const Layout *lay, const OnLink *e)
{
    if (!keeper_refused(e->keeper))
        return;
    lane_keeper(lay, e)->slot &= (uint8_t)~(SLOT_BLOCKED | SLOT_UP);
    if (shape_vcs(lay) > 1)
        turn_of(lay, keeper_of(e->keeper))->blocked &=
            (uint8_t)~(1u << target_channel(e->target, shape_vshift(lay)));
}

/* For an observer: records that the packet of entry e, of class c, is on
 * its link. */
static inline void settle_listed(Net *net, const OnLink *e, unsigned c)
{
    unsigned dir, vs = shape_vshift(&net->lay);
    uint32_t link = listed_link(&net->lay, c, target_of(e->target, vs), e->keeper, &dir);
    settle_on_link(net, e->packet, link, dir, target_channel(e->target, vs), AWAKE);
}

/* Makes room in channel c's deep buffer (its record buf) for one more
 * packet: its ring, grown (channel.c). */
void grow_ring(Net *net, Sender *buf, uint32_t c);

/* Puts place word `word` behind the packets of channel c's buffer, which
 * has room, and returns how many were there: with one channel in its
 * record's own places, head first, or in its ring, grown if it is full;
 * with more, at the tail of its queue. */
HOT uint32_t buffer_push(Net *net, const Layout *lay, uint32_t c, uint32_t word)
{
    if (shape_vcs(lay) > 1) {
        ChannelQueue *q = queue_of(lay, c);
        uint32_t count = q->count;
        if (count >= 2) {                /* (two need no thread: the head and the tail) */
            if (count == 2)
                lay->next_place[place_packet(q->head)] = q->tail;
            lay->next_place[place_packet(q->tail)] = word;
        } else if (count == 0) {
            q->head = word;
        }
        q->tail = word;
        q->count = (uint16_t)(count + 1);
        return count;
    }
    Sender *buf = &lay->senders[c];
    uint32_t count = buf->count;
    uint32_t *places = places_of(lay, buf, c);
    unsigned cap = ring_capacity(lay, buf);
    if (lay->cfg.buffer > INLINE_PLACES && (places == NULL || count == cap)) {
        grow_ring(net, buf, c);
        places = shape_rings(lay)[c];
        cap = ring_capacity(lay, buf);
    }
    if (shape_rings(lay) == NULL) {
        places[count] = word;
    } else {
        unsigned at = buf->ring.head + count;
        places[at >= cap ? at - cap : at] = word;
    }
    buf->count = (uint16_t)(count + 1);
    return count;
}

/* Takes the head off channel c's buffer, which holds a packet, and
 * returns how many are left: with one channel the rest move up, the head
 * first (or its ring's head moves on); with more, its queue's does. */
HOT uint32_t buffer_pop(const Layout *lay, uint32_t c)
{
    if (shape_vcs(lay) > 1) {
        ChannelQueue *q = queue_of(lay, c);
        uint32_t left = q->count - 1u;
        /* (With one left it is the tail; with none, the head means nothing.) */
        q->head = left >= 2 ? lay->next_place[place_packet(q->head)] : q->tail;
        q->count = (uint16_t)left;
        return left;
    }
    Sender *buf = &lay->senders[c];
    if (shape_rings(lay) == NULL) {
        memmove(&buf->place[0], &buf->place[1], (INLINE_PLACES - 1) * sizeof buf->place[0]);
    } else {
        unsigned head = buf->ring.head + 1u;
        buf->ring.head = (uint16_t)(head == ring_capacity(lay, buf) ? 0 : head);
    }
    return --buf->count;
}

/* After stage e: a packet that entered right behind a head in this stage d
 * was counted as a buffer collision then; if the head has left and it is at
 * the head itself, it is not one. */
HOT void take_back_collisions(const Layout *lay, NetShare *sh)
{
    Behind *e = sh->behind.items;
    size_t n = sh->behind.n;
    memset(e + n, 0, PREFETCH_DISTANCE * sizeof *e);     /* (room: shares.c) */
    for (size_t i = 0; i < n; i++) {
        uint32_t ahead = e[i + PREFETCH_DISTANCE].buffer;
        if (shape_vcs(lay) == 1)
            PREFETCH(&lay->senders[ahead]);
        else
            PREFETCH(queue_of(lay, ahead));
        uint32_t c = e[i].buffer;
        if (place_packet(buffer_head_word(lay, c)) == e[i].packet)
            count_buffer_collisions(lay, sh->counts, channel_sender(lay, c),
                                    channel_v(lay, c), -1);
    }
    sh->behind.n = 0;
}

#endif
