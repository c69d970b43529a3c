/* The comparison of the reference stage (reference.c) with the fast one
 * (step.c), after every timestep of a run with --check: every flit's
 * place, its order in its buffer or port and its route, and every
 * statistic, and which message owns each buffer and input port. A flit
 * is known by its message's id and its index (messages.md: "#id.i", "#id"
 * for a message of one word); an output slot by the flit it offers next.
 * It reads the fast network through net.h only, and names the first place
 * where the two differ. */
#include "net/reference.h"

#include <stdio.h>
#include <string.h>

/* ---- the comparison ---------------------------------------------------------- */

/* A place of both stages, named only when they differ there. */
typedef enum { AT_SLOT, AT_LANE, AT_BUFFER, AT_PORT } PlaceKind;

typedef struct Place {
    PlaceKind kind;
    uint32_t index, port, position;   /* processor, lane or channel buffer; port;
                                         from 1 (0: the buffer or port as a whole) */
} Place;

static void place_name(const Reference *r, const Net *net, const Place *at, char *buf,
                       size_t size)
{
    char name[64];
    switch (at->kind) {
    case AT_SLOT:
        snprintf(buf, size, "the output slot of p%u", at->index);
        return;
    case AT_LANE: {
        uint32_t c = at->index / r->V;          /* (a lane of it) */
        char vc[16] = "";
        if (r->V > 1)
            snprintf(vc, sizeof vc, " vc%u", at->index % r->V);
        net_link_name(net, r->cfg.full_duplex ? c / 2 : c, name, sizeof name);
        snprintf(buf, size, "link %s%s%s", name,
                 !r->cfg.full_duplex ? "" : c % 2 == DIR_UP ? " up" : " down", vc);
        return;
    }
    case AT_BUFFER: {
        char vc[16] = "";                       /* (a channel buffer of it) */
        if (r->V > 1)
            snprintf(vc, sizeof vc, " vc%u", at->index % r->V);
        net_buffer_name(net, at->index / r->V, name, sizeof name);
        snprintf(buf, size, "buffer %s%s", name, vc);
        break;
    }
    case AT_PORT:
        snprintf(buf, size, "input port %u of p%u", at->port, at->index);
        break;
    }
    if (at->position != 0) {                /* (0: the buffer or port as a whole) */
        size_t len = strlen(buf);
        snprintf(buf + len, size - len, ", place %u", at->position);
    }
}

/* The fast stage's flit pk, or the reference's flit x, named as reports
 * name them: "#5", "#5.2", or "nothing". */
static const char *fast_text(char *buf, size_t size, bool any, const NetPacket *pk)
{
    if (!any)
        return "nothing";
    net_packet_name(pk, buf, size);
    return buf;
}

static const char *ref_text(const Reference *r, char *buf, size_t size, uint32_t x)
{
    if (x == REF_NONE)
        return "nothing";
    const RefMessage *m = &r->message[r->flit[x].msg];
    NetPacket named = { .id = m->id, .flit = r->flit[x].flit, .length = m->length };
    net_packet_name(&named, buf, size);
    return buf;
}

/* Whether the fast stage's flit goes where the reference's message does:
 * the same destination, or the same set. */
static bool same_destinations(const NetPacket *pk, const RefMessage *rp)
{
    if (pk->dst != rp->dst || pk->multicast != (rp->nmembers != 0))
        return false;
    if (!pk->multicast)
        return true;
    const DestSet *set = &pk->set;
    if (set->n != rp->nmembers)
        return false;
    for (uint32_t i = 0; i < set->n; i++)
        if (dest_set_member(set, i) != rp->members[i])
            return false;
    return true;
}

/* A comparison of the two stages: their states, and where its first
 * difference is written. */
typedef struct Comparison {
    const Reference *r;
    Net *net;
    char *err;
    size_t size;
} Comparison;

/* One place's flit in both stages: the fast one's (any, pk) and the
 * reference's x. The same flit is the same message (id and length) and
 * index, going the same way, with the same route and destinations. */
static int same_flit(const Comparison *c, bool any, const NetPacket *pk, uint32_t x,
                       const Place *at)
{
    const Reference *r = c->r;
    char *err = c->err;
    size_t size = c->size;
    char a[48], b[48], place[128];
    bool ref_any = x != REF_NONE;
    const RefFlit *rf = ref_any ? &r->flit[x] : NULL;
    const RefMessage *rm = ref_any ? &r->message[rf->msg] : NULL;
    bool same_id = any && ref_any && pk->id == rm->id && pk->flit == rf->flit &&
                     pk->length == rm->length;
    if (any == ref_any && (!any || (same_id && pk->dir == rf->dir &&
                                    pk->route.routing == rm->route.routing &&
                                    same_destinations(pk, rm))))
        return 0;
    place_name(r, c->net, at, place, sizeof place);
    fast_text(a, sizeof a, any, pk);
    ref_text(r, b, sizeof b, x);
    if (same_id && !same_destinations(pk, rm))
        snprintf(err, size, "%s: flit %s goes to %u%s in the fast stage, to %u%s in the "
                 "reference stage", place, a, pk->dst, pk->multicast ? " and others" : "",
                 rm->dst, rm->nmembers ? " and others" : "");
    else if (same_id)
        snprintf(err, size, "%s: flit %s is going %s with routing 0x%x in the fast stage, "
                 "%s with 0x%x in the reference stage", place, a,
                 pk->dir == DIR_UP ? "up" : "down", pk->route.routing,
                 rf->dir == DIR_UP ? "up" : "down", rm->route.routing);
    else
        snprintf(err, size, "%s holds %s in the fast stage, %s in the reference stage", place,
                 a, b);
    return -1;
}

/* A FIFO of both stages: a buffer or an input port (at), of `count`
 * flits in the fast stage and the queue q of `places` in the reference. */
static int same_queue(const Comparison *c, const Queue *q, unsigned places, uint32_t count,
                      Place *at)
{
    Net *net = c->net;
    unsigned n = count > q->count ? count : q->count;
    for (unsigned i = 0; i < n; i++) {
        NetPacket pk;
        bool any = i < count && (at->kind == AT_BUFFER
                                 ? net_buffer_packet(net, at->index, i, &pk)
                                 : net_port_packet(net, at->index, at->port, i, &pk));
        at->position = i + 1;
        if (same_flit(c, any, &pk, i < q->count ? queue_at(q, i, places) : REF_NONE, at) != 0)
            return -1;
    }
    return 0;
}

/* Which message owns a buffer or an input port (at) in both stages: the
 * fast one's (owned, id) and the reference's message m. Ownership runs
 * from a head's entry to its tail's (messages.md), so it says where a
 * message is still coming in even when none of its flits is there. */
static int same_owner(const Comparison *c, bool owned, uint64_t id, uint32_t m, const Place *at)
{
    const Reference *r = c->r;
    bool ref_owned = m != REF_NONE;
    if (owned == ref_owned && (!owned || id == r->message[m].id))
        return 0;
    char place[128], a[32] = "nothing", b[32] = "nothing";
    place_name(r, c->net, at, place, sizeof place);
    if (owned)
        snprintf(a, sizeof a, "#%llu", (unsigned long long)id);
    if (ref_owned)
        snprintf(b, sizeof b, "#%llu", (unsigned long long)r->message[m].id);
    snprintf(c->err, c->size, "%s is owned by %s in the fast stage, by %s in the reference "
             "stage", place, a, b);
    return -1;
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
    for (unsigned v = 0; v < NET_MAX_VCS; v++) {
        snprintf(what, sizeof what, "link collisions on channel %u", v);
        if (same_count(what, f->vc_link[v], g->vc_link[v], err, size) != 0)
            return -1;
        snprintf(what, sizeof what, "buffer collisions on channel %u", v);
        if (same_count(what, f->vc_buffer[v], g->vc_buffer[v], err, size) != 0)
            return -1;
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
           same_count("multicasts", f->multicasts, g->multicasts, err, size) ||
           same_count("messages", f->messages, g->messages, err, size) ||
           same_count("flits sent", f->flits_sent, g->flits_sent, err, size) ||
           same_count("flits delivered", f->flits_delivered, g->flits_delivered, err, size) ||
           same_count("copies", f->copies, g->copies, err, size) ||
           same_count("links crossed", f->links_crossed, g->links_crossed, err, size) ||
           same_count("port waits", f->port_waits, g->port_waits, err, size) ||
           same_count("latency sum", f->latency_sum, g->latency_sum, err, size) ||
           same_count("largest buffer occupancy", f->max_buffer, g->max_buffer, err, size)
           ? -1 : 0;
}

int reference_compare(const Reference *r, Net *net, char *err, size_t size)
{
    const Comparison c = { r, net, err, size };
    NetPacket pk;
    if (same_count("flits in flight", net_in_flight(net), r->in_flight, err, size) != 0)
        return -1;
    if (r->in_flight == 0 && !r->moved && !net_moved(net))
        return same_stats(r, net_stats(net), err, size);   /* no place can have changed */
    for (uint32_t p = 0; p < r->n; p++) {
        Place at = { AT_SLOT, p, 0, 0 };
        bool any = net_slot_packet(net, p, &pk);
        if (same_flit(&c, any, &pk, r->slot[p], &at) != 0)
            return -1;
    }
    for (uint32_t lane = 0; lane < r->wires * r->V; lane++) {
        Place at = { AT_LANE, lane, 0, 0 };
        bool any = net_link_packet(net, lane, &pk);
        if (same_flit(&c, any, &pk, r->main[lane], &at) != 0)
            return -1;
    }
    for (uint32_t b = 0; b < r->buffers * r->V; b++) {
        Place at = { AT_BUFFER, b, 0, 0 };
        uint64_t id = 0;
        bool owned = net_buffer_owner(net, b, &id);
        if (same_queue(&c, &r->buffer[b], r->cfg.buffer, net_buffer_count(net, b), &at) != 0)
            return -1;
        at.position = 0;
        if (same_owner(&c, owned, id, r->owner[b], &at) != 0)
            return -1;
    }
    for (uint32_t p = 0; p < r->n; p++)
        for (uint32_t port = 0; port < r->cfg.ports; port++) {
            Place at = { AT_PORT, p, port, 0 };
            size_t pn = (size_t)p * r->cfg.ports + port;
            uint64_t id = 0;
            bool owned = net_port_owner(net, p, port, &id);
            if (same_queue(&c, &r->port[pn], r->cfg.port_depth, net_port_count(net, p, port),
                           &at) != 0)
                return -1;
            at.position = 0;
            if (same_owner(&c, owned, id, r->port_owner[pn], &at) != 0)
                return -1;
        }
    if (same_stats(r, net_stats(net), err, size) != 0)
        return -1;
    return same_count("whether anything moved", net_moved(net), r->moved, err, size);
}
