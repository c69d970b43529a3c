/* What the network stage counts: machine.md's statistics, by direction and
 * layer as the collisions are charged, and the packets asleep (sleep.c),
 * whose collisions and port waits are added every timestep. */
#ifndef NET_COUNTERS_H
#define NET_COUNTERS_H

#include <stdint.h>

#include "net/net.h"

/* What the network stage counts: machine.md's statistics, and the sleeping
 * packets (step.c), whose collisions and port waits are added every
 * timestep: by direction and layer, as the collisions are charged. */
typedef struct Counters {
    NetStats stats;
    uint64_t *asleep_link[2], *asleep_buffer[2];
    uint64_t asleep_port, asleep;     /* port waiters; all sleepers */
} Counters;

/* A network's counters, for k layers: 0, or -1 if memory cannot be had
 * (counters_free frees what was had). */
int counters_init(Counters *c, unsigned k);
void counters_free(Counters *c);

/* Counts a delivered packet's latency (its delivery already counted). */
void net_record_latency(NetStats *st, uint64_t latency);

#endif
