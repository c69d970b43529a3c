/* The worker pool of workers.h.
 *
 * A round: the owner stores the work, bumps `generation` and wakes any
 * sleeping worker; each worker, seeing a new generation, runs its share and
 * increments `done`; the owner runs share 0 and waits until done reaches
 * threads - 1. A worker that waits too long for the next round sleeps on
 * `wake`: it registers in `sleepers` and re-checks the generation under the
 * lock, and the owner broadcasts under the same lock whenever sleepers is
 * non-zero, so no wake-up is lost. */
#include "emu/workers.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>

enum { SPINS_BEFORE_YIELD = 2000, YIELDS_BEFORE_SLEEP = 200 };

typedef struct Thread {
    Workers *pool;
    unsigned index;
    pthread_t id;
} Thread;

struct Workers {
    unsigned threads;
    Thread *thread;                /* threads - 1 of them: workers 1 .. */
    ParallelFn *fn;                    /* the current round's work */
    void *arg;
    atomic_uint generation;        /* bumped to start a round */
    atomic_uint done;              /* workers that finished this round */
    atomic_uint sleepers;          /* workers asleep on `wake` */
    atomic_bool quit;
    pthread_mutex_t lock;
    pthread_cond_t wake;
};

/* Waits until the generation differs from `seen`; returns the new one. */
static unsigned wait_for_round(Workers *w, unsigned seen)
{
    for (unsigned spin = 0; spin < SPINS_BEFORE_YIELD + YIELDS_BEFORE_SLEEP; spin++) {
        unsigned g = atomic_load(&w->generation);
        if (g != seen)
            return g;
        if (spin >= SPINS_BEFORE_YIELD)
            sched_yield();
    }
    pthread_mutex_lock(&w->lock);
    atomic_fetch_add(&w->sleepers, 1);
    while (atomic_load(&w->generation) == seen)
        pthread_cond_wait(&w->wake, &w->lock);
    atomic_fetch_sub(&w->sleepers, 1);
    pthread_mutex_unlock(&w->lock);
    return atomic_load(&w->generation);
}

static void *worker_main(void *arg)
{
    Thread *t = arg;
    Workers *w = t->pool;
    unsigned seen = 0;
    for (;;) {
        seen = wait_for_round(w, seen);
        if (atomic_load(&w->quit))
            return NULL;
        w->fn(w->arg, t->index);
        atomic_fetch_add(&w->done, 1);
    }
}

/* Starts a round: publishes it and wakes whoever sleeps. */
static void start_round(Workers *w)
{
    atomic_store(&w->done, 0);
    atomic_fetch_add(&w->generation, 1);
    if (atomic_load(&w->sleepers) > 0) {
        pthread_mutex_lock(&w->lock);
        pthread_cond_broadcast(&w->wake);
        pthread_mutex_unlock(&w->lock);
    }
}

Workers *workers_new(unsigned threads)
{
    Workers *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->threads = threads ? threads : 1;
    atomic_init(&w->generation, 0);
    atomic_init(&w->done, 0);
    atomic_init(&w->sleepers, 0);
    atomic_init(&w->quit, false);
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->wake, NULL);
    w->thread = calloc(w->threads, sizeof *w->thread);
    if (!w->thread) {
        free(w);
        return NULL;
    }
    for (unsigned i = 1; i < w->threads; i++) {
        w->thread[i] = (Thread){ w, i, 0 };
        if (pthread_create(&w->thread[i].id, NULL, worker_main, &w->thread[i]) != 0) {
            w->threads = i;              /* stop the ones already started */
            workers_free(w);
            return NULL;
        }
    }
    return w;
}

void workers_run(Workers *w, ParallelFn *fn, void *arg)
{
    if (w->threads == 1) {
        fn(arg, 0);
        return;
    }
    w->fn = fn;
    w->arg = arg;
    start_round(w);
    fn(arg, 0);
    for (unsigned spin = 0; atomic_load(&w->done) < w->threads - 1; spin++)
        if (spin >= SPINS_BEFORE_YIELD)
            sched_yield();
}

void workers_free(Workers *w)
{
    if (!w)
        return;
    atomic_store(&w->quit, true);
    start_round(w);
    for (unsigned i = 1; i < w->threads; i++)
        pthread_join(w->thread[i].id, NULL);
    pthread_mutex_destroy(&w->lock);
    pthread_cond_destroy(&w->wake);
    free(w->thread);
    free(w);
}
