/* How work is handed to threads. The emulator has one pool of worker
 * threads (emu/workers.h); the network's two planes and the router's two
 * planes are run on it by whoever owns it, through a Runner that the
 * owner lends them. A piece of parallel work is a ParallelFn, called once
 * for every index 0, 1, ... (a worker, a plane), all at once. */
#ifndef COMMON_PARALLEL_H
#define COMMON_PARALLEL_H

typedef void ParallelFn(void *arg, unsigned index);

/* Runs fn(arg, i) for i = 0, 1, ... on the owner's threads, at least two,
 * and returns when all are done. */
typedef void Runner(void *ctx, ParallelFn *fn, void *arg);

#endif
