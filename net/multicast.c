/* Multicast packets (spec/multicast.md): their destination sets, how a set
 * splits at a switch on the way down, the copies a split makes, and the
 * ids the copies get.
 *
 * A set is kept in the packet's record (Packet.set): a slice of a sorted
 * list of members that the packet shares with its copies (Net.lists,
 * counted references), or a range of processors but the source, as a
 * broadcast makes it. Either way a split is a cut of the slice or of the
 * range (mc_split, multicast.h), and a broadcast to 65,536 costs what
 * a list of two does. A part of one member makes its packet a unicast,
 * whose way down its route's addressing gives, as for any other.
 *
 * Copies take their ids after the stage d that made them, in the order of
 * the spec's loop over links (multicast.md), which the fast stage does not
 * follow: each split is listed with its place in that loop, and the list
 * is sorted when the stage is over. */
#include <stdlib.h>
#include <string.h>

#include "net/layout.h"
#include "net/multicast.h"
#include "net/pool.h"

/* ---- lists of members ------------------------------------------------------- */

/* A new list of set's members (a list's, or a range's written out). */
static uint32_t list_new(Net *net, const DestSet *set)
{
    uint32_t n = set->n;
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
    if (set->members)
        memcpy(members_copy, set->members, (size_t)n * sizeof *members_copy);
    else
        for (uint32_t i = 0; i < n; i++)
            members_copy[i] = dest_set_member(set, i);
    *list = (MemberList){ members_copy, n, 1 };
    return id;
}

static void list_drop(Net *net, uint32_t id)
{
    if (id != 0 && --net->lists[id].refs == 0)
        net->free_lists[net->nfree_lists++] = id;
}

/* ---- a packet's set ------------------------------------------------------------ */

/* How many members set ps of a packet from processor src has. A range
 * has every processor in it but the source. */
static uint32_t set_size(const PacketSet *ps, uint32_t src)
{
    if (ps->list)
        return ps->hi - ps->lo;
    return ps->hi - ps->lo - (src >= ps->lo && src < ps->hi);
}

/* Whether a range of the machine's processors is `all` (multicast.md):
 * the range [0, N) of a broadcast, as MOUT makes it. A part of a set is
 * never all of the machine. */
static bool range_is_all(const Net *net, const PacketSet *ps)
{
    return ps->list == 0 && ps->lo == 0 && ps->hi == net->lay.nprocs;
}

void mc_make(Net *net, uint32_t x, const DestSet *set)
{
    net->lay.multicast = true;
    Packet *pk = &net->lay.pool[x];
    if (set->n <= 1) {
        pk->set.hi = 0;         /* a unicast */
        return;
    }
    uint32_t src = pk->info.src;
    bool but_source = set->except == src || (set->except == DEST_NONE &&
                                             (src < set->lo || src >= set->hi));
    PacketSet range = { 0, set->lo, set->hi };
    if (!set->members && but_source && set->all == range_is_all(net, &range)) {
        pk->set = range;
        return;
    }
    /* A list, or a range that a packet's set cannot say (it leaves out
     * another processor than the source, or is all of the machine
     * without being `all`): its members, listed. */
    pk->set = (PacketSet){ list_new(net, set), 0, set->n };
}

bool mc_describe(const Net *net, uint32_t x, DestSet *set)
{
    const Packet *pk = &net->lay.pool[x];
    const PacketSet *ps = &pk->set;
    if (ps->hi == 0)
        return false;
    if (ps->list)
        *set = (DestSet){ net->lists[ps->list].members + ps->lo, ps->hi - ps->lo, 0, 0,
                          DEST_NONE, false };
    else
        *set = (DestSet){ NULL, set_size(ps, pk->info.src), ps->lo, ps->hi, pk->info.src,
                          range_is_all(net, ps) };
    return true;
}

/* ---- splitting -------------------------------------------------------------------- */

void mc_split_list(const Net *net, const Packet *pk, unsigned l, McPart part[2])
{
    const PacketSet *ps = &pk->set;
    const uint32_t *m = net->lists[ps->list].members;
    uint32_t bit = 1u << (l - 1), a = ps->lo, b = ps->hi;   /* the first member with the bit set */
    while (a < b) {
        uint32_t mid = a + (b - a) / 2;
        if (m[mid] & bit)
            b = mid;
        else
            a = mid + 1;
    }
    part[0] = (McPart){ { ps->list, ps->lo, a }, a - ps->lo, m[ps->lo] };
    part[1] = (McPart){ { ps->list, a, ps->hi }, ps->hi - a, a < ps->hi ? m[a] : 0 };
}

/* Makes packet x (pk) part `part` of the set it had, or of a copy's; of
 * one member, x becomes a unicast to it. The list's references are the
 * caller's business. */
static void set_part(Net *net, uint32_t x, Packet *pk, const McPart *part)
{
    pk->info.dst = part->lowest;
    if (part->n > 1) {
        pk->set = part->set;
        return;
    }
    list_drop(net, part->set.list);
    pk->set.hi = 0;
    pk->addressing = part->lowest & ((2u << (pk->count - 1)) - 1);
    if (net->lay.compact)
        net->lay.routes[x] = packet_route_word(&net->lay, pk);
}

uint32_t mc_divide(Net *net, uint32_t x, const McPart part[2])
{
    Packet *pool = net->lay.pool;
    uint32_t y = pool_take(net);
    pool[y] = pool[x];
    pool[y].info.id = UINT64_MAX;           /* (mc_give_ids) */
    if (part[1].set.list)
        net->lists[part[1].set.list].refs++;
    set_part(net, x, &pool[x], &part[0]);
    set_part(net, y, &pool[y], &part[1]);
    return y;
}

/* ---- ids of copies ------------------------------------------------------------------ */

/* Sorts a share's splits by key: into l->order, as words key << 32 | the
 * split's index. Keys are below P + 4 * switches (mc_link_key), under
 * 2^31 for every k <= 24, and the splits of a stage are as many as the
 * packets on links, so a radix sort of RADIX_BITS a digit, over only the
 * digits the largest key has, takes a few passes over a short array (a
 * comparison sort spent more time than the stage d that made them). */
enum { RADIX_BITS = 11, SPLIT_PREFETCH_DISTANCE = 16 };

static const uint64_t *sort_splits(SplitList *l)
{
    uint64_t *a = l->order, *b = l->order + l->cap, top = 0;
    for (size_t i = 0; i < l->n; i++) {
        a[i] = l->items[i].key << 32 | i;
        top |= l->items[i].key;
    }
    for (unsigned shift = 32; (top >> (shift - 32)) != 0; shift += RADIX_BITS) {
        size_t at[1u << RADIX_BITS] = { 0 };
        for (size_t i = 0; i < l->n; i++)
            at[(a[i] >> shift) & ((1u << RADIX_BITS) - 1)]++;
        for (size_t d = 0, sum = 0; d < 1u << RADIX_BITS; d++) {
            size_t count = at[d];
            at[d] = sum;
            sum += count;
        }
        for (size_t i = 0; i < l->n; i++)
            b[at[(a[i] >> shift) & ((1u << RADIX_BITS) - 1)]++] = a[i];
        uint64_t *t = a;
        a = b;
        b = t;
    }
    return a;
}

void mc_give_ids(Net *net, void (*emit_split)(Net *net, const Split *split))
{
    const uint64_t *sorted[2] = { NULL, NULL };
    for (unsigned i = 0; i < net->nshares; i++)
        if (net->share[i].splits.n)
            sorted[i] = sort_splits(&net->share[i].splits);
    /* The shares' lists are merged as they are read: each sorted, the two
     * planes' keys interleave only on processor links. */
    size_t at[2] = { 0, 0 };
    Packet *pool = net->lay.pool;
    for (;;) {
        int best = -1;
        for (unsigned i = 0; i < net->nshares; i++)
            if (at[i] < net->share[i].splits.n &&
                (best < 0 || sorted[i][at[i]] >> 32 < sorted[best][at[best]] >> 32))
                best = (int)i;
        if (best < 0)
            break;
        const SplitList *l = &net->share[best].splits;
        /* (A run of one share's splits, up to the other share's next key.) */
        uint64_t bound = UINT64_MAX;
        for (unsigned i = 0; i < net->nshares; i++)
            if ((int)i != best && at[i] < net->share[i].splits.n)
                bound = sorted[i][at[i]] >> 32;
        const uint64_t *order = sorted[best];
        size_t j = at[best];
        for (; j < l->n && order[j] >> 32 < bound; j++) {
            if (j + SPLIT_PREFETCH_DISTANCE < l->n)    /* (the copy's record left the cache) */
                PREFETCH(&pool[l->items[(uint32_t)order[j + SPLIT_PREFETCH_DISTANCE]].copy]);
            const Split *sp = &l->items[(uint32_t)order[j]];
            pool[sp->copy].info.id = net->next_id++;
            if (emit_split)
                emit_split(net, sp);
        }
        at[best] = j;
    }
    for (unsigned i = 0; i < net->nshares; i++)
        net->share[i].splits.n = 0;
}
