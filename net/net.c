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

/* The same, starting on a cache line, so that no Sender straddles two
 * lines. The block
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

/* A network's counters, for k layers: 0, or -1 if memory cannot be had
 * (counters_free frees what was had). */
static int counters_init(Counters *c, unsigned k)
{
    for (int d = 0; d < 2; d++) {
        c->stats.link_collisions[d] = zalloc(k + 1, sizeof(uint64_t));
        c->stats.buffer_collisions[d] = zalloc(k + 1, sizeof(uint64_t));
        c->asleep_link[d] = zalloc(k + 1, sizeof(uint64_t));
        c->asleep_buffer[d] = zalloc(k + 1, sizeof(uint64_t));
        if (!c->stats.link_collisions[d] || !c->stats.buffer_collisions[d] ||
            !c->asleep_link[d] || !c->asleep_buffer[d])
            return -1;
    }
    return 0;
}

static void counters_free(Counters *c)
{
    for (int d = 0; d < 2; d++) {
        free(c->stats.link_collisions[d]);
        free(c->stats.buffer_collisions[d]);
        free(c->asleep_link[d]);
        free(c->asleep_buffer[d]);
    }
    free(c->stats.latency_hist);
}

Net *net_new(const NetConfig *cfg)
{
    keep_large_blocks_mapped();
    Net *net = calloc(1, sizeof *net);
    if (!net)
        return NULL;
    net->lay.cfg = *cfg;
    net->lay.nprocs = 1u << cfg->k;
    net->lay.half = net->lay.nprocs / 2;
    net->lay.nswitches = cfg->planes * cfg->k * net->lay.half;
    net->lay.nbuffers = 4 * net->lay.nswitches;
    for (unsigned row = 0; row < cfg->planes * cfg->k && row < 64; row++)
        net->lay.row_layer[row] = (uint8_t)(row % cfg->k + 1);
    net->lay.compact = cfg->k <= 16;
    size_t links = 2 * (size_t)net->lay.nswitches;
    size_t senders = net->lay.nbuffers + (size_t)cfg->planes * net->lay.nprocs;
    if (!cfg->full_duplex)
        net->lay.channels = line_zalloc(links, sizeof *net->lay.channels);
    net->lay.senders = line_zalloc(senders, sizeof *net->lay.senders);
    if (cfg->buffer > INLINE_PLACES)
        net->lay.rings = zalloc(net->lay.nbuffers, sizeof *net->lay.rings);
    net->entered = zalloc(net->lay.nbuffers, sizeof *net->entered);
    net->lay.ports = zalloc((size_t)net->lay.nprocs * cfg->ports, sizeof *net->lay.ports);
    net->lay.out_slot = zalloc(net->lay.nprocs, sizeof *net->lay.out_slot);
    net->arrivals_down = zalloc(net->lay.nprocs, 1);
    net->arriving = zalloc(2 * (size_t)net->lay.nprocs, sizeof *net->arriving);
    net->requests_made = zalloc(net->lay.nprocs, sizeof *net->requests_made);
    net->lane = zalloc(2, sizeof *net->lane);
    if (cfg->k >= LIST_LAYERS || (!cfg->full_duplex && !net->lay.channels) || !net->lay.senders ||
        (cfg->buffer > INLINE_PLACES && !net->lay.rings) || !net->entered || !net->lay.ports || !net->lay.out_slot ||
        !net->arrivals_down || !net->arriving || !net->lane || !net->requests_made ||
        counters_init(&net->counts, cfg->k) != 0) {
        net_free(net);
        errno = ENOMEM;
        return NULL;
    }
    /* Zeroed memory is an empty network (NET_NIL is 0): nothing is filled,
     * so the pages of unused links, buffers and ports are never touched. */
    net->nlanes = 1;
    net->lane[0].counts = &net->counts;
    return net;
}

void net_free(Net *net)
{
    if (!net)
        return;
    free(net->lay.pool);
    free(net->lay.info);
    free(net->lay.routes);
    free(net->free_stack);
    line_free(net->lay.channels);
    line_free(net->lay.senders);
    if (net->lay.rings)
        for (uint32_t b = 0; b < net->lay.nbuffers; b++)
            free(net->lay.rings[b]);
    free(net->lay.rings);
    free(net->entered);
    free(net->lay.ports);
    free(net->lay.out_slot);
    free(net->arrivals_down);
    free(net->arriving);
    free(net->requests_made);
    counters_free(&net->counts);
    free(net->woken.items);
    for (unsigned i = 0; i < 2 && net->lane; i++) {
        NetLane *ln = &net->lane[i];
        free(ln->touched.items);
        free(ln->woken.items);
        for (unsigned l = 0; l < LIST_LAYERS; l++) {
            free(ln->claimants[l].items);
            free(ln->next_claimants[l].items);
            for (unsigned c = 0; c < ARRIVAL_CLASSES; c++) {
                free(ln->on_links[c][l].items);
                free(ln->next_on_links[c][l].items);
            }
        }
        free(ln->behind.items);
        counters_free(&ln->delta);
    }
    free(net->lane);
    reference_free(net->reference);
    free(net->reference_error);
    free(net);
}

int net_use_lanes(Net *net, Runner *runner, void *ctx, size_t parallel_min)
{
    if (net->lay.cfg.planes != 2 || net->outstanding != 0 || net->event)
        return -1;
    for (unsigned i = 0; i < 2; i++)
        if (counters_init(&net->lane[i].delta, net->lay.cfg.k) != 0)
            return -1;              /* freed with the network */
    for (unsigned i = 0; i < 2; i++) {
        net->lane[i].counts = &net->lane[i].delta;
        net->lane[i].roomy = false;             /* (room by the lane's planes) */
    }
    net->nlanes = 2;
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

void net_step_reference(Net *net, uint64_t t)
{
    char err[400];
    reference_step(net->reference, t);
    if (reference_compare(net->reference, net, err, sizeof err) != 0)
        reference_failed(net, err);
}

/* ---- the packet pool ------------------------------------------------------ */

/* Packets are made in batches (injection), each writing its records: the
 * lines of the packet made POOL_PREFETCH_DISTANCE after this one are asked for now,
 * which a free list linked through the records could not say (it would
 * wait on each record for the next one's index). */
enum { POOL_PREFETCH_DISTANCE = 8 };

static uint32_t packet_alloc(Net *net)
{
    if (net->nfree == 0) {
        /* Grow the pool; index 0 stays unused (it is NET_NIL). */
        uint32_t old = net->pool_cap ? net->pool_cap : 1;
        uint32_t cap = net->pool_cap ? 2 * net->pool_cap : 1024;
        /* Packets are half a cache line, aligned: two a line. */
        Packet *pool = NULL;
        /* (Place words keep an index in 30 bits: net_internal.h. A pool that
         * large would take 64 GB.) */
        if (cap > 1u << 30 || posix_memalign((void **)&pool, 64, (size_t)cap * sizeof *pool))
            abort();            /* more packets than slots, links and buffers: cannot happen */
        PacketInfo *info = realloc(net->lay.info, (size_t)cap * sizeof *info);
        if (!info)
            abort();
        net->lay.info = info;
        uint32_t *routes = realloc(net->lay.routes, (size_t)cap * sizeof *routes);
        if (!routes)
            abort();
        net->lay.routes = routes;
        uint32_t *free_stack = realloc(net->free_stack, (size_t)cap * sizeof *free_stack);
        if (!free_stack)
            abort();
        net->free_stack = free_stack;
        routes[0] = 0;          /* (a route, for the zeroed padding of step.c's lists) */
        if (net->lay.pool)
            memcpy(pool, net->lay.pool, (size_t)net->pool_cap * sizeof *pool);
        free(net->lay.pool);
        pool[0].place = PLACE_FREE;
        pool[0].count = 1;      /* (a route, for the zeroed padding of step.c's lists) */
        for (uint32_t i = old; i < cap; i++)
            pool[i].place = PLACE_FREE;
        for (uint32_t i = cap; i-- > old;)      /* the lowest on top */
            free_stack[net->nfree++] = i;
        net->lay.pool = pool;
        net->pool_cap = cap;
    }
    uint32_t x = net->free_stack[--net->nfree];
    net->outstanding++;
    if (net->nfree >= POOL_PREFETCH_DISTANCE) {
        uint32_t later = net->free_stack[net->nfree - POOL_PREFETCH_DISTANCE];
        PREFETCH(&net->lay.pool[later]);
        PREFETCH(&net->lay.info[later]);
        PREFETCH(&net->lay.routes[later]);
    }
    return x;
}

static void packet_release(Net *net, uint32_t x)
{
    net->lay.pool[x].place = PLACE_FREE;
    net->free_stack[net->nfree++] = x;
    net->outstanding--;
}

/* ---- adapters -------------------------------------------------------------- */

uint32_t net_take(Net *net, uint32_t p, uint32_t port, uint32_t *word)
{
    InputPort *f = &net->lay.ports[(size_t)p * net->lay.cfg.ports + port];
    if (f->count == 0)
        return NET_NIL;
    uint32_t x = f->head;
    Packet *pk = &net->lay.pool[x];
    *word = pk->data;
    f->head = pk->next;
    if (--f->count == 0)
        f->tail = NET_NIL;
    return x;
}

void net_release_read(Net *net, uint32_t x)
{
    Packet *pk = &net->lay.pool[x];
    uint32_t port = pk->at;
    net->counts.stats.read++;
    if (net->reference) {
        char err[400];
        if (reference_read(net->reference, net->lay.info[x].dst, port % net->lay.cfg.ports,
                           net->lay.info[x].id, err, sizeof err) != 0)
            reference_failed(net, err);
    }
    if (net->event) {
        NetPacket read;
        net_describe(net, x, &read);
        NetEvent ev = { EV_READ, net->timestep, &read, net->lay.info[x].dst, PLACE_PORT, 0, 0 };
        net->event(net->event_ctx, &ev);
    }
    packet_release(net, x);
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

uint64_t net_count_request(Net *net, uint32_t p)
{
    return net->requests_made[p]++;
}

uint64_t net_inject(Net *net, const RouteRequest *req, const Route *route,
                    uint32_t data, uint64_t timestep)
{
    uint32_t x = packet_alloc(net);
    Packet *pk = &net->lay.pool[x];
    PacketInfo *info = &net->lay.info[x];
    *info = (PacketInfo){
        .id = net->next_id++, .created = timestep, .src = req->src, .dst = req->dst,
    };
    *pk = (Packet){
        .next = NET_NIL, .at = req->src, .routing = route->routing, .addressing = route->addressing,
        .data = data,
        .port = (uint8_t)req->port, .plane = route->plane, .count = route->count,
        .dir = DIR_UP, .place = PLACE_SLOT, .layer = 0,
    };
    net->lay.routes[x] = packet_route_word(&net->lay, pk);
    net->lay.out_slot[req->src] = x;
    net->in_flight++;
    net->counts.stats.sent++;
    if (net->reference)
        reference_inject(net->reference, info->id, req, route, timestep);
    net->settled = false;
    uint32_t h = adapter_sender(&net->lay, route->plane, req->src);
    IndexList *claimants = &net->lane[lane_index(net, h)].claimants[1];   /* (adapters: layer 1) */
    net_list_reserve(claimants, claimants->n + 1);
    claimants->items[claimants->n++] = h;
    if (net->event) {
        NetPacket made;
        net_describe(net, x, &made);
        NetEvent ev = { EV_CREATED, timestep, &made, req->src, PLACE_SLOT, 0, 0 };
        net->event(net->event_ctx, &ev);
    }
    return info->id;
}

/* ---- names ----------------------------------------------------------------- */

/* "p0.l2.s5" for switch s. */
static void switch_name(const Net *net, uint32_t s, char *buf, size_t size)
{
    uint32_t row = s >> (net->lay.cfg.k - 1);
    snprintf(buf, size, "p%u.l%u.s%u", row / net->lay.cfg.k, row % net->lay.cfg.k + 1, sw_j(&net->lay, s));
}

static const char *const port_names[4] = { "d0", "d1", "u0", "u1" };

/* A link is named by its lower end: "p0.cpu3" (processor 3's plane-0 link)
 * or "p0.l1.s1.u0" (the link above up port u0 of switch p0.l1.s1). */
void net_link_name(const Net *net, uint32_t link, char *buf, size_t size)
{
    uint32_t s = link >> 1, row = s >> (net->lay.cfg.k - 1);
    unsigned layer = row % net->lay.cfg.k + 1, plane = row / net->lay.cfg.k;
    if (layer == 1) {
        snprintf(buf, size, "p%u.cpu%u", plane, topo_down_proc(sw_j(&net->lay, s), link & 1));
    } else {
        unsigned q;
        char sw[48];
        uint32_t lower = down_target(&net->lay, link, layer, &q);
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

void net_place_name(const Net *net, const NetPacket *pk, char *buf, size_t size)
{
    char name[64];
    switch (pk->place) {
    case PLACE_SLOT:
        snprintf(buf, size, "output slot of p%u", pk->src);
        return;
    case PLACE_LINK:
        net_link_name(net, channel_link(&net->lay, pk->at), name, sizeof name);
        snprintf(buf, size, "link %s %s", name, pk->dir == DIR_UP ? "up" : "down");
        return;
    case PLACE_BUFFER:
        net_buffer_name(net, pk->at, name, sizeof name);
        snprintf(buf, size, "buffer %s place %u of %u", name, pk->position, pk->queued);
        return;
    case PLACE_PORT:
        snprintf(buf, size, "input port %u of p%u", pk->port, pk->dst);
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
        net_link_name(net, channel_link(&net->lay, ev->place), name, sizeof name);
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

/* ---- where packets are ---------------------------------------------------------- */

/* The place word of the i-th packet of buffer b (i < its count). */
static uint32_t buffer_place_word(const Layout *lay, uint32_t b, uint32_t i)
{
    Sender *buf = &lay->senders[b];
    unsigned cap = ring_capacity(lay, buf), at = (lay->rings ? buf->ring.head : 0) + i;
    return places_of(lay, buf, b)[at >= cap ? at - cap : at];
}

uint32_t buffer_packet_at(const Layout *lay, uint32_t b, uint32_t i)
{
    if (i >= lay->senders[b].count)
        return NET_NIL;
    return place_packet(buffer_place_word(lay, b, i));
}

/* Whether sender h's claim (it has a packet to send) sleeps. */
static bool claim_sleeps(const Net *net, uint32_t h)
{
    unsigned layer, dir;
    uint32_t heading = claim_heading(&net->lay, h, &layer, &dir);
    uint32_t sh = slot_keeper(&net->lay, h, heading, dir);
    return net->lay.senders[sh].slot & (sh == h ? CLAIM_ASLEEP : CLAIM_UP_ASLEEP);
}

/* The keeper of channel c's slot. */
static uint32_t channel_keeper(const Layout *lay, uint32_t c)
{
    uint32_t link = channel_link(lay, c), s = link >> 1;
    if (!lay->cfg.full_duplex || (c & 1) == DIR_DOWN)
        return 4 * s + (link & 1);
    return up_sender(lay, s, sw_layer(lay, s), link & 1);
}

static size_t sender_count(const Net *net)
{
    return net->lay.nbuffers + (size_t)net->lay.cfg.planes * net->lay.nprocs;
}

void net_settle(Net *net)
{
    if (net->settled)
        return;
    net->settled = true;
    if (net->in_flight == 0)
        return;
    /* Slots: those of refused packets are kept; the rest are written from
     * the lists of packets on links, below. */
    size_t senders = sender_count(net);
    for (size_t h = 0; h < senders; h++) {
        Sender *hb = &net->lay.senders[h];
        if (!(hb->slot & SLOT_BLOCKED)) {
            hb->slot_packet = NET_NIL;
        } else if (hb->slot & SLOT_ASLEEP) {
            unsigned dir = hb->slot & SLOT_UP ? DIR_UP : DIR_DOWN;
            uint32_t link = slot_link(&net->lay, (uint32_t)h, dir);
            bool last = dir == DIR_DOWN && sw_layer(&net->lay, link >> 1) == 1;
            settle_on_link(net, hb->slot_packet, link, dir, last ? ASLEEP_PORT : ASLEEP_BUFFER);
        }
    }
    for (unsigned i = 0; i < net->nlanes; i++)
        for (unsigned c = 0; c < ARRIVAL_CLASSES; c++)
            for (unsigned layer = 1; layer <= net->lay.cfg.k; layer++) {
                const OnLinkList *l = &net->lane[i].on_links[c][layer];
                for (size_t j = 0; j < l->n; j++) {
                    const OnLink *e = &l->items[j];
                    unsigned dir;
                    uint32_t link = listed_link(&net->lay, c, e->target, e->keeper, &dir);
                    settle_on_link(net, e->packet, link, dir, AWAKE);
                    net->lay.senders[keeper_of(e->keeper)].slot_packet = e->packet;
                }
            }
    for (uint32_t b = 0; b < net->lay.nbuffers; b++) {
        uint32_t count = net->lay.senders[b].count;
        for (uint32_t i = 0; i < count; i++)
            settle_in_buffer(net, buffer_packet_at(&net->lay, b, i), b, buffer_packet_at(&net->lay, b, i + 1),
                             i == 0 && claim_sleeps(net, b) ? ASLEEP_CLAIM : AWAKE);
    }
    for (uint32_t p = 0; p < net->lay.nprocs; p++) {
        uint32_t x = net->lay.out_slot[p];
        if (x == NET_NIL || x == NET_RESERVED)
            continue;
        Packet *pk = &net->lay.pool[x];
        pk->place = PLACE_SLOT;
        pk->at = p;
        pk->asleep = claim_sleeps(net, adapter_sender(&net->lay, pk->plane, p)) ? ASLEEP_CLAIM : AWAKE;
    }
}

/* Where packet x is in a FIFO of `count` places whose i-th packet is
 * at(i): 1 at the head, `count` if it is not found. */
static unsigned position_in(const Net *net, uint32_t x, uint32_t where, uint32_t count,
                            bool buffer)
{
    unsigned place = 1;
    if (buffer) {
        while (place < count && buffer_packet_at(&net->lay, where, place - 1) != x)
            place++;
    } else {
        for (uint32_t y = net->lay.ports[where].head; place < count && y != x; y = net->lay.pool[y].next)
            place++;
    }
    return place;
}

/* What packet x is and where, but for its position in a FIFO. */
static void describe_fields(const Net *net, uint32_t x, NetPacket *pk)
{
    const Packet *p = &net->lay.pool[x];
    const PacketInfo *in = &net->lay.info[x];
    *pk = (NetPacket){
        .id = in->id, .created = in->created, .src = in->src, .dst = in->dst,
        .data = p->data, .port = p->port,
        .route = { p->plane, p->count, p->routing, p->addressing },
        .place = (PacketPlace)p->place, .at = p->at, .dir = p->dir, .layer = p->layer,
        .links = p->links,
    };
}

void net_describe(const Net *net, uint32_t x, NetPacket *pk)
{
    const Packet *p = &net->lay.pool[x];
    describe_fields(net, x, pk);
    if (p->place == PLACE_BUFFER) {
        pk->queued = net->lay.senders[p->at].count;
        pk->position = position_in(net, x, p->at, pk->queued, true);
    } else if (p->place == PLACE_PORT) {
        pk->queued = net->lay.ports[p->at].count;
        pk->position = position_in(net, x, p->at, pk->queued, false);
    }
}

void net_for_each_in_flight(Net *net, void (*fn)(void *ctx, const NetPacket *pk), void *ctx)
{
    NetPacket pk;
    if (net->in_flight == 0)
        return;
    for (uint32_t p = 0; p < net->lay.nprocs; p++)
        if (net_slot_packet(net, p, &pk))
            fn(ctx, &pk);
    size_t channels = 2 * (size_t)net->lay.nswitches * (net->lay.cfg.full_duplex ? 2 : 1);
    for (size_t c = 0; c < channels; c++)
        if (net_link_packet(net, (uint32_t)c, &pk))
            fn(ctx, &pk);
    for (uint32_t b = 0; b < net->lay.nbuffers; b++)
        for (uint32_t i = 0; net_buffer_packet(net, b, i, &pk); i++)
            fn(ctx, &pk);
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

void net_for_each_unread(Net *net, void (*fn)(void *ctx, const NetPacket *pk), void *ctx)
{
    uint32_t *heads = malloc(((size_t)net->outstanding + 1) * sizeof *heads);
    size_t n = 0;
    if (!heads)
        return;
    for (uint32_t x = 0; x < net->pool_cap; x++)
        if (net->lay.pool[x].place == PLACE_PORT && net->lay.ports[net->lay.pool[x].at].head == x)
            heads[n++] = net->lay.pool[x].at;
    qsort(heads, n, sizeof *heads, compare_u32);
    for (size_t i = 0; i < n; i++)
        for (uint32_t y = net->lay.ports[heads[i]].head; y != NET_NIL; y = net->lay.pool[y].next) {
            NetPacket pk;
            net_describe(net, y, &pk);
            fn(ctx, &pk);
        }
    free(heads);
}

uint32_t link_packet_at(Net *net, uint32_t c)
{
    net_settle(net);
    uint32_t x = net->lay.senders[channel_keeper(&net->lay, c)].slot_packet;
    if (x != NET_NIL && net->lay.pool[x].place == PLACE_LINK && net->lay.pool[x].at == c)
        return x;
    return NET_NIL;
}

/* ---- what the rest of the emulator may ask ---------------------------------- */

void net_observe(Net *net, NetEventFn *fn, void *ctx)
{
    net->event = fn;
    net->event_ctx = ctx;
}

void net_begin_timestep(Net *net, uint64_t t)
{
    net->timestep = t;
}

bool net_out_free(const Net *net, uint32_t p)
{
    return net->lay.out_slot[p] == NET_NIL;
}

void net_reserve_out(Net *net, uint32_t p)
{
    net->lay.out_slot[p] = NET_RESERVED;
}

void net_prefetch_port(const Net *net, uint32_t p, uint32_t port)
{
    if (port < net->lay.cfg.ports)
        PREFETCH(&net->lay.ports[(size_t)p * net->lay.cfg.ports + port]);
}

void net_taken_packet(const Net *net, uint32_t taken, NetPacket *pk)
{
    net_describe(net, taken, pk);
}

const NetStats *net_stats(const Net *net) { return &net->counts.stats; }
bool net_moved(const Net *net) { return net->moved; }
uint64_t net_in_flight(const Net *net) { return net->in_flight; }
bool net_busy(const Net *net) { return net->in_flight != 0; }
uint64_t net_next_id(const Net *net) { return net->next_id; }

const uint32_t *net_woken(const Net *net, size_t *n)
{
    *n = net->woken.n;
    return net->woken.items;
}

uint32_t net_port_count(const Net *net, uint32_t p, uint32_t port)
{
    return net->lay.ports[(size_t)p * net->lay.cfg.ports + port].count;
}

uint32_t net_buffer_count(const Net *net, uint32_t b)
{
    return net->lay.senders[b].count;
}

bool net_slot_packet(Net *net, uint32_t p, NetPacket *pk)
{
    uint32_t x = net->lay.out_slot[p];
    if (x == NET_NIL || x == NET_RESERVED)
        return false;
    net_settle(net);
    net_describe(net, x, pk);
    return true;
}

bool net_link_packet(Net *net, uint32_t c, NetPacket *pk)
{
    uint32_t x = link_packet_at(net, c);
    if (x == NET_NIL)
        return false;
    net_describe(net, x, pk);
    return true;
}

bool net_buffer_packet(Net *net, uint32_t b, uint32_t i, NetPacket *pk)
{
    if (i >= net->lay.senders[b].count)
        return false;
    net_settle(net);
    describe_fields(net, buffer_packet_at(&net->lay, b, i), pk);
    pk->position = i + 1;
    pk->queued = net->lay.senders[b].count;
    return true;
}

bool net_port_packet(Net *net, uint32_t p, uint32_t port, uint32_t i, NetPacket *pk)
{
    const InputPort *f = &net->lay.ports[(size_t)p * net->lay.cfg.ports + port];
    if (i >= f->count)
        return false;
    uint32_t x = f->head;
    for (uint32_t n = 0; n < i; n++)
        x = net->lay.pool[x].next;
    describe_fields(net, x, pk);
    pk->position = i + 1;
    pk->queued = f->count;
    return true;
}

bool net_find_packet(Net *net, uint64_t id, NetPacket *pk)
{
    net_settle(net);
    for (uint32_t x = 1; x < net->pool_cap; x++)
        if (net->lay.pool[x].place != PLACE_FREE && net->lay.info[x].id == id) {
            net_describe(net, x, pk);
            return true;
        }
    return false;
}

/* ---- deadlock analysis -------------------------------------------------------- */

/* The packets that packet x waits for, if it cannot move now: at most two
 * (an adaptive packet may climb through either up buffer). Returns how many
 * are written to deps; -1 if x could move as soon as input ports were read
 * (or at once). The network is settled. */
static int blockers(Net *net, uint32_t x, uint32_t deps[2])
{
    Packet *pk = &net->lay.pool[x];
    if (pk->place == PLACE_SLOT ||
        (pk->place == PLACE_BUFFER && buffer_packet_at(&net->lay, pk->at, 0) == x)) {
        uint32_t h = pk->place == PLACE_SLOT ? adapter_sender(&net->lay, pk->plane, pk->at) : pk->at;
        unsigned layer, dir;
        uint32_t heading = claim_heading(&net->lay, h, &layer, &dir);
        uint32_t y = link_packet_at(net, link_channel(&net->lay, claim_link(&net->lay, h, heading, dir), dir));
        if (y == NET_NIL && !net->lay.cfg.full_duplex)   /* the link's packet the other way */
            y = link_packet_at(net, claim_link(&net->lay, h, heading, dir));
        if (y == NET_NIL)
            return -1;
        deps[0] = y;
        return 1;
    }
    if (pk->place == PLACE_BUFFER) {
        deps[0] = buffer_packet_at(&net->lay, pk->at, 0);
        return 1;
    }
    /* On a link: heading for an input port, or for a buffer. */
    uint32_t link = channel_link(&net->lay, pk->at), s;
    unsigned l;
    if (pk->dir == DIR_UP) {
        s = link >> 1;
        l = pk->layer;
    } else if (pk->layer == 1) {
        return -1;                       /* only an input port can hold it */
    } else {
        unsigned q;
        s = down_target(&net->lay, link, pk->layer, &q);
        l = pk->layer - 1u;
    }
    int n = 0;
    unsigned first, last;
    if (pk->dir == DIR_UP && l < pk->count) {
        unsigned b = (pk->routing >> (l - 1)) & 1;
        first = last = 2 + b;
        if (net->lay.cfg.adaptive) {
            first = 2;
            last = 3;
        }
    } else {
        first = last = (pk->addressing >> (l - 1)) & 1;
    }
    for (unsigned out = first; out <= last; out++) {
        const Sender *f = &net->lay.senders[4 * s + out];
        if (f->count < net->lay.cfg.buffer)
            return -1;
        deps[n++] = buffer_packet_at(&net->lay, 4 * s + out, 0);
    }
    return n;
}

bool net_is_stuck(Net *net)
{
    /* A packet can eventually move if it is free to move, or if one of the
     * packets it waits for can. Iterate to the fixpoint; what is left
     * waits in a cycle, which no reading of input ports can break. */
    net_settle(net);
    uint8_t *can = calloc(net->pool_cap ? net->pool_cap : 1, 1);
    if (!can)
        return false;
    bool changed = true, stuck = false;
    while (changed) {
        changed = false;
        for (uint32_t x = 0; x < net->pool_cap; x++) {
            uint8_t place = net->lay.pool[x].place;
            if (can[x] || place == PLACE_FREE || place == PLACE_PORT)
                continue;
            uint32_t deps[2];
            int n = blockers(net, x, deps);
            bool ok = n < 0;
            for (int i = 0; i < n && !ok; i++)
                ok = can[deps[i]] || net->lay.pool[deps[i]].place == PLACE_PORT;
            if (ok) {
                can[x] = 1;
                changed = true;
            }
        }
    }
    for (uint32_t x = 0; x < net->pool_cap; x++) {
        uint8_t place = net->lay.pool[x].place;
        if (!can[x] && place != PLACE_FREE && place != PLACE_PORT)
            stuck = true;
    }
    free(can);
    return stuck;
}

/* ---- invariants ------------------------------------------------------------ */

#define BROKEN(...) do { snprintf(err, size, __VA_ARGS__); free(seen); free(marks); return -1; } while (0)

/* Walks one FIFO, checking its links, count and bound; marks its packets. */
static int check_fifo(const Net *net, uint32_t head, uint32_t tail, uint32_t count,
                      uint32_t index, PacketPlace place, uint32_t bound, uint8_t *seen,
                      const char *what, char *err, size_t size)
{
    uint32_t n = 0, last = NET_NIL;
    for (uint32_t y = count ? head : NET_NIL; y != NET_NIL; y = net->lay.pool[y].next) {
        if (y >= net->pool_cap || seen[y] || ++n > count) {
            snprintf(err, size, "%s: broken list (packet %u)", what, y);
            return -1;
        }
        seen[y] = 1;
        if (net->lay.pool[y].place != place || net->lay.pool[y].at != index) {
            snprintf(err, size, "%s: holds packet #%llu that places itself elsewhere",
                     what, (unsigned long long)net->lay.info[y].id);
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

/* Whether packet x's travelling route is its route. */
static bool route_matches(const Net *net, uint32_t x)
{
    return !net->lay.compact || net->lay.routes[x] == packet_route_word(&net->lay, &net->lay.pool[x]);
}

int net_check(Net *net, char *err, size_t size)
{
    size_t senders = sender_count(net);
    uint8_t *seen = calloc(net->pool_cap ? net->pool_cap : 1, 1);
    uint8_t *marks = calloc(senders, 1);    /* per sender: 1 listed as a claimant */
    char name[64];
    uint64_t in_flight = 0, in_ports = 0, asleep = 0, refused_awake = 0;
    if (!seen || !marks) {
        free(seen);
        free(marks);
        snprintf(err, size, "out of memory");
        return -1;
    }
    net_settle(net);
#define PACKET_OK(x) ((x) != NET_NIL && (x) < net->pool_cap && !seen[x] && \
                      net->lay.pool[x].place != PLACE_FREE)
    for (uint32_t p = 0; p < net->lay.nprocs; p++) {
        uint32_t x = net->lay.out_slot[p];
        if (x == NET_RESERVED)
            BROKEN("net/p%u: output slot reserved between timesteps", p);
        if (x == NET_NIL)
            continue;
        if (!PACKET_OK(x) || net->lay.pool[x].place != PLACE_SLOT || net->lay.pool[x].at != p ||
            net->lay.info[x].src != p)
            BROKEN("net/p%u: output slot holds a packet that is not there", p);
        seen[x] = 1;
        in_flight++;
    }
    for (uint32_t b = 0; b < net->lay.nbuffers; b++) {
        const Sender *f = &net->lay.senders[b];
        if (f->hop != 0 && (!net->lay.compact || f->hop != hop_word(&net->lay, b))) {
            net_buffer_name(net, b, name, sizeof name);
            BROKEN("net/%s: hop word 0x%x, not that of its link", name, f->hop);
        }
        if (f->count == 0 && f->waiting == 0 && net->entered[b] == 0)
            continue;
        net_buffer_name(net, b, name, sizeof name);
        if (f->count > net->lay.cfg.buffer)
            BROKEN("net/%s: overflow, %u packets in %u places", name, f->count, net->lay.cfg.buffer);
        if (net->lay.rings != NULL && f->ring.head >= ring_capacity(&net->lay, f) && f->count)
            BROKEN("net/%s: head at place %u of a ring of %u", name, f->ring.head,
                   ring_capacity(&net->lay, f));
        if (net->entered[b])
            BROKEN("net/%s: entry count not reset", name);
        if (f->waiting && f->count < net->lay.cfg.buffer)
            BROKEN("net/%s: packets sleep on it, but it has room", name);
        for (uint32_t i = 0; i < f->count; i++) {
            uint32_t x = buffer_packet_at(&net->lay, b, i);
            if (!PACKET_OK(x) || net->lay.pool[x].place != PLACE_BUFFER || net->lay.pool[x].at != b)
                BROKEN("net/%s: place %u holds a packet that is not there (lost or duplicated)",
                       name, i + 1);
            if (!route_matches(net, x))
                BROKEN("net/%s: place %u carries a route that is not its packet's", name, i + 1);
            unsigned port = place_port(buffer_place_word(&net->lay, b, i));
            if (port != next_port(&net->lay, b, x))
                BROKEN("net/%s: place %u says its packet takes port %u next, but its route "
                       "says %u", name, i + 1, port, next_port(&net->lay, b, x));
            seen[x] = 1;
            in_flight++;
        }
        for (unsigned a = 0; a < 4; a++) {
            if (!((f->waiting >> a) & 1))
                continue;
            uint32_t s = b >> 2, sh = arrival_keeper(&net->lay, s, sw_layer(&net->lay, s), a);
            const Sender *hb = &net->lay.senders[sh];
            if ((hb->slot & (SLOT_BLOCKED | SLOT_ASLEEP)) != (SLOT_BLOCKED | SLOT_ASLEEP))
                BROKEN("net/%s: the packet arriving on port %u sleeps on it, but is not asleep",
                       name, a);
            uint32_t up, down;
            packet_route(&net->lay, hb->slot_packet, &up, &down);
            if (4 * s + route_out(up, down, sw_layer(&net->lay, s), a < 2) != b)
                BROKEN("net/%s: a packet sleeps on it that is going elsewhere", name);
            asleep++;
        }
    }
    for (size_t h = 0; h < senders; h++) {
        const Sender *hb = &net->lay.senders[h];
        uint8_t fl = hb->slot;
        if (fl == 0)
            continue;
        if (h < net->lay.nbuffers)
            net_buffer_name(net, (uint32_t)h, name, sizeof name);
        else
            snprintf(name, sizeof name, "p%zu.adapter%zu", (h - net->lay.nbuffers) >> net->lay.cfg.k,
                     (h - net->lay.nbuffers) & (net->lay.nprocs - 1));
        if ((fl & (SLOT_ASLEEP | SLOT_UP | CLAIM_ASLEEP | CLAIM_UP_ASLEEP)) && !(fl & SLOT_BLOCKED))
            BROKEN("net/%s: slot flags 0x%x without a refused packet", name, fl);
        if ((fl & (CLAIM_ASLEEP | CLAIM_UP_ASLEEP)) && !(fl & SLOT_ASLEEP))
            BROKEN("net/%s: a claim sleeps on a slot whose packet is awake", name);
        if ((fl & CLAIM_UP_ASLEEP) && net->lay.cfg.full_duplex)
            BROKEN("net/%s: an upward claim sleeps on it with --duplex full", name);
        uint32_t x = hb->slot_packet;
        if (!(fl & SLOT_ASLEEP)) {
            refused_awake += (fl & SLOT_BLOCKED) != 0;
            continue;
        }
        if (!PACKET_OK(x) || net->lay.pool[x].place != PLACE_LINK)
            BROKEN("net/%s: its slot holds a sleeping packet that is not there", name);
        if (!route_matches(net, x))
            BROKEN("net/%s: its slot carries a route that is not its packet's", name);
        if (net->lay.pool[x].asleep == ASLEEP_PORT) {
            uint32_t port = net->lay.info[x].dst * net->lay.cfg.ports + net->lay.pool[x].port;
            bool listed = false;
            for (uint32_t y = net->lay.ports[port].waiting; y != NET_NIL; y = net->lay.info[y].next_waiting)
                listed |= y == x;
            if (!listed || net->lay.info[x].keeper != h)
                BROKEN("net/%s: its packet sleeps on an input port that does not know it", name);
            if (net->lay.ports[port].count < net->lay.cfg.port_depth)
                BROKEN("net/%s: its packet sleeps on an input port with room", name);
            asleep++;
        }
        seen[x] = 1;
        in_flight++;
        asleep += ((fl & CLAIM_ASLEEP) != 0) + ((fl & CLAIM_UP_ASLEEP) != 0);
    }
    for (unsigned l = 0; l < net->nlanes; l++) {
        const NetLane *ln = &net->lane[l];
        for (unsigned layer = 0; layer < LIST_LAYERS; layer++)
            for (size_t i = 0; i < ln->claimants[layer].n; i++) {
                uint32_t h = ln->claimants[layer].items[i];
                if (h >= senders || lane_index(net, h) != l)
                    BROKEN("net: lane %u lists a claimant that is not its own (entry %zu)", l, i);
                if (sender_list_layer(&net->lay, h) != layer)
                    BROKEN("net: a claimant is listed in layer %u, not its own", layer);
                if (marks[h]++)
                    BROKEN("net: a claimant is listed twice (entry %zu of lane %u)", i, l);
            }
        for (unsigned c = 0; c < ARRIVAL_CLASSES; c++)
            for (unsigned layer = 0; layer < LIST_LAYERS; layer++)
                for (size_t i = 0; i < ln->on_links[c][layer].n; i++) {
                    const OnLink *e = &ln->on_links[c][layer].items[i];
                    uint32_t x = e->packet, sh = keeper_of(e->keeper);
                    if (!PACKET_OK(x) || net->lay.pool[x].place != PLACE_LINK || sh >= senders ||
                        lane_index(net, sh) != l)
                        BROKEN("net: the list of packets on links holds one that is not "
                               "(list %u, entry %zu)", c, i);
                    if (link_list_layer(&net->lay, c, e->target) != layer)
                        BROKEN("net: packet #%llu is listed in layer %u, not the one it arrives at",
                               (unsigned long long)net->lay.info[x].id, layer);
                    if (!route_matches(net, x))
                        BROKEN("net: packet #%llu is listed with a route that is not its own",
                               (unsigned long long)net->lay.info[x].id);
                    /* It goes where its slot's keeper sends it (with --duplex
                     * half, an upward packet's slot is held by the port it
                     * enters, and its sender is the sender below). */
                    uint32_t sender = sh, sw = e->target >> 2;
                    if (c < 2 && !net->lay.cfg.full_duplex) {
                        if (sh != 4 * sw + c)
                            BROKEN("net: packet #%llu is listed going to 0x%x from sender %u",
                                   (unsigned long long)net->lay.info[x].id, e->target, sh);
                        sender = up_sender(&net->lay, sw, sw_layer(&net->lay, sw), c);
                    }
                    unsigned cl;
                    uint32_t want = hop_target(&net->lay, sender, x, &cl);
                    if (cl != c)
                        BROKEN("net: packet #%llu is listed arriving in class %u, not %u",
                               (unsigned long long)net->lay.info[x].id, c, cl);
                    if (want != e->target)
                        BROKEN("net: packet #%llu is listed going to 0x%x, not 0x%x",
                               (unsigned long long)net->lay.info[x].id, e->target, want);
                    const Sender *hb = &net->lay.senders[sh];
                    if (keeper_refused(e->keeper)) {
                        if ((hb->slot & (SLOT_BLOCKED | SLOT_ASLEEP)) != SLOT_BLOCKED ||
                            hb->slot_packet != x)
                            BROKEN("net: packet #%llu was refused, but its slot does not hold it",
                                   (unsigned long long)net->lay.info[x].id);
                        refused_awake--;
                    } else if (hb->slot & SLOT_BLOCKED) {
                        BROKEN("net: packet #%llu is on a link whose slot another packet blocks",
                               (unsigned long long)net->lay.info[x].id);
                    }
                    seen[x] = 1;
                    in_flight++;
                }
    }
    if (refused_awake != 0)
        BROKEN("net: %lld refused packets are in slots but not listed", (long long)refused_awake);
    /* Every sender with a packet to send claims: listed once, or asleep. */
    for (size_t h = 0; h < senders; h++) {
        bool has;
        if (h < net->lay.nbuffers) {
            has = net->lay.senders[h].count != 0;
        } else {
            uint32_t x = net->lay.out_slot[adapter_proc(&net->lay, (uint32_t)h)];
            has = x != NET_NIL && net->lay.pool[x].plane == sender_plane(&net->lay, (uint32_t)h);
        }
        bool sleeps = has && claim_sleeps(net, (uint32_t)h);
        if (has != (marks[h] || sleeps) || (marks[h] && sleeps)) {
            if (h < net->lay.nbuffers)
                net_buffer_name(net, (uint32_t)h, name, sizeof name);
            else
                snprintf(name, sizeof name, "adapter of p%u", adapter_proc(&net->lay, (uint32_t)h));
            BROKEN("net/%s: %s, but %s", name, has ? "has a packet to send" : "has nothing to send",
                   marks[h] ? "is listed as a claimant" : sleeps ? "its claim sleeps" : "is not listed");
        }
    }
    for (uint32_t p = 0; p < net->lay.nprocs; p++)
        if (net->arrivals_down[p])
            BROKEN("net/p%u: arrival bits 0x%x left set after stage c", p, net->arrivals_down[p]);
    if (!net->lay.cfg.full_duplex)
        for (size_t c = 0; c < 2 * (size_t)net->lay.nswitches; c++)
            if (net->lay.channels[c].temp != TEMP_FREE) {
                net_link_name(net, (uint32_t)c, name, sizeof name);
                BROKEN("net/%s: temp slot still claimed after the timestep", name);
            }
    for (size_t i = 0; i < (size_t)net->lay.nprocs * net->lay.cfg.ports; i++) {
        const InputPort *f = &net->lay.ports[i];
        if (f->count == 0)
            continue;
        char what[80];
        snprintf(what, sizeof what, "net/p%zu.port%zu", i / net->lay.cfg.ports, i % net->lay.cfg.ports);
        if (check_fifo(net, f->head, f->tail, f->count, (uint32_t)i, PLACE_PORT, net->lay.cfg.port_depth,
                       seen, what, err, size) != 0) {
            free(seen);
            free(marks);
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
    if (net->counts.stats.sent != net->counts.stats.read + in_flight + in_ports)
        BROKEN("net: %llu packets sent, but %llu read + %llu in flight + %llu in ports",
               (unsigned long long)net->counts.stats.sent, (unsigned long long)net->counts.stats.read,
               (unsigned long long)in_flight, (unsigned long long)in_ports);
    if (asleep != net->counts.asleep)
        BROKEN("net: %llu packets asleep, %llu counted", (unsigned long long)asleep,
               (unsigned long long)net->counts.asleep);
#undef PACKET_OK
    free(seen);
    free(marks);
    return 0;
}
