/* A network's life, and what the rest of the emulator calls in a
 * timestep: building it, a share per plane, an observer, injection and
 * reads, and stage 4 with the reference stage run beside it. The files of
 * net/, from the top down (each calls only those below it):
 *
 *   net.c           this file
 *   reference_compare.c  the reference stage's state against the fast one's
 *   reference.c     stage 4 exactly as machine.md writes it
 *   check.c         the invariants, one checker per component
 *   deadlock.c      a network deadlock told from a program deadlock
 *   places.c        where packets are, for readers between timesteps
 *   step.c          stage 4, fast: its stages in order
 *   sweep.c         ...stages d and a, b, e a layer at a time, compiled
 *                   for any network and for each common shape (shape.h)
 *   deliver.c       ...its stage c
 *   shares.c        ...its shares' lists and counters
 *   adapter.c       output slots, input ports, delivery and reads
 *   sleep.c         sleeping packets, and waking them
 *   events.c        what an observer is told; the names of places
 *   multicast.c     a multicast's set, and its split
 *   pool.c          the packet pool
 *   counters.c      the statistics' counters
 *   lists.c         the stage's growable lists
 *   route.c, route_benes.c, destset.c   the routing algorithms (route.h)
 *
 * and the headers: net.h (public), state.h (the state), layout.h (the
 * numbering, inline), encode.h (every packed word), channel.h (a
 * channel's buffer and lane, and the collisions counted, inline), topology.h (the wiring), and
 * one a file for what it offers the files above it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/adapter.h"
#include "net/events.h"
#include "net/layout.h"
#include "net/message.h"
#include "net/reference.h"
#include "net/sleep.h"
#include "net/step.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

static const char *const switching_names[SWITCHING_COUNT] = {
    [SWITCHING_WORMHOLE] = "wormhole",
    [SWITCHING_CUT_THROUGH] = "cut-through",
    [SWITCHING_STORE_FORWARD] = "store-forward",
};

const char *switching_name(NetSwitching switching)
{
    return (unsigned)switching < SWITCHING_COUNT ? switching_names[switching] : NULL;
}

int switching_parse(const char *name, NetSwitching *switching)
{
    for (unsigned s = 0; s < SWITCHING_COUNT; s++)
        if (strcmp(name, switching_names[s]) == 0) {
            *switching = (NetSwitching)s;
            return 0;
        }
    return -1;
}

/* Large arrays come from calloc, which maps fresh zero pages: a component
 * that is never used costs no memory. */
static void *zalloc(size_t n, size_t size)
{
    return n ? calloc(n, size) : malloc(1);
}

/* The same, starting on a cache line, so that no Sender straddles two
 * lines. The block calloc gave is kept in the word before the array, for
 * line_free. */
enum { LINE = 64 };

static void *line_zalloc(size_t n, size_t size)
{
    if (n && size > (SIZE_MAX - 2 * LINE) / n)
        return NULL;
    char *block = calloc(1, n * size + 2 * LINE);
    if (!block)
        return NULL;
    char *array = block + 2 * LINE - (uintptr_t)block % LINE;
    memcpy(array - sizeof block, &block, sizeof block);
    return array;
}

static void line_free(void *array)
{
    if (array) {
        char *block;
        memcpy(&block, (char *)array - sizeof block, sizeof block);
        free(block);
    }
}

/* Keeps every large block (from 256 KiB) in a mapping of its own. The
 * packet pool and the active lists grow, by copying or realloc, to many
 * MiB; by default glibc raises its mapping threshold to the size of each
 * such block freed, after which the next ones come from the heap, whose
 * freed copies stay resident and where calloc must clear pages that an
 * idle component would never have touched. And keeps the heap's freed top
 * rather than give it back at once: a program that makes network after
 * network (the tests, the benchmarks) otherwise has the kernel map and
 * clear the same pages again for each. Other C libraries: nothing. */
static void tune_malloc(void)
{
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 256 * 1024);
    mallopt(M_TRIM_THRESHOLD, 64 * 1024 * 1024);
#endif
}

/* The shape of a network: its counts of processors, switches, buffers. */
static void shape(Layout *lay, const NetConfig *cfg)
{
    lay->cfg = *cfg;
    if (lay->cfg.vcs == 0)
        lay->cfg.vcs = 1;
    lay->nprocs = 1u << cfg->k;
    lay->half = lay->nprocs / 2;
    lay->nswitches = cfg->planes * cfg->k * lay->half;
    lay->nbuffers = 4 * lay->nswitches;
    for (unsigned row = 0; row < cfg->planes * cfg->k && row < 64; row++)
        lay->row_layer[row] = (uint8_t)(row % cfg->k + 1);
    lay->compact = cfg->k <= 16;
    while ((1u << lay->vshift) < lay->cfg.vcs)
        lay->vshift++;
    lay->turn_size = lay->cfg.vcs > 1 ? (unsigned)PORT_TURN_SIZE(lay->cfg.vcs) : 0;
}

/* Whether buffers deeper than a sender's record keep their places in
 * rings (with one channel; with more, buffers are queues). */
static bool has_rings(const Layout *lay)
{
    return lay->cfg.vcs == 1 && lay->cfg.buffer > INLINE_PLACES;
}

/* The links of a network and its senders (switch ports and adapters). */
static size_t links_of(const Layout *lay) { return 2 * (size_t)lay->nswitches; }
static size_t senders_of(const Layout *lay)
{
    return lay->nbuffers + (size_t)lay->cfg.planes * lay->nprocs;
}

/* The records of the senders' channels (state.h). */
static size_t channels_of(const Layout *lay) { return senders_of(lay) << lay->vshift; }

uint64_t net_bytes(const NetConfig *cfg)
{
    Layout lay = { 0 };
    shape(&lay, cfg);
    uint64_t n = lay.nprocs, bytes = 0;
    if (!cfg->full_duplex)
        bytes += links_of(&lay) * sizeof *lay.temp_slots;
    bytes += channels_of(&lay) * sizeof *lay.senders;
    if (has_rings(&lay))                     /* (the rings grow with their packets) */
        bytes += channels_of(&lay) * sizeof *lay.rings;
    bytes += channels_of(&lay) * sizeof *((Net *)0)->entered;
    bytes += senders_of(&lay) * lay.turn_size;
    bytes += n * cfg->ports * sizeof *lay.ports;
    bytes += n * (sizeof *lay.out_slot + sizeof *((Net *)0)->arrivals_down +
                  (2u << lay.vshift) * sizeof *((Net *)0)->arriving +
                  sizeof *((Net *)0)->requests_made);
    return bytes;
}

Net *net_new(const NetConfig *cfg)
{
    tune_malloc();
    Net *net = calloc(1, sizeof *net);
    if (!net)
        return NULL;
    shape(&net->lay, cfg);
    size_t links = links_of(&net->lay);
    size_t senders = senders_of(&net->lay), channels = channels_of(&net->lay);
    /* A channel's record is named in a word with a bit to spare, and a
     * sender in one with three (encode.h, the target and keeper words):
     * a network with more cannot be numbered, whatever the memory. */
    if (cfg->k >= LIST_LAYERS || channels >= (size_t)1 << 31 ||
        senders >= (size_t)1 << KEEPER_FLIT_SHIFT) {
        free(net);
        errno = EFBIG;
        return NULL;
    }
    if (!cfg->full_duplex)
        net->lay.temp_slots = line_zalloc(links, sizeof *net->lay.temp_slots);
    net->lay.senders = line_zalloc(channels, sizeof *net->lay.senders);
    if (has_rings(&net->lay))
        net->lay.rings = zalloc(channels, sizeof *net->lay.rings);
    if (net->lay.cfg.vcs > 1)
        net->lay.turns = line_zalloc(senders, net->lay.turn_size);
    net->entered = zalloc(channels, sizeof *net->entered);
    net->lay.ports = zalloc((size_t)net->lay.nprocs * cfg->ports, sizeof *net->lay.ports);
    net->lay.out_slot = zalloc(net->lay.nprocs, sizeof *net->lay.out_slot);
    net->arrivals_down = zalloc(net->lay.nprocs, sizeof *net->arrivals_down);
    net->arriving = zalloc((size_t)net->lay.nprocs << (1 + net->lay.vshift), sizeof *net->arriving);
    net->requests_made = zalloc(net->lay.nprocs, sizeof *net->requests_made);
    net->share = zalloc(2, sizeof *net->share);
    if ((!cfg->full_duplex && !net->lay.temp_slots) || !net->lay.senders ||
        (has_rings(&net->lay) && !net->lay.rings) ||
        (net->lay.cfg.vcs > 1 && !net->lay.turns) || !net->entered || !net->lay.ports ||
        !net->lay.out_slot || !net->arrivals_down || !net->arriving || !net->share ||
        !net->requests_made || counters_init(&net->counts, cfg->k) != 0) {
        net_free(net);
        errno = ENOMEM;
        return NULL;
    }
    /* Zeroed memory is an empty network (NET_NIL is 0): nothing is filled,
     * so the pages of unused links, buffers and ports are never touched. */
    net->nshares = 1;
    net->share[0].counts = &net->counts;
    net->lay.now = 1;
    return net;
}

void net_free(Net *net)
{
    if (!net)
        return;
    free(net->lay.pool);
    free(net->lay.routes);
    free(net->free_stack);
    line_free(net->lay.temp_slots);
    line_free(net->lay.senders);
    if (net->lay.rings)
        for (size_t c = 0; c < channels_of(&net->lay); c++)
            free(net->lay.rings[c]);
    free(net->lay.rings);
    line_free(net->lay.turns);
    free(net->lay.next_place);
    free(net->entered);
    free(net->lay.ports);
    free(net->lay.out_slot);
    free(net->arrivals_down);
    free(net->arriving);
    free(net->requests_made);
    counters_free(&net->counts);
    free(net->woken.items);
    free(net->lay.port_waits);
    for (uint32_t id = 1; id <= net->nlists; id++)
        free(net->lists[id].members);
    free(net->lists);
    free(net->free_lists);
    messages_free(net);
    for (unsigned i = 0; i < 2 && net->share; i++) {
        NetShare *sh = &net->share[i];
        free(sh->touched.items);
        free(sh->woken.items);
        free(sh->continuing.items);
        for (unsigned l = 0; l < LIST_LAYERS; l++) {
            free(sh->claimants[l].items);
            free(sh->next_claimants[l].items);
            for (unsigned c = 0; c < ARRIVAL_CLASSES; c++) {
                free(sh->on_links[c][l].items);
                free(sh->next_on_links[c][l].items);
            }
        }
        free(sh->behind.items);
        free(sh->splits.items);
        free(sh->splits.order);
        counters_free(&sh->delta);
    }
    free(net->share);
    reference_free(net->reference);
    free(net->reference_error);
    free(net);
}

int net_use_shares(Net *net, Runner *runner, void *ctx, size_t parallel_min)
{
    if (net->lay.cfg.planes != 2 || net->outstanding != 0 || net->event)
        return -1;
    for (unsigned i = 0; i < 2; i++)
        if (counters_init(&net->share[i].delta, net->lay.cfg.k) != 0)
            return -1;              /* freed with the network */
    for (unsigned i = 0; i < 2; i++) {
        net->share[i].counts = &net->share[i].delta;
        net->share[i].roomy = false;             /* (room by the share's planes) */
    }
    net->nshares = 2;
    net->runner = runner;
    net->runner_ctx = ctx;
    net->parallel_min = parallel_min;
    return 0;
}

/* ---- the reference stage beside this one ------------------------------------ */

int net_compare_with_reference(Net *net)
{
    if (net->outstanding != 0)
        return -1;
    if (!net->reference)
        net->reference = reference_new(&net->lay.cfg);
    return net->reference ? 0 : -1;
}

const char *net_reference_error(const Net *net)
{
    return net->reference_error;
}

/* Records the first difference between the two stages; the reference is
 * not run after it. */
static void reference_failed(Net *net, const char *what)
{
    char msg[512];
    snprintf(msg, sizeof msg, "the fast network stage and the reference stage differ: %s", what);
    net->reference_error = strdup(msg);
    reference_free(net->reference);
    net->reference = NULL;
}

void net_observe(Net *net, NetEventFn *fn, void *ctx)
{
    net->event = fn;
    net->event_ctx = ctx;
}

/* ---- a timestep: what the adapters are told, and stage 4 --------------------- */

void net_begin_timestep(Net *net, uint64_t t)
{
    net->timestep = t;
}

uint64_t net_inject(Net *net, const RouteRequest *req, const Route *route,
                    const uint32_t *words, uint64_t timestep)
{
    uint32_t x = adapter_inject(net, req, route, words, timestep);
    uint64_t id = net->lay.pool[x].info.id;
    if (net->reference)
        reference_inject(net->reference, id, req, route, timestep);
    step_injected(net, route->plane, req->src);
    if (net->event) {                   /* (every flit of a message is made now) */
        NetPacket made;
        net_describe(net, x, &made);
        NetEvent ev = { EV_CREATED, timestep, &made, req->src, PLACE_SLOT, 0, 0, NULL, 0 };
        for (uint32_t i = 0; i < made.length; i++) {
            made.flit = i;
            made.data = words[i];
            net->event(net->event_ctx, &ev);
        }
    }
    return id;
}

void net_release_read(Net *net, uint32_t x)
{
    if (net->reference) {
        char err[400];
        const Packet *pk = &net->lay.pool[x];
        NetPacket taken;
        net_taken_packet(net, x, &taken);
        if (reference_read(net->reference, pk->info.dst, pk->at % net->lay.cfg.ports,
                           &taken, err, sizeof err) != 0)
            reference_failed(net, err);
    }
    uint32_t port = adapter_release(net, x);
    if (net->lay.ports[port].waiting != NET_NIL)
        net_wake_port(net, port);
}

bool net_in_take(Net *net, uint32_t p, uint32_t port, uint32_t *word)
{
    uint32_t x = net_take(net, p, port, word);
    if (x == NET_NIL)
        return false;
    net_release_read(net, x);
    return true;
}

const NetStepResult *net_step(Net *net, uint64_t t)
{
    net->timestep = t;
    net->moved = false;
    net->settled = false;
    net->woken.n = 0;
    step_stage(net);
    net->result.woken = net->woken.items;
    net->result.nwoken = net->woken.n;
    if (net->reference) {                               /* the spec's stage beside */
        char err[400];
        reference_step(net->reference, t);
        if (reference_compare(net->reference, net, err, sizeof err) != 0)
            reference_failed(net, err);
    }
    net->result.moved = net->moved;
    net->result.busy = net->in_flight != 0;
    return &net->result;
}
