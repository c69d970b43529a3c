/* Messages of several words (messages.md; message.c): a SEND's L words
 * travel as L flits, packets of the pool made one at a time as the output
 * slot offers them. What a packet is -- which message, which flit -- is
 * Layout.flits, kept only once a message of two words or more was made
 * (Layout.messages); before that every packet is a message of one word.
 * Private to net/. */
#ifndef NET_MESSAGE_H
#define NET_MESSAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "net/layout.h"

/* The message that packet x is a flit of, or 0 for a one-word packet. */
static inline uint32_t flit_message(const Layout *lay, uint32_t x)
{
    return shape_messages(lay) ? lay->flits[x].message : 0;
}

/* Its index in its message (0: the head; 0 for a one-word packet). */
static inline uint32_t flit_index(const Layout *lay, uint32_t x)
{
    return shape_messages(lay) ? lay->flits[x].index : 0;
}

/* The words of the message packet x belongs to (1 for a one-word packet). */
static inline uint32_t flit_length(const Layout *lay, uint32_t x)
{
    uint32_t m = flit_message(lay, x);
    return m != 0 ? lay->message[m].length : 1;
}

/* Whether packet x is the tail of its message (a one-word packet is). */
static inline bool flit_is_tail(const Layout *lay, uint32_t x)
{
    uint32_t m = flit_message(lay, x);
    return m == 0 || lay->flits[x].tail;
}

/* Whether packets x and y are flits of one message of several words: what
 * holds up a flit is a collision only when it is not (messages.md). */
static inline bool same_message(const Layout *lay, uint32_t x, uint32_t y)
{
    uint32_t m = flit_message(lay, x);
    return m != 0 && y != NET_NIL && m == flit_message(lay, y);
}

/* Packet x's kind (encode.h): what its place and keeper words carry. */
static inline unsigned flit_kind(const Layout *lay, uint32_t x)
{
    if (flit_message(lay, x) == 0)
        return FLIT_WORD;
    const FlitOf *f = &lay->flits[x];
    return f->index == 0 ? FLIT_HEAD : f->tail ? FLIT_TAIL : FLIT_BODY;
}

/* The keeper word of packet x, asleep in the slot that sender ki keeps,
 * as it wakes: refused there before, and of its kind. */
static inline uint32_t woken_keeper(const Layout *lay, uint32_t ki, uint32_t x)
{
    return keeper_word(ki, flit_kind(lay, x)) | KEEPER_REFUSED;
}

/* Whether a buffer of `size` places holding `count` flits has room for
 * packet x, of kind `flit`: for one flit, or for a head under cut-through
 * and store-and-forward for its whole message (messages.md); so only such
 * a head reads its record. */
static inline bool room_for_flit(const Layout *lay, uint32_t x, unsigned flit, uint32_t count,
                                 uint32_t size)
{
    if (count >= size)
        return false;
    return flit != FLIT_HEAD || shape_switching(lay) == SWITCHING_WORMHOLE ||
           size - count >= lay->message[lay->flits[x].message].length;
}

/* Whether the buffer of channel c, holding `count` flits in `size`
 * places, would take packet x, of kind `flit`: with room for it, and for
 * a head (or a one-word packet), not owned by another message. A later
 * flit enters a buffer its message owns: only a head reads the owner. */
static inline bool takes_flit(const Layout *lay, uint32_t x, unsigned flit, uint32_t c,
                              uint32_t count, uint32_t size)
{
    if (count >= size)
        return false;
    if (!shape_messages(lay) || (flit & FLIT_LATER))
        return true;
    return lay->owner[c] == 0 && room_for_flit(lay, x, flit, count, size);
}

/* Whether input port `slot` (an index into Layout.ports, holding `count`
 * words) takes packet x: with room for its word, and for a head not owned
 * by another message (messages.md, stage c; room for one word under every
 * switching). */
static inline bool takes_flit_port(const Layout *lay, uint32_t x, uint32_t slot, uint32_t count)
{
    if (count >= lay->cfg.port_depth)
        return false;
    return !shape_messages(lay) || lay->flits[x].index != 0 || lay->port_owner[slot] == 0;
}

/* Packet x entered the place whose owner is *owner: its head takes it,
 * its tail gives it up (messages.md, "Words"). */
static inline void own_place(const Layout *lay, uint32_t x, uint32_t *owner)
{
    uint32_t m = flit_message(lay, x);
    if (m == 0)
        return;
    if (lay->flits[x].index == 0)
        *owner = m;
    if (lay->flits[x].tail)
        *owner = 0;
}

/* Stage c: packet x entered input port `slot`, in a run with messages:
 * its ownership; returns whether it is its message's tail (with which
 * the message arrives). */
static inline bool flit_delivered(const Layout *lay, uint32_t x, uint32_t slot)
{
    own_place(lay, x, &lay->port_owner[slot]);
    return flit_is_tail(lay, x);
}

/* Stage d: packet x, a head or a tail (FLIT_OWNS: a body flit, or a
 * one-word packet, which entered a buffer no message owns, changes
 * nothing), entered channel c's buffer: the head takes the buffer, the
 * tail gives it up and says where it is (only store-and-forward asks). */
static inline void entered_as_flit(const Layout *lay, uint32_t x, unsigned flit, uint32_t c)
{
    if (flit == FLIT_HEAD) {
        lay->owner[c] = lay->flits[x].message;
        return;
    }
    lay->owner[c] = 0;
    if (shape_switching(lay) == SWITCHING_STORE_FORWARD) {
        Message *msg = &lay->message[lay->flits[x].message];
        msg->tail_buffer = c;
        msg->tail_stamp = lay->now;
    }
}

/* Stage b under store-and-forward: whether the head of channel c's
 * buffer waits for its tail, which was not in the buffer at the start of
 * this stage 4 (then the buffer takes no part in stage b). */
static inline bool waits_for_tail(const Layout *lay, uint32_t c, uint32_t x)
{
    uint32_t m = lay->flits[x].message;
    if (m == 0 || lay->flits[x].index != 0)
        return false;
    const Message *msg = &lay->message[m];
    return msg->tail_buffer != c || msg->tail_stamp == lay->now;
}

/* Stage 3: the head, packet x, of a SEND's request of `length` words (the
 * request's words, read when it was made) is in its output slot: counts
 * the message and makes it if it has two words or more. */
void message_make(Net *net, uint32_t x, const uint32_t *words, uint32_t length);

/* After stage 4: flit x, which the output slot of its processor sent,
 * was not its message's tail, so the slot offers the next flit from the
 * next timestep: made here, and its adapter listed to claim in
 * `adapters` (its share's, with room). */
void message_continue(Net *net, IndexList *adapters, uint32_t x);

/* An IN read packet x: after its message's tail, the message is done. */
void message_read(Net *net, uint32_t x);

/* Frees every message (net_free). */
void messages_free(Net *net);

/* Makes room for Layout.flits up to the pool's capacity (pool.c). */
void messages_grow(Net *net);

#endif
