/* The network stage with one channel (step.c): stage 4 of a timestep, and
 * an adapter's packet, just injected, listed as a claimant. */
#ifndef NET_STEP_H
#define NET_STEP_H

#include <stdint.h>

#include "net/state.h"

void step_one_channel(Net *net);
void step_injected(Net *net, unsigned plane, uint32_t p);

#endif
