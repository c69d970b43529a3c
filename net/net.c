/* The network's state outside the timestep: construction, the adapters'
 * output slots and input ports (thesis 5.3.1), injection of routed packets,
 * the packet pool, names of places, the invariant check of the debug build
 * and the analysis that tells a network deadlock from a program deadlock.
 * The timestep's sub-stages are in step.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/net_internal.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

/* Large arrays come from calloc, which maps fresh zero pages: a component
 * that is never used costs no memory. */
static void *zalloc(size_t n, size_t size)
{
    return n ? calloc(n, size) : malloc(1);
}

/* The same, starting on a cache line, so that a switch's four buffers (or a
 * link's channels) share one line instead of straddling two. The block
 * calloc gave is kept in the word before the array, for line_free. */
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
 * freed copies stay resident (80 MiB of 310 at 65,536 processors under
 * flood, docs/performance.md) and where calloc must clear pages that an
 * idle component would never have touched. Other C libraries: nothing. */
static void keep_large_blocks_mapped(void)
{
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 256 * 1024);
#endif
}

Net *net_new(const NetConfig *cfg)
{
    keep_large_blocks_mapped();
    Net *net = calloc(1, sizeof *net);
    if (!net)
        return NULL;
    net->cfg = *cfg;
    net->nprocs = 1u << cfg->k;
    net->half = net->nprocs / 2;
    net->nswitches = cfg->planes * cfg->k * net->half;
    net->sort_min = NET_SORT_MIN;
    size_t links = 2 * (size_t)net->nswitches;
    size_t channels = cfg->full_duplex ? 2 * links : links;
    net->channels = line_zalloc(channels, sizeof *net->channels);
    net->buffers = line_zalloc(4 * (size_t)net->nswitches, sizeof *net->buffers);
    net->buffer_sleepers = zalloc(4 * (size_t)net->nswitches, sizeof *net->buffer_sleepers);
    net->adapter_links = zalloc((size_t)cfg->planes * net->nprocs, sizeof *net->adapter_links);
    net->ports = zalloc((size_t)net->nprocs * cfg->ports, sizeof *net->ports);
    net->out_slot = zalloc(net->nprocs, sizeof *net->out_slot);
    net->arrivals_down = zalloc(net->nprocs, 1);
    net->requests_made = zalloc(net->nprocs, sizeof *net->requests_made);
    for (int d = 0; d < 2; d++) {
        net->stats.link_collisions[d] = zalloc(cfg->k + 1, sizeof(uint64_t));
        net->stats.buffer_collisions[d] = zalloc(cfg->k + 1, sizeof(uint64_t));
        net->stats.asleep_link[d] = zalloc(cfg->k + 1, sizeof(uint64_t));
        net->stats.asleep_buffer[d] = zalloc(cfg->k + 1, sizeof(uint64_t));
    }
    if (!net->channels || !net->buffers || !net->buffer_sleepers || !net->adapter_links ||
        !net->ports || !net->out_slot ||
        !net->arrivals_down ||
        !net->requests_made || !net->stats.link_collisions[0] || !net->stats.link_collisions[1] ||
        !net->stats.buffer_collisions[0] || !net->stats.buffer_collisions[1] ||
        !net->stats.asleep_link[0] || !net->stats.asleep_link[1] ||
        !net->stats.asleep_buffer[0] || !net->stats.asleep_buffer[1]) {
        net_free(net);
        errno = ENOMEM;
        return NULL;
    }
    /* Zeroed memory is an empty network (NET_NIL is 0): nothing is filled,
     * so the pages of unused links, buffers and ports are never touched. */
    net->free_list = NET_NIL;
    net->nlanes = 1;
    net->lane[0].stats = &net->stats;
    return net;
}

void net_free(Net *net)
{
    if (!net)
        return;
    free(net->pool);
    free(net->info);
    line_free(net->channels);
    line_free(net->buffers);
    free(net->buffer_sleepers);
    free(net->adapter_links);
    free(net->ports);
    free(net->out_slot);
    free(net->arrivals_down);
    free(net->requests_made);
    for (int d = 0; d < 2; d++) {
        free(net->stats.link_collisions[d]);
        free(net->stats.buffer_collisions[d]);
        free(net->stats.asleep_link[d]);
        free(net->stats.asleep_buffer[d]);
    }
    free(net->stats.latency_hist);
    free(net->woken.items);
    for (unsigned i = 0; i < 2; i++) {
        NetLane *ln = &net->lane[i];
        IndexList *lists[] = { &ln->claimers, &ln->next_claimers,
                               &ln->touched, &ln->woken };
        for (size_t j = 0; j < sizeof lists / sizeof lists[0]; j++)
            free(lists[j]->items);
        for (unsigned c = 0; c < ARRIVAL_CLASSES; c++) {
            free(ln->on_links[c].items);
            free(ln->next_on_links[c].items);
        }
        free(ln->scratch.items);
        free(ln->behind.items);
        for (int d = 0; d < 2; d++) {
            free(ln->delta.link_collisions[d]);
            free(ln->delta.buffer_collisions[d]);
            free(ln->delta.asleep_link[d]);
            free(ln->delta.asleep_buffer[d]);
        }
    }
    free(net);
}

int net_use_lanes(Net *net, NetRunner *runner, void *ctx, size_t parallel_min)
{
    if (net->cfg.planes != 2 || net->outstanding != 0 || net->event)
        return -1;
    for (unsigned i = 0; i < 2; i++) {
        NetStats *d = &net->lane[i].delta;
        for (int dir = 0; dir < 2; dir++) {
            d->link_collisions[dir] = zalloc(net->cfg.k + 1, sizeof(uint64_t));
            d->buffer_collisions[dir] = zalloc(net->cfg.k + 1, sizeof(uint64_t));
            d->asleep_link[dir] = zalloc(net->cfg.k + 1, sizeof(uint64_t));
            d->asleep_buffer[dir] = zalloc(net->cfg.k + 1, sizeof(uint64_t));
            if (!d->link_collisions[dir] || !d->buffer_collisions[dir] ||
                !d->asleep_link[dir] || !d->asleep_buffer[dir])
                return -1;              /* freed with the network */
        }
    }
    for (unsigned i = 0; i < 2; i++)
        net->lane[i].stats = &net->lane[i].delta;
    net->nlanes = 2;
    net->runner = runner;
    net->runner_ctx = ctx;
    net->parallel_min = parallel_min;
    return 0;
}

/* ---- the packet pool ------------------------------------------------------ */

static uint32_t packet_alloc(Net *net)
{
    if (net->free_list == NET_NIL) {
        /* Grow the pool; index 0 stays unused (it is NET_NIL). */
        uint32_t old = net->pool_cap ? net->pool_cap : 1;
        uint32_t cap = net->pool_cap ? 2 * net->pool_cap : 1024;
        /* Packets are half a cache line, aligned: two a line. */
        Packet *pool = NULL;
        if (cap >= NET_RESERVED || posix_memalign((void **)&pool, 64, (size_t)cap * sizeof *pool))
            abort();            /* more packets than slots, links and buffers: cannot happen */
        PacketInfo *info = realloc(net->info, (size_t)cap * sizeof *info);
        if (!info)
            abort();
        net->info = info;
        if (net->pool)
            memcpy(pool, net->pool, (size_t)net->pool_cap * sizeof *pool);
        free(net->pool);
        pool[0].place = PLACE_FREE;
        for (uint32_t i = old; i < cap; i++) {
            pool[i].place = PLACE_FREE;
            pool[i].next = i + 1 < cap ? i + 1 : NET_NIL;
        }
        net->pool = pool;
        net->free_list = old;
        net->pool_cap = cap;
    }
    uint32_t x = net->free_list;
    net->free_list = net->pool[x].next;
    net->outstanding++;
    return x;
}

static void packet_release(Net *net, uint32_t x)
{
    net->pool[x].place = PLACE_FREE;
    net->pool[x].next = net->free_list;
    net->free_list = x;
    net->outstanding--;
}

/* ---- adapters -------------------------------------------------------------- */

uint32_t net_take(Net *net, uint32_t p, uint32_t port, uint32_t *word)
{
    Fifo *f = &net->ports[(size_t)p * net->cfg.ports + port];
    if (f->count == 0)
        return NET_NIL;
    uint32_t x = f->head;
    Packet *pk = &net->pool[x];
    *word = net->info[x].data;
    f->head = pk->next;
    if (--f->count == 0)
        f->tail = NET_NIL;
    return x;
}

void net_release_read(Net *net, uint32_t x)
{
    Packet *pk = &net->pool[x];
    uint32_t port = pk->at;
    net->stats.read++;
    if (net->event) {
        NetEvent ev = { EV_READ, net->timestep, pk, &net->info[x], net->info[x].dst, PLACE_PORT,
                        0, 0 };
        net->event(net->event_ctx, &ev);
    }
    packet_release(net, x);
    if (net->ports[port].sleepers != NET_NIL)
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

uint64_t net_count_request(Net *net, uint32_t p)
{
    return net->requests_made[p]++;
}

uint64_t net_inject(Net *net, const RouteRequest *req, const Route *route,
                    uint32_t data, uint64_t timestep)
{
    uint32_t x = packet_alloc(net);
    Packet *pk = &net->pool[x];
    PacketInfo *info = &net->info[x];
    *info = (PacketInfo){
        .id = net->next_id++, .created = timestep, .src = req->src, .dst = req->dst, .data = data,
    };
    *pk = (Packet){
        .next = NET_NIL, .at = req->src, .routing = route->routing, .addressing = route->addressing,
        .port = (uint8_t)req->port, .plane = route->plane, .count = route->count,
        .dir = DIR_UP, .place = PLACE_SLOT, .layer = 0, .mark = 0,
    };
    net->out_slot[req->src] = x;
    net->in_flight++;
    net->stats.sent++;
    IndexList *claimers = &lane_of(net, pk)->claimers;
    net_list_reserve(claimers, claimers->n + 1);
    claimers->items[claimers->n++] = x;
    if (net->event) {
        NetEvent ev = { EV_CREATED, timestep, pk, info, req->src, PLACE_SLOT, 0, 0 };
        net->event(net->event_ctx, &ev);
    }
    return info->id;
}

/* ---- names ----------------------------------------------------------------- */

/* "p0.l2.s5" for switch s. */
static void switch_name(const Net *net, uint32_t s, char *buf, size_t size)
{
    uint32_t row = s >> (net->cfg.k - 1);
    snprintf(buf, size, "p%u.l%u.s%u", row / net->cfg.k, row % net->cfg.k + 1, sw_j(net, s));
}

static const char *const port_names[4] = { "d0", "d1", "u0", "u1" };

/* A link is named by its lower end: "p0.cpu3" (processor 3's plane-0 link)
 * or "p0.l1.s1.u0" (the link above up port u0 of switch p0.l1.s1). */
void net_link_name(const Net *net, uint32_t link, char *buf, size_t size)
{
    uint32_t s = link >> 1, row = s >> (net->cfg.k - 1);
    unsigned layer = row % net->cfg.k + 1, plane = row / net->cfg.k;
    if (layer == 1) {
        snprintf(buf, size, "p%u.cpu%u", plane, topo_down_proc(sw_j(net, s), link & 1));
    } else {
        unsigned q;
        char sw[48];
        uint32_t lower = down_target(net, link, layer, &q);
        switch_name(net, lower, sw, sizeof sw);
        snprintf(buf, size, "%s.%s", sw, port_names[q]);
    }
}

void net_buffer_name(const Net *net, uint32_t b, char *buf, size_t size)
{
    char sw[48];
    switch_name(net, b >> 2, sw, sizeof sw);
    snprintf(buf, size, "%s.%s", sw, port_names[b & 3]);
}

void net_place_name(const Net *net, const Packet *pk, char *buf, size_t size)
{
    char name[64];
    switch ((PacketPlace)pk->place) {
    case PLACE_SLOT:
        snprintf(buf, size, "output slot of p%u", net_info(net, pk)->src);
        return;
    case PLACE_LINK:
        net_link_name(net, channel_link(net, pk->at), name, sizeof name);
        snprintf(buf, size, "link %s %s", name, pk->dir == DIR_UP ? "up" : "down");
        return;
    case PLACE_BUFFER: {
        const Buffer *f = &net->buffers[pk->at];
        unsigned place = 1;
        for (uint32_t y = f->head; y != NET_NIL && &net->pool[y] != pk; y = net->pool[y].next)
            place++;
        net_buffer_name(net, pk->at, name, sizeof name);
        snprintf(buf, size, "buffer %s place %u of %u", name, place, f->count);
        return;
    }
    case PLACE_PORT:
        snprintf(buf, size, "input port %u of p%u", pk->port, net_info(net, pk)->dst);
        return;
    case PLACE_FREE:
        snprintf(buf, size, "(free)");
        return;
    }
}

void net_event_place(const Net *net, const NetEvent *ev, char *buf, size_t size)
{
    char name[64];
    switch ((PacketPlace)ev->place_kind) {
    case PLACE_SLOT:
        snprintf(buf, size, "output slot of p%u", ev->place);
        return;
    case PLACE_LINK:
        net_link_name(net, channel_link(net, ev->place), name, sizeof name);
        snprintf(buf, size, "link %s %s", name, ev->packet->dir == DIR_UP ? "up" : "down");
        return;
    case PLACE_BUFFER:
        net_buffer_name(net, ev->place, name, sizeof name);
        snprintf(buf, size, "buffer %s", name);
        return;
    case PLACE_PORT:
        snprintf(buf, size, "input port %u of p%u", ev->packet->port, ev->place);
        return;
    case PLACE_FREE:
        snprintf(buf, size, "-");
        return;
    }
}

/* ---- walking every packet in flight ----------------------------------------- */

typedef struct PlaceKey {
    uint32_t rank;     /* 0 output slot, 1 link, 2 buffer */
    uint32_t at;       /* processor, channel or buffer */
    uint32_t seq;      /* place in its buffer, from the head */
    uint32_t packet;
} PlaceKey;

static int compare_keys(const void *a_, const void *b_)
{
    const PlaceKey *a = a_, *b = b_;
    if (a->rank != b->rank) return a->rank < b->rank ? -1 : 1;
    if (a->at != b->at) return a->at < b->at ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

void net_for_each_in_flight(Net *net, void (*fn)(void *ctx, const Packet *pk), void *ctx)
{
    PlaceKey *keys = malloc(((size_t)net->in_flight + 1) * sizeof *keys);
    size_t n = 0;
    if (!keys)
        return;
    for (uint32_t x = 0; x < net->pool_cap && n < net->in_flight; x++) {
        const Packet *pk = &net->pool[x];
        if (pk->place == PLACE_SLOT || pk->place == PLACE_LINK) {
            keys[n++] = (PlaceKey){ pk->place == PLACE_SLOT ? 0 : 1, pk->at, 0, x };
        } else if (pk->place == PLACE_BUFFER && net->buffers[pk->at].head == x) {
            uint32_t seq = 0;
            for (uint32_t y = x; y != NET_NIL; y = net->pool[y].next)
                keys[n++] = (PlaceKey){ 2, pk->at, seq++, y };
        }
    }
    qsort(keys, n, sizeof *keys, compare_keys);
    for (size_t i = 0; i < n; i++)
        fn(ctx, &net->pool[keys[i].packet]);
    free(keys);
}

void net_for_each_unread(Net *net, void (*fn)(void *ctx, const Packet *pk), void *ctx)
{
    uint32_t *heads = malloc(((size_t)net->outstanding + 1) * sizeof *heads);
    size_t n = 0;
    if (!heads)
        return;
    for (uint32_t x = 0; x < net->pool_cap; x++)
        if (net->pool[x].place == PLACE_PORT && net->ports[net->pool[x].at].head == x)
            heads[n++] = net->pool[x].at;
    qsort(heads, n, sizeof *heads, compare_u32);
    for (size_t i = 0; i < n; i++)
        for (uint32_t y = net->ports[heads[i]].head; y != NET_NIL; y = net->pool[y].next)
            fn(ctx, &net->pool[y]);
    free(heads);
}

uint32_t net_link_packet(const Net *net, uint32_t c)
{
    return slot_packet(net, c);
}

/* ---- deadlock analysis -------------------------------------------------------- */

/* The packets that packet x waits for, if it cannot move now: at most two
 * (an adaptive packet may climb through either up buffer). Returns how many
 * are written to deps; -1 if x could move as soon as input ports were read
 * (or at once). */
static int blockers(Net *net, uint32_t x, uint32_t deps[2])
{
    Packet *pk = &net->pool[x];
    if (pk->place == PLACE_SLOT || (pk->place == PLACE_BUFFER && net->buffers[pk->at].head == x)) {
        unsigned layer;
        uint32_t y = slot_packet(net, wanted_channel(net, pk, &layer));
        if (y == NET_NIL)
            return -1;
        deps[0] = y;
        return 1;
    }
    if (pk->place == PLACE_BUFFER) {
        deps[0] = net->buffers[pk->at].head;
        return 1;
    }
    /* On a link: heading for an input port, or for a buffer. */
    uint32_t s;
    unsigned l, q;
    if (!link_heading(net, pk, &s, &l, &q))
        return -1;                       /* only an input port can hold it */
    int n = 0;
    unsigned first, last;
    if (pk->dir == DIR_UP && l < pk->count) {
        unsigned b = (pk->routing >> (l - 1)) & 1;
        first = last = 2 + b;
        if (net->cfg.adaptive) {
            first = 2;
            last = 3;
        }
    } else {
        first = last = (pk->addressing >> (l - 1)) & 1;
    }
    for (unsigned out = first; out <= last; out++) {
        const Buffer *f = &net->buffers[4 * s + out];
        if (f->count < net->cfg.buffer)
            return -1;
        deps[n++] = f->head;
    }
    return n;
}

bool net_is_stuck(Net *net)
{
    /* A packet can eventually move if it is free to move, or if one of the
     * packets it waits for can. Iterate to the fixpoint; what is left
     * waits in a cycle, which no reading of input ports can break. */
    uint8_t *can = calloc(net->pool_cap ? net->pool_cap : 1, 1);
    if (!can)
        return false;
    bool changed = true, stuck = false;
    while (changed) {
        changed = false;
        for (uint32_t x = 0; x < net->pool_cap; x++) {
            uint8_t place = net->pool[x].place;
            if (can[x] || place == PLACE_FREE || place == PLACE_PORT)
                continue;
            uint32_t deps[2];
            int n = blockers(net, x, deps);
            bool ok = n < 0;
            for (int i = 0; i < n && !ok; i++)
                ok = can[deps[i]] || net->pool[deps[i]].place == PLACE_PORT;
            if (ok) {
                can[x] = 1;
                changed = true;
            }
        }
    }
    for (uint32_t x = 0; x < net->pool_cap; x++) {
        uint8_t place = net->pool[x].place;
        if (!can[x] && place != PLACE_FREE && place != PLACE_PORT)
            stuck = true;
    }
    free(can);
    return stuck;
}

/* ---- invariants ------------------------------------------------------------ */

#define BROKEN(...) do { snprintf(err, size, __VA_ARGS__); free(seen); return -1; } while (0)

/* Walks one FIFO, checking its links, count and bound; marks its packets. */
static int check_fifo(const Net *net, uint32_t head, uint32_t tail, uint32_t count,
                      uint32_t index, PacketPlace place, uint32_t bound, uint8_t *seen,
                      const char *what, char *err, size_t size)
{
    uint32_t n = 0, last = NET_NIL;
    for (uint32_t y = count ? head : NET_NIL; y != NET_NIL; y = net->pool[y].next) {
        if (y >= net->pool_cap || seen[y] || ++n > count) {
            snprintf(err, size, "%s: broken list (packet %u)", what, y);
            return -1;
        }
        seen[y] = 1;
        if (net->pool[y].place != place || net->pool[y].at != index) {
            snprintf(err, size, "%s: holds packet #%llu that places itself elsewhere",
                     what, (unsigned long long)net->info[y].id);
            return -1;
        }
        last = y;
    }
    if (n != count || (n && last != tail)) {
        snprintf(err, size, "%s: count %u but %u packets linked", what, count, n);
        return -1;
    }
    if (n > bound) {
        snprintf(err, size, "%s: overflow, %u packets in %u places", what, n, bound);
        return -1;
    }
    return 0;
}

int net_check(const Net *net, char *err, size_t size)
{
    uint8_t *seen = calloc(net->pool_cap ? net->pool_cap : 1, 1);
    char name[64];
    uint64_t in_flight = 0, in_ports = 0;
    size_t channels = 2 * (size_t)net->nswitches * (net->cfg.full_duplex ? 2 : 1);
    if (!seen) {
        snprintf(err, size, "out of memory");
        return -1;
    }
    for (uint32_t p = 0; p < net->nprocs; p++) {
        uint32_t x = net->out_slot[p];
        if (x == NET_RESERVED)
            BROKEN("net/p%u: output slot reserved between timesteps", p);
        if (x == NET_NIL)
            continue;
        if (x >= net->pool_cap || seen[x] || net->pool[x].place != PLACE_SLOT ||
            net->pool[x].at != p || net->info[x].src != p)
            BROKEN("net/p%u: output slot holds a packet that is not there", p);
        seen[x] = 1;
        in_flight++;
    }
    uint64_t slots_written = 0, slots_used = 0;
    for (size_t c = 0; c < channels; c++) {
        const Channel *ch = &net->channels[c];
        if (ch->temp != NET_NIL) {
            net_link_name(net, channel_link(net, (uint32_t)c), name, sizeof name);
            BROKEN("net/%s: temp slot still claimed after the timestep", name);
        }
        uint32_t held = *channel_main(net, (uint32_t)c), x = held & ~SLOT_BLOCKED;
        if (held == NET_NIL)
            continue;
        slots_written++;
        if (x >= net->pool_cap) {
            net_link_name(net, channel_link(net, (uint32_t)c), name, sizeof name);
            BROKEN("net/%s: main slot names packet %u, beyond the pool", name, x);
        }
        if (slot_packet(net, (uint32_t)c) == NET_NIL)
            continue;                   /* it has left (net_internal.h, SLOT_BLOCKED) */
        if (seen[x] || net->pool[x].place != PLACE_LINK || net->pool[x].at != c) {
            net_link_name(net, channel_link(net, (uint32_t)c), name, sizeof name);
            BROKEN("net/%s: main slot holds a packet that is not there (lost or duplicated)", name);
        }
        if ((net->pool[x].next & ~SLOT_BLOCKED) != channel_holder(net, (uint32_t)c)) {
            net_link_name(net, channel_link(net, (uint32_t)c), name, sizeof name);
            BROKEN("net/%s: its packet names holder %u for its slot, not %u", name,
                   net->pool[x].next & ~SLOT_BLOCKED, channel_holder(net, (uint32_t)c));
        }
        if ((net->pool[x].next ^ held) & SLOT_BLOCKED) {
            net_link_name(net, channel_link(net, (uint32_t)c), name, sizeof name);
            BROKEN("net/%s: slot and packet disagree on whether it was refused", name);
        }
        seen[x] = 1;
        in_flight++;
    }
    /* The slots that are no channel's (the up ports of the top layer; with
     * --duplex half, every up port and adapter) stay empty. */
    for (uint32_t b = 0; b < 4 * net->nswitches; b++)
        slots_used += net->buffers[b].link != NET_NIL;
    for (size_t i = 0; i < (size_t)net->cfg.planes * net->nprocs; i++)
        slots_used += net->adapter_links[i] != NET_NIL;
    if (slots_used != slots_written)
        BROKEN("net: %llu link slots hold packets, but only %llu are channels' slots",
               (unsigned long long)slots_used, (unsigned long long)slots_written);
    for (uint32_t b = 0; b < 4 * net->nswitches; b++) {
        const Buffer *f = &net->buffers[b];
        if ((net->buffer_sleepers[b] != NET_NIL) != f->sleepy) {
            net_buffer_name(net, b, name, sizeof name);
            BROKEN("net/%s: sleeper flag %u disagrees with its sleeper list", name, f->sleepy);
        }
        if (f->count == 0 && f->entered == 0)
            continue;                 /* empty: head and tail mean nothing */
        net_buffer_name(net, b, name, sizeof name);
        char what[80];
        snprintf(what, sizeof what, "net/%s", name);
        if (check_fifo(net, f->head, f->tail, f->count, b, PLACE_BUFFER, net->cfg.buffer, seen,
                       what, err, size) != 0) {
            free(seen);
            return -1;
        }
        if (f->entered)
            BROKEN("net/%s: entry count not reset", name);
        in_flight += f->count;
    }
    for (uint32_t p = 0; p < net->nprocs; p++)
        if (net->arrivals_down[p])
            BROKEN("net/p%u: arrival bits 0x%x left set after stage c", p, net->arrivals_down[p]);
    for (size_t i = 0; i < (size_t)net->nprocs * net->cfg.ports; i++) {
        const Fifo *f = &net->ports[i];
        if (f->count == 0)
            continue;
        char what[80];
        snprintf(what, sizeof what, "net/p%zu.port%zu", i / net->cfg.ports, i % net->cfg.ports);
        if (check_fifo(net, f->head, f->tail, f->count, (uint32_t)i, PLACE_PORT, net->cfg.port_depth,
                       seen, what, err, size) != 0) {
            free(seen);
            return -1;
        }
        in_ports += f->count;
    }
    if (in_flight != net->in_flight)
        BROKEN("net: %llu packets found in flight, %llu counted",
               (unsigned long long)in_flight, (unsigned long long)net->in_flight);
    if (in_flight + in_ports != net->outstanding)
        BROKEN("net: packet pool has %u outstanding, %llu found (a packet was lost)",
               net->outstanding, (unsigned long long)(in_flight + in_ports));
    if (net->stats.sent != net->stats.read + in_flight + in_ports)
        BROKEN("net: %llu packets sent, but %llu read + %llu in flight + %llu in ports",
               (unsigned long long)net->stats.sent, (unsigned long long)net->stats.read,
               (unsigned long long)in_flight, (unsigned long long)in_ports);
    /* The active lists and the sleepers: every claimant and every link
     * packet is either on its list (awake) or asleep on exactly one sleeper
     * list, of the buffer, port or channel that blocks it. */
    uint64_t heads = 0, links = 0, asleep = 0, listed = 0;
    for (uint32_t x = 0; x < net->pool_cap; x++) {
        const Packet *pk = &net->pool[x];
        if (pk->place == PLACE_FREE || pk->place == PLACE_PORT)
            continue;
        bool head = pk->place == PLACE_SLOT ||
                    (pk->place == PLACE_BUFFER && net->buffers[pk->at].head == x);
        if (pk->asleep != AWAKE) {
            asleep++;
            bool right = pk->asleep == ASLEEP_CLAIM ? head : pk->place == PLACE_LINK;
            if (!right)
                BROKEN("net: packet #%llu sleeps in the wrong place",
                       (unsigned long long)net_info(net, pk)->id);
            continue;
        }
        heads += head;
        links += pk->place == PLACE_LINK;
    }
    for (size_t b = 0; b < 4 * (size_t)net->nswitches; b++)
        for (uint32_t y = net->buffer_sleepers[b]; y != NET_NIL; y = net->pool[y].wait_next)
            if (++listed > asleep)
                BROKEN("net: a sleeper list is broken");
    for (size_t i = 0; i < (size_t)net->nprocs * net->cfg.ports; i++)
        for (uint32_t y = net->ports[i].sleepers; y != NET_NIL; y = net->pool[y].wait_next)
            if (++listed > asleep)
                BROKEN("net: a sleeper list is broken");
    for (size_t c = 0; c < channels; c++)
        for (uint32_t y = net->channels[c].sleepers; y != NET_NIL; y = net->pool[y].wait_next)
            if (++listed > asleep)
                BROKEN("net: a sleeper list is broken");
    if (listed != asleep || asleep != net->stats.asleep)
        BROKEN("net: %llu packets asleep, %llu on sleeper lists, %llu counted",
               (unsigned long long)asleep, (unsigned long long)listed,
               (unsigned long long)net->stats.asleep);
    size_t claimers = 0, listed_links = 0;
    for (unsigned l = 0; l < net->nlanes; l++) {
        const NetLane *ln = &net->lane[l];
        claimers += ln->claimers.n;
        for (size_t i = 0; i < ln->claimers.n; i++)
            if (ln->claimers.items[i] >= net->pool_cap ||
                lane_index(net, &net->pool[ln->claimers.items[i]]) != l)
                BROKEN("net: lane %u lists a claimant that is not its own (entry %zu)", l, i);
        for (unsigned c = 0; c < ARRIVAL_CLASSES; c++) {
            listed_links += ln->on_links[c].n;
            for (size_t i = 0; i < ln->on_links[c].n; i++) {
                const OnLink *e = &ln->on_links[c].items[i];
                if (e->packet >= net->pool_cap || net->pool[e->packet].place != PLACE_LINK ||
                    net->pool[e->packet].asleep != AWAKE ||
                    lane_index(net, &net->pool[e->packet]) != l)
                    BROKEN("net: the list of packets on links holds one that is not "
                           "(list %u, entry %zu)", c, i);
                if (e->heading != heading_of(net, &net->pool[e->packet]))
                    BROKEN("net: packet #%llu is listed heading for 0x%x, but heads for 0x%x",
                           (unsigned long long)net->info[e->packet].id, e->heading,
                           heading_of(net, &net->pool[e->packet]));
                if (arrival_class(e->heading) != c)
                    BROKEN("net: packet #%llu is listed arriving in class %u, not %u",
                           (unsigned long long)net->info[e->packet].id, c,
                           arrival_class(e->heading));
            }
        }
    }
    if (claimers != heads)
        BROKEN("net: %zu packets will claim a link, %llu should", claimers,
               (unsigned long long)heads);
    if (listed_links != links)
        BROKEN("net: %zu packets listed on links, %llu are", listed_links,
               (unsigned long long)links);
    free(seen);
    return 0;
}
