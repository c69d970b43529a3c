/* What the network stage (step.c, and deliver.c for stage c) does to a
 * lane and counts of it: the record that keeps a packet's lane, a packet
 * refused into its lane or leaving it, and the collisions, charged by
 * direction and layer (machine.md) and by channel (channels.md). Private
 * to net/. */
#ifndef NET_LANES_H
#define NET_LANES_H

#include "common/hot.h"
#include "net/layout.h"
#include "net/lists.h"

/* A link collision of lane v of a link of layer `layer`, charged to the
 * claimant's direction (machine.md) and, with V > 1, to its channel
 * (channels.md). */
HOT void count_link_collision(const Layout *lay, Counters *counts, unsigned dir, unsigned layer,
                              unsigned v)
{
    counts->stats.link_collisions[dir][layer]++;
    counts->stats.link_total++;
    if (lay->cfg.vcs > 1)
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
    if (lay->cfg.vcs > 1)
        counts->stats.vc_buffer[v] += (uint64_t)n;
}

/* The record that keeps the lane of a packet on a link (entry e): its
 * channel of the keeper of the link's slots. */
HOT Sender *lane_keeper(const Layout *lay, const OnLink *e)
{
    unsigned v = target_channel(e->target, lay->vshift);
    return &lay->senders[channel_of(lay, keeper_of(e->keeper), v)];
}

/* A packet on a link (entry e) was refused: it is written into its lane,
 * which is blocked until it leaves. */
HOT Sender *refuse(const Layout *lay, const OnLink *e, bool going_up)
{
    Sender *ks = lane_keeper(lay, e);
    if (lay->cfg.vcs > 1)
        turn_of(lay, keeper_of(e->keeper))->blocked |=
            (uint8_t)(1u << target_channel(e->target, lay->vshift));
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
    if (lay->cfg.vcs > 1)
        turn_of(lay, keeper_of(e->keeper))->blocked &=
            (uint8_t)~(1u << target_channel(e->target, lay->vshift));
}

/* For an observer: records that the packet of entry e, of class c, is on
 * its link. */
static inline void settle_listed(Net *net, const OnLink *e, unsigned c)
{
    unsigned dir, vs = net->lay.vshift;
    uint32_t link = listed_link(&net->lay, c, target_of(e->target, vs), e->keeper, &dir);
    settle_on_link(net, e->packet, link, dir, target_channel(e->target, vs), AWAKE);
}

#endif
