/* Multicast (multicast.md; multicast.c): a packet's set of destinations,
 * and its split, at a switch on the way down, into the parts below each
 * down port. */
#ifndef NET_MULTICAST_H
#define NET_MULTICAST_H

#include <stdbool.h>
#include <stdint.h>

#include "net/layout.h"
#include "net/route.h"
#include "net/state.h"

/* Multicast (multicast.c). Packet x's set made from a request's (at
 * least one member; one: a unicast); its set as reports show it (false
 * for a unicast); the parts of its set below the two down ports of a
 * switch of layer l (mc_split, below), for a list; x divided into those
 * parts, returning the copy (without an id yet); the copies' ids, given
 * after a stage d, in the spec's order (each split told to emit_split,
 * when not NULL, as its copy gets its id). */
void mc_make(Net *net, uint32_t x, const DestSet *set);
bool mc_describe(const Net *net, uint32_t x, DestSet *set);
void mc_split_list(const Net *net, const Packet *pk, unsigned l, McPart part[2]);
uint32_t mc_divide(Net *net, uint32_t x, const McPart part[2]);
void mc_give_ids(Net *net, void (*emit_split)(Net *net, const Split *split));

/* The part [lo, hi) of a range set of a packet from processor src: the
 * range's members are its processors but the source. */
static inline void mc_range_part(McPart *part, uint32_t lo, uint32_t hi, uint32_t src)
{
    bool has_src = src >= lo && src < hi;
    part->set = (PacketSet){ 0, lo, hi };
    part->n = hi > lo ? hi - lo - has_src : 0;
    part->lowest = lo == src ? lo + 1 : lo;
}

/* The parts of packet x's set below the two down ports of a switch of
 * layer l that it reaches going down. The members below such a switch
 * agree in every bit from l up, so in ascending order they are grouped by
 * bit l - 1: the parts are a cut of the range, found by arithmetic (here,
 * in the stage's loop: a broadcast splits at every switch on its way),
 * or of the list's slice, found by a binary search (multicast.c). */
static inline void mc_split(const Net *net, uint32_t x, unsigned l, McPart part[2])
{
    const Packet *pk = &net->lay.pool[x];
    if (pk->set.list) {
        mc_split_list(net, pk, l, part);
        return;
    }
    uint32_t bit = 1u << (l - 1), lo = pk->set.lo, hi = pk->set.hi;
    uint32_t cut = (lo & ~(2 * bit - 1)) + bit;        /* the first with the bit set */
    mc_range_part(&part[0], lo, hi < cut ? hi : cut, pk->info.src);
    mc_range_part(&part[1], lo > cut ? lo : cut, hi, pk->info.src);
}

/* The place, in the spec's loop over links, of the link that a packet
 * arriving at switch s in a class comes on (a split's key). */
static inline uint64_t mc_link_key(const Layout *lay, uint32_t s, unsigned class)
{
    uint64_t procs = (uint64_t)lay->nprocs * lay->cfg.planes;
    unsigned l = sw_layer(lay, s), dirs = shape_full_duplex(lay) ? 2 : 1;
    if (class >= 2)                         /* down the link above up port class - 2 */
        return procs + ((uint64_t)s * 2 + (class - 2)) * dirs + (dirs - 1);
    if (l == 1)                             /* up a processor's link */
        return (uint64_t)topo_down_proc(sw_j(lay, s), class) * lay->cfg.planes +
               sw_plane(lay, s);
    unsigned port;                          /* up the link above a lower switch */
    uint32_t below = down_target(lay, 2 * s + class, l, &port);
    return procs + ((uint64_t)below * 2 + (port - 2)) * dirs;
}

#endif
