/* The sweep of stages d and e (sweep.c): the context its functions share,
 * where it appends, and what it asks the memory system for ahead of use.
 * Private to sweep.c and wake.h, whose wakes run inside the sweep, and to
 * step.c, which runs it. */
#ifndef NET_SWEEP_H
#define NET_SWEEP_H

#include "common/hot.h"
#include "net/layout.h"
#include "net/shares.h"

/* Where stages d and e append, held in locals while their loops run: the
 * ends of the share's next lists of claimants and of packets on links, and
 * of its list of packets right behind a head. Through the share, every push
 * would load and store the list's length again (the compiler cannot tell
 * those stores from the loop's stores to buffers); here they are on the
 * stack, where no store to a buffer can reach them. Everything stages d
 * and e push goes through them, between appends_open and appends_close. */
typedef struct Appends {
    uint32_t *claimant[LIST_LAYERS];                     /* [layer] */
    OnLink *on_link[ARRIVAL_CLASSES * LIST_LAYERS];     /* [class * LIST_LAYERS + layer] */
    Behind *behind;
} Appends;

static inline void appends_open(Appends *a, const Net *net, NetShare *sh)
{
    a->claimant[0] = sh->next_claimants[0].items + sh->next_claimants[0].n;
    for (unsigned l = 1; l <= net->lay.cfg.k; l++) {
        a->claimant[l] = sh->next_claimants[l].items + sh->next_claimants[l].n;
        for (unsigned c = 0; c < ARRIVAL_CLASSES; c++)
            a->on_link[c * LIST_LAYERS + l] =
                sh->next_on_links[c][l].items + sh->next_on_links[c][l].n;
    }
    a->behind = sh->behind.items + sh->behind.n;
}

static inline void appends_close(const Appends *a, const Net *net, NetShare *sh)
{
    sh->next_claimants[0].n = (size_t)(a->claimant[0] - sh->next_claimants[0].items);
    for (unsigned l = 1; l <= net->lay.cfg.k; l++) {
        sh->next_claimants[l].n = (size_t)(a->claimant[l] - sh->next_claimants[l].items);
        for (unsigned c = 0; c < ARRIVAL_CLASSES; c++)
            sh->next_on_links[c][l].n =
                (size_t)(a->on_link[c * LIST_LAYERS + l] - sh->next_on_links[c][l].items);
    }
    sh->behind.n = (size_t)(a->behind - sh->behind.items);
}

/* The sweep of stages d and e (sweep_layers) goes through a share's lists
 * one after another, each a run: the packets on links arriving on port
 * `kind` (0-3) of the switches of a layer, or the claimants of a layer
 * (CLAIMANTS). */
enum { CLAIMANTS = 4 };

typedef struct SweepList {
    const void *items;     /* OnLink, or claimants' senders */
    size_t n;
    unsigned kind, layer;
} SweepList;

/* What the sweep of one share works with, one pointer for every function
 * of stages d and e. `lay` is &net->lay, read through sweep_layers'
 * restrict pointer: nothing in it changes while the sweep runs (the pool,
 * which multicasts' copies would grow, is reserved before). */
typedef struct Sweep {
    Net *net;
    const Layout *lay;
    NetShare *sh;
    Appends out;
    const SweepList *run;      /* the run being swept */
    uint32_t *claim_end;       /* out.claimant[run->layer], while a run is swept */
    uint32_t max_count;        /* the fullest buffer entered (stats.max_buffer) */
} Sweep;

/* The sweep of stages a, b, d and e of one share (sweep.c), compiled for
 * any network and for each common shape (shape.h); `observed` (an
 * observer wants every event) only for any network. */
typedef void SweepFn(Net *net, NetShare *sh, bool observed);
SweepFn sweep_any_network, sweep_any_messages, sweep_common_full, sweep_common_half,
    sweep_multicast_full, sweep_messages_full, sweep_four_channels_full;

/* Asks for what stage e reads of sender h: its record, or with V > 1 its
 * PortTurn (one line for up to four channels). */
HOT void prefetch_sender(const Layout *lay, uint32_t h)
{
    if (shape_vcs(lay) == 1) {
        PREFETCH(&lay->senders[h]);
        return;
    }
    const char *turn = (const char *)turn_of(lay, h);
    for (unsigned at = 0; at < shape_turn_size(lay); at += 64)
        PREFETCH(turn + at);
}

/* Asks for what stage d will read first of a packet on a link: the
 * buffer it enters and its route word (for the port of its place word),
 * and with messages the flit's record and the buffer's owner, which a
 * head reads: a head that waits for them in memory costs more time than
 * asking for them for every flit. */
HOT void prefetch_on_link(const Layout *lay, const OnLink *e)
{
    if (shape_vcs(lay) == 1)
        PREFETCH(&lay->senders[e->target]);
    else
        PREFETCH(turn_of(lay, target_of(e->target, shape_vshift(lay))));
    if (shape_multicast(lay) && (target_of(e->target, shape_vshift(lay)) & 3) < 2)  /* going down: whether it splits (its */
        PREFETCH(&lay->pool[e->packet]);          /* set), what a copy takes, its route */
    else
        PREFETCH(&lay->routes[e->packet]);
    if (shape_messages(lay)) {           /* (for every flit: telling heads */
        PREFETCH(&lay->flits[e->packet]);    /* apart here saves no time) */
        PREFETCH(&lay->owner[e->target]);
    }
}

/* ...and of the first entries of a run, PREFETCH_DISTANCE or all of a
 * shorter one: what a claimant reads, or a packet on a link. Each loop
 * asks PREFETCH_DISTANCE entries on, and as it starts, for the start of
 * the run after it, so that no run starts with a wait for memory (runs
 * are many, and short under light traffic; a run's lines stay in the
 * cache while the run before it goes by). */
HOT void prefetch_run_start(const Layout *lay, const SweepList *run)
{
    size_t n = run->n < PREFETCH_DISTANCE ? run->n : PREFETCH_DISTANCE;
    if (run->kind == CLAIMANTS)
        for (size_t j = 0; j < n; j++)
            prefetch_sender(lay, ((const uint32_t *)run->items)[j]);
    else
        for (size_t j = 0; j < n; j++)
            prefetch_on_link(lay, (const OnLink *)run->items + j);
}

/* With --duplex half, a claim reads its channel's temp slot and, going up,
 * the slot kept by the port it enters above: lines of their own, which
 * the claimant's buffer line says where to find once it is in the cache
 * (its hop word): so commit_run asks for them half its look-ahead on, for
 * the buffers it asked for then. (Not for adapters, which have no hop
 * word, nor buffers that have not sent yet. Unlike a prefetch, reading
 * the hop word is an access: it is made only for the run's own entries,
 * not for the room after them, which may name another share's buffer.) */
HOT void prefetch_temp_slot(const Layout *lay, uint32_t h)
{
    if (is_adapter(lay, h) || !shape_compact(lay))
        return;
    uint32_t hop = shape_vcs(lay) == 1 ? lay->senders[h].hop : turn_of(lay, h)->hop;
    if (hop == 0)
        return;
    unsigned class = hop_class(hop);
    uint32_t s = hop_ahead(hop) >> 2;        /* the switch ahead */
    if (class < 2) {                             /* up, into down port `class` of s */
        if (shape_vcs(lay) == 1)                   /* (its lanes' state) */
            PREFETCH(&lay->senders[4 * s + class]);
        else
            PREFETCH(turn_of(lay, 4 * s + class));
        PREFETCH(&lay->temp_slots[2 * s + class]);
    } else {
        PREFETCH(&lay->temp_slots[2 * (h >> 2) + (h & 3)]);
    }
}

#endif
