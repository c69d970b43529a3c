/* The network stage's shares (shares.h). */
#include "net/shares.h"

#include <stdlib.h>
#include <string.h>

static void behind_reserve(BehindList *l, size_t n)
{
    void *items = l->items;
    list_grow(&items, &l->cap, l->n, n, sizeof *l->items);
    l->items = items;
}

static void splits_reserve(SplitList *l, size_t n)
{
    void *items = l->items;
    size_t cap = l->cap;
    list_grow(&items, &l->cap, l->n, n, sizeof *l->items);
    l->items = items;
    if (l->cap != cap) {
        free(l->order);
        l->order = malloc(2 * l->cap * sizeof *l->order);
        if (!l->order)
            abort();    /* a few words per packet in flight: cannot fail in practice */
    }
}

void share_reserve_sweep(Net *net, NetShare *sh)
{
    if (net->event)
        net_list_reserve(&sh->touched, net->in_flight);
    /* (A multicast can enter two buffers: room for twice the packets.) */
    behind_reserve(&sh->behind, (net->lay.multicast ? 2 : 1) * net->in_flight + PREFETCH_DISTANCE);
    if (net->lay.multicast)
        splits_reserve(&sh->splits, net->in_flight);
}

size_t listed_count(const Net *net, const NetShare *sh)
{
    size_t n = sh->claimants[0].n;
    for (unsigned l = 1; l <= net->lay.cfg.k; l++) {
        n += sh->claimants[l].n;
        for (unsigned c = 0; c < ARRIVAL_CLASSES; c++)
            n += sh->on_links[c][l].n;
    }
    return n;
}

/* How many entries list `list` of the lists of claimants (ARRIVAL_CLASSES)
 * or of packets on links (class c) of a layer can ever hold: one per
 * sender, or one per lane of a link of the class, of the layer and of the
 * share's planes; then PREFETCH_DISTANCE more, for the loops to look
 * ahead into, and one for commit_claim's write past the end. */
static size_t list_room(const Net *net, unsigned list, unsigned layer)
{
    size_t planes = net->nshares > 1 ? 1 : net->lay.cfg.planes, bound;
    size_t V = net->lay.cfg.vcs;
    if (list == ARRIVAL_CLASSES)             /* claimants: adapters, or 4 ports a switch */
        bound = layer == 0 ? net->lay.nprocs : 4 * (size_t)net->lay.half;
    else if (layer == 0)
        bound = 0;
    else if (list == ARRIVE_DELIVERY)        /* last links: one a processor */
        bound = layer == 1 ? net->lay.nprocs * V : 0;
    else                                     /* a link a switch */
        bound = net->lay.half * V;
    return bound * planes + PREFETCH_DISTANCE + 1;
}

/* Before stage c: the share's next lists emptied, and every list given all
 * the room it can need, so that stage c and the sweep push without
 * checks. That is done once, when the share first has work (lists of large
 * networks are mappings of their own, whose pages cost nothing until
 * written: net.c). */
void share_prepare(Net *net, NetShare *sh)
{
    sh->woken.n = 0;
    sh->continuing.n = 0;
    sh->moved = false;
    net_list_reserve(&sh->woken, net->in_flight);
    if (net->lay.messages)
        net_list_reserve(&sh->continuing, net->lay.nprocs);
    for (unsigned l = 0; l <= net->lay.cfg.k; l++) {
        sh->next_claimants[l].n = 0;
        for (unsigned c = 0; c < ARRIVAL_CLASSES; c++)
            sh->next_on_links[c][l].n = 0;
    }
    if (sh->roomy)
        return;
    for (unsigned l = 0; l <= net->lay.cfg.k; l++) {
        size_t room = list_room(net, ARRIVAL_CLASSES, l);
        net_list_reserve(&sh->next_claimants[l], room);
        net_list_reserve(&sh->claimants[l], room);
        for (unsigned c = 0; c < ARRIVAL_CLASSES; c++) {
            room = list_room(net, c, l);
            net_links_reserve(&sh->next_on_links[c][l], room);
            net_links_reserve(&sh->on_links[c][l], room);
        }
    }
    sh->roomy = true;
}

void run_shares(Net *net, bool parallel, ParallelFn *fn)
{
    if (parallel)
        net->runner(net->runner_ctx, fn, net);
    else
        for (unsigned i = 0; i < net->nshares; i++)
            fn(net, i);
}

/* Adds a share's counters to the network's, and clears them. Sums of
 * unsigned differences are exact modulo 2^64, so counters that went down in
 * a share (sleepers woken) are added the same way. */
static void merge_share(Net *net, NetShare *sh)
{
    Counters *c = &net->counts, *dc = &sh->delta;
    NetStats *st = &c->stats, *d = &dc->stats;
    for (int dir = 0; dir < 2; dir++)
        for (unsigned l = 1; l <= net->lay.cfg.k; l++) {
            st->link_collisions[dir][l] += d->link_collisions[dir][l];
            st->buffer_collisions[dir][l] += d->buffer_collisions[dir][l];
            c->asleep_link[dir][l] += dc->asleep_link[dir][l];
            c->asleep_buffer[dir][l] += dc->asleep_buffer[dir][l];
            d->link_collisions[dir][l] = d->buffer_collisions[dir][l] = 0;
            dc->asleep_link[dir][l] = dc->asleep_buffer[dir][l] = 0;
        }
    for (unsigned v = 0; v < NET_MAX_VCS; v++) {
        st->vc_link[v] += d->vc_link[v];
        st->vc_buffer[v] += d->vc_buffer[v];
        d->vc_link[v] = d->vc_buffer[v] = 0;
    }
    st->link_total += d->link_total;
    st->buffer_total += d->buffer_total;
    st->links_crossed += d->links_crossed;
    st->copies += d->copies;
    c->asleep += dc->asleep;
    if (d->max_buffer > st->max_buffer)
        st->max_buffer = d->max_buffer;
    d->link_total = d->buffer_total = d->links_crossed = d->copies = dc->asleep = 0;
    d->max_buffer = 0;
}

void merge_shares(Net *net)
{
    for (unsigned i = 0; i < net->nshares; i++) {
        NetShare *sh = &net->share[i];
        if (sh->counts != &net->counts)
            merge_share(net, sh);
        if (sh->woken.n) {              /* (a share with no work has no list yet) */
            memcpy(net->woken.items + net->woken.n, sh->woken.items,
                   sh->woken.n * sizeof *sh->woken.items);
            net->woken.n += sh->woken.n;
        }
        net->moved |= sh->moved;
    }
}
