/* The bookkeeping of the network stage's shares (step.c; state.h,
 * NetShare): their lists given room before a timestep, run on the
 * runner's threads or one after another, and their counters gathered
 * after it. Private to net/. */
#ifndef NET_SHARES_H
#define NET_SHARES_H

#include <stdbool.h>
#include <stddef.h>

#include "common/parallel.h"
#include "net/state.h"

/* The stages visit buffers in no order that the memory system could guess,
 * so each is a cache miss; asking for them (PREFETCH, common/hot.h) this
 * many entries ahead overlaps them. The prefetch helpers below are HOT:
 * GCC takes a function of its own that only prefetches for one without
 * effect, and drops every call to it. The loops look ahead without a
 * bound: a list has room for PREFETCH_DISTANCE entries after its end
 * (share_prepare), which hold entries of earlier timesteps, or zeros where
 * nothing was ever written (reserve) -- senders, packets and buffers of
 * this network all the same, so what they prefetch there is harmless. */
enum { PREFETCH_DISTANCE = 32 };

/* The entries of a share's lists of claimants and of packets on links. */
size_t listed_count(const Net *net, const NetShare *sh);

/* Before stage c: the share's next lists emptied and given room; before
 * its sweep, room in its lists of packets behind a head and of splits. */
void share_prepare(Net *net, NetShare *sh);
void share_reserve_sweep(Net *net, NetShare *sh);

/* Runs fn for every share: on the runner's threads, or one after another. */
void run_shares(Net *net, bool parallel, ParallelFn *fn);

/* The shares' counters and woken processors, gathered into the network's. */
void merge_shares(Net *net);

#endif
