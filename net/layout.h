/* Where everything is: the numbering of the network's switches, links,
 * wires, buffers and senders as pure index functions of its Layout
 * (net.h draws the numbers), where a packet that a sender sends goes (its
 * hop), and how a buffer keeps its places. The network stage reads these
 * for every packet, so they are inline. */
#ifndef NET_LAYOUT_H
#define NET_LAYOUT_H

#include "common/hot.h"
#include "net/encode.h"
#include "net/shape.h"
#include "net/state.h"
#include "net/topology.h"

/* ---- the shape (shape.h): constants in a shaped copy of the sweep --------- */

static inline unsigned shape_vcs(const Layout *lay)
{
    return SHAPE_ANY ? lay->cfg.vcs : SHAPE_VCS;
}

/* log2 of V rounded up to a power of two (channel_of). */
static inline unsigned shape_vshift(const Layout *lay)
{
    return SHAPE_ANY ? lay->vshift : SHAPE_VCS == 4 ? 2 : 0;
}

/* With V > 1, the size of a port's PortTurn (turn_of). */
static inline unsigned shape_turn_size(const Layout *lay)
{
    return SHAPE_ANY ? lay->turn_size : SHAPE_VCS == 1 ? 0 : (unsigned)PORT_TURN_SIZE(SHAPE_VCS);
}

static inline bool shape_full_duplex(const Layout *lay)
{
    return SHAPE_ANY ? lay->cfg.full_duplex : SHAPE_FULL_DUPLEX;
}

static inline bool shape_multicast(const Layout *lay)
{
    return SHAPE_ANY ? lay->multicast : SHAPE_MULTICAST;
}

static inline bool shape_messages(const Layout *lay)
{
    return SHAPE_MESSAGES < 0 ? lay->messages : SHAPE_MESSAGES;
}

/* How messages of several words move (net.h): in every shaped copy,
 * wormhole switching. */
static inline NetSwitching shape_switching(const Layout *lay)
{
    return SHAPE_ANY ? lay->cfg.switching : SWITCHING_WORMHOLE;
}

/* Routes in words (k <= 16): every shaped copy has them. */
static inline bool shape_compact(const Layout *lay) { return !SHAPE_ANY || lay->compact; }
static inline bool shape_adaptive(const Layout *lay) { return SHAPE_ANY && lay->cfg.adaptive; }

/* Buffers of more than INLINE_PLACES places: their rings, or NULL. */
static inline uint32_t **shape_rings(const Layout *lay)
{
    return SHAPE_ANY ? lay->rings : NULL;
}

/* Switch (plane, layer, j). */
static inline uint32_t sw_index(const Layout *lay, unsigned plane, unsigned layer, uint32_t j)
{
    return ((plane * lay->cfg.k + layer - 1) << (lay->cfg.k - 1)) + j;
}

static inline uint32_t sw_j(const Layout *lay, uint32_t s) { return s & (lay->half - 1); }

/* The layer (1..k) of switch s: s >> (k - 1) is its row, plane * k +
 * layer - 1, whose layer a table gives (net_new). */
static inline unsigned sw_layer(const Layout *lay, uint32_t s)
{
    return lay->row_layer[s >> (lay->cfg.k - 1)];
}

/* ---- channels --------------------------------------------------------------
 *
 * Sender h's channel v (state.h): its record, and back. Reports and
 * packets' places name a channel buffer b * V + v and a lane c * V + v
 * (net.h): channel_public and channel_of_public turn the one into the
 * other (the same number with V = 1). */
static inline uint32_t channel_of(const Layout *lay, uint32_t h, unsigned v)
{
    return h << shape_vshift(lay) | v;
}

static inline uint32_t channel_sender(const Layout *lay, uint32_t c) { return c >> shape_vshift(lay); }
static inline unsigned channel_v(const Layout *lay, uint32_t c)
{
    return c & ((1u << shape_vshift(lay)) - 1);
}

static inline uint32_t channel_public(const Layout *lay, uint32_t c)
{
    return channel_sender(lay, c) * shape_vcs(lay) + channel_v(lay, c);
}

static inline uint32_t channel_of_public(const Layout *lay, uint32_t cb)
{
    return channel_of(lay, cb / shape_vcs(lay), cb % shape_vcs(lay));
}

/* With V > 1, sender h's PortTurn, and the queue of channel c's buffer. */
static inline PortTurn *turn_of(const Layout *lay, uint32_t h)
{
    return (PortTurn *)(lay->turns + (size_t)h * shape_turn_size(lay));
}

static inline ChannelQueue *queue_of(const Layout *lay, uint32_t c)
{
    return &turn_of(lay, channel_sender(lay, c))->queue[channel_v(lay, c)];
}

/* The wire of link `link` that a packet travelling in `dir` is on. */
static inline uint32_t link_wire(const Layout *lay, uint32_t link, unsigned dir)
{
    return shape_full_duplex(lay) ? 2 * link + dir : link;
}

static inline uint32_t wire_link(const Layout *lay, uint32_t c)
{
    return shape_full_duplex(lay) ? c >> 1 : c;
}

/* The plane-`plane` link of processor p (layer 1). */
static inline uint32_t proc_link(const Layout *lay, uint32_t p, unsigned plane)
{
    return 2 * sw_index(lay, plane, 1, topo_proc_switch(p)) + topo_proc_port(p);
}

/* The link above up port b of switch s at layer l < k: link 2S' + x, where
 * S' = (l+1, j') is the switch it reaches and x the down port it arrives on.
 * The topology's functions read and replace bit l - 1 of j = s mod H, which
 * is bit l - 1 of s itself (l - 1 < k - 1), so they are given s: the bits
 * above j (plane and layer) pass through, and + H is the layer above. */
static inline uint32_t up_link(const Layout *lay, uint32_t s, unsigned l, unsigned b)
{
    uint32_t upper = topo_up_switch(l, s, b) + lay->half;
    return 2 * upper + topo_up_arrival_port(l, s);
}

/* The link attached to port q (0 d0, 1 d1, 2 u0, 3 u1) of switch s at layer l. */
static inline uint32_t port_link(const Layout *lay, uint32_t s, unsigned l, unsigned q)
{
    return q < 2 ? 2 * s + q : up_link(lay, s, l, q - 2);
}

/* Where a packet going down link 2S + x (link layer l > 1) arrives: the
 * switch below and its up port (2 + b). As in up_link, bit l - 2 of j is
 * that of S, and - H is the layer below. */
static inline uint32_t down_target(const Layout *lay, uint32_t link, unsigned l, unsigned *q)
{
    uint32_t s = link >> 1;
    *q = 2 + topo_down_arrival_port(l, s);
    return topo_down_switch(l, s, link & 1) - lay->half;
}

/* ---- senders --------------------------------------------------------------
 *
 * A sender sends into one link: a switch's down port into the link below
 * it (to the switch below, or at layer 1 to a processor), an up port into
 * the link above it, an adapter into its processor's link. The packet it
 * sends is heading, once on the link, for `claim_heading`: the port of the
 * switch it will enter, or the processor it comes down to.
 *
 * The state of a link's slot (encode.h, the slot word) is kept by one
 * sender, its keeper (slot_keeper): with --duplex full the link's only
 * sender in that direction; with --duplex half, where both ends of a link
 * send into its one slot, the down port of the switch above. */

static inline bool is_adapter(const Layout *lay, uint32_t h) { return h >= lay->nbuffers; }

/* The adapter of processor p in a plane, and back. */
static inline uint32_t adapter_sender(const Layout *lay, unsigned plane, uint32_t p)
{
    return lay->nbuffers + proc_on_plane(lay->cfg.k, p, plane);
}

static inline uint32_t adapter_proc(const Layout *lay, uint32_t h)
{
    return pop_proc(lay->cfg.k, h - lay->nbuffers);
}

/* The plane of switch s: its row s >> (k - 1) is plane * k + layer - 1. */
static inline unsigned sw_plane(const Layout *lay, uint32_t s)
{
    return (s >> (lay->cfg.k - 1)) >= lay->cfg.k;
}

static inline unsigned sender_plane(const Layout *lay, uint32_t h)
{
    if (is_adapter(lay, h))
        return pop_plane(lay->cfg.k, h - lay->nbuffers);
    return sw_plane(lay, h >> 2);
}

/* Where a packet that sender h sends will be heading on the link (a
 * heading, encode.h), with the layer of that link, and its direction. */
HOT uint32_t claim_heading(const Layout *lay, uint32_t h, unsigned *layer, unsigned *dir)
{
    if (is_adapter(lay, h)) {
        uint32_t p = adapter_proc(lay, h);
        uint32_t s = sw_index(lay, sender_plane(lay, h), 1, topo_proc_switch(p));
        *layer = 1;
        *dir = DIR_UP;
        return heading_port(4 * s + topo_proc_port(p));
    }
    uint32_t s = h >> 2;
    unsigned q = h & 3, l = sw_layer(lay, s);
    if (q >= 2) {                   /* up, into a down port of the switch above */
        uint32_t link = up_link(lay, s, l, q - 2);
        *layer = l + 1;
        *dir = DIR_UP;
        return heading_port(4 * (link >> 1) + (link & 1));
    }
    *layer = l;
    *dir = DIR_DOWN;
    if (l == 1)
        return heading_proc(proc_on_plane(lay->cfg.k, topo_down_proc(sw_j(lay, s), q),
                                          sw_plane(lay, s)));
    unsigned arrival;
    uint32_t below = down_target(lay, 2 * s + q, l, &arrival);
    return heading_port(4 * below + arrival);
}

/* The link (2S + x) that sender h sends into, given its claim_heading. */
static inline uint32_t claim_link(const Layout *lay, uint32_t h, uint32_t heading, unsigned dir)
{
    (void)lay;
    if (dir == DIR_UP) {            /* into down port x of the switch S above */
        uint32_t port = heading_value(heading);
        return 2 * (port >> 2) + (port & 1);
    }
    return 2 * (h >> 2) + (h & 3);
}

/* The keeper of the slot of the link that h sends into. */
static inline uint32_t slot_keeper(const Layout *lay, uint32_t h, uint32_t heading, unsigned dir)
{
    if (shape_full_duplex(lay) || dir == DIR_DOWN)
        return h;
    return heading_value(heading);  /* 4S + x: the down port x of the switch above */
}

/* The sender that sends up into link 2S + x, S at layer l: the adapter of
 * processor 2j + x at layer 1, else an up port of the switch below. */
static inline uint32_t up_sender(const Layout *lay, uint32_t s, unsigned l, unsigned x)
{
    if (l == 1)
        return adapter_sender(lay, sw_plane(lay, s), topo_down_proc(sw_j(lay, s), x));
    unsigned q;
    uint32_t below = down_target(lay, 2 * s + x, l, &q);
    return 4 * below + q;
}

/* The keeper of the slot of the link that arrives on port a of switch s
 * (at layer l): from below (a = 0, 1) the link 2s + a going up, from above
 * (a = 2, 3) the link above up port a - 2 going down. */
static inline uint32_t arrival_keeper(const Layout *lay, uint32_t s, unsigned l, unsigned a)
{
    if (a >= 2) {
        uint32_t link = up_link(lay, s, l, a - 2);
        return 4 * (link >> 1) + (link & 1);
    }
    return shape_full_duplex(lay) ? up_sender(lay, s, l, a) : 4 * s + a;
}

/* ---- buffers -------------------------------------------------------------- */

/* The places of buffer b (its Sender buf): on its own line, or its ring;
 * each holds a place word (encode.h). */
static inline uint32_t *places_of(const Layout *lay, Sender *buf, uint32_t b)
{
    return shape_rings(lay) == NULL ? buf->place : shape_rings(lay)[b];
}

/* How many places its ring has now: B, or for deeper buffers what it has
 * grown to. */
static inline unsigned ring_capacity(const Layout *lay, const Sender *buf)
{
    if (shape_rings(lay) == NULL)
        return lay->cfg.buffer;
    unsigned cap = 8u << buf->ring.size;
    return cap < lay->cfg.buffer ? cap : lay->cfg.buffer;
}

/* The place word of buffer b's head (b holds a packet): the first of its own
 * places, or its ring's head. */
static inline uint32_t head_word(const Layout *lay, const Sender *buf, uint32_t b)
{
    return shape_rings(lay) == NULL ? buf->place[0] : shape_rings(lay)[b][buf->ring.head];
}

/* ---- routes and hops ----------------------------------------------------------- */

/* Packet pk's route word (encode.h), which networks of k <= 16 keep by
 * pool index; larger networks read the route from the pool. */
static inline uint32_t packet_route_word(const Layout *lay, const Packet *pk)
{
    return shape_compact(lay) ? route_word(pk->routing, pk->count, pk->addressing) : 0;
}

/* Packet x's route: its up ports with a 1 above them at bit count - 1, and
 * its down ports. */
HOT void packet_route(const Layout *lay, uint32_t x, uint32_t *up, uint32_t *down)
{
    if (shape_compact(lay)) {
        uint32_t w = lay->routes[x];
        *up = route_word_up(w);
        *down = route_word_down(w);
    } else {
        const Packet *pk = &lay->pool[x];
        *up = pk->routing | 1u << (pk->count - 1);
        *down = pk->addressing;
    }
}

/* The output port of switch layer l that a packet with route (up, down)
 * takes, arriving going up or coming down. */
HOT unsigned route_out(uint32_t up, uint32_t down, unsigned l, bool going_up)
{
    if (going_up && (up >> l) != 0)
        return 2 + ((up >> (l - 1)) & 1);
    return (down >> (l - 1)) & 1;             /* the turn, or on the way down */
}

/* The output port that packet x, in buffer b, will take in the switch that
 * b's link leads to (0 when the link goes down to a processor). */
HOT unsigned next_port(const Layout *lay, uint32_t b, uint32_t x)
{
    uint32_t up, down;
    packet_route(lay, x, &up, &down);
    unsigned l = sw_layer(lay, b >> 2);
    if ((b & 3) >= 2) {             /* up, into the switch of layer l + 1 */
        bool turns = (up >> (l + 1)) == 0;
        return turns ? (down >> l) & 1 : 2 + ((up >> l) & 1);
    }
    /* Down, into an up port of layer l - 1: bit l - 2 of down (from layer
     * 1, nothing: the shift by one more makes it 0 without a branch). */
    return ((down << 1) >> (l - 1)) & 1;
}

/* Where a packet that sender h sends will go once it is on the link, but
 * for the port it takes there: 4S for switch S ahead, whose buffer 4S + q
 * its route names (q: next_port, for an adapter route_out at layer 1); or
 * on the last link down, the processor on a plane it comes to. *class is
 * its arrival class: the port it arrives on, or ARRIVE_DELIVERY. This is
 * claim_heading's walk written out for the hot path, without the heading
 * it would have to unpack; test_net_internals checks that the two agree
 * for every sender. */
HOT uint32_t hop_switch(const Layout *lay, uint32_t h, unsigned *class)
{
    if (is_adapter(lay, h)) {
        uint32_t p = adapter_proc(lay, h);
        *class = topo_proc_port(p);
        return 4 * sw_index(lay, sender_plane(lay, h), 1, topo_proc_switch(p));
    }
    uint32_t s = h >> 2;
    unsigned q = h & 3, l = sw_layer(lay, s);
    if (q >= 2) {                   /* up, into a down port of the switch above */
        *class = topo_up_arrival_port(l, s);
        return 4 * (topo_up_switch(l, s, q - 2) + lay->half);
    }
    if (l == 1) {                   /* down the last link */
        *class = ARRIVE_DELIVERY;
        return proc_on_plane(lay->cfg.k, topo_down_proc(sw_j(lay, s), q), sw_plane(lay, s));
    }
    *class = 2 + topo_down_arrival_port(l, s);
    return 4 * (topo_down_switch(l, s, q) - lay->half);
}

/* The layer of the lists (NetShare) that sender h is listed in as a
 * claimant: its switch's, or for an adapter 0 (the adapters' claims come
 * first in stage e of layer 1: step.c). */
static inline unsigned sender_list_layer(const Layout *lay, uint32_t h)
{
    return is_adapter(lay, h) ? 0 : sw_layer(lay, h >> 2);
}

/* ...and that a packet on a link, of arrival class c going to `target`
 * (hop_target), is listed in: the layer of the switch it arrives at, or
 * for a delivery 1. */
static inline unsigned link_list_layer(const Layout *lay, unsigned c, uint32_t target)
{
    return c == ARRIVE_DELIVERY ? 1 : sw_layer(lay, target >> 2);
}

/* Port b's hop word (Sender.hop or PortTurn.hop, encode.h), in networks
 * whose routes are words. Stage e works it out the first time a port sends
 * and reads it after that, from the line it reads for the claim anyway:
 * working it out for every claim would cost a walk of the topology and a
 * branch on the direction that the host cannot predict. It is written
 * when the port is first used, not when the network is made, so that an
 * idle network touches no port. */
_Static_assert(LIST_LAYERS == 1 << HOP_LAYER_BITS, "a hop word keeps a list's layer");

HOT uint32_t hop_word(const Layout *lay, uint32_t b)
{
    unsigned class;
    uint32_t ahead = hop_switch(lay, b, &class);
    return hop_pack(ahead, class, link_list_layer(lay, class, ahead));
}

/* Where packet x, sent by sender h, will go once it is on the link: the
 * buffer that its route names in the switch ahead, which it will try to
 * enter in the next stage d (for adaptive routing, on the way up, u0:
 * stage d chooses), or on the last link down, the processor on a plane it
 * comes to; with its arrival class. Stage e adds to hop_switch the port
 * kept in the place word of a buffer's head, or for an adapter's packet
 * the first port of its route. */
HOT uint32_t hop_target(const Layout *lay, uint32_t h, uint32_t x, unsigned *class)
{
    uint32_t base = hop_switch(lay, h, class);
    if (is_adapter(lay, h)) {
        uint32_t up, down;
        packet_route(lay, x, &up, &down);
        return base + route_out(up, down, 1, true);
    }
    return base + next_port(lay, h, x);
}

/* The links a packet has crossed: in a buffer of switch layer l, or on a
 * link of layer l, going up or down, with its route's count c. */
static inline unsigned links_in_buffer(unsigned l, unsigned dir, unsigned c)
{
    return dir == DIR_UP ? l : 2 * c - l;
}

static inline unsigned links_on_link(unsigned l, unsigned dir, unsigned c)
{
    return dir == DIR_UP ? l : 2 * c - l + 1;
}

/* The link (2S + x) whose slot sender ki keeps, for a packet on it going
 * `dir`: with --duplex full the link ki sends into, with --duplex half the
 * link below down port x of S = ki >> 2. */
static inline uint32_t slot_link(const Layout *lay, uint32_t ki, unsigned dir)
{
    if (dir == DIR_UP && shape_full_duplex(lay)) {
        unsigned layer, d;
        uint32_t heading = claim_heading(lay, ki, &layer, &d);
        return claim_link(lay, ki, heading, d);
    }
    return 2 * (ki >> 2) + (ki & 3);
}

/* Records in the pool that packet x is on lane v of link `link` going
 * `dir` (its place for reports and observers; net_settle). */
static inline void settle_on_link(Net *net, uint32_t x, uint32_t link, unsigned dir, unsigned v,
                                  PacketSleep asleep)
{
    Packet *pk = &net->lay.pool[x];
    unsigned l = sw_layer(&net->lay, link >> 1);
    pk->place = PLACE_LINK;
    pk->at = link_wire(&net->lay, link, dir) * shape_vcs(&net->lay) + v;
    pk->dir = (uint8_t)dir;
    pk->layer = (uint8_t)l;
    pk->links = (uint8_t)links_on_link(l, dir, pk->count);
    pk->asleep = (uint8_t)asleep;
}

/* ...that it is in channel c's buffer, before packet `next` (NET_NIL:
 * the last). */
static inline void settle_in_buffer(Net *net, uint32_t x, uint32_t c, uint32_t next,
                                    PacketSleep asleep)
{
    Packet *pk = &net->lay.pool[x];
    uint32_t b = channel_sender(&net->lay, c);
    unsigned l = sw_layer(&net->lay, b >> 2), dir = (b & 3) >= 2 ? DIR_UP : DIR_DOWN;
    pk->place = PLACE_BUFFER;
    pk->at = channel_public(&net->lay, c);
    pk->next = next;
    pk->dir = (uint8_t)dir;
    pk->layer = (uint8_t)l;
    pk->links = (uint8_t)links_in_buffer(l, dir, pk->count);
    pk->asleep = (uint8_t)asleep;
}

/* The link and direction of an awake packet on a link: listed in class c
 * with its target and keeper word (OnLink). */
static inline uint32_t listed_link(const Layout *lay, unsigned c, uint32_t target, uint32_t ki,
                                   unsigned *dir)
{
    if (c < 2) {
        *dir = DIR_UP;
        return 2 * (target >> 2) + c;
    }
    *dir = DIR_DOWN;
    return slot_link(lay, keeper_of(ki), DIR_DOWN);
}

/* The share that handles sender h's packets: its plane's, or the only one. */
static inline unsigned share_index(const Net *net, uint32_t h)
{
    return net->nshares > 1 ? sender_plane(&net->lay, h) : 0;
}

/* ---- channel buffers ------------------------------------------------------
 *
 * Channel c's buffer: with one channel, in its sender's record (its own
 * places, or its ring); with more, a queue in the port's PortTurn. */

/* How many packets it holds. */
static inline uint32_t buffer_count(const Layout *lay, uint32_t c)
{
    return shape_vcs(lay) == 1 ? lay->senders[c].count : queue_of(lay, c)->count;
}

/* The place word of its head (it holds a packet). */
static inline uint32_t buffer_head_word(const Layout *lay, uint32_t c)
{
    if (shape_vcs(lay) == 1)
        return head_word(lay, &lay->senders[c], c);
    return queue_of(lay, c)->head;
}

/* The place word of its i-th packet (i < its count). */
static inline uint32_t buffer_place_word(const Layout *lay, uint32_t c, uint32_t i)
{
    if (shape_vcs(lay) > 1) {
        const ChannelQueue *q = queue_of(lay, c);
        if (i + 1u == q->count)
            return q->tail;
        uint32_t w = q->head;
        while (i-- > 0)
            w = lay->next_place[place_packet(w)];
        return w;
    }
    Sender *buf = &lay->senders[c];
    unsigned cap = ring_capacity(lay, buf), at = (shape_rings(lay) ? buf->ring.head : 0) + i;
    return places_of(lay, buf, c)[at >= cap ? at - cap : at];
}

/* The packet `i` places behind its head (0: the head), or NET_NIL beyond
 * its count. */
static inline uint32_t buffer_packet_at(const Layout *lay, uint32_t c, uint32_t i)
{
    if (i >= buffer_count(lay, c))
        return NET_NIL;
    return place_packet(buffer_place_word(lay, c, i));
}

/* The keeper of wire c's slots. */
static inline uint32_t wire_keeper(const Layout *lay, uint32_t c)
{
    uint32_t link = wire_link(lay, c), s = link >> 1;
    if (!shape_full_duplex(lay) || (c & 1) == DIR_DOWN)
        return 4 * s + (link & 1);
    return up_sender(lay, s, sw_layer(lay, s), link & 1);
}

/* How many senders there are: the buffers, then the adapters. */
static inline size_t sender_count(const Net *net)
{
    return net->lay.nbuffers + (size_t)net->lay.cfg.planes * net->lay.nprocs;
}

/* The packet that channel v of sender h would send: its adapter's output
 * slot, or the head of its buffer. */
HOT uint32_t claimant_packet(const Layout *lay, uint32_t h, unsigned v)
{
    if (is_adapter(lay, h))
        return lay->out_slot[adapter_proc(lay, h)];
    return place_packet(buffer_head_word(lay, channel_of(lay, h, v)));
}

#endif
