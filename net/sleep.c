/* Sleeping packets, and waking them (the fast stage, step.c).
 *
 * Under load most packets in flight are waiting, and handling each of them
 * every timestep only to see it fail again would make a timestep cost in
 * proportion to the packets in flight rather than to the packets that
 * move. But a waiting packet's next attempt can succeed only
 * after a particular event, so it sleeps until that event, in the slot of
 * its link:
 *   - a packet refused by a full buffer (or, a message's head under
 *     cut-through and store-and-forward, by one without room for its whole
 *     message) is refused again until that buffer's head leaves, which
 *     happens in stage e: it is woken then, for the next timestep's stage
 *     d (the buffer keeps a bit for each port of its switch whose packet
 *     sleeps on it);
 *   - a head refused by a buffer that another message owns is refused
 *     again until that message's tail enters the buffer, in stage d: it is
 *     woken then, to try in this stage d if its port comes after the
 *     tail's in the spec's order, else in the next (a second bit a port);
 *   - a packet waiting on its last link for a full input port waits until
 *     the port is read, in stage 1: it is woken then, for this timestep's
 *     stage c (the port keeps a list of them; not once messages of several
 *     words are made, whose heads wait on the ports' ownership too);
 *   - a claimant whose link holds a sleeping packet fails again until that
 *     packet wakes: it is woken with it (a flag with the slot).
 * Each timestep, every sleeper would have failed once more: its collision
 * (or port wait) is added from counters kept by kind, direction and layer
 * -- but for a flit held up only by its own message, which counts none
 * (messages.md; a "quiet" flag with the slot) -- and one woken to try in
 * this timestep has its count for it taken back.
 * Sleepers are skipped where the spec's order looks at other packets, which
 * is exact because a sleeper can take no room. Adaptive packets never sleep
 * (which buffer they want changes), nothing sleeps with V > 1 channels
 * (a port's claim depends on several lanes), and nothing sleeps while an
 * observer (--trace) wants every event. Both ways are compared with the reference
 * stage, which knows nothing of sleeping (test_reference.c). */
#include <stdlib.h>

#include "net/layout.h"
#include "net/message.h"
#include "net/sleep.h"

/* A claimant asleep on a link of layer `layer` going `dir` wakes; if it
 * tries again in this timestep (`now`), the failure count_sleepers
 * counted for it in this timestep is taken back. */
static void claim_wakes(Counters *st, unsigned dir, unsigned layer, bool quiet, bool now)
{
    st->asleep--;
    if (quiet)
        return;
    st->asleep_link[dir][layer]--;
    if (now) {
        st->stats.link_collisions[dir][layer]--;
        st->stats.link_total--;
    }
}

unsigned wake_claims(Net *net, Counters *st, uint32_t ki, Sender *ks, bool now, uint32_t woken[2])
{
    unsigned layer, dir, n = 0;
    if (ks->slot & CLAIM_ASLEEP) {
        claim_heading(&net->lay, ki, &layer, &dir);
        claim_wakes(st, dir, layer, ks->slot & CLAIM_QUIET, now);
        woken[n++] = ki;
    }
    if (ks->slot & CLAIM_UP_ASLEEP) {       /* --duplex half: ki = 4S + x */
        layer = sw_layer(&net->lay, ki >> 2);
        claim_wakes(st, DIR_UP, layer, ks->slot & CLAIM_UP_QUIET, now);
        woken[n++] = up_sender(&net->lay, ki >> 2, layer, ki & 3);
    }
    ks->slot &= (uint8_t)~(CLAIM_ASLEEP | CLAIM_UP_ASLEEP | CLAIM_QUIET | CLAIM_UP_QUIET);
    return n;
}

void net_wake_port(Net *net, uint32_t port)
{
    /* Stage 1 of this timestep: they try again in this timestep's stage c,
     * and their claimants in its stage e. */
    InputPort *f = &net->lay.ports[port];
    uint32_t p = port / net->lay.cfg.ports;
    net->settled = false;
    for (uint32_t x = f->waiting, next; x != NET_NIL; x = next) {
        next = net->lay.port_waits[x].next;
        uint32_t ki = net->lay.port_waits[x].keeper;
        Sender *ks = &net->lay.senders[ki];
        unsigned plane = sender_plane(&net->lay, ki), k = net->lay.cfg.k;
        NetShare *sh = &net->share[share_index(net, ki)];
        ks->slot &= (uint8_t)~SLOT_ASLEEP;
        net->counts.asleep_port--;
        net->counts.asleep--;
        net->lay.pool[x].asleep = AWAKE;
        OnLinkList *l = &sh->on_links[ARRIVE_DELIVERY][1];
        net_links_reserve(l, l->n + 1);
        links_push(l, ks->slot_packet, proc_on_plane(k, p, plane),
                   woken_keeper(&net->lay, ki, ks->slot_packet));
        uint32_t woken[2];
        for (unsigned i = 0, n = wake_claims(net, &net->counts, ki, ks, false, woken); i < n; i++) {
            IndexList *claims = &sh->claimants[sender_list_layer(&net->lay, woken[i])];
            net_list_reserve(claims, claims->n + 1);
            list_push(claims, woken[i]);
        }
    }
    f->waiting = NET_NIL;
}

/* Each timestep, every sleeper fails once more: its collision or wait. */
void count_sleepers(Net *net)
{
    Counters *c = &net->counts;
    NetStats *st = &c->stats;
    for (int d = 0; d < 2; d++)
        for (unsigned l = 1; l <= net->lay.cfg.k; l++) {
            st->link_collisions[d][l] += c->asleep_link[d][l];
            st->link_total += c->asleep_link[d][l];
            st->buffer_collisions[d][l] += c->asleep_buffer[d][l];
            st->buffer_total += c->asleep_buffer[d][l];
        }
    st->port_waits += c->asleep_port;
}

/* Whether sender h's claim (it has a packet to send) sleeps. */
bool claim_sleeps(const Net *net, uint32_t h)
{
    if (net->lay.cfg.vcs > 1)
        return false;                   /* (nothing sleeps with more channels) */
    unsigned layer, dir;
    uint32_t heading = claim_heading(&net->lay, h, &layer, &dir);
    uint32_t ki = slot_keeper(&net->lay, h, heading, dir);
    return net->lay.senders[ki].slot & (ki == h ? CLAIM_ASLEEP : CLAIM_UP_ASLEEP);
}
