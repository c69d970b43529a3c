/* Sleeping packets (sleep.c explains): a packet that would only fail
 * again waits, uncounted by the stage's loops, until the event that can
 * let it move; its collisions or port waits are added every timestep. */
#ifndef NET_SLEEP_H
#define NET_SLEEP_H

#include <stdbool.h>
#include <stdint.h>

#include "net/layout.h"

/* Whether packets may sleep: not when every event must be reported, nor
 * with V > 1 channels, where a claim depends on several lanes. */
static inline bool may_sleep(const Net *net)
{
    return net->event == NULL && shape_vcs(&net->lay) == 1;
}

/* Each timestep, every sleeper fails once more: its collision or port
 * wait is added (called when some packet sleeps). */
void count_sleepers(Net *net);

/* Wakes the claimants asleep on the slot that sender ki keeps (its Sender
 * ks), to try again in the next timestep, or in this one (`now`): puts
 * them in woken[] (at most two) and returns how many. */
unsigned wake_claims(Net *net, Counters *st, uint32_t ki, Sender *ks, bool now, uint32_t woken[2]);

/* Wakes the packets asleep on input port `port` (an index into
 * net->lay.ports: processor * ports + port) after an IN read it. */
void net_wake_port(Net *net, uint32_t port);

/* Whether sender h's claim (it has a packet to send) sleeps. */
bool claim_sleeps(const Net *net, uint32_t h);

#endif
