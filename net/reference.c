/* Stage 4 of the timestep exactly as spec/machine.md writes it: the
 * executable spec of the network, to read beside machine.md and to check
 * the fast stage (step.c) against. `--check` runs both, every timestep,
 * and compares the whole state and the statistics after it
 * (reference_compare.c).
 *
 * Nothing here is fast. Each sub-stage a-e is a plain loop over every
 * processor, switch or link in the spec's loop order; a flit is a record
 * kept where it is (an output slot, a link's main slot, a buffer, an input
 * port); nothing sleeps, nothing is listed ahead, nothing is prefetched.
 * Components are numbered as in net.h: switch S = (plane * k + layer - 1)
 * * H + j, buffer 4S + q, link 2S + x (x the down port it is attached to),
 * wire = link (half duplex) or 2 * link + dir (full duplex). A
 * "sender" is what claims a link: buffer b, or (from 4 * switches on)
 * processor p's adapter. reference_step, at the end, is the stage list.
 *
 * Messages (messages.md): every flit is a packet of machine.md in every
 * stage, with the rules messages.md adds, each where its stage is: the
 * output slot offers a message one flit a timestep (move_onto); a message
 * owns a buffer or an input port from its head's entry to its tail's
 * (enter, deliver); a head needs an unowned buffer with room for one flit
 * or for the whole message, by --switching (may_enter); under
 * store-and-forward a head leaves only with its tail behind it
 * (waits_for_tail); and a flit held up by its own message is not a
 * collision (held_up, refused, queued_behind). A one-word packet is a
 * message of one flit, which never owns anything: with no SEND, every
 * rule reads as machine.md's.
 *
 * With V > 1 virtual channels (channels.md) each buffer is V queues and
 * each wire V lanes (reference.h numbers them), a flit keeps to
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

/* ---- flits and their messages (messages.md, "Words") -------------------- */

static RefMessage *message_of(const Reference *r, uint32_t x)
{
    return &r->message[r->flit[x].msg];
}

static bool is_head(const Reference *r, uint32_t x) { return r->flit[x].flit == 0; }

static bool is_tail(const Reference *r, uint32_t x)
{
    return r->flit[x].flit == message_of(r, x)->length - 1;
}

/* Whether flits x and y belong to one message. */
static bool same_message(const Reference *r, uint32_t x, uint32_t y)
{
    return r->flit[x].msg == r->flit[y].msg;
}

/* Whether flit x comes before flit y: "oldest first" orders flits by id,
 * then index. */
static bool older(const Reference *r, uint32_t x, uint32_t y)
{
    uint64_t a = message_of(r, x)->id, b = message_of(r, y)->id;
    return a != b ? a < b : r->flit[x].flit < r->flit[y].flit;
}

/* The link that sender `sender` sends into, and in which direction. */
static uint32_t sender_link(const Reference *r, uint32_t sender, unsigned *dir)
{
    if (sender >= r->buffers) {                       /* processor p's link */
        uint32_t p = sender - r->buffers;
        *dir = DIR_UP;
        return 2 * switch_at(r, message_of(r, r->slot[p])->route.plane, 1, p >> 1) + (p & 1);
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

/* Channel v's queue of buffer b. */
static Queue *queue_of(Reference *r, uint32_t b, unsigned v) { return &r->buffer[b * r->V + v]; }

/* The flit that `sender` would move: its output slot's, or the head of
 * channel v's queue of buffer `sender`. */
static uint32_t sender_flit(const Reference *r, uint32_t sender, unsigned v)
{
    if (sender >= r->buffers)
        return r->slot[sender - r->buffers];
    return queue_at(&r->buffer[sender * r->V + v], 0, r->cfg.buffer);
}

/* ---- records of messages and flits ----------------------------------------- */

/* A record number from nb: a freed one, or the next. Sets *grow when the
 * records must grow to nb->cap. */
static uint32_t number_take(RefNumbers *nb, bool *grow)
{
    *grow = false;
    if (nb->nfree)
        return nb->free[--nb->nfree];
    if (nb->used == nb->cap) {
        nb->cap = nb->cap ? 2 * nb->cap : 256;
        nb->free = realloc(nb->free, nb->cap * sizeof *nb->free);
        if (!nb->free)
            abort();            /* a record per flit in flight: cannot fail in practice */
        *grow = true;
    }
    return nb->used++;
}

static uint32_t message_new(Reference *r)
{
    bool grow;
    uint32_t m = number_take(&r->messages, &grow);
    if (grow && !(r->message = realloc(r->message, r->messages.cap * sizeof *r->message)))
        abort();
    return m;
}

/* A new record for flit `index` of message m, going up. */
static uint32_t flit_new(Reference *r, uint32_t m, uint32_t index)
{
    bool grow;
    uint32_t x = number_take(&r->flits, &grow);
    if (grow && !(r->flit = realloc(r->flit, r->flits.cap * sizeof *r->flit)))
        abort();
    r->flit[x] = (RefFlit){ m, index, DIR_UP };
    return x;
}

static void message_free(Reference *r, uint32_t m)
{
    free(r->message[m].members);
    r->message[m].members = NULL;
    r->messages.free[r->messages.nfree++] = m;
}

static void flit_free(Reference *r, uint32_t x)
{
    r->flits.free[r->flits.nfree++] = x;
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
    r->failed = malloc(2 * ((size_t)r->buffers + r->n) * sizeof *r->failed);  /* (one a sender) */
    r->buffer = queues_new((size_t)r->buffers * r->V, cfg->buffer);
    r->owner = nones((size_t)r->buffers * r->V);
    r->pointer = calloc(r->buffers, 1);
    r->held = calloc((size_t)r->buffers * r->V, sizeof *r->held);
    r->port = queues_new((size_t)r->n * cfg->ports, cfg->port_depth);
    r->port_owner = nones((size_t)r->n * cfg->ports);
    r->entered = malloc(4 * (size_t)r->wires * r->V * sizeof *r->entered);   /* (copies: 2 a lane) */
    for (int d = 0; d < 2; d++) {
        r->stats.link_collisions[d] = calloc(cfg->k + 1, sizeof(uint64_t));
        r->stats.buffer_collisions[d] = calloc(cfg->k + 1, sizeof(uint64_t));
    }
    if (!r->slot || !r->main || !r->temp || !r->temp_lane || !r->failed || !r->buffer ||
        !r->owner || !r->pointer || !r->held || !r->port || !r->port_owner || !r->entered ||
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
    for (uint32_t m = 0; m < r->messages.used; m++)
        free(r->message[m].members);            /* (NULL once freed) */
    free(r->message);
    free(r->messages.free);
    free(r->flit);
    free(r->flits.free);
    free(r->slot);
    free(r->main);
    free(r->temp);
    free(r->temp_lane);
    free(r->failed);
    free(r->owner);
    free(r->pointer);
    free(r->held);
    queues_free(r->buffer);
    queues_free(r->port);
    free(r->port_owner);
    free(r->entered);
    for (int d = 0; d < 2; d++) {
        free(r->stats.link_collisions[d]);
        free(r->stats.buffer_collisions[d]);
    }
    free(r->stats.latency_hist);
    free(r);
}

/* Gives multicast message m the n members at `from` of its set: a
 * unicast to the one there is, or a multicast to a copy of their own. */
static void set_members(RefMessage *m, const uint32_t *from, uint32_t n)
{
    m->dst = from[0];
    m->nmembers = 0;
    m->members = NULL;
    if (n == 1) {
        m->route.addressing = from[0] & ((2u << (m->route.count - 1)) - 1);
        return;
    }
    m->members = malloc((size_t)n * sizeof *m->members);
    if (!m->members)
        abort();
    memcpy(m->members, from, (size_t)n * sizeof *m->members);
    m->nmembers = n;
}

void reference_inject(Reference *r, uint64_t id, const RouteRequest *req, const Route *route,
                      uint64_t timestep)
{
    uint32_t m = message_new(r), length = req->length != 0 ? req->length : 1;
    r->message[m] = (RefMessage){ id, timestep, req->src, req->dst, req->port, length, *route,
                                  NULL, 0 };
    if (route_is_multicast(req)) {              /* (a range becomes a list here) */
        const DestSet *set = req->set;
        uint32_t *members = malloc((size_t)set->n * sizeof *members);
        if (!members)
            abort();
        for (uint32_t i = 0; i < set->n; i++)
            members[i] = dest_set_member(set, i);
        r->message[m].members = members;
        r->message[m].nmembers = set->n;
    }
    /* The slot holds the whole message and offers its head first
     * (messages.md, "SEND"). */
    r->slot[req->src] = flit_new(r, m, 0);
    r->stats.sent++;
    r->stats.multicasts += req->set != NULL;
    r->stats.messages += req->length != 0;
    r->stats.flits_sent += length;
    r->in_flight += length;
    r->next_id = id + 1;
}

int reference_read(Reference *r, uint32_t p, uint32_t port, const NetPacket *taken, char *err,
                   size_t size)
{
    Queue *q = &r->port[(size_t)p * r->cfg.ports + port];
    uint32_t x = q->count ? queue_at(q, 0, r->cfg.port_depth) : REF_NONE;
    if (x == REF_NONE || message_of(r, x)->id != taken->id || r->flit[x].flit != taken->flit) {
        char a[48], b[48] = "none";
        net_packet_name(taken, a, sizeof a);
        if (x != REF_NONE) {
            NetPacket there = { .id = message_of(r, x)->id, .flit = r->flit[x].flit,
                                .length = message_of(r, x)->length };
            net_packet_name(&there, b, sizeof b);
        }
        snprintf(err, size, "an IN of p%u read %s from port %u, where the reference stage "
                 "has %s", p, a, port, b);
        return -1;
    }
    /* IN reads one word, the oldest; a message counts as read with its tail. */
    queue_pop(q, r->cfg.port_depth);
    if (is_tail(r, x)) {
        r->stats.read++;
        message_free(r, r->flit[x].msg);
    }
    flit_free(r, x);
    return 0;
}

/* ---- collisions (machine.md; messages.md, "Collisions") ----------------------- */

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

/* A failed claim on `link` (going `dir`, channel v) by flit x, held up by
 * flit `holder`: a link collision unless the holder is a flit of x's own
 * message, for "a flit waiting behind its own message is not a
 * collision". */
static void held_up(Reference *r, uint32_t x, uint32_t holder, uint32_t link, unsigned dir,
                    unsigned v)
{
    if (!same_message(r, x, holder))
        link_collision(r, link, dir, v);
}

/* Flit x refused by channel buffer cb in stage d: a head is one buffer
 * collision; a body flit is one only if cb holds a flit of another
 * message (a flit whose move out is not final yet still counts: it is in
 * cb until stage e). */
static void refused(Reference *r, uint32_t x, uint32_t cb)
{
    const Queue *q = &r->buffer[cb];
    bool other = is_head(r, x);
    for (unsigned i = 0; i < q->count && !other; i++)
        other = !same_message(r, x, queue_at(q, i, r->cfg.buffer));
    if (other)
        buffer_collision(r, cb / r->V, cb % r->V);
}

/* ---- the five sub-stages ----------------------------------------------------- */

/* A claim by `sender` on its link's temp slot (stages a and b, V = 1): it
 * takes the slot, or, if another claimed it in this timestep, fails at
 * once, and stays where it is. Whether that is a collision depends on
 * what held it up, the flit in the main slot if that slot will not be
 * free at stage e: so it is counted in stage e (failed_at_once). */
static void claim(Reference *r, uint32_t sender)
{
    unsigned dir;
    uint32_t link = sender_link(r, sender, &dir), c = wire_of(r, link, dir);
    if (r->temp[c] == REF_NONE) {
        r->temp[c] = sender;
        return;
    }
    r->failed[2 * r->nfailed] = sender;
    r->failed[2 * r->nfailed++ + 1] = c;
}

/* Under store-and-forward, whether channel buffer cb's first flit is the
 * head of a message whose tail is not in cb: then it does not claim, and
 * the buffer takes no part in stage b (messages.md, "Leaving a buffer").
 * Asked of the buffers as they are at the start of stage 4. */
static bool waits_for_tail(const Reference *r, uint32_t cb)
{
    const Queue *q = &r->buffer[cb];
    if (r->cfg.switching != SWITCHING_STORE_FORWARD || q->count == 0)
        return false;
    uint32_t x = queue_at(q, 0, r->cfg.buffer);
    if (!is_head(r, x))
        return false;
    for (unsigned i = 0; i < q->count; i++) {
        uint32_t y = queue_at(q, i, r->cfg.buffer);
        if (same_message(r, x, y) && is_tail(r, y))
            return false;
    }
    return true;
}

/* The output buffer that flit x, arriving at switch s going `dir` on
 * channel v, enters there: its route's up port below the turn (adaptive:
 * a head takes the up buffer whose channel v has more free places, ties
 * to bit l - 1 of the destination; every other flit of its message takes
 * the head's choice), else the down port its addressing names. *up_port
 * is the head's adaptive choice, or -1. */
static uint32_t route_buffer(Reference *r, uint32_t x, uint32_t s, unsigned dir, unsigned v,
                             int *up_port)
{
    const RefMessage *m = message_of(r, x);
    unsigned l = layer_of(r, s);
    *up_port = -1;
    if (dir == DIR_DOWN || l == m->route.count)
        return 4 * s + ((m->route.addressing >> (l - 1)) & 1);
    if (!r->cfg.adaptive || !is_head(r, x))
        return 4 * s + 2 + ((m->route.routing >> (l - 1)) & 1);
    unsigned c0 = queue_of(r, 4 * s + 2, v)->count, c1 = queue_of(r, 4 * s + 3, v)->count;
    *up_port = c0 == c1 ? (int)((m->dst >> (l - 1)) & 1) : c1 < c0;
    return 4 * s + 2 + (unsigned)*up_port;
}

/* Whether flit x may enter channel buffer cb in stage d (messages.md,
 * "Entering a buffer"): a body flit if cb has room (its own message owns
 * it); a head if no other message owns cb and it has room for one flit
 * (wormhole) or for the whole message (cut-through, store-and-forward).
 * Room counts every flit in cb now: a place freed by a move counts from
 * the next timestep, and flits that entered earlier in this loop have
 * taken theirs. */
static bool may_enter(const Reference *r, uint32_t x, uint32_t cb)
{
    unsigned room = r->cfg.buffer - r->buffer[cb].count;
    if (!is_head(r, x))
        return room >= 1;
    if (r->owner[cb] != REF_NONE)
        return false;
    return room >= (r->cfg.switching == SWITCHING_WORMHOLE ? 1 : message_of(r, x)->length);
}

/* Flit x (which has left its lane) enters channel v's queue of buffer b.
 * Its message owns the buffer from its head's entry until its tail's (a
 * message of one flit never does). */
static void enter(Reference *r, uint32_t x, uint32_t b, unsigned v)
{
    uint32_t cb = b * r->V + v;
    r->flit[x].dir = b % 4 >= 2 ? DIR_UP : DIR_DOWN;
    queue_push(&r->buffer[cb], x, r->cfg.buffer);
    if (is_tail(r, x))
        r->owner[cb] = REF_NONE;
    else if (is_head(r, x))
        r->owner[cb] = r->flit[x].msg;
    r->entered[2 * r->nentered] = cb;
    r->entered[2 * r->nentered++ + 1] = x;
    r->moved = true;
}

/* Stage d for a multicast packet x (one flit: a head) in lane `lane`
 * (channel v) going down from switch s (multicast.md): it needs the down
 * buffers below which its set has members; if every one would take it as
 * a head (room, and not owned by another message), it enters them,
 * splitting in two when it needs both (the copy, with the members of port
 * d1, is a message of its own and takes the next id); else it stays,
 * whole: one buffer collision. */
static void forward_set(Reference *r, uint32_t x, uint32_t s, uint32_t lane, unsigned v)
{
    unsigned l = layer_of(r, s);
    RefMessage *m = message_of(r, x);
    uint32_t n = m->nmembers, n0 = 0;
    while (n0 < n && !((m->members[n0] >> (l - 1)) & 1))
        n0++;                                   /* (ascending: d0's come first) */
    bool needs[2] = { n0 > 0, n0 < n };
    for (unsigned p = 0; p < 2; p++)
        if (needs[p] && !may_enter(r, x, (4 * s + p) * r->V + v)) {
            buffer_collision(r, 4 * s + p, v);
            return;
        }
    r->main[lane] = REF_NONE;
    if (needs[0] && needs[1]) {
        uint32_t c = message_new(r);            /* (may move r->message) */
        m = message_of(r, x);
        uint32_t *members = m->members;
        r->message[c] = *m;
        r->message[c].id = r->next_id++;
        set_members(&r->message[c], members + n0, n - n0);
        set_members(m, members, n0);
        free(members);
        uint32_t y = flit_new(r, c, 0);
        r->stats.copies++;
        r->in_flight++;
        enter(r, x, 4 * s, v);
        enter(r, y, 4 * s + 1, v);
    } else {
        enter(r, x, 4 * s + (needs[0] ? 0 : 1), v);
    }
}

/* Stage d for the flits in the lanes of wire c of link `link`, in
 * channel order, but those coming down to a processor: each enters its
 * channel's queue of the buffer its route names in the switch ahead if
 * that would take it, else it stays (refused). */
static void forward(Reference *r, uint32_t link, uint32_t c)
{
    for (unsigned v = 0; v < r->V; v++) {
        uint32_t lane = c * r->V + v, x = r->main[lane], s = link / 2;
        if (x == REF_NONE)
            continue;
        unsigned dir = r->flit[x].dir;
        if (dir == DIR_DOWN) {
            if (layer_of(r, s) == 1)
                continue;                                   /* stage c's */
            unsigned l = layer_of(r, s);
            s = switch_at(r, plane_of(r, s), l - 1, topo_down_switch(l, index_of(r, s), link % 2));
        }
        if (message_of(r, x)->nmembers &&
            (dir == DIR_DOWN || layer_of(r, s) == message_of(r, x)->route.count)) {
            forward_set(r, x, s, lane, v);
            continue;
        }
        int up_port;
        uint32_t b = route_buffer(r, x, s, dir, v, &up_port);
        if (!may_enter(r, x, b * r->V + v)) {
            refused(r, x, b * r->V + v);
            continue;
        }
        if (up_port >= 0)
            message_of(r, x)->route.routing |= (uint32_t)up_port << (layer_of(r, s) - 1);
        r->main[lane] = REF_NONE;
        enter(r, x, b, v);
    }
}

/* A message's tail arrived: it is delivered, with its latency from the
 * send. */
static void delivered(Reference *r, uint64_t latency)
{
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

/* Stage c for processor p: the flits coming down the lanes of its links,
 * oldest first, enter their input ports if those have room (a word each)
 * and, for a head, are not owned by another message; else they wait. */
static void deliver(Reference *r, uint32_t p, uint64_t t)
{
    uint32_t arriving[2 * NET_MAX_VCS], n = 0;
    for (unsigned plane = 0; plane < r->cfg.planes; plane++) {
        uint32_t link = 2 * switch_at(r, plane, 1, p >> 1) + (p & 1);
        for (unsigned v = 0; v < r->V; v++) {
            uint32_t lane = wire_of(r, link, DIR_DOWN) * r->V + v, x = r->main[lane];
            if (x != REF_NONE && r->flit[x].dir == DIR_DOWN)
                arriving[n++] = lane;
        }
    }
    for (uint32_t i = 1; i < n; i++)                  /* oldest first */
        for (uint32_t j = i; j > 0 && older(r, r->main[arriving[j]], r->main[arriving[j - 1]]);
             j--) {
            uint32_t lane = arriving[j];
            arriving[j] = arriving[j - 1];
            arriving[j - 1] = lane;
        }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t x = r->main[arriving[i]], pn = p * r->cfg.ports + message_of(r, x)->port;
        Queue *q = &r->port[pn];
        if (q->count == r->cfg.port_depth || (is_head(r, x) && r->port_owner[pn] != REF_NONE)) {
            r->stats.port_waits++;
            continue;
        }
        queue_push(q, x, r->cfg.port_depth);
        if (is_tail(r, x))
            r->port_owner[pn] = REF_NONE;
        else if (is_head(r, x))
            r->port_owner[pn] = r->flit[x].msg;
        r->main[arriving[i]] = REF_NONE;
        r->in_flight--;
        r->moved = true;
        r->stats.flits_delivered++;
        if (is_tail(r, x))
            delivered(r, t - message_of(r, x)->created);
    }
}

/* Moves the flit of `sender` (its output slot's, or the head of channel
 * v's queue of buffer `sender`) into lane `lane`, going `dir`. An output
 * slot then offers its message's next flit, from the next timestep, and
 * is empty once the tail has gone (messages.md, "SEND"). */
static void move_onto(Reference *r, uint32_t sender, unsigned v, uint32_t lane, unsigned dir)
{
    uint32_t x;
    if (sender >= r->buffers) {
        uint32_t p = sender - r->buffers;
        x = r->slot[p];
        r->slot[p] = is_tail(r, x) ? REF_NONE : flit_new(r, r->flit[x].msg, r->flit[x].flit + 1);
    } else {
        x = queue_pop(queue_of(r, sender, v), r->cfg.buffer);
    }
    r->main[lane] = x;
    r->flit[x].dir = dir;
    r->stats.links_crossed++;
    r->moved = true;
}

/* Stage e, first, V = 1: the claims that failed at once in stages a and
 * b. Stages c and d are over, so a main slot still full now will not be
 * free at stage e: what held the claim up is its flit, else the flit that
 * claimed the temp slot first (messages.md, "Collisions"). */
static void failed_at_once(Reference *r)
{
    for (size_t i = 0; i < r->nfailed; i++) {
        uint32_t sender = r->failed[2 * i], c = r->failed[2 * i + 1];
        unsigned dir;
        uint32_t link = sender_link(r, sender, &dir);
        uint32_t holder = r->main[c] != REF_NONE ? r->main[c] : sender_flit(r, r->temp[c], 0);
        held_up(r, sender_flit(r, sender, 0), holder, link, dir, 0);
    }
}

/* Stage e for wire c of link `link` (V = 1): its claimant moves onto
 * the link if the main slot is empty (the move is final), else goes back
 * where it came from, held up by the flit in the main slot. */
static void commit(Reference *r, uint32_t link, uint32_t c)
{
    uint32_t sender = r->temp[c];
    if (sender == REF_NONE)
        return;
    r->temp[c] = REF_NONE;
    unsigned claim_dir;
    sender_link(r, sender, &claim_dir);
    if (r->main[c] != REF_NONE) {
        held_up(r, sender_flit(r, sender, 0), r->main[c], link, claim_dir, 0);
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

/* The end of stage d: the largest occupancy, in flits. */
static void largest_occupancy(Reference *r)
{
    for (uint32_t b = 0; b < r->buffers * r->V; b++)
        if (r->buffer[b].count > r->stats.max_buffer)
            r->stats.max_buffer = r->buffer[b].count;
}

/* Stage e's last part: the flits that entered a queue in stage d and
 * queue behind another flit. The rule "counts heads only" (messages.md):
 * a body flit follows its head, which counted already if another
 * message was ahead of it. */
static void queued_behind(Reference *r)
{
    for (size_t i = 0; i < r->nentered; i++) {
        uint32_t cb = r->entered[2 * i], x = r->entered[2 * i + 1];
        if (is_head(r, x) && queue_at(&r->buffer[cb], 0, r->cfg.buffer) != x)
            buffer_collision(r, cb / r->V, cb % r->V);
    }
}

/* ---- virtual channels: claims on free lanes (channels.md) ------------------------ */

/* Stage a, V > 1: processor p's flit, on channel v = port mod V, claims
 * its first link's temp slot if lane v is free; else it is held up by the
 * flit in the lane. */
static void claim_from_slot(Reference *r, uint32_t p)
{
    uint32_t sender = r->buffers + p, x = r->slot[p];
    unsigned dir, v = message_of(r, x)->port % r->V;
    uint32_t link = sender_link(r, sender, &dir), c = wire_of(r, link, dir);
    if (r->main[c * r->V + v] != REF_NONE) {
        held_up(r, x, r->main[c * r->V + v], link, dir, v);
        return;
    }
    r->temp[c] = sender;                  /* (stage a comes first: it is unclaimed) */
    r->temp_lane[c] = c * r->V + v;
}

/* Stage b, V > 1: output port b's channel queues that held a flit at the
 * start of stage 4 and take part in stage b, in round-robin order from
 * its pointer. The first whose lane is free claims the temp slot unless
 * another claimed it; every other one is held up, by the flit on its
 * lane if that is not free, else by the flit that claimed the temp slot. */
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
        uint32_t holder = r->main[lane] != REF_NONE
                          ? r->main[lane] : sender_flit(r, r->temp[c], r->temp_lane[c] % r->V);
        held_up(r, sender_flit(r, b, v), holder, link, dir, v);
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
    /* The buffers at the start of stage 4; one waiting for its tail under
     * store-and-forward is passed over as if it were empty. */
    for (uint32_t cb = 0; cb < r->buffers * r->V; cb++)
        r->held[cb] = waits_for_tail(r, cb) ? 0 : r->buffer[cb].count;
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
    r->nfailed = 0;
    if (r->in_flight == 0)
        return;                 /* no flit in a slot, on a link or in a buffer */
    if (r->V > 1) {
        reference_step_vcs(r, t);
        return;
    }
    /* a. Adapters send. */
    for (uint32_t p = 0; p < r->n; p++)
        if (r->slot[p] != REF_NONE)
            claim(r, r->buffers + p);
    /* b. Switches send: plane 0 then 1, layer 1 to k, index, port d0 d1 u0 u1;
     * under store-and-forward a head waiting for its tail does not. */
    for (uint32_t b = 0; b < r->buffers; b++)
        if (r->buffer[b].count != 0 && !waits_for_tail(r, b))
            claim(r, b);
    /* c. Delivery. */
    for (uint32_t p = 0; p < r->n; p++)
        deliver(r, p, t);
    /* d. Forwarding. */
    for_each_link(r, forward);
    largest_occupancy(r);
    /* e. Collisions; then the heads that entered a buffer in stage d and
     * queue behind another flit. */
    failed_at_once(r);
    for_each_link(r, commit);
    queued_behind(r);
}
