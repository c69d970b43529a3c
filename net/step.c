/* Stage 4 of the timestep, fast: the five network sub-stages of
 * spec/machine.md (thesis 5.5) with the virtual channels of
 * spec/channels.md (one channel is the case V = 1), the part of the
 * emulation that users count. reference.c does the same as the spec
 * writes it; --check runs both and compares them after every timestep.
 * This file does it in time proportional to the packets that move, not to
 * the size of the network.
 *
 *   a. adapters send: each output-slot packet claims the temp slot of its
 *      first link, if its lane is free;
 *   b. switches send: each output port's non-empty channel buffers, in
 *      round-robin order, the first whose lane is free claiming the temp
 *      slot of that port's link (with one channel: the buffer's head);
 *   c. delivery: packets coming down processor links enter input ports,
 *      oldest first, if there is room;
 *   d. forwarding: every other packet on a link enters its channel's
 *      output buffer that its route names in the switch ahead, if there is
 *      room (credit-based flow control: a refusal is a buffer collision);
 *   e. claims made final: each claimant moves onto its lane; a claimant
 *      whose lane is not free, or whose link the other end claimed first,
 *      is a link collision; then every packet that entered a buffer behind
 *      another packet is a buffer collision.
 *
 * A lane is free when its packet leaves it in stage c or d (channels.md),
 * so stages a, b and e are made at once, for each sender, after stages c
 * and d have run for the packets on its link: with V = 1 that is
 * machine.md's claim that fails in stage e when the main slot is full.
 *
 * Why it is the same. The spec fixes loop orders; this code visits only
 * active packets, in an order of its own, and gets the same result because
 * the spec's order matters in exactly three places, each handled locally:
 *   - two claims on one temp slot happen only with --duplex half, from the
 *     two ends of one link; in the spec's order (adapters, then switches by
 *     layer) the lower end comes first, and so it does here (sweep_layers);
 *   - packets entering one switch in stage d (where they may compete for one
 *     buffer, or for adaptive's choice of up buffer) go in port order d0, d1,
 *     u0, u1, the order of their links in the spec's link loop. The packets
 *     on links are listed by the port they arrive on, and stage d takes the
 *     lists of a layer's switches in turn: every packet arriving on a d0
 *     port, then on a d1 port, and so on. One lane of a port receives at
 *     most one packet, and packets of different channels never compete, so
 *     inside every switch this is the spec's order;
 *   - packets coming down one processor's links go oldest first.
 * Everything else -- counting, and moves into different buffers -- does not
 * depend on order. Stage c (delivery) touches only input ports and last
 * links, and stage d only buffers and the other links; and stages d and e
 * are run a layer at a time, in an order that keeps what each claim of
 * stage e needs from stage d (sweep_layers explains).
 *
 * Planes in parallel. The two planes share nothing between injection and
 * delivery: no packet changes plane, and each switch, buffer and link
 * belongs to one. So with --threads 2 or more (and no observer), each plane
 * is a share of its own -- its own active lists and its own counters, added
 * to the network's after the timestep -- and the shares run stages a, b, d
 * and e on two threads. Deliveries (stage c) put packets of both planes
 * into one processor's ports, oldest first, so they are made before, by
 * one thread. The shares' lists come out in another order than one share's
 * would, which, as above, changes nothing.
 *
 * Stage c is deliver.c's; stages a, b, d and e are sweep.c's, run a layer
 * at a time; step_packets, at the end of this file, is the stage list. */

#include <string.h>

#include "net/adapter.h"
#include "net/deliver.h"
#include "net/events.h"
#include "net/message.h"
#include "net/multicast.h"
#include "net/pool.h"
#include "net/shares.h"
#include "net/sleep.h"
#include "net/step.h"
#include "net/sweep.h"

/* The copy of the sweep (sweep.c) that fits the network. The common
 * networks -- one channel, buffers of at most INLINE_PLACES places,
 * routes in words, no adaptive routing, no multicast so far -- in full or
 * half duplex, have copies of their own, in which those options are
 * constants (shape.h), so that the compiler drops what tests them for
 * every packet; so do those of full duplex with multicasts (broadcasts at
 * scale), with messages of several words under wormhole switching, and
 * with four channels. Any other network, and any run with an observer,
 * runs a copy that tests them: one for runs with messages of several
 * words, one for those without, which has none of their work. */
static SweepFn *sweep_for(const Net *net)
{
    const Layout *lay = &net->lay;
    SweepFn *any = lay->messages ? sweep_any_messages : sweep_any_network;
    if (net->event || lay->rings != NULL || !lay->compact || lay->cfg.adaptive)
        return any;
    bool full = lay->cfg.full_duplex;
    if (lay->messages)
        return lay->cfg.vcs == 1 && full && !lay->multicast &&
               lay->cfg.switching == SWITCHING_WORMHOLE ? sweep_messages_full : any;
    if (lay->cfg.vcs > 1)
        return lay->cfg.vcs == 4 && full && !lay->multicast ? sweep_four_channels_full : any;
    if (lay->multicast)
        return full ? sweep_multicast_full : any;
    return full ? sweep_common_full : sweep_common_half;
}

/* Stages a, b, d and e of one share, and its lists made the next timestep's. */
static void share_sweep(Net *net, NetShare *sh)
{
    if (listed_count(net, sh) == 0)
        return;
    share_reserve_sweep(net, sh);
    sweep_for(net)(net, sh, net->event != NULL);         /* d; a, b and e */
    for (unsigned l = 0; l <= net->lay.cfg.k; l++) {
        IndexList claimants = sh->claimants[l];
        sh->claimants[l] = sh->next_claimants[l];
        sh->next_claimants[l] = claimants;
        for (unsigned c = 0; c < ARRIVAL_CLASSES; c++) {
            OnLinkList links = sh->on_links[c][l];
            sh->on_links[c][l] = sh->next_on_links[c][l];
            sh->next_on_links[c][l] = links;
        }
    }
}

static void run_sweeps(void *arg, unsigned share)
{
    Net *net = arg;
    if (share < net->nshares)
        share_sweep(net, &net->share[share]);
}

/* The next stage's number; when the numbers wrap, every stamp is made
 * old again, so that none is ever mistaken for the new stage's. */
static void next_stage(Net *net)
{
    Layout *lay = &net->lay;
    if (++lay->now != 0)
        return;
    if (!lay->cfg.full_duplex)
        memset(lay->temp_slots, 0, 2 * (size_t)lay->nswitches * sizeof *lay->temp_slots);
    for (uint32_t h = 0; lay->turns && h < sender_count(net); h++)
        turn_of(lay, h)->stamp = 0;
    for (uint32_t m = 1; lay->messages && m <= net->nmessages; m++)
        lay->message[m].tail_stamp = 0;
    lay->now = 1;
}

void net_set_stage(Net *net, uint32_t now) { net->lay.now = now; }

/* The stages of a timestep with packets in flight. Stage c runs first
 * here: it only empties last links and fills input ports, and a claim
 * reads neither until stage e, where a lane left in stage c is free
 * (channels.md). */
static NOINLINE void step_packets(Net *net)
{
    size_t work = 0;
    for (unsigned i = 0; i < net->nshares; i++)
        work += listed_count(net, &net->share[i]);
    if (work == 0)
        return;                         /* nothing awake in a slot, on a link or in a buffer */
    next_stage(net);
    net_list_reserve(&net->woken, net->in_flight);
    for (unsigned i = 0; i < net->nshares; i++)
        share_prepare(net, &net->share[i]);
    /* Stage d's copies take from the pool: at most one for each packet on
     * a link, and those are listed (a sleeping one does not move). Not
     * one for each packet in flight: a full network holds many more in
     * its buffers, and the pool would double for copies never made. */
    if (net->lay.multicast)
        pool_reserve(net, work);
    stage_deliveries(net);                              /* c */
    /* (Copies take pool indices and list references, which the two shares
     * would contend for.) */
    bool parallel = net->nshares > 1 && net->runner && work >= net->parallel_min &&
                    !net->lay.multicast && !net->lay.messages;
    run_shares(net, parallel, run_sweeps);               /* d; a, b and e; a layer at a time */
    merge_shares(net);
    if (net->lay.multicast)
        mc_give_ids(net, net->event ? net_emit_split : NULL);
    if (net->event)
        report_queued_all(net);
    /* The output slots whose flit left offer the next (the pool may grow):
     * their adapters, which are the share's, claim in the next timestep,
     * listed where room is made for all of them at once. */
    for (unsigned i = 0; net->lay.messages && i < net->nshares; i++) {
        NetShare *sh = &net->share[i];
        net_list_reserve(&sh->claimants[0], sh->claimants[0].n + sh->continuing.n);
        for (size_t j = 0; j < sh->continuing.n; j++)
            message_continue(net, &sh->claimants[0], sh->continuing.items[j]);
    }
}

void step_stage(Net *net)
{
    if (net->counts.asleep)
        count_sleepers(net);                            /* they fail once more */
    if (net->in_flight)
        step_packets(net);
}

void step_injected(Net *net, unsigned plane, uint32_t p)
{
    uint32_t h = adapter_sender(&net->lay, plane, p);
    IndexList *claimants = &net->share[share_index(net, h)].claimants[0];   /* (adapters) */
    net_list_reserve(claimants, claimants->n + 1);
    step_offered(net, claimants, h, p);
}
