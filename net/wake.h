/* Waking sleepers inside the sweep of stages d and e (sleep.c explains
 * sleeping): the sweep's own inline functions, so that each shaped copy
 * of the sweep (shape.h) has them with its constants. Private to sweep.c,
 * which alone includes it. */
#ifndef NET_WAKE_H
#define NET_WAKE_H

#include "net/channel.h"
#include "net/message.h"
#include "net/sleep.h"
#include "net/sweep.h"

/* The packet arriving on port a of the switch of buffer b (layer l),
 * asleep on b, wakes, with the claimants asleep on its link: to try again
 * in the next timestep, or in this one (`now`: it comes after what woke
 * it in this stage d's order), in which count_sleepers has already
 * counted its failure, taken back here. */
HOT void wake_arrival(Sweep *sw, uint32_t b, unsigned l, unsigned a, bool now)
{
    const Layout *lay = sw->lay;
    Counters *counts = sw->sh->counts;
    uint32_t ki = arrival_keeper(lay, b >> 2, l, a), woken[2];
    Sender *ks = &lay->senders[ki];
    if (!(ks->slot & SLOT_QUIET)) {
        counts->asleep_buffer[(b & 3) >= 2 ? DIR_UP : DIR_DOWN][l]--;
        if (now)
            count_buffer_collisions(lay, counts, b, 0, -1);
    }
    counts->asleep--;
    ks->slot &= (uint8_t)~(SLOT_ASLEEP | SLOT_QUIET);
    OnLink entry = { ks->slot_packet, b, woken_keeper(lay, ki, ks->slot_packet) };
    if (now) {                          /* (its run, and its claimants', are still to come) */
        OnLinkList *list = &sw->sh->on_links[a][l];
        list->items[list->n++] = entry;
    } else {
        *sw->out.on_link[a * LIST_LAYERS + l]++ = entry;
    }
    for (unsigned i = 0, n = wake_claims(sw->net, counts, ki, ks, now, woken); i < n; i++) {
        unsigned layer = sender_list_layer(lay, woken[i]);
        if (now) {
            IndexList *list = &sw->sh->claimants[layer];
            list->items[list->n++] = woken[i];
        } else {
            *sw->out.claimant[layer]++ = woken[i];
        }
    }
}

/* Stage e: the head of buffer b left, so the packets asleep on its room
 * (one per port of its switch at most) try again in the next timestep's
 * stage d, and the claimants asleep on their links in its stage e. */
HOT void wake_buffer(Sweep *sw, uint32_t b)
{
    Sender *buf = &sw->lay->senders[b];
    unsigned l = sw_layer(sw->lay, b >> 2);
    for (unsigned a = 0; a < 4; a++)
        if ((buf->waiting >> a) & 1)
            wake_arrival(sw, b, l, a, false);
    buf->waiting &= (uint8_t)~WAIT_ROOM;
}

/* Stage d: a message's tail entered buffer b on arrival port q, so the
 * message no longer owns it, and the heads asleep on it wake: those
 * arriving on a port after q try in this stage d, as the spec's order of
 * ports has them do, the others in the next. */
HOT void wake_owned(Sweep *sw, uint32_t b, unsigned q)
{
    Sender *buf = &sw->lay->senders[b];
    unsigned l = sw_layer(sw->lay, b >> 2), layer = sw->run->layer;
    sw->out.claimant[layer] = sw->claim_end;        /* (it may list one there) */
    for (unsigned a = 0; a < 4; a++)
        if ((buf->waiting >> (4 + a)) & 1)
            wake_arrival(sw, b, l, a, a > q);
    sw->claim_end = sw->out.claimant[layer];
    buf->waiting &= (uint8_t)~WAIT_OWNER;
}

#endif
