/* The network stage (step.c): stage 4 of a timestep, and an adapter's
 * packet, just injected, listed as a claimant. */
#ifndef NET_STEP_H
#define NET_STEP_H

#include <stdint.h>

#include "net/layout.h"

void step_stage(Net *net);
void step_injected(Net *net, unsigned plane, uint32_t p);

/* ...and its kin for a list with room: processor p's output slot holds a
 * packet (injected, or a message's next flit), which its adapter h claims
 * to send in the next stage e, listed in `adapters` (the claimants of
 * layer 0 of h's share). */
static inline void step_offered(Net *net, IndexList *adapters, uint32_t h, uint32_t p)
{
    net->settled = false;
    if (net->lay.cfg.vcs > 1)            /* (its packet's channel: commit_claim) */
        turn_of(&net->lay, h)->pointer =
            (uint8_t)(net->lay.pool[net->lay.out_slot[p]].port % net->lay.cfg.vcs);
    adapters->items[adapters->n++] = h;
}

/* Sets the number of the last stage run (for the tests: the numbers
 * that stamp temp slots and ports wrap after 2^32 timesteps). */
void net_set_stage(Net *net, uint32_t now);

#endif
