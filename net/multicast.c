/* Multicast packets (spec/multicast.md): their destination sets, how a set
 * splits at a switch on the way down, the copies a split makes, and the
 * ids the copies get.
 *
 * A set is kept by pool index (Layout.sets, made at a run's first
 * multicast): a slice of a sorted list of members that the packet shares
 * with its copies (Net.lists, counted references), or a range of
 * processors but one, as a broadcast makes it. Either way the members
 * below a switch of layer l that a packet reaches going down agree in
 * every bit from l up, so they are in ascending order grouped by bit l - 1:
 * a split is a cut of the slice or of the range, found by a binary search
 * or by arithmetic, and a broadcast to 65,536 costs what a list of two
 * does. A part of one member makes its packet a unicast, whose way down
 * its route's addressing gives, as for any other.
 *
 * Copies take their ids after the stage d that made them, in the order of
 * the spec's loop over links (multicast.md), which the fast stage does not
 * follow: each split is listed with its place in that loop, and the list
 * is sorted when the stage is over. */
#include <stdlib.h>
#include <string.h>

#include "net/net_internal.h"

/* ---- lists of members ------------------------------------------------------- */

static uint32_t list_new(Net *net, const uint32_t *members, uint32_t n)
{
    uint32_t id;
    if (net->nfree_lists) {
        id = net->free_lists[--net->nfree_lists];
    } else {
        if (net->nlists + 1 >= net->lists_cap) {
            uint32_t cap = net->lists_cap ? 2 * net->lists_cap : 64;
            MemberList *lists = realloc(net->lists, cap * sizeof *lists);
            uint32_t *free_lists = realloc(net->free_lists, cap * sizeof *free_lists);
            if (lists)
                net->lists = lists;
            if (free_lists)
                net->free_lists = free_lists;
            if (!lists || !free_lists)
                abort();        /* a list per multicast in flight: cannot fail in practice */
            net->lists_cap = cap;
        }
        id = ++net->nlists;     /* (0 is no list) */
        net->lists[id].members = NULL;
    }
    MemberList *list = &net->lists[id];
    uint32_t *members_copy = realloc(list->members, (size_t)n * sizeof *members_copy);
    if (!members_copy)
        abort();
    memcpy(members_copy, members, (size_t)n * sizeof *members_copy);
    *list = (MemberList){ members_copy, n, 1 };
    return id;
}

static void list_drop(Net *net, uint32_t id)
{
    if (id != 0 && --net->lists[id].refs == 0)
        net->free_lists[net->nfree_lists++] = id;
}

/* ---- a packet's set ------------------------------------------------------------ */

int pool_grow_sets(Net *net, uint32_t cap)
{
    if (!net->lay.sets)
        return 0;
    PacketSet *sets = realloc(net->lay.sets, (size_t)cap * sizeof *sets);
    if (!sets)
        return -1;
    memset(sets + net->pool_cap, 0, (size_t)(cap - net->pool_cap) * sizeof *sets);
    net->lay.sets = sets;
    return 0;
}

void mc_make(Net *net, uint32_t x, const DestSet *set)
{
    if (!net->lay.sets) {
        net->lay.sets = calloc(net->pool_cap, sizeof *net->lay.sets);
        if (!net->lay.sets)
            abort();            /* a record per packet: cannot fail in practice */
    }
    PacketSet *ps = &net->lay.sets[x];
    if (set == NULL || set->n <= 1) {
        ps->hi = 0;             /* a unicast */
        return;
    }
    if (set->members)
        *ps = (PacketSet){ list_new(net, set->members, set->n), 0, set->n, DEST_NONE, 0 };
    else
        *ps = (PacketSet){ 0, set->lo, set->hi, set->except, set->all };
}

void mc_forget(Net *net, uint32_t x)
{
    if (net->lay.sets && net->lay.sets[x].hi != 0) {
        list_drop(net, net->lay.sets[x].list);
        net->lay.sets[x].hi = 0;
    }
}

/* How many members a set has, and its lowest. */
static uint32_t set_size(const PacketSet *ps)
{
    if (ps->list)
        return ps->hi - ps->lo;
    return ps->hi - ps->lo - (ps->except >= ps->lo && ps->except < ps->hi);
}

static uint32_t set_lowest(const Net *net, const PacketSet *ps)
{
    if (ps->list)
        return net->lists[ps->list].members[ps->lo];
    return ps->lo == ps->except ? ps->lo + 1 : ps->lo;
}

bool mc_describe(const Net *net, uint32_t x, DestSet *set)
{
    const PacketSet *ps = net->lay.sets ? &net->lay.sets[x] : NULL;
    if (!ps || ps->hi == 0)
        return false;
    if (ps->list)
        *set = (DestSet){ net->lists[ps->list].members + ps->lo, ps->hi - ps->lo, 0, 0,
                          DEST_NONE, false };
    else
        *set = (DestSet){ NULL, set_size(ps), ps->lo, ps->hi, ps->except, ps->all != 0 };
    return true;
}

/* ---- splitting -------------------------------------------------------------------- */

void mc_split(const Net *net, const PacketSet *ps, unsigned l, PacketSet part[2])
{
    uint32_t bit = 1u << (l - 1);
    part[0] = part[1] = *ps;
    part[0].all = part[1].all = 0;
    if (ps->list) {
        const uint32_t *m = net->lists[ps->list].members;
        uint32_t a = ps->lo, b = ps->hi;      /* the first member with the bit set */
        while (a < b) {
            uint32_t mid = a + (b - a) / 2;
            if (m[mid] & bit)
                b = mid;
            else
                a = mid + 1;
        }
        part[0].hi = part[1].lo = a;
    } else {
        uint32_t cut = (ps->lo & ~(2 * bit - 1)) + bit;     /* the first with the bit set */
        part[0].hi = ps->hi < cut ? ps->hi : cut;
        part[1].lo = ps->lo > cut ? ps->lo : cut;
    }
    for (int p = 0; p < 2; p++)
        if (part[p].hi <= part[p].lo || set_size(&part[p]) == 0)
            part[p].hi = 0;                 /* empty: no member below that port */
}

/* Makes packet x's set `part` (a part of the set it had, or of a copy's);
 * of one member, x becomes a unicast to it. The list's references are the
 * caller's business. */
static void set_part(Net *net, uint32_t x, const PacketSet *part)
{
    Layout *lay = &net->lay;
    uint32_t dst = set_lowest(net, part);
    lay->info[x].dst = dst;
    if (set_size(part) > 1) {
        lay->sets[x] = *part;
        return;
    }
    list_drop(net, part->list);
    lay->sets[x].hi = 0;
    Packet *pk = &lay->pool[x];
    pk->addressing = dst & ((2u << (pk->count - 1)) - 1);
    if (lay->compact)
        lay->routes[x] = packet_route_word(lay, pk);
}

uint32_t mc_divide(Net *net, uint32_t x, const PacketSet part[2])
{
    Layout *lay = &net->lay;
    uint32_t y = pool_take(net);
    lay->pool[y] = lay->pool[x];
    lay->info[y] = lay->info[x];
    lay->info[y].id = UINT64_MAX;           /* (mc_give_ids) */
    lay->routes[y] = lay->routes[x];
    if (part[1].list)
        net->lists[part[1].list].refs++;
    set_part(net, x, &part[0]);
    set_part(net, y, &part[1]);
    return y;
}

/* ---- ids of copies ------------------------------------------------------------------ */

uint64_t mc_link_key(const Layout *lay, uint32_t s, unsigned class)
{
    uint64_t procs = (uint64_t)lay->nprocs * lay->cfg.planes;
    unsigned l = sw_layer(lay, s), dirs = lay->cfg.full_duplex ? 2 : 1;
    if (class >= 2)                         /* down the link above up port class - 2 */
        return procs + ((uint64_t)s * 2 + (class - 2)) * dirs + (dirs - 1);
    if (l == 1)                             /* up a processor's link */
        return (uint64_t)topo_down_proc(sw_j(lay, s), class) * lay->cfg.planes +
               sw_plane(lay, s);
    unsigned port;                          /* up the link above a lower switch */
    uint32_t below = down_target(lay, 2 * s + class, l, &port);
    return procs + ((uint64_t)below * 2 + (port - 2)) * dirs;
}

static int compare_splits(const void *a, const void *b)
{
    uint64_t x = ((const Split *)a)->key, y = ((const Split *)b)->key;
    return x < y ? -1 : x > y;
}

void mc_give_ids(Net *net)
{
    for (unsigned i = 0; i < net->nlanes; i++) {
        SplitList *l = &net->lane[i].splits;
        if (l->n == 0)
            continue;
        qsort(l->items, l->n, sizeof *l->items, compare_splits);
    }
    /* The lanes' lists are merged as they are read: each sorted, the two
     * planes' keys interleave only on processor links. */
    size_t at[2] = { 0, 0 };
    for (;;) {
        int best = -1;
        for (unsigned i = 0; i < net->nlanes; i++) {
            const SplitList *l = &net->lane[i].splits;
            if (at[i] < l->n && (best < 0 ||
                                 l->items[at[i]].key < net->lane[best].splits.items[at[best]].key))
                best = (int)i;
        }
        if (best < 0)
            break;
        const Split *sp = &net->lane[best].splits.items[at[best]++];
        net->lay.info[sp->copy].id = net->next_id++;
        if (net->event)
            net_emit_split(net, sp);
    }
    for (unsigned i = 0; i < net->nlanes; i++)
        net->lane[i].splits.n = 0;
}
