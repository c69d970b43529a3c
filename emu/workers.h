/* A pool of worker threads that run rounds in lockstep with the thread that
 * owns them: workers_run(pool, fn, arg) calls fn(arg, i) for every worker i
 * in 0..threads-1 -- worker 0 is the calling thread itself -- and returns
 * when all have finished. The timestep loop uses it to split the processor
 * stage; what each worker does, and how the results are merged in a fixed
 * order, is the caller's business (emu/machine.c).
 *
 * Rounds are short (microseconds), so waiting workers spin for a while
 * before they sleep on a condition variable; a pool with more threads than
 * cores still works, only more slowly. */
#ifndef EMU_WORKERS_H
#define EMU_WORKERS_H

#include "common/parallel.h"

typedef struct Workers Workers;

/* A pool of `threads` workers (threads - 1 new threads). NULL if the
 * threads cannot be made. */
Workers *workers_new(unsigned threads);

/* Runs fn(arg, i) on every worker i and waits for all of them. */
void workers_run(Workers *w, ParallelFn *fn, void *arg);

void workers_free(Workers *w);

#endif
