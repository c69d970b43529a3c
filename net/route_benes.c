/* The thesis's routing (spec/routing.md `benes`, thesis 4.3-4.4 and 5.4): a
 * batch of send requests is split over the two planes so that each plane
 * carries a (partial) permutation, and each plane's permutation is routed
 * through the Beneš network by the looping algorithm, so that no two packets
 * sent together ever want the same link or buffer at the same time.
 *
 * The looping algorithm, level by level. At level l (layer l, 1 <= l < k) a
 * sub-network is named by the up ports b1..b(l-1) its packets took below it,
 * and a packet's terminals in it are s = src >> (l-1) and d = dst >> (l-1):
 * going up, the layer-l switch index is (src >> 1) with bits 0..l-2 replaced
 * by b1..b(l-1), so packets from s and s^1 of one sub-network share a
 * switch; coming down (net/topology.h), the layer-l switch index has bits
 * 0..l-2 = b1..b(l-1) and bits l-1.. = dst >> l, and the packet arrives in it
 * on up port b_l, so packets to d and d^1 of one sub-network share a switch
 * too. Each pair must take different up ports b_l (sub-networks). Those
 * constraints form chains and even cycles when the destinations are
 * distinct, so a 2-colouring exists; routing.md fixes which one. */
#include <string.h>

#include "common/hot.h"
#include "net/route_internal.h"
#include "net/topology.h"

/* Step 1, the plane split: in source order, each request goes to the plane
 * it alternates to unless that plane already carries a request to the same
 * destination, then to the other. Puts the batch positions of plane 0 and
 * then plane 1 into r->order, each in batch order; returns plane 0's size.
 * Sets *distinct when no source repeats in the batch and no destination
 * within a plane (benes_levels). */
static size_t benes_split(Router *r, const RouteRequest *reqs, size_t n,
                          Route *routes, bool *distinct)
{
    enum { SOURCE_SEEN = 4 };   /* mark's bits 0 and 1 are by plane */
    bool repeats = false;
    size_t n0 = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned p = r->planes == 2 ? (unsigned)(reqs[i].nth % 2) : 0;
        if (r->planes == 2 && (r->mark[reqs[i].dst] & (1u << p)))
            p ^= 1;
        repeats |= (r->mark[reqs[i].dst] >> p) & 1;
        r->mark[reqs[i].dst] |= (uint8_t)(1u << p);
        routes[i].plane = (uint8_t)p;
        n0 += p == 0;
    }
    for (size_t i = 0; i < n; i++) {
        repeats |= (r->mark[reqs[i].src] & SOURCE_SEEN) != 0;
        r->mark[reqs[i].src] |= SOURCE_SEEN;
    }
    size_t at0 = 0, at1 = n0;
    for (size_t i = 0; i < n; i++) {
        r->mark[reqs[i].dst] = 0;
        r->mark[reqs[i].src] = 0;
        r->order[routes[i].plane ? at1++ : at0++] = (uint32_t)i;
    }
    *distinct = !repeats && !r->reference_only;
    return n0;
}

/* Chains the group order[a..b) by source and by destination terminal. Going
 * backwards and pushing on the front leaves each chain in group order, i.e.
 * in increasing s, ties by request order. */
static void benes_link(Router *r, const RouteRequest *reqs, size_t a, size_t b,
                       unsigned shift)
{
    for (size_t i = b; i-- > a;) {
        uint32_t x = r->order[i];
        uint32_t s = reqs[x].src >> shift, d = reqs[x].dst >> shift;
        r->next_s[x] = r->head_s[s];
        r->head_s[s] = x + 1;
        r->next_d[x] = r->head_d[d];
        r->head_d[d] = x + 1;
        r->side[x] = ROUTE_UNSET;
    }
}

/* Clears the chain heads benes_link set, so they are zero for the next group. */
static void benes_unlink(Router *r, const RouteRequest *reqs, size_t a, size_t b,
                         unsigned shift)
{
    for (size_t i = a; i < b; i++) {
        uint32_t x = r->order[i];
        r->head_s[reqs[x].src >> shift] = 0;
        r->head_d[reqs[x].dst >> shift] = 0;
    }
}

/* Gives every partner on the chain starting at `head` that has no
 * sub-network yet the sub-network `side`, and queues it. A partner already
 * given one is skipped whatever it is (it can disagree only when
 * destinations repeat within the plane). */
static void benes_visit(Router *r, uint32_t head, const uint32_t *next,
                        uint8_t side, size_t *tail)
{
    for (uint32_t y = head; y; y = next[y - 1]) {
        if (r->side[y - 1] != ROUTE_UNSET)
            continue;
        r->side[y - 1] = side;
        r->queue[(*tail)++] = y - 1;
    }
}

/* Two-colours the linked group order[a..b): in group order, each packet not
 * yet coloured takes sub-network 0, then its linked set is coloured breadth
 * first, source partners (terminal s^1) before destination partners (every
 * packet to d^1). Each packet is queued at most once. Breadth first, a
 * packet's sub-network is the parity of its distance from the set's first
 * packet, whatever the order of visits within one step; depth first would
 * differ when destinations repeat. */
static void benes_colour(Router *r, const RouteRequest *reqs, size_t a, size_t b,
                         unsigned shift)
{
    for (size_t i = a; i < b; i++) {
        uint32_t root = r->order[i];
        if (r->side[root] != ROUTE_UNSET)
            continue;
        r->side[root] = 0;
        size_t head = 0, tail = 0;
        r->queue[tail++] = root;
        while (head < tail) {
            uint32_t x = r->queue[head++];
            uint8_t other = (uint8_t)(r->side[x] ^ 1);
            uint32_t s = reqs[x].src >> shift, d = reqs[x].dst >> shift;
            benes_visit(r, r->head_s[s ^ 1], r->next_s, other, &tail);
            benes_visit(r, r->head_d[d ^ 1], r->next_d, other, &tail);
        }
    }
}

/* Records each packet's sub-network as its up port at layer shift+1 and
 * stably partitions order[a..b) into sub-network 0's packets then 1's.
 * Returns the number in sub-network 0. (It spills into spill[a..b), so that
 * two planes, in disjoint ranges, can be partitioned at once.) */
static size_t benes_partition(Router *r, Route *routes, size_t a, size_t b,
                              unsigned shift)
{
    uint32_t *order = r->order, *spill = r->spill + a;
    const uint8_t *side = r->side;
    size_t zeros = a, ones = 0;
    for (size_t i = a; i < b; i++) {     /* (no branch on a side: random) */
        uint32_t x = order[i];
        unsigned one = side[x];
        routes[x].routing |= (uint32_t)one << shift;
        spill[ones] = x;                  /* (zeros <= i: order[i] is read) */
        order[zeros] = x;
        ones += one;
        zeros += 1u - one;
    }
    memcpy(order + zeros, spill, ones * sizeof *order);
    return zeros - a;
}

/* Routes the packets order[a..b) of one sub-network from level l up. A lone
 * packet takes sub-network 0 at every level left, which routing's zero bits
 * already say. Recursion depth is at most k - 1. */
static void benes_level(Router *r, const RouteRequest *reqs, Route *routes,
                        size_t a, size_t b, unsigned l)
{
    if (b - a < 2 || l >= r->k)
        return;
    unsigned shift = l - 1;
    benes_link(r, reqs, a, b, shift);
    benes_colour(r, reqs, a, b, shift);
    benes_unlink(r, reqs, a, b, shift);
    size_t zeros = benes_partition(r, routes, a, b, shift);
    benes_level(r, reqs, routes, a, a + zeros, l + 1);
    benes_level(r, reqs, routes, a + zeros, b, l + 1);
}

/* What the routing of one plane reads and writes, by the packets'
 * positions i in order (route_benes gives plane 0 the range [0, n0) and
 * plane 1 the rest): their keys by source and by destination, ks[i] and
 * kd[i], and their sub-networks side[i]; the plane's heads by key, head_s
 * and head_d (`keys` entries each), and the base of the values in them
 * (benes_levels); and, zero between batches, room for its group ends
 * (benes_route_plane). Which arrays these are depends on the way (walk or
 * breadth first) and the plane: benes_plane. */
typedef struct BenesPlane {
    uint32_t *ks, *kd;
    uint8_t *side;
    uint32_t *head_s, *head_d, *base;
    size_t keys;
    uint32_t *ends;
} BenesPlane;

/* A batch: its requests, and the routes made for them, by request. */
typedef struct BenesBatch {
    const RouteRequest *reqs;
    Route *routes;
} BenesBatch;

/* What the walks of one level read: the keys by source and destination
 * and their heads, the sub-networks given so far, the base of the level's
 * head values and the value of position 0 (`first`), and the level's bit.
 * Walks take it by value, so that its fields are locals: read through a
 * pointer, they would be read again after every store to `side`, which as
 * bytes may alias anything. */
typedef struct BenesWalk {
    const uint32_t *ks, *kd, *head_s, *head_d;
    uint8_t *side;
    uint32_t base, first, bit;
} BenesWalk;

/* One step of a walk (benes_walk) from packet *x of sub-network *side_x to
 * its partner by the keys `key` (by source or by destination) and their
 * heads: false if there is none (a value not above `base`, benes_levels)
 * or it has a sub-network already, else the partner (at the value less
 * `first`) takes the other one and becomes *x. */
static inline bool benes_step(BenesWalk w, const uint32_t *key, const uint32_t *head,
                              uint32_t *x, unsigned *side_x)
{
    uint32_t y = head[key[*x] ^ w.bit];
    if (y <= w.base || w.side[y - w.first] != ROUTE_UNSET)
        return false;
    *x = y - w.first;
    *side_x ^= 1;
    w.side[*x] = (uint8_t)*side_x;
    return true;
}

/* Walks from packet x, of sub-network side_x, to its partner by source if
 * `by_source`, else by destination, then to that one's partner of the other
 * kind, and so on, giving each the other sub-network from the one before,
 * until the walk meets a packet that has one or has no partner. */
static inline void benes_walk(BenesWalk w, uint32_t x, unsigned side_x, bool by_source)
{
    if (!by_source && !benes_step(w, w.kd, w.head_d, &x, &side_x))
        return;
    while (benes_step(w, w.ks, w.head_s, &x, &side_x) &&
           benes_step(w, w.kd, w.head_d, &x, &side_x))
        ;
}

/* The looping algorithm for a plane whose sources and destinations are all
 * distinct, as when every processor sends at once: every sub-network of a
 * level at once, with no partition.
 *
 * A packet's key by source at level l is its source with bits 0..l-2
 * replaced by the up ports b1..b(l-1) it took below (its sub-network):
 * the index of the layer-l switch it goes up through with, at bit l-1, the
 * port it enters by. Its source partner is the packet whose key differs in
 * bit l-1 alone, and the same holds for keys by destination (the layer-l
 * switch it comes down through). Since its sources and destinations are
 * distinct, no two packets share a key, so each packet has at most one
 * partner of each kind, and its linked set is a path or a cycle
 * alternating the two kinds, of even length, within its sub-network.
 * Breadth first from the set's first packet (benes_colour), a packet's
 * sub-network is the parity of its distance, which along a path or an even
 * cycle is the parity of the steps of a walk from the first packet in
 * either direction: so a walk each way colours the set as benes_colour
 * would, without chains or a queue (a test compares them). The sets of
 * different sub-networks never meet, and each sub-network's packets are met
 * in batch order, as its own group would be: so one pass over all of them
 * gives every sub-network the colouring that benes_level gives it group by
 * group. Then bit l-1 of both keys becomes the up port taken, which makes
 * them the keys of level l + 1, and after the last level bits 0..k-2 of a
 * key are the route's up ports.
 *
 * benes_levels does `levels` levels of that over positions [a, b), for keys
 * whose bit l-1 is level l's. The heads are never cleared: a level's
 * values are base + 1 .. base + (b - a), for the positions in order, and
 * the next level's base is this one's + (b - a), so a value left by an
 * earlier level, group or batch is not above the base and names nobody.
 * So a level is two passes over the packets, the walks and then one that
 * makes the next keys and writes their heads, with no stores to clear
 * heads (the stores to heads are the pass's misses). When the base would
 * pass 2^32, the heads are cleared once and it starts again at 0: after a
 * few thousand batches of every processor at 65,536, or far more of
 * smaller ones. */

/* Whether `levels` levels of positions [a, b) have any work; if so,
 * *base is the base of plane p's head values for them: where the last
 * levels left it, or, if the values would pass 2^32, 0 again with the
 * heads cleared. */
HOT bool benes_start(const BenesPlane *p, size_t a, size_t b, unsigned levels,
                              uint32_t *base)
{
    if (levels == 0 || a == b)
        return false;
    if (*p->base > UINT32_MAX - (uint64_t)levels * (b - a)) {
        memset(p->head_s, 0, p->keys * sizeof *p->head_s);
        memset(p->head_d, 0, p->keys * sizeof *p->head_d);
        *p->base = 0;
    }
    *base = *p->base;
    return true;
}

/* After a plane's last level l: bit l - 1 of the keys of positions [a, b)
 * becomes the up port each packet took there. */
HOT void benes_last_keys(uint32_t *ks, uint32_t *kd, const uint8_t *side, size_t a,
                                  size_t b, unsigned l)
{
    uint32_t bit = 1u << (l - 1);
    for (size_t i = a; i < b; i++) {
        uint32_t taken = (uint32_t)side[i] << (l - 1);
        ks[i] = (ks[i] & ~bit) | taken;
        kd[i] = (kd[i] & ~bit) | taken;
    }
}

HOT void benes_levels(const BenesPlane *p, size_t a, size_t b, unsigned levels)
{
    uint32_t base, *ks = p->ks, *kd = p->kd, *head_s = p->head_s, *head_d = p->head_d;
    uint32_t n = (uint32_t)(b - a);
    uint8_t *side = p->side;
    if (!benes_start(p, a, b, levels, &base))
        return;
    uint32_t first = base + 1 - (uint32_t)a;    /* position i has value i + first */
    for (size_t i = a; i < b; i++) {            /* each key's one packet */
        head_s[ks[i]] = (uint32_t)i + first;
        head_d[kd[i]] = (uint32_t)i + first;
        side[i] = ROUTE_UNSET;
    }
    for (unsigned l = 1; l <= levels; l++) {
        uint32_t bit = 1u << (l - 1);
        BenesWalk w = { ks, kd, head_s, head_d, side, base, first, bit };
        for (size_t i = a; i < b; i++) {
            if (side[i] != ROUTE_UNSET)
                continue;
            side[i] = 0;
            benes_walk(w, (uint32_t)i, 0, true);
            benes_walk(w, (uint32_t)i, 0, false);
        }
        base += n;
        first += n;
        if (l == levels) {
            benes_last_keys(ks, kd, side, a, b, l);
            break;
        }
        for (size_t i = a; i < b; i++) {        /* the next keys and their heads */
            uint32_t taken = (uint32_t)side[i] << (l - 1);
            uint32_t s = (ks[i] & ~bit) | taken, d = (kd[i] & ~bit) | taken;
            ks[i] = s;
            kd[i] = d;
            head_s[s] = (uint32_t)i + first;
            head_d[d] = (uint32_t)i + first;
            side[i] = ROUTE_UNSET;
        }
    }
    *p->base = base;
}

/* The general way's levels: the looping algorithm for a plane with
 * repeated terminals (a destination that the plane carries twice, or a
 * source repeated in a batch made by hand), over positions [a, b), with
 * keys ks and kd as benes_levels's: every sub-network of a level at once,
 * but a key may now be shared, so each is the head of a chain of the
 * packets that have it, in position order, and each linked set is coloured
 * breadth first from its first packet, source partners before destination
 * partners: what benes_colour does group by group in benes_level (which a
 * test compares it with), without partitioning the packets at each level.
 * (Breadth first, a packet's sub-network is the parity of its distance
 * from the set's first packet, so neither the order of a chain nor which
 * kind of partner comes first changes it: only the order of the roots
 * does.) Heads and chain links are values above the base, as in
 * benes_levels, and a link not above it ends its chain. */
HOT void benes_bfs_levels(Router *r, const BenesPlane *p, size_t a, size_t b,
                                   unsigned levels)
{
    uint32_t *next_s = r->next_s, *next_d = r->next_d, *queue = r->queue;
    uint32_t base, *ks = p->ks, *kd = p->kd, *head_s = p->head_s, *head_d = p->head_d;
    uint32_t n = (uint32_t)(b - a);
    if (!benes_start(p, a, b, levels, &base))
        return;
    uint8_t *side = p->side;
    uint32_t first = base + 1 - (uint32_t)a;   /* position i has value i + first */
    for (size_t i = b; i-- > a;) {  /* backwards: chains in position order */
        next_s[i] = head_s[ks[i]];  /* (a value not above base ends it) */
        next_d[i] = head_d[kd[i]];
        head_s[ks[i]] = (uint32_t)i + first;
        head_d[kd[i]] = (uint32_t)i + first;
        side[i] = ROUTE_UNSET;
    }
    for (unsigned l = 1;; l++) {
        uint32_t bit = 1u << (l - 1);
        for (size_t i = a; i < b; i++) {
            if (side[i] != ROUTE_UNSET)
                continue;
            side[i] = 0;
            size_t in = 0, out = 0;
            queue[out++] = (uint32_t)i;
            while (in < out) {
                uint32_t x = queue[in++];
                uint8_t other = (uint8_t)(side[x] ^ 1);
                for (uint32_t y = head_s[ks[x] ^ bit]; y > base; y = next_s[y - first])
                    if (side[y - first] == ROUTE_UNSET) {
                        side[y - first] = other;
                        queue[out++] = y - first;
                    }
                for (uint32_t y = head_d[kd[x] ^ bit]; y > base; y = next_d[y - first])
                    if (side[y - first] == ROUTE_UNSET) {
                        side[y - first] = other;
                        queue[out++] = y - first;
                    }
            }
        }
        base += n;
        first += n;
        if (l == levels) {
            benes_last_keys(ks, kd, side, a, b, l);
            break;
        }
        for (size_t i = b; i-- > a;) {  /* the next keys, chained as above */
            uint32_t taken = (uint32_t)side[i] << (l - 1);
            uint32_t s = (ks[i] & ~bit) | taken, d = (kd[i] & ~bit) | taken;
            ks[i] = s;
            kd[i] = d;
            next_s[i] = head_s[s];
            next_d[i] = head_d[d];
            head_s[s] = (uint32_t)i + first;
            head_d[d] = (uint32_t)i + first;
            side[i] = ROUTE_UNSET;
        }
    }
    *p->base = base;
}

/* Routes one plane, positions [a, b) of order, by the walk (benes_levels)
 * or, `general`, breadth first (benes_bfs_levels): its level-1 keys are
 * the requests' terminals, written to p's keys by position; its group ends
 * are zero, and zero again after.
 *
 * Either way, every sub-network of a level is routed at once, with heads
 * addressed by keys over all of N, which stop fitting the cache at some
 * size. So from the level whose sub-networks have 2^group_bits
 * terminals on, if the plane has at least as many packets as there are
 * such sub-networks, each sub-network's packets are put together, in
 * batch order as its walk needs (a stable counting sort by the up ports
 * taken so far, the low bits of their keys), with keys shifted down past
 * those ports, and routed on their own: the heads they address then span
 * 2^group_bits entries. Sorted, the packets' batch positions are in
 * spill, and the shifted keys, of group_bits <= 16 bits, go through queue
 * two to a word. */
HOT void benes_route_plane(Router *r, const BenesPlane *p, BenesBatch batch, size_t a,
                           size_t b, bool general)
{
    const RouteRequest *reqs = batch.reqs;
    Route *routes = batch.routes;
    const uint32_t *order = r->order;
    uint32_t *ks = p->ks, *kd = p->kd;
    if (b - a < 2)
        return;                     /* a lone packet: sub-network 0 throughout */
    for (size_t i = a; i < b; i++) {
        ks[i] = reqs[order[i]].src;
        kd[i] = reqs[order[i]].dst;
    }
    unsigned k = r->k, g = k;       /* g: the first level routed by groups */
    if (k > r->group_bits && r->group_bits <= 16 && (b - a) >> (k - r->group_bits) != 0)
        g = k - r->group_bits + 1;
    if (general)
        benes_bfs_levels(r, p, a, b, g - 1);
    else
        benes_levels(p, a, b, g - 1);
    uint32_t up_ports = route_low_mask(k - 1);
    if (g == k) {
        for (size_t i = a; i < b; i++)
            routes[order[i]].routing = ks[i] & up_ports;
        return;
    }
    /* The low g - 1 bits of a key are now the up ports taken (they name its
     * sub-network): its group. */
    unsigned below = g - 1;
    uint32_t groups = 1u << below, mask = groups - 1, *end = p->ends, *sorted = r->spill;
    for (size_t i = a; i < b; i++)
        end[(ks[i] & mask) + 1]++;
    for (uint32_t sub = 1; sub <= groups; sub++)    /* where each group starts */
        end[sub] += end[sub - 1];
    for (size_t i = a; i < b; i++) {               /* ...and then ends */
        size_t at = a + end[ks[i] & mask]++;
        sorted[at] = order[i];
        r->queue[at] = ks[i] >> below | (kd[i] >> below) << 16;
    }
    for (size_t i = a; i < b; i++) {
        ks[i] = r->queue[i] & 0xffff;
        kd[i] = r->queue[i] >> 16;
    }
    uint32_t start = 0;
    for (uint32_t sub = 0; sub < groups; sub++) {
        if (general)
            benes_bfs_levels(r, p, a + start, a + end[sub], k - g);
        else
            benes_levels(p, a + start, a + end[sub], k - g);
        for (size_t i = a + start; i < a + end[sub]; i++)
            routes[sorted[i]].routing = ((ks[i] << below) | sub) & up_ports;
        start = end[sub];
    }
    memset(end, 0, (groups + 1) * sizeof *end);
}

/* A plane with repeated terminals: breadth first (its keys, in the
 * reference way's terminal heads, zero again after). */
static void benes_general(Router *r, const BenesPlane *p, BenesBatch batch, size_t a, size_t b)
{
    benes_route_plane(r, p, batch, a, b, true);
    for (size_t i = a; i < b; i++)
        p->ks[i] = p->kd[i] = 0;
}

/* Both planes of a batch of distinct terminals at once (router_use_runner):
 * they touch disjoint ranges of order, spill, queue, keys and sides,
 * disjoint packets' routes, and heads and ends of their own. */
typedef struct BenesPlanes {
    Router *r;
    BenesPlane plane[2];
    BenesBatch batch;
    size_t n0, n;
} BenesPlanes;

static void benes_plane_job(void *arg, unsigned index)
{
    BenesPlanes *job = arg;
    if (index == 0)
        benes_route_plane(job->r, &job->plane[0], job->batch, 0, job->n0, false);
    else if (index == 1)
        benes_route_plane(job->r, &job->plane[1], job->batch, job->n0, job->n, false);
}

/* A plane's arrays (BenesPlane), with the heads of walk_heads[w]. The walk
 * keeps its keys in next_s and next_d (it has no chains) and its group ends
 * in the reference way's terminal heads, of plane 0 or 1 (zero between
 * batches; there are at most N/4 + 1 ends); breadth first (`general`,
 * never two planes at once), the chains are in next_s and next_d, so the
 * keys are in those terminal heads, and the group ends in group_ends. */
static BenesPlane benes_plane(Router *r, unsigned w, bool general)
{
    size_t procs = (size_t)1 << r->k;
    uint32_t *h = r->walk_heads[w];
    if (general)
        return (BenesPlane){ r->head_s, r->head_d, r->side, h, h + procs, &r->walk_base[w],
                             procs, r->group_ends };
    return (BenesPlane){ r->next_s, r->next_d, r->side, h, h + procs, &r->walk_base[w],
                         procs, w == 0 ? r->head_s : r->head_d };
}

void route_benes(Router *r, const RouteRequest *reqs, size_t n, Route *routes,
                 int turn_early)
{
    for (size_t i = 0; i < n; i++)
        routes[i].routing = 0;
    bool distinct;
    size_t n0 = benes_split(r, reqs, n, routes, &distinct);
    BenesBatch batch = { reqs, routes };
    if (distinct) {
        bool parallel = r->runner && n >= r->parallel_min && n0 != 0 && n0 != n;
        BenesPlanes job = { r, { benes_plane(r, 0, false), benes_plane(r, parallel ? 1 : 0, false) },
                            batch, n0, n };
        if (parallel) {
            r->runner(r->runner_ctx, benes_plane_job, &job);
        } else {
            benes_route_plane(r, &job.plane[0], batch, 0, n0, false);
            benes_route_plane(r, &job.plane[0], batch, n0, n, false);
        }
    } else if (!r->reference_only) {
        BenesPlane plane = benes_plane(r, 0, true);
        benes_general(r, &plane, batch, 0, n0);
        benes_general(r, &plane, batch, n0, n);
    } else {
        benes_level(r, reqs, routes, 0, n0, 1);
        benes_level(r, reqs, routes, n0, n, 1);
    }
    /* Step 3: turning at count keeps the up ports of the layers below it;
     * the links it then uses are a subset of the full route's, so the
     * early turn adds no conflict. */
    for (size_t i = 0; i < n; i++) {
        unsigned c = turn_early ? route_multicast_count(&reqs[i], topo_cmin(reqs[i].src, reqs[i].dst))
                                : r->k;
        routes[i].count = (uint8_t)c;
        routes[i].routing &= route_low_mask(c - 1);
        routes[i].addressing = reqs[i].dst & route_low_mask(c);
    }
}
