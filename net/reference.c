/* Stage 4 of the timestep exactly as spec/machine.md writes it: the
 * executable spec of the network, to read beside machine.md and to check
 * the fast stage (step.c) against. `--check` runs both, every timestep,
 * and compares the whole state and the statistics after it.
 *
 * Nothing here is fast. Each sub-stage a-e is a plain loop over every
 * processor, switch or link in the spec's loop order; a packet is a record
 * kept where it is (an output slot, a link's main slot, a buffer, an input
 * port); nothing sleeps, nothing is listed ahead, nothing is prefetched.
 * Components are numbered as in net.h: switch S = (plane * k + layer - 1)
 * * H + j, buffer 4S + q, link 2S + x (x the down port it is attached to),
 * channel = link (half duplex) or 2 * link + dir (full duplex). A
 * "sender" is what claims a link: buffer b, or (from 4 * switches on)
 * processor p's adapter. */
#include "net/reference.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/topology.h"

enum { NONE = UINT32_MAX };

typedef struct RefPacket {
    uint64_t id, created;
    uint32_t src, dst, port;
    Route route;
    unsigned dir;              /* DIR_UP or DIR_DOWN */
} RefPacket;

/* A cyclic FIFO of packet numbers: a switch output buffer, an input port. */
typedef struct Queue {
    uint32_t *item;
    unsigned head, count;
} Queue;

struct Reference {
    NetConfig cfg;
    unsigned k;
    uint32_t n, half, switches, buffers, channels;
    RefPacket *packet;         /* by packet number; a free number is reused */
    uint32_t npackets, cap, *free, nfree;
    uint32_t *slot;            /* per processor: its output slot's packet, or NONE */
    uint32_t *main, *temp;     /* per channel: its packet; the sender that claims it */
    Queue *buffer;             /* per buffer, B places */
    Queue *port;               /* per input port p * P + n, D places */
    uint32_t *entered;         /* stage d's entries: buffer, packet, buffer, ... */
    size_t nentered;
    uint64_t in_flight;        /* packets in output slots, on links, in buffers */
    bool moved;
    NetStats stats;
};

/* ---- the machine's shape (machine.md, "Topology of one plane") ---------- */

static uint32_t switch_at(const Reference *r, unsigned plane, unsigned layer, uint32_t j)
{
    return (plane * r->k + layer - 1) * r->half + j;
}

static unsigned layer_of(const Reference *r, uint32_t s) { return s / r->half % r->k + 1; }
static unsigned plane_of(const Reference *r, uint32_t s) { return s / r->half / r->k; }
static uint32_t index_of(const Reference *r, uint32_t s) { return s % r->half; }

static uint32_t channel_of(const Reference *r, uint32_t link, unsigned dir)
{
    return r->cfg.full_duplex ? 2 * link + dir : link;
}

/* The link that sender `sender` sends into, and in which direction. */
static uint32_t sender_link(const Reference *r, uint32_t sender, unsigned *dir)
{
    if (sender >= r->buffers) {                       /* processor p's link */
        uint32_t p = sender - r->buffers;
        *dir = DIR_UP;
        return 2 * switch_at(r, r->packet[r->slot[p]].route.plane, 1, p >> 1) + (p & 1);
    }
    uint32_t s = sender / 4;
    unsigned q = sender % 4, l = layer_of(r, s);
    if (q < 2) {                                      /* down port q: the link below */
        *dir = DIR_DOWN;
        return 2 * s + q;
    }
    uint32_t j = index_of(r, s);                      /* up port q - 2: the link above */
    *dir = DIR_UP;
    return 2 * switch_at(r, plane_of(r, s), l + 1, topo_up_switch(l, j, q - 2)) +
           topo_up_arrival_port(l, j);
}

/* ---- queues -------------------------------------------------------------- */

static uint32_t queue_at(const Queue *q, unsigned i, unsigned size)
{
    return q->item[(q->head + i) % size];
}

static void queue_push(Queue *q, uint32_t x, unsigned size)
{
    q->item[(q->head + q->count++) % size] = x;
}

static uint32_t queue_pop(Queue *q, unsigned size)
{
    uint32_t x = q->item[q->head];
    q->head = (q->head + 1) % size;
    q->count--;
    return x;
}

/* ---- lifecycle, injection and reads ---------------------------------------- */

static Queue *queues_new(size_t n, unsigned size)
{
    Queue *q = calloc(n, sizeof *q);
    uint32_t *items = calloc(n * size, sizeof *items);
    if (!q || !items) {
        free(q);
        free(items);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        q[i].item = items + i * size;
    return q;
}

static void queues_free(Queue *q)
{
    if (q)
        free(q[0].item);
    free(q);
}

static uint32_t *nones(size_t n)
{
    uint32_t *a = malloc(n * sizeof *a);
    if (a)
        memset(a, 0xff, n * sizeof *a);          /* NONE */
    return a;
}

Reference *reference_new(const NetConfig *cfg)
{
    Reference *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->cfg = *cfg;
    r->k = cfg->k;
    r->n = 1u << cfg->k;
    r->half = r->n / 2;
    r->switches = cfg->planes * cfg->k * r->half;
    r->buffers = 4 * r->switches;
    r->channels = 2 * r->switches * (cfg->full_duplex ? 2 : 1);
    r->slot = nones(r->n);
    r->main = nones(r->channels);
    r->temp = nones(r->channels);
    r->buffer = queues_new(r->buffers, cfg->buffer);
    r->port = queues_new((size_t)r->n * cfg->ports, cfg->port_depth);
    r->entered = malloc(2 * (size_t)r->channels * sizeof *r->entered);
    for (int d = 0; d < 2; d++) {
        r->stats.link_collisions[d] = calloc(cfg->k + 1, sizeof(uint64_t));
        r->stats.buffer_collisions[d] = calloc(cfg->k + 1, sizeof(uint64_t));
    }
    if (!r->slot || !r->main || !r->temp || !r->buffer || !r->port || !r->entered ||
        !r->stats.link_collisions[0] || !r->stats.link_collisions[1] ||
        !r->stats.buffer_collisions[0] || !r->stats.buffer_collisions[1]) {
        reference_free(r);
        return NULL;
    }
    return r;
}

void reference_free(Reference *r)
{
    if (!r)
        return;
    free(r->packet);
    free(r->free);
    free(r->slot);
    free(r->main);
    free(r->temp);
    queues_free(r->buffer);
    queues_free(r->port);
    free(r->entered);
    for (int d = 0; d < 2; d++) {
        free(r->stats.link_collisions[d]);
        free(r->stats.buffer_collisions[d]);
    }
    free(r->stats.latency_hist);
    free(r);
}

void reference_inject(Reference *r, uint64_t id, const RouteRequest *req, const Route *route,
                      uint64_t timestep)
{
    if (r->nfree == 0 && r->npackets == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 256;
        r->packet = realloc(r->packet, r->cap * sizeof *r->packet);
        r->free = realloc(r->free, r->cap * sizeof *r->free);
        if (!r->packet || !r->free)
            abort();            /* a record per packet in flight: cannot fail in practice */
    }
    uint32_t x = r->nfree ? r->free[--r->nfree] : r->npackets++;
    r->packet[x] = (RefPacket){ id, timestep, req->src, req->dst, req->port, *route, DIR_UP };
    r->slot[req->src] = x;
    r->stats.sent++;
    r->in_flight++;
}

int reference_read(Reference *r, uint32_t p, uint32_t port, uint64_t id, char *err, size_t size)
{
    Queue *q = &r->port[(size_t)p * r->cfg.ports + port];
    if (q->count == 0 || r->packet[queue_at(q, 0, r->cfg.port_depth)].id != id) {
        snprintf(err, size, "an IN of p%u read packet #%llu from port %u, where the reference "
                 "stage has %s", p, (unsigned long long)id, port,
                 q->count ? "another packet" : "none");
        return -1;
    }
    r->free[r->nfree++] = queue_pop(q, r->cfg.port_depth);
    r->stats.read++;
    return 0;
}

/* ---- the five sub-stages ----------------------------------------------------- */

/* A claim by `sender` on its link's temp slot (stages a and b): it takes
 * the slot, or, if another claimed it in this timestep, fails at once: a
 * link collision, charged to the claimant's direction and the link's layer. */
static void claim(Reference *r, uint32_t sender)
{
    unsigned dir;
    uint32_t link = sender_link(r, sender, &dir), c = channel_of(r, link, dir);
    if (r->temp[c] == NONE) {
        r->temp[c] = sender;
    } else {
        r->stats.link_collisions[dir][layer_of(r, link / 2)]++;
        r->stats.link_total++;
    }
}

/* The output buffer that packet x, arriving at switch s going `dir`, enters
 * there: its route's up port below the turn (adaptive: the up buffer with
 * more free places, ties to bit l - 1 of the destination), else the down
 * port its addressing names. *up_port is the adaptive choice, or -1. */
static uint32_t route_buffer(const Reference *r, uint32_t x, uint32_t s, unsigned dir,
                             int *up_port)
{
    const RefPacket *pk = &r->packet[x];
    unsigned l = layer_of(r, s);
    *up_port = -1;
    if (dir == DIR_DOWN || l == pk->route.count)
        return 4 * s + ((pk->route.addressing >> (l - 1)) & 1);
    if (!r->cfg.adaptive)
        return 4 * s + 2 + ((pk->route.routing >> (l - 1)) & 1);
    unsigned c0 = r->buffer[4 * s + 2].count, c1 = r->buffer[4 * s + 3].count;
    *up_port = c0 == c1 ? (int)((pk->dst >> (l - 1)) & 1) : c1 < c0;
    return 4 * s + 2 + (unsigned)*up_port;
}

/* Stage d for the packet in the main slot of channel c of link `link`, if
 * it is not coming down to a processor: it enters the buffer its route
 * names in the switch ahead if that has room, else it stays (a buffer
 * collision). */
static void forward(Reference *r, uint32_t link, uint32_t c)
{
    uint32_t x = r->main[c], s = link / 2;
    if (x == NONE)
        return;
    unsigned dir = r->packet[x].dir;
    if (dir == DIR_DOWN) {
        if (layer_of(r, s) == 1)
            return;                                   /* stage c's */
        unsigned l = layer_of(r, s);
        s = switch_at(r, plane_of(r, s), l - 1, topo_down_switch(l, index_of(r, s), link % 2));
    }
    int up_port;
    uint32_t b = route_buffer(r, x, s, dir, &up_port);
    Queue *q = &r->buffer[b];
    unsigned into = b % 4 >= 2 ? DIR_UP : DIR_DOWN;
    if (q->count == r->cfg.buffer) {
        r->stats.buffer_collisions[into][layer_of(r, s)]++;
        r->stats.buffer_total++;
        return;
    }
    if (up_port >= 0)
        r->packet[x].route.routing |= (uint32_t)up_port << (layer_of(r, s) - 1);
    r->packet[x].dir = into;
    queue_push(q, x, r->cfg.buffer);
    r->main[c] = NONE;
    r->entered[2 * r->nentered] = b;
    r->entered[2 * r->nentered++ + 1] = x;
    r->moved = true;
}

/* Stage c for processor p: the packets coming down its links, oldest
 * first, enter their input ports if those have room; else they wait. */
static void deliver(Reference *r, uint32_t p, uint64_t t)
{
    uint32_t arriving[2], n = 0;
    for (unsigned plane = 0; plane < r->cfg.planes; plane++) {
        uint32_t link = 2 * switch_at(r, plane, 1, p >> 1) + (p & 1);
        uint32_t x = r->main[channel_of(r, link, DIR_DOWN)];
        if (x != NONE && r->packet[x].dir == DIR_DOWN)
            arriving[n++] = channel_of(r, link, DIR_DOWN);
    }
    if (n == 2 && r->packet[r->main[arriving[1]]].id < r->packet[r->main[arriving[0]]].id) {
        uint32_t c = arriving[0];
        arriving[0] = arriving[1];
        arriving[1] = c;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t x = r->main[arriving[i]];
        Queue *q = &r->port[(size_t)p * r->cfg.ports + r->packet[x].port];
        if (q->count == r->cfg.port_depth) {
            r->stats.port_waits++;
            continue;
        }
        queue_push(q, x, r->cfg.port_depth);
        r->main[arriving[i]] = NONE;
        r->in_flight--;
        r->moved = true;
        uint64_t latency = t - r->packet[x].created;
        NetStats *st = &r->stats;
        if (st->delivered++ == 0 || latency < st->latency_min)
            st->latency_min = latency;
        if (latency > st->latency_max)
            st->latency_max = latency;
        st->latency_sum += latency;
        if (latency >= st->latency_hist_len) {
            size_t len = 2 * latency + 1;
            uint64_t *h = realloc(st->latency_hist, len * sizeof *h);
            if (!h)
                abort();
            memset(h + st->latency_hist_len, 0, (len - st->latency_hist_len) * sizeof *h);
            st->latency_hist = h;
            st->latency_hist_len = len;
        }
        st->latency_hist[latency]++;
    }
}

/* Stage e for channel c of link `link`: its claimant moves onto the link
 * if the main slot is empty (the move is final), else goes back where it
 * came from: a link collision. */
static void commit(Reference *r, uint32_t link, uint32_t c)
{
    uint32_t sender = r->temp[c];
    if (sender == NONE)
        return;
    r->temp[c] = NONE;
    unsigned claim_dir;
    sender_link(r, sender, &claim_dir);
    if (r->main[c] != NONE) {
        r->stats.link_collisions[claim_dir][layer_of(r, link / 2)]++;
        r->stats.link_total++;
        return;
    }
    uint32_t x;
    if (sender >= r->buffers) {
        x = r->slot[sender - r->buffers];
        r->slot[sender - r->buffers] = NONE;
    } else {
        x = queue_pop(&r->buffer[sender], r->cfg.buffer);
    }
    r->main[c] = x;
    r->packet[x].dir = claim_dir;
    r->stats.links_crossed++;
    r->moved = true;
}

/* Calls fn(r, link, channel) for every channel of every link in the
 * spec's link order: the processor links (processor order, plane 0 then
 * 1), then the links above each switch in switch order (u0, then u1); in
 * full duplex a link's up direction before its down direction. */
static void for_each_link(Reference *r, void (*fn)(Reference *, uint32_t, uint32_t))
{
    unsigned dirs = r->cfg.full_duplex ? 2 : 1;
    for (uint32_t p = 0; p < r->n; p++)
        for (unsigned plane = 0; plane < r->cfg.planes; plane++)
            for (unsigned d = 0; d < dirs; d++) {
                uint32_t link = 2 * switch_at(r, plane, 1, p >> 1) + (p & 1);
                fn(r, link, channel_of(r, link, d));
            }
    for (uint32_t s = 0; s < r->switches; s++) {
        unsigned l = layer_of(r, s);
        uint32_t j = index_of(r, s);
        for (unsigned b = 0; b < 2 && l < r->k; b++)
            for (unsigned d = 0; d < dirs; d++) {
                uint32_t link = 2 * switch_at(r, plane_of(r, s), l + 1, topo_up_switch(l, j, b)) +
                                topo_up_arrival_port(l, j);
                fn(r, link, channel_of(r, link, d));
            }
    }
}

void reference_step(Reference *r, uint64_t t)
{
    r->moved = false;
    r->nentered = 0;
    if (r->in_flight == 0)
        return;                 /* no packet in a slot, on a link or in a buffer */
    /* a. Adapters send. */
    for (uint32_t p = 0; p < r->n; p++)
        if (r->slot[p] != NONE)
            claim(r, r->buffers + p);
    /* b. Switches send: plane 0 then 1, layer 1 to k, index, port d0 d1 u0 u1. */
    for (uint32_t b = 0; b < r->buffers; b++)
        if (r->buffer[b].count != 0)
            claim(r, b);
    /* c. Delivery. */
    for (uint32_t p = 0; p < r->n; p++)
        deliver(r, p, t);
    /* d. Forwarding. */
    for_each_link(r, forward);
    for (uint32_t b = 0; b < r->buffers; b++)
        if (r->buffer[b].count > r->stats.max_buffer)
            r->stats.max_buffer = r->buffer[b].count;
    /* e. Collisions; then the packets that entered a buffer in stage d and
     * queue behind another packet. */
    for_each_link(r, commit);
    for (size_t i = 0; i < r->nentered; i++) {
        uint32_t b = r->entered[2 * i], x = r->entered[2 * i + 1];
        if (queue_at(&r->buffer[b], 0, r->cfg.buffer) != x) {
            r->stats.buffer_collisions[b % 4 >= 2 ? DIR_UP : DIR_DOWN][layer_of(r, b / 4)]++;
            r->stats.buffer_total++;
        }
    }
}

/* ---- the comparison ---------------------------------------------------------- */

/* A place of both stages, named only when they differ there. */
typedef enum { AT_SLOT, AT_CHANNEL, AT_BUFFER, AT_PORT } PlaceKind;

typedef struct Place {
    PlaceKind kind;
    uint32_t index, port, position;   /* processor, channel or buffer; port; from 1 */
} Place;

static void place_name(const Reference *r, const Net *net, const Place *at, char *buf,
                       size_t size)
{
    char name[64];
    switch (at->kind) {
    case AT_SLOT:
        snprintf(buf, size, "the output slot of p%u", at->index);
        return;
    case AT_CHANNEL:
        net_link_name(net, r->cfg.full_duplex ? at->index / 2 : at->index, name, sizeof name);
        snprintf(buf, size, "link %s%s", name,
                 !r->cfg.full_duplex ? "" : at->index % 2 == DIR_UP ? " up" : " down");
        return;
    case AT_BUFFER:
        net_buffer_name(net, at->index, name, sizeof name);
        snprintf(buf, size, "buffer %s, place %u", name, at->position);
        return;
    case AT_PORT:
        snprintf(buf, size, "input port %u of p%u, place %u", at->port, at->index, at->position);
        return;
    }
}

/* "#5" or "nothing". */
static const char *packet_text(char *buf, size_t size, bool any, uint64_t id)
{
    if (!any)
        return "nothing";
    snprintf(buf, size, "#%llu", (unsigned long long)id);
    return buf;
}

/* One place's packet in both stages: the fast one's (any, pk) and the
 * reference's x. */
static int same_packet(const Reference *r, const Net *net, bool any, const NetPacket *pk,
                       uint32_t x, const Place *at, char *err, size_t size)
{
    char a[32], b[32], place[128];
    bool ref_any = x != NONE;
    const RefPacket *rp = ref_any ? &r->packet[x] : NULL;
    if (any == ref_any && (!any || (pk->id == rp->id && pk->dir == rp->dir &&
                                    pk->route.routing == rp->route.routing)))
        return 0;
    place_name(r, net, at, place, sizeof place);
    if (any && ref_any && pk->id == rp->id)
        snprintf(err, size, "%s: packet #%llu is going %s with routing 0x%x in the fast stage, "
                 "%s with 0x%x in the reference stage", place, (unsigned long long)pk->id,
                 pk->dir == DIR_UP ? "up" : "down", pk->route.routing,
                 rp->dir == DIR_UP ? "up" : "down", rp->route.routing);
    else
        snprintf(err, size, "%s holds %s in the fast stage, %s in the reference stage", place,
                 packet_text(a, sizeof a, any, any ? pk->id : 0),
                 packet_text(b, sizeof b, ref_any, ref_any ? rp->id : 0));
    return -1;
}

/* A FIFO of both stages: a buffer or an input port (at), of `count`
 * packets in the fast stage and the queue q of `places` in the reference. */
static int same_queue(const Reference *r, Net *net, const Queue *q, unsigned places,
                      uint32_t count, Place *at, char *err, size_t size)
{
    unsigned n = count > q->count ? count : q->count;
    for (unsigned i = 0; i < n; i++) {
        NetPacket pk;
        bool any = i < count && (at->kind == AT_BUFFER
                                 ? net_buffer_packet(net, at->index, i, &pk)
                                 : net_port_packet(net, at->index, at->port, i, &pk));
        at->position = i + 1;
        if (same_packet(r, net, any, &pk, i < q->count ? queue_at(q, i, places) : NONE, at,
                        err, size) != 0)
            return -1;
    }
    return 0;
}

static int same_count(const char *what, uint64_t fast, uint64_t ref, char *err, size_t size)
{
    if (fast == ref)
        return 0;
    snprintf(err, size, "%s: %llu in the fast stage, %llu in the reference stage", what,
             (unsigned long long)fast, (unsigned long long)ref);
    return -1;
}

static int same_stats(const Reference *r, const NetStats *f, char *err, size_t size)
{
    const NetStats *g = &r->stats;
    char what[64];
    for (int d = 0; d < 2; d++)
        for (unsigned l = 1; l <= r->k; l++) {
            bool link = f->link_collisions[d][l] != g->link_collisions[d][l];
            if (!link && f->buffer_collisions[d][l] == g->buffer_collisions[d][l])
                continue;
            snprintf(what, sizeof what, "%s collisions, layer %u %s", link ? "link" : "buffer",
                     l, d ? "down" : "up");
            return link ? same_count(what, f->link_collisions[d][l], g->link_collisions[d][l],
                                     err, size)
                        : same_count(what, f->buffer_collisions[d][l],
                                     g->buffer_collisions[d][l], err, size);
        }
    size_t len = f->latency_hist_len > g->latency_hist_len ? f->latency_hist_len
                                                           : g->latency_hist_len;
    for (size_t i = 0; i < len; i++)
        if (same_count("packets of one latency", i < f->latency_hist_len ? f->latency_hist[i] : 0,
                       i < g->latency_hist_len ? g->latency_hist[i] : 0, err, size))
            return -1;
    return same_count("link collisions", f->link_total, g->link_total, err, size) ||
           same_count("buffer collisions", f->buffer_total, g->buffer_total, err, size) ||
           same_count("packets sent", f->sent, g->sent, err, size) ||
           same_count("packets delivered", f->delivered, g->delivered, err, size) ||
           same_count("packets read", f->read, g->read, err, size) ||
           same_count("links crossed", f->links_crossed, g->links_crossed, err, size) ||
           same_count("port waits", f->port_waits, g->port_waits, err, size) ||
           same_count("latency sum", f->latency_sum, g->latency_sum, err, size) ||
           same_count("largest buffer occupancy", f->max_buffer, g->max_buffer, err, size)
           ? -1 : 0;
}

int reference_compare(const Reference *r, Net *net, char *err, size_t size)
{
    NetPacket pk;
    if (same_count("packets in flight", net_in_flight(net), r->in_flight, err, size) != 0)
        return -1;
    if (r->in_flight == 0 && !r->moved && !net_moved(net))
        return same_stats(r, net_stats(net), err, size);   /* no place can have changed */
    for (uint32_t p = 0; p < r->n; p++) {
        Place at = { AT_SLOT, p, 0, 0 };
        bool any = net_slot_packet(net, p, &pk);
        if (same_packet(r, net, any, &pk, r->slot[p], &at, err, size) != 0)
            return -1;
    }
    for (uint32_t c = 0; c < r->channels; c++) {
        Place at = { AT_CHANNEL, c, 0, 0 };
        bool any = net_link_packet(net, c, &pk);
        if (same_packet(r, net, any, &pk, r->main[c], &at, err, size) != 0)
            return -1;
    }
    for (uint32_t b = 0; b < r->buffers; b++) {
        Place at = { AT_BUFFER, b, 0, 0 };
        if (same_queue(r, net, &r->buffer[b], r->cfg.buffer, net_buffer_count(net, b), &at,
                       err, size) != 0)
            return -1;
    }
    for (uint32_t p = 0; p < r->n; p++)
        for (uint32_t port = 0; port < r->cfg.ports; port++) {
            Place at = { AT_PORT, p, port, 0 };
            if (same_queue(r, net, &r->port[(size_t)p * r->cfg.ports + port], r->cfg.port_depth,
                           net_port_count(net, p, port), &at, err, size) != 0)
                return -1;
        }
    if (same_stats(r, net_stats(net), err, size) != 0)
        return -1;
    return same_count("whether anything moved", net_moved(net), r->moved, err, size);
}
