/* Stage 4 of the timestep exactly as spec/machine.md writes it: the
 * executable spec of the network, to read beside machine.md and to check
 * the fast stage (step.c) against. `--check` runs both, every timestep,
 * and compares the whole state and the statistics after it
 * (reference_compare.c).
 *
 * Nothing here is fast. Each sub-stage a-e is a plain loop over every
 * processor, switch or link in the spec's loop order; a packet is a record
 * kept where it is (an output slot, a link's main slot, a buffer, an input
 * port); nothing sleeps, nothing is listed ahead, nothing is prefetched.
 * Components are numbered as in net.h: switch S = (plane * k + layer - 1)
 * * H + j, buffer 4S + q, link 2S + x (x the down port it is attached to),
 * wire = link (half duplex) or 2 * link + dir (full duplex). A
 * "sender" is what claims a link: buffer b, or (from 4 * switches on)
 * processor p's adapter. reference_step, at the end, is the stage list.
 *
 * With V > 1 virtual channels (channels.md) each buffer is V queues and
 * each wire V lanes (reference.h numbers them), a packet keeps to
 * channel port mod V, and claims are made only on free lanes: so stages c
 * and d run first, as channels.md allows, and a and b then claim on the
 * lanes left empty, with the buffers as they were at the start of stage
 * 4 (reference_step_vcs). */
#include "net/reference.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/topology.h"

/* ---- the machine's shape (machine.md, "Topology of one plane") ---------- */

static uint32_t switch_at(const Reference *r, unsigned plane, unsigned layer, uint32_t j)
{
    return (plane * r->k + layer - 1) * r->half + j;
}

static unsigned layer_of(const Reference *r, uint32_t s) { return s / r->half % r->k + 1; }
static unsigned plane_of(const Reference *r, uint32_t s) { return s / r->half / r->k; }
static uint32_t index_of(const Reference *r, uint32_t s) { return s % r->half; }

static uint32_t wire_of(const Reference *r, uint32_t link, unsigned dir)
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
        memset(a, 0xff, n * sizeof *a);          /* REF_NONE */
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
    r->V = cfg->vcs ? cfg->vcs : 1;
    r->switches = cfg->planes * cfg->k * r->half;
    r->buffers = 4 * r->switches;
    r->wires = 2 * r->switches * (cfg->full_duplex ? 2 : 1);
    r->slot = nones(r->n);
    r->main = nones((size_t)r->wires * r->V);
    r->temp = nones(r->wires);
    r->temp_lane = nones(r->wires);
    r->buffer = queues_new((size_t)r->buffers * r->V, cfg->buffer);
    r->pointer = calloc(r->buffers, 1);
    r->held = calloc((size_t)r->buffers * r->V, sizeof *r->held);
    r->port = queues_new((size_t)r->n * cfg->ports, cfg->port_depth);
    r->entered = malloc(4 * (size_t)r->wires * r->V * sizeof *r->entered);   /* (copies: 2 a lane) */
    for (int d = 0; d < 2; d++) {
        r->stats.link_collisions[d] = calloc(cfg->k + 1, sizeof(uint64_t));
        r->stats.buffer_collisions[d] = calloc(cfg->k + 1, sizeof(uint64_t));
    }
    if (!r->slot || !r->main || !r->temp || !r->temp_lane || !r->pointer || !r->held || !r->buffer || !r->port || !r->entered ||
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
    for (uint32_t x = 0; x < r->npackets; x++)
        free(r->packet[x].members);
    free(r->packet);
    free(r->free);
    free(r->slot);
    free(r->main);
    free(r->temp);
    free(r->temp_lane);
    free(r->pointer);
    free(r->held);
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

/* A new packet number. */
static uint32_t packet_new(Reference *r)
{
    if (r->nfree == 0 && r->npackets == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 256;
        r->packet = realloc(r->packet, r->cap * sizeof *r->packet);
        r->free = realloc(r->free, r->cap * sizeof *r->free);
        if (!r->packet || !r->free)
            abort();            /* a record per packet in flight: cannot fail in practice */
    }
    return r->nfree ? r->free[--r->nfree] : r->npackets++;
}

/* Gives packet pk the n members at `from` of a multicast's set: a unicast
 * to the one there is, or a multicast to a copy of their own. */
static void set_members(RefPacket *pk, const uint32_t *from, uint32_t n)
{
    pk->dst = from[0];
    pk->nmembers = 0;
    pk->members = NULL;
    if (n == 1) {
        pk->route.addressing = from[0] & ((2u << (pk->route.count - 1)) - 1);
        return;
    }
    pk->members = malloc((size_t)n * sizeof *pk->members);
    if (!pk->members)
        abort();
    memcpy(pk->members, from, (size_t)n * sizeof *pk->members);
    pk->nmembers = n;
}

void reference_inject(Reference *r, uint64_t id, const RouteRequest *req, const Route *route,
                      uint64_t timestep)
{
    uint32_t x = packet_new(r);
    r->packet[x] = (RefPacket){ id, timestep, req->src, req->dst, req->port, *route, DIR_UP,
                                NULL, 0 };
    if (route_is_multicast(req)) {              /* (a range becomes a list here) */
        const DestSet *set = req->set;
        uint32_t *m = malloc((size_t)set->n * sizeof *m);
        if (!m)
            abort();
        for (uint32_t i = 0; i < set->n; i++)
            m[i] = dest_set_member(set, i);
        r->packet[x].members = m;
        r->packet[x].nmembers = set->n;
    }
    r->slot[req->src] = x;
    r->stats.sent++;
    r->stats.multicasts += req->set != NULL;
    r->stats.messages += req->length != 0;
    r->stats.flits_sent += req->length != 0 ? req->length : 1;
    r->in_flight++;
    r->next_id = id + 1;
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
    uint32_t x = queue_pop(q, r->cfg.port_depth);
    free(r->packet[x].members);
    r->packet[x].members = NULL;
    r->free[r->nfree++] = x;
    r->stats.read++;
    return 0;
}

/* ---- the five sub-stages ----------------------------------------------------- */

/* A link collision on `link` by a claimant going `dir`, on channel v. */
static void link_collision(Reference *r, uint32_t link, unsigned dir, unsigned v)
{
    r->stats.link_collisions[dir][layer_of(r, link / 2)]++;
    r->stats.link_total++;
    r->stats.vc_link[v] += r->V > 1;
}

/* A buffer collision at buffer b, on channel v. */
static void buffer_collision(Reference *r, uint32_t b, unsigned v)
{
    r->stats.buffer_collisions[b % 4 >= 2 ? DIR_UP : DIR_DOWN][layer_of(r, b / 4)]++;
    r->stats.buffer_total++;
    r->stats.vc_buffer[v] += r->V > 1;
}

/* Channel v's queue of buffer b. */
static Queue *queue_of(Reference *r, uint32_t b, unsigned v) { return &r->buffer[b * r->V + v]; }

/* A claim by `sender` on its link's temp slot (stages a and b, V = 1): it
 * takes the slot, or, if another claimed it in this timestep, fails at
 * once: a link collision, charged to the claimant's direction and the
 * link's layer. */
static void claim(Reference *r, uint32_t sender)
{
    unsigned dir;
    uint32_t link = sender_link(r, sender, &dir), c = wire_of(r, link, dir);
    if (r->temp[c] == REF_NONE)
        r->temp[c] = sender;
    else
        link_collision(r, link, dir, 0);
}

/* The output buffer that packet x, arriving at switch s going `dir` on
 * channel v, enters there: its route's up port below the turn (adaptive:
 * the up buffer whose channel v has more free places, ties to bit l - 1 of
 * the destination), else the down port its addressing names. *up_port is
 * the adaptive choice, or -1. */
static uint32_t route_buffer(Reference *r, uint32_t x, uint32_t s, unsigned dir, unsigned v,
                             int *up_port)
{
    const RefPacket *pk = &r->packet[x];
    unsigned l = layer_of(r, s);
    *up_port = -1;
    if (dir == DIR_DOWN || l == pk->route.count)
        return 4 * s + ((pk->route.addressing >> (l - 1)) & 1);
    if (!r->cfg.adaptive)
        return 4 * s + 2 + ((pk->route.routing >> (l - 1)) & 1);
    unsigned c0 = queue_of(r, 4 * s + 2, v)->count, c1 = queue_of(r, 4 * s + 3, v)->count;
    *up_port = c0 == c1 ? (int)((pk->dst >> (l - 1)) & 1) : c1 < c0;
    return 4 * s + 2 + (unsigned)*up_port;
}

/* Packet x (which has left its lane) enters channel v's queue of buffer b. */
static void enter(Reference *r, uint32_t x, uint32_t b, unsigned v)
{
    r->packet[x].dir = b % 4 >= 2 ? DIR_UP : DIR_DOWN;
    queue_push(queue_of(r, b, v), x, r->cfg.buffer);
    r->entered[2 * r->nentered] = b * r->V + v;
    r->entered[2 * r->nentered++ + 1] = x;
    r->moved = true;
}

/* Stage d for a multicast packet x in lane `lane` (channel v) going down
 * from switch s (multicast.md): it needs the down buffers below which its
 * set has members; if all have room, it enters them, splitting in two
 * when it needs both (the copy, with the members of port d1, takes the
 * next id); else it stays, whole: one buffer collision. */
static void forward_set(Reference *r, uint32_t x, uint32_t s, uint32_t lane, unsigned v)
{
    unsigned l = layer_of(r, s);
    uint32_t n = r->packet[x].nmembers, n0 = 0;
    while (n0 < n && !((r->packet[x].members[n0] >> (l - 1)) & 1))
        n0++;                                   /* (ascending: d0's come first) */
    bool needs[2] = { n0 > 0, n0 < n };
    for (unsigned p = 0; p < 2; p++)
        if (needs[p] && queue_of(r, 4 * s + p, v)->count == r->cfg.buffer) {
            buffer_collision(r, 4 * s + p, v);
            return;
        }
    r->main[lane] = REF_NONE;
    uint32_t *members = r->packet[x].members;
    if (needs[0] && needs[1]) {
        uint32_t y = packet_new(r);
        r->packet[y] = r->packet[x];
        r->packet[y].id = r->next_id++;
        set_members(&r->packet[y], members + n0, n - n0);
        set_members(&r->packet[x], members, n0);
        free(members);
        r->stats.copies++;
        r->in_flight++;
        enter(r, x, 4 * s, v);
        enter(r, y, 4 * s + 1, v);
    } else {
        enter(r, x, 4 * s + (needs[0] ? 0 : 1), v);
    }
}

/* Stage d for the packets in the lanes of wire c of link `link`, in
 * channel order, but those coming down to a processor: each enters its
 * channel's queue of the buffer its route names in the switch ahead if
 * that has room, else it stays (a buffer collision). */
static void forward(Reference *r, uint32_t link, uint32_t c)
{
    for (unsigned v = 0; v < r->V; v++) {
        uint32_t lane = c * r->V + v, x = r->main[lane], s = link / 2;
        if (x == REF_NONE)
            continue;
        unsigned dir = r->packet[x].dir;
        if (dir == DIR_DOWN) {
            if (layer_of(r, s) == 1)
                continue;                                   /* stage c's */
            unsigned l = layer_of(r, s);
            s = switch_at(r, plane_of(r, s), l - 1, topo_down_switch(l, index_of(r, s), link % 2));
        }
        if (r->packet[x].nmembers &&
            (dir == DIR_DOWN || layer_of(r, s) == r->packet[x].route.count)) {
            forward_set(r, x, s, lane, v);
            continue;
        }
        int up_port;
        uint32_t b = route_buffer(r, x, s, dir, v, &up_port);
        if (queue_of(r, b, v)->count == r->cfg.buffer) {
            buffer_collision(r, b, v);
            continue;
        }
        if (up_port >= 0)
            r->packet[x].route.routing |= (uint32_t)up_port << (layer_of(r, s) - 1);
        r->main[lane] = REF_NONE;
        enter(r, x, b, v);
    }
}

/* Stage c for processor p: the packets coming down the lanes of its
 * links, oldest first, enter their input ports if those have room; else
 * they wait. */
static void deliver(Reference *r, uint32_t p, uint64_t t)
{
    uint32_t arriving[2 * NET_MAX_VCS], n = 0;
    for (unsigned plane = 0; plane < r->cfg.planes; plane++) {
        uint32_t link = 2 * switch_at(r, plane, 1, p >> 1) + (p & 1);
        for (unsigned v = 0; v < r->V; v++) {
            uint32_t lane = wire_of(r, link, DIR_DOWN) * r->V + v, x = r->main[lane];
            if (x != REF_NONE && r->packet[x].dir == DIR_DOWN)
                arriving[n++] = lane;
        }
    }
    for (uint32_t i = 1; i < n; i++)                  /* oldest first */
        for (uint32_t j = i; j > 0 && r->packet[r->main[arriving[j]]].id <
                                      r->packet[r->main[arriving[j - 1]]].id; j--) {
            uint32_t lane = arriving[j];
            arriving[j] = arriving[j - 1];
            arriving[j - 1] = lane;
        }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t x = r->main[arriving[i]];
        Queue *q = &r->port[(size_t)p * r->cfg.ports + r->packet[x].port];
        if (q->count == r->cfg.port_depth) {
            r->stats.port_waits++;
            continue;
        }
        queue_push(q, x, r->cfg.port_depth);
        r->main[arriving[i]] = REF_NONE;
        r->in_flight--;
        r->moved = true;
        uint64_t latency = t - r->packet[x].created;
        NetStats *st = &r->stats;
        st->flits_delivered++;
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

/* Moves the packet of `sender` (its output slot, or the head of channel
 * v's queue of buffer `sender`) into lane `lane`, going `dir`. */
static void move_onto(Reference *r, uint32_t sender, unsigned v, uint32_t lane, unsigned dir)
{
    uint32_t x;
    if (sender >= r->buffers) {
        x = r->slot[sender - r->buffers];
        r->slot[sender - r->buffers] = REF_NONE;
    } else {
        x = queue_pop(queue_of(r, sender, v), r->cfg.buffer);
    }
    r->main[lane] = x;
    r->packet[x].dir = dir;
    r->stats.links_crossed++;
    r->moved = true;
}

/* Stage e for wire c of link `link` (V = 1): its claimant moves onto
 * the link if the main slot is empty (the move is final), else goes back
 * where it came from: a link collision. */
static void commit(Reference *r, uint32_t link, uint32_t c)
{
    uint32_t sender = r->temp[c];
    if (sender == REF_NONE)
        return;
    r->temp[c] = REF_NONE;
    unsigned claim_dir;
    sender_link(r, sender, &claim_dir);
    if (r->main[c] != REF_NONE) {
        link_collision(r, link, claim_dir, 0);
        return;
    }
    move_onto(r, sender, 0, c, claim_dir);
}

/* Calls fn(r, link, wire) for every wire of every link in the
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
                fn(r, link, wire_of(r, link, d));
            }
    for (uint32_t s = 0; s < r->switches; s++) {
        unsigned l = layer_of(r, s);
        uint32_t j = index_of(r, s);
        for (unsigned b = 0; b < 2 && l < r->k; b++)
            for (unsigned d = 0; d < dirs; d++) {
                uint32_t link = 2 * switch_at(r, plane_of(r, s), l + 1, topo_up_switch(l, j, b)) +
                                topo_up_arrival_port(l, j);
                fn(r, link, wire_of(r, link, d));
            }
    }
}

/* The end of stage d, and stage e's last part: the largest occupancy; and
 * the packets that entered a queue in stage d and queue behind another. */
static void largest_occupancy(Reference *r)
{
    for (uint32_t b = 0; b < r->buffers * r->V; b++)
        if (r->buffer[b].count > r->stats.max_buffer)
            r->stats.max_buffer = r->buffer[b].count;
}

static void queued_behind(Reference *r)
{
    for (size_t i = 0; i < r->nentered; i++) {
        uint32_t cb = r->entered[2 * i], x = r->entered[2 * i + 1];
        if (queue_at(&r->buffer[cb], 0, r->cfg.buffer) != x)
            buffer_collision(r, cb / r->V, cb % r->V);
    }
}

/* ---- virtual channels: claims on free lanes (channels.md) ------------------------ */

/* Stage a, V > 1: processor p's packet, on channel v = port mod V, claims
 * its first link's temp slot if lane v is free; else a link collision. */
static void claim_from_slot(Reference *r, uint32_t p)
{
    uint32_t sender = r->buffers + p, x = r->slot[p];
    unsigned dir, v = r->packet[x].port % r->V;
    uint32_t link = sender_link(r, sender, &dir), c = wire_of(r, link, dir);
    if (r->main[c * r->V + v] != REF_NONE) {
        link_collision(r, link, dir, v);
        return;
    }
    r->temp[c] = sender;                  /* (stage a comes first: it is unclaimed) */
    r->temp_lane[c] = c * r->V + v;
}

/* Stage b, V > 1: output port b's channel queues that held a packet at the
 * start of stage 4, in round-robin order from its pointer. The first whose
 * lane is free claims the temp slot unless another claimed it; every
 * other one is held up: a link collision each. */
static void claim_from_port(Reference *r, uint32_t b)
{
    unsigned dir;
    uint32_t link = sender_link(r, b, &dir), c = wire_of(r, link, dir);
    bool tried = false;
    for (unsigned i = 0; i < r->V; i++) {
        unsigned v = (r->pointer[b] + i) % r->V;
        if (r->held[b * r->V + v] == 0)
            continue;
        uint32_t lane = c * r->V + v;
        if (!tried && r->main[lane] == REF_NONE) {
            tried = true;
            if (r->temp[c] == REF_NONE) {
                r->temp[c] = b;
                r->temp_lane[c] = lane;
                continue;
            }
        }
        link_collision(r, link, dir, v);
    }
}

/* Stage e, V > 1: every claim is final; the port's pointer moves past the
 * channel that sent. */
static void commit_lane(Reference *r, uint32_t link, uint32_t c)
{
    (void)link;
    uint32_t sender = r->temp[c];
    if (sender == REF_NONE)
        return;
    r->temp[c] = REF_NONE;
    unsigned dir, v = r->temp_lane[c] % r->V;
    sender_link(r, sender, &dir);
    move_onto(r, sender, v, r->temp_lane[c], dir);
    if (sender < r->buffers)
        r->pointer[sender] = (uint8_t)((v + 1) % r->V);
}

static void reference_step_vcs(Reference *r, uint64_t t)
{
    for (uint32_t cb = 0; cb < r->buffers * r->V; cb++)
        r->held[cb] = r->buffer[cb].count;
    /* c, d: they depend only on the state at the start of stage 4. */
    for (uint32_t p = 0; p < r->n; p++)
        deliver(r, p, t);
    for_each_link(r, forward);
    largest_occupancy(r);
    /* a, b: claims on the lanes now known to be free. */
    for (uint32_t p = 0; p < r->n; p++)
        if (r->slot[p] != REF_NONE)
            claim_from_slot(r, p);
    for (uint32_t b = 0; b < r->buffers; b++)
        claim_from_port(r, b);
    /* e. */
    for_each_link(r, commit_lane);
    queued_behind(r);
}

void reference_step(Reference *r, uint64_t t)
{
    r->moved = false;
    r->nentered = 0;
    if (r->in_flight == 0)
        return;                 /* no packet in a slot, on a link or in a buffer */
    if (r->V > 1) {
        reference_step_vcs(r, t);
        return;
    }
    /* a. Adapters send. */
    for (uint32_t p = 0; p < r->n; p++)
        if (r->slot[p] != REF_NONE)
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
    largest_occupancy(r);
    /* e. Collisions; then the packets that entered a buffer in stage d and
     * queue behind another packet. */
    for_each_link(r, commit);
    queued_behind(r);
}
