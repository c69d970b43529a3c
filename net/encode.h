/* Every word of the network stage that packs more than one thing, in one
 * place: what each bit means, and the functions that pack and unpack it.
 * Nothing here knows the topology; layout.h works out the values
 * (where a hop goes, which route a packet takes) and packs them here.
 * Private to net/. */
#ifndef NET_ENCODE_H
#define NET_ENCODE_H

#include <stdbool.h>
#include <stdint.h>

#include "net/shape.h"

/* ---- a processor on a plane ----------------------------------------------
 *
 *    31        k+1   k   k-1             0
 *   +-------------+-----+-----------------+
 *   |      0      |plane|   processor p   |
 *   +-------------+-----+-----------------+
 *
 * Where a packet coming down a plane's last link arrives, and the order of
 * the adapters among the senders (layout.h): plane-major, so that
 * each plane's adapters are together. */
static inline uint32_t proc_on_plane(unsigned k, uint32_t p, unsigned plane)
{
    return (uint32_t)plane << k | p;
}

static inline uint32_t pop_proc(unsigned k, uint32_t w) { return w & ((1u << k) - 1); }
static inline unsigned pop_plane(unsigned k, uint32_t w) { return w >> k; }

/* ---- a flit's kind: what a hop needs to know of its message ---------------
 *
 *      1        0
 *   +-------+-------+
 *   | LATER | OWNS  |
 *   +-------+-------+
 *
 * LATER: a flit after its message's head, which enters a place its message
 * owns; OWNS: it changes its place's owner, a head taking it, a tail giving
 * it up (messages.md, "Words"). So a one-word packet is 0, a message's
 * head FLIT_HEAD, its body flits FLIT_BODY and its tail FLIT_TAIL. A hop
 * carries it in its place word in a buffer and its keeper word on a link,
 * so that stages d and e read a flit's record (Layout.flits) only when a
 * head takes a buffer, not on every hop. Always 0 where no message of
 * several words was made. */
enum { FLIT_WORD = 0, FLIT_HEAD = 1, FLIT_BODY = 2, FLIT_TAIL = 3 };
enum { FLIT_OWNS = 1, FLIT_LATER = 2 };

/* ---- a place word: a packet in a buffer's place ---------------------------
 *
 *    31  30 29                              2 1    0
 *   +------+---------------------------------+------+
 *   | flit |  pool index of the packet       | port |
 *   +------+---------------------------------+------+
 *
 * port: the output port (0 d0, 1 d1, 2 u0, 3 u1) the packet will take in
 * the switch that the buffer's link leads to (0 on the last link down).
 * Stage d works it out from the packet's route as the packet enters the
 * buffer, where the route word can be asked for ahead (its list says
 * which packet comes); stage e, where reading the route would be a miss
 * that waits for the buffer's own, then reads no route. flit: its kind
 * (above), which stage e passes on to the packet's keeper word. Pool
 * indices stay below 2^28 (pool.c). The kind is on top so that, always 0
 * in a run without messages, it costs that run's copies of the sweep
 * (shape.h) nothing: x << 2 | port is one instruction, and unpacking the
 * index needs no mask there. */
enum { PLACE_FLIT_SHIFT = 30 };

static inline uint32_t place_word(uint32_t x, unsigned flit, unsigned port)
{
    return (uint32_t)flit << PLACE_FLIT_SHIFT | x << 2 | port;
}

static inline uint32_t place_packet(uint32_t word)
{
    if (SHAPE_MESSAGES == 0)
        return word >> 2;
    return (word & ((1u << PLACE_FLIT_SHIFT) - 1)) >> 2;
}

static inline unsigned place_flit(uint32_t word) { return word >> PLACE_FLIT_SHIFT; }
static inline unsigned place_port(uint32_t word) { return word & 3; }

/* ---- a route word: a route as it travels ----------------------------------
 *
 *    31              16 15          c   c-1             0
 *   +------------------+----------+---+-----------------+
 *   |    addressing    |    0     | 1 |  routing bits   |
 *   +------------------+----------+---+-----------------+
 *
 * For networks of k <= 16 (Layout.compact), by pool index (Layout.routes):
 * the up ports (bit l - 1: the up port at layer l) with a 1 above them at
 * bit count - 1, so that a packet climbing into layer l turns there
 * exactly when the bits from l up are 0; and the down ports. 16 routes
 * share a cache line, where their packets' records take 16: what a hop
 * reads of its packet is this word. In a run with multicasts a packet
 * going down is read from its record instead (stage d reads the record
 * for its set anyway), and a multicast's copy, which goes only down,
 * keeps no route word until it is a unicast (multicast.c); the port of a
 * multicast going down, in its place word, is 0, since it splits by its
 * set whatever the port. */
static inline uint32_t route_word(uint32_t routing, unsigned count, uint32_t addressing)
{
    return (routing | 1u << (count - 1)) | addressing << 16;
}

static inline uint32_t route_word_up(uint32_t w) { return w & 0xffff; }
static inline uint32_t route_word_down(uint32_t w) { return w >> 16; }

/* ---- a hop word: where a buffer's packets go ------------------------------
 *
 *    31                              8 7    5 4        0
 *   +---------------------------------+-------+----------+
 *   |             ahead               | class |  layer   |
 *   +---------------------------------+-------+----------+
 *
 * ahead: 4S for the switch S ahead, whose buffer 4S + q the packet will
 * enter (q from its place word); or on a plane's last link down, the
 * processor on a plane. class: the port it arrives on there (0-3), or
 * ARRIVE_DELIVERY. layer: of the list it goes to (the layer of the switch
 * ahead, 1 for a delivery; never 0, so a hop word is never 0). The low
 * eight bits are the list's place in a share's arrays, class * LIST_LAYERS
 * + layer. Kept in Sender.hop (with V > 1, PortTurn.hop), worked out the
 * first time the port sends (layout.h, hop_word). 4S < 2^22 in every
 * network with route words. */
enum { HOP_LAYER_BITS = 5 };

static inline uint32_t hop_pack(uint32_t ahead, unsigned class, unsigned layer)
{
    return ahead << 8 | class << HOP_LAYER_BITS | layer;
}

static inline uint32_t hop_ahead(uint32_t w) { return w >> 8; }
static inline unsigned hop_class(uint32_t w) { return (w >> HOP_LAYER_BITS) & 7; }
static inline unsigned hop_list(uint32_t w) { return w & 0xff; }

/* ---- a heading: where a sender's packet will be, once on its link ---------
 *
 *    31                                        1   0
 *   +-------------------------------------------+---+
 *   |  4S + a: the switch S it enters, and the  | 0 |
 *   |  port a it arrives on (0-3)               |   |
 *   +-------------------------------------------+---+
 *   |  processor on a plane (last link down)    | 1 |
 *   +-------------------------------------------+---+
 *
 * (claim_heading, layout.h.) */
static inline uint32_t heading_port(uint32_t port_index) { return port_index << 1; }
static inline uint32_t heading_proc(uint32_t proc_plane) { return proc_plane << 1 | 1; }
static inline bool heading_is_proc(uint32_t h) { return h & 1; }
static inline uint32_t heading_value(uint32_t h) { return h >> 1; }

/* ---- a target word: where a packet on a link goes -------------------------
 *
 *    31                              shift  shift-1     0
 *   +--------------------------------------+-------------+
 *   |  4S + q: the buffer it will enter,   |  channel v  |
 *   |  or the processor on a plane it      |             |
 *   |  comes down to (a delivery)          |             |
 *   +--------------------------------------+-------------+
 *
 * OnLink.target, with shift = Layout.vshift (0 with one channel): the
 * record of channel v of the sender 4S + q is the target word itself
 * (channel_of, layout.h). Networks whose words would not fit are refused
 * (net_new). */
static inline uint32_t target_word(uint32_t target, unsigned v, unsigned shift)
{
    return target << shift | v;
}

static inline uint32_t target_of(uint32_t w, unsigned shift) { return w >> shift; }
static inline unsigned target_channel(uint32_t w, unsigned shift)
{
    return w & ((1u << shift) - 1);
}

/* ---- a keeper word: an awake packet's link slot -----------------------------
 *
 *    31   30  29 28                                 0
 *   +---+------+-------------------------------------+
 *   | R | flit | the sender that keeps the link's slot |
 *   +---+------+-------------------------------------+
 *
 * OnLink.keeper. R (KEEPER_REFUSED): the packet was refused before, so it
 * is in that slot (Sender.slot_packet) and blocks it. flit: the packet's
 * kind (above), for stage d. Networks of 2^29 senders or more are
 * refused (net_new). */
#define KEEPER_REFUSED 0x80000000u
enum { KEEPER_FLIT_SHIFT = 29 };

static inline uint32_t keeper_word(uint32_t ki, unsigned flit)
{
    return ki | (uint32_t)flit << KEEPER_FLIT_SHIFT;
}

static inline uint32_t keeper_of(uint32_t w) { return w & ((1u << KEEPER_FLIT_SHIFT) - 1); }
static inline unsigned keeper_flit(uint32_t w) { return (w >> KEEPER_FLIT_SHIFT) & 3; }
static inline bool keeper_refused(uint32_t w) { return (w & KEEPER_REFUSED) != 0; }

/* ---- a slot word: the state of a link's slot --------------------------------
 *
 *       7          6        5          4          3       2      1        0
 *   +----------+--------+-------+------------+--------+------+--------+---------+
 *   | CLAIM_UP_| CLAIM_ | SLOT_ | CLAIM_UP_  | CLAIM_ | SLOT_| SLOT_  |  SLOT_  |
 *   |  QUIET   | QUIET  | QUIET |  ASLEEP    | ASLEEP |  UP  | ASLEEP | BLOCKED |
 *   +----------+--------+-------+------------+--------+------+--------+---------+
 *
 * Sender.slot, kept by the slot's keeper. The slot holds a packet only
 * while the packet is refused, by a full buffer or input port: a packet
 * that gets on a link goes into a list of its share (OnLink) and nowhere
 * else, and in the next timestep it either enters a buffer (so the link is
 * free again) or is refused, when it writes itself into the slot with
 * SLOT_BLOCKED. So a claim in stage e needs to see only whether its slot
 * is blocked (machine.md: the claim succeeds if the main slot is empty
 * after stages c and d, and a packet is still on a link after them only
 * if it was refused). */
enum {
    SLOT_BLOCKED = 1,      /* Sender.slot_packet is on the link, refused there */
    SLOT_ASLEEP = 2,       /* ...and sleeps (on a buffer, or an input port) */
    SLOT_UP = 4,           /* ...and travels up (which, --duplex half, is not
                              the keeper's own direction) */
    CLAIM_ASLEEP = 8,      /* the keeper's own packet claims this slot, and
                              sleeps until the slot's packet wakes */
    CLAIM_UP_ASLEEP = 16,  /* --duplex half: the sender below, which sends up
                              into this slot, sleeps so */
    /* A sleeper held up only by its own message counts no collision while
     * it sleeps (messages.md): the flit in the slot, or the claim. */
    SLOT_QUIET = 32,
    CLAIM_QUIET = 64,
    CLAIM_UP_QUIET = 128
};

#endif
