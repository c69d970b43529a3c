/* Index arithmetic shared by net.c and step.c (see net.h for the numbering).
 * Not part of the network's interface. */
#ifndef NET_NET_INTERNAL_H
#define NET_NET_INTERNAL_H

#include "net/net.h"
#include "net/topology.h"

/* For the few helpers of the hot loops that the compiler would otherwise
 * call rather than inline. */
#if defined(__GNUC__)
#define NET_HOT static inline __attribute__((always_inline))
#else
#define NET_HOT static inline
#endif

/* Switch (plane, layer, j). */
static inline uint32_t sw_index(const Net *net, unsigned plane, unsigned layer, uint32_t j)
{
    return ((plane * net->cfg.k + layer - 1) << (net->cfg.k - 1)) + j;
}

static inline uint32_t sw_j(const Net *net, uint32_t s) { return s & (net->half - 1); }

/* The layer (1..k) of switch s: s >> (k - 1) is plane * k + layer - 1, and
 * the plane is 0 or 1. */
static inline unsigned sw_layer(const Net *net, uint32_t s)
{
    unsigned row = s >> (net->cfg.k - 1);
    return (row >= net->cfg.k ? row - net->cfg.k : row) + 1;
}

/* The channel of link `link` used by a packet travelling in `dir`. */
static inline uint32_t link_channel(const Net *net, uint32_t link, unsigned dir)
{
    return net->cfg.full_duplex ? 2 * link + dir : link;
}

static inline uint32_t channel_link(const Net *net, uint32_t c)
{
    return net->cfg.full_duplex ? c >> 1 : c;
}

/* The plane-`plane` link of processor p (layer 1). */
static inline uint32_t proc_link(const Net *net, uint32_t p, unsigned plane)
{
    return 2 * sw_index(net, plane, 1, topo_proc_switch(p)) + topo_proc_port(p);
}

/* The link above up port b of switch s at layer l < k: link 2S' + x, where
 * S' = (l+1, j') is the switch it reaches and x the down port it arrives on.
 * The topology's functions read and replace bit l - 1 of j = s mod H, which
 * is bit l - 1 of s itself (l - 1 < k - 1), so they are given s: the bits
 * above j (plane and layer) pass through, and + H is the layer above. */
static inline uint32_t up_link(const Net *net, uint32_t s, unsigned l, unsigned b)
{
    uint32_t upper = topo_up_switch(l, s, b) + net->half;
    return 2 * upper + topo_up_arrival_port(l, s);
}

/* The link attached to port q (0 d0, 1 d1, 2 u0, 3 u1) of switch s at layer l. */
static inline uint32_t port_link(const Net *net, uint32_t s, unsigned l, unsigned q)
{
    return q < 2 ? 2 * s + q : up_link(net, s, l, q - 2);
}

/* Where a packet going down link 2S + x (link layer l > 1) arrives: the
 * switch below and its up port (2 + b). As in up_link, bit l - 2 of j is
 * that of S, and - H is the layer below. */
static inline uint32_t down_target(const Net *net, uint32_t link, unsigned l, unsigned *q)
{
    uint32_t s = link >> 1;
    *q = 2 + topo_down_arrival_port(l, s);
    return topo_down_switch(l, s, link & 1) - net->half;
}

/* Where the main slot of channel c is: with the output port that sends into
 * it, so that a packet leaving a buffer finds its link's slot on the
 * buffer's own line. With --duplex full the down channel of link 2S + x is
 * sent into by down port x of S, and its up channel by the up port of the
 * switch below that the link leaves (at layer 1, by processor 2j + x's
 * adapter). With --duplex half a link's one channel is sent into from both
 * ends; its slot is with down port x of S. The slot's holder, as one
 * number: buffer b (its `link`) when below 4 * nswitches, else the adapter
 * slot adapter_links[h - 4 * nswitches]. A packet on a link, in no FIFO,
 * keeps its slot's holder in its `next`, so that stage c or d marks or
 * empties the slot (SLOT_BLOCKED, below) without working it out again. */
static inline uint32_t channel_holder(const Net *net, uint32_t c)
{
    uint32_t link = channel_link(net, c), s = link >> 1;
    if (!net->cfg.full_duplex || (c & 1) == DIR_DOWN)
        return 4 * s + (link & 1);
    unsigned l = sw_layer(net, s);
    if (l == 1) {
        uint32_t plane = (s >> (net->cfg.k - 1)) >= net->cfg.k;
        return 4 * net->nswitches + (plane << net->cfg.k) + topo_down_proc(sw_j(net, s), link & 1);
    }
    unsigned q;
    uint32_t below = down_target(net, link, l, &q);
    return 4 * below + q;
}

static inline uint32_t *holder_slot(const Net *net, uint32_t holder)
{
    uint32_t buffers = 4 * net->nswitches;
    return holder < buffers ? &net->buffers[holder].link : &net->adapter_links[holder - buffers];
}

static inline uint32_t *channel_main(const Net *net, uint32_t c)
{
    return holder_slot(net, channel_holder(net, c));
}

/* A main slot is written when a packet gets on the link (stage e) but not
 * emptied when it gets off again (stages c and d), since that would take a
 * line of the switch the packet left a timestep before. What stage e needs
 * to know of a slot is only whether a packet is still on the link, and a
 * packet put on a link in one timestep has gone by the next one's stage e
 * unless it was refused (by a full buffer or input port) in stage c or d.
 * So a refusal marks the slot, and only the packets refused there empty it
 * when they leave. A slot therefore holds NET_NIL, x | SLOT_BLOCKED (x is on
 * the link, refused at least once), or x alone: x was put on the link and
 * is still there only if it has not been through a stage c or d since,
 * which between timesteps means its place still names this channel
 * (slot_packet). A refused packet carries the same bit in its `next` (its
 * slot's holder), so that it need not read its slot to know. */
#define SLOT_BLOCKED 0x80000000u

/* The packet on channel c, or NET_NIL (between timesteps; see above). */
static inline uint32_t slot_packet(const Net *net, uint32_t c)
{
    uint32_t x = *channel_main(net, c);
    if (x & SLOT_BLOCKED)
        return x & ~SLOT_BLOCKED;
    if (x != NET_NIL && net->pool[x].place == PLACE_LINK && net->pool[x].at == c)
        return x;
    return NET_NIL;
}

/* The channel a claimant (an output-slot packet or a buffer head) wants in
 * stages a and b, that link's layer, and where the claimant will be heading
 * once it is on the link (what heading_of, below, will say then), all from
 * the slot or buffer it leaves. A buffer's direction is its port's: down
 * ports 0, 1 send down, up ports 2, 3 up. (net_check compares every
 * heading computed here with heading_of's, in the debug build at every
 * timestep.) */
NET_HOT uint32_t claim_target(const Net *net, const Packet *pk, unsigned *layer,
                              uint32_t *heading)
{
    if (pk->place == PLACE_SLOT) {
        uint32_t s = sw_index(net, pk->plane, 1, topo_proc_switch(pk->at));   /* its source */
        unsigned x = topo_proc_port(pk->at);
        *layer = 1;
        *heading = (4 * s + x) << 1;
        return link_channel(net, 2 * s + x, DIR_UP);
    }
    uint32_t s = pk->at >> 2;
    unsigned q = pk->at & 3, l = pk->layer;
    if (q >= 2) {                   /* up, into a down port of the switch above */
        uint32_t link = up_link(net, s, l, q - 2);
        *layer = l + 1;
        *heading = (4 * (link >> 1) + (link & 1)) << 1;
        return link_channel(net, link, DIR_UP);
    }
    uint32_t link = 2 * s + q;      /* down: to the switch below, or a processor */
    *layer = l;
    if (l == 1) {
        *heading = topo_down_proc(sw_j(net, s), q) << 2 | (uint32_t)pk->plane << 1 | 1;
    } else {
        unsigned arrival;
        uint32_t below = down_target(net, link, l, &arrival);
        *heading = (4 * below + arrival) << 1;
    }
    return link_channel(net, link, DIR_DOWN);
}

static inline uint32_t wanted_channel(const Net *net, const Packet *pk, unsigned *layer)
{
    uint32_t heading;
    return claim_target(net, pk, layer, &heading);
}

/* Where the packet on a link (pk->at, a channel) is heading: true with the
 * switch it enters, that switch's layer and the port it arrives on (d0, d1
 * going up; u0, u1 coming down), or false when it is coming down the last
 * link, into processor *s. */
static inline bool link_heading(const Net *net, const Packet *pk, uint32_t *s,
                                unsigned *layer, unsigned *q)
{
    uint32_t link = channel_link(net, pk->at);
    if (pk->dir == DIR_UP) {
        *s = link >> 1;
        *layer = pk->layer;
        *q = link & 1;
        return true;
    }
    if (pk->layer == 1) {
        *s = topo_down_proc(sw_j(net, link >> 1), link & 1);
        return false;
    }
    *s = down_target(net, link, pk->layer, q);
    *layer = pk->layer - 1u;
    return true;
}

/* Where a packet on a link is heading, as one number: (4S + q) << 1 when it
 * enters port q of switch S, (p << 2 | plane << 1 | 1) when it comes down the
 * last link of its plane to processor p. */
static inline uint32_t heading_of(const Net *net, const Packet *pk)
{
    uint32_t s;
    unsigned layer, q;
    if (link_heading(net, pk, &s, &layer, &q))
        return (4 * s + q) << 1;
    return s << 2 | (uint32_t)pk->plane << 1 | 1;
}

/* The list (net.h, ARRIVAL_CLASSES) of a packet on a link heading `heading`:
 * the port it arrives on, or ARRIVE_DELIVERY on the last link down. */
static inline unsigned arrival_class(uint32_t heading)
{
    return heading & 1 ? ARRIVE_DELIVERY : (heading >> 1) & 3;
}

/* The lane that handles packet pk: its plane's, or the only one. */
static inline unsigned lane_index(const Net *net, const Packet *pk)
{
    return net->nlanes > 1 ? pk->plane : 0;
}

static inline NetLane *lane_of(Net *net, const Packet *pk)
{
    return &net->lane[lane_index(net, pk)];
}

/* Makes room for n entries in a list (step.c). */
void net_list_reserve(IndexList *l, size_t n);
void net_links_reserve(OnLinkList *l, size_t n);

/* Wakes the packets asleep on input port `port` (an index into net->ports:
 * processor * ports + port) after an IN read it (step.c). */
void net_wake_port(Net *net, uint32_t port);

#endif
