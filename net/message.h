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

/* Whether the buffer of channel c (or, with `port`, input port c) would
 * take packet x as a head: not owned by another message, and with room
 * for one flit, or for its whole message under cut-through and
 * store-and-forward (`count` flits in it, `size` places). A body flit,
 * whose message owns the place, needs room for itself only. */
static inline bool takes_flit(const Layout *lay, uint32_t x, uint32_t owner, uint32_t count,
                              uint32_t size)
{
    if (!shape_messages(lay))
        return count < size;
    const FlitOf *f = &lay->flits[x];
    if (f->index != 0)
        return count < size;
    if (owner != 0)
        return false;
    uint32_t need = f->message != 0 && shape_switching(lay) != SWITCHING_WORMHOLE
                  ? lay->message[f->message].length : 1;
    return count < size && size - count >= need;
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

/* Stage d: packet x entered channel c's buffer, in a run with messages:
 * its ownership, and where its message's tail is (only store-and-forward
 * asks). */
static inline void entered_as_flit(const Layout *lay, uint32_t x, uint32_t c)
{
    own_place(lay, x, &lay->owner[c]);
    uint32_t m = lay->flits[x].message;
    if (m != 0 && flit_is_tail(lay, x) && shape_switching(lay) == SWITCHING_STORE_FORWARD) {
        lay->message[m].tail_buffer = c;
        lay->message[m].tail_stamp = lay->now;
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

/* After stage 4: flit x, which the output slot of processor p sent, was
 * not its message's tail, so the slot offers the next flit from the next
 * timestep (made here, and listed to claim). */
void message_continue(Net *net, uint32_t p, uint32_t x);

/* An IN read packet x: after its message's tail, the message is done. */
void message_read(Net *net, uint32_t x);

/* Frees every message (net_free). */
void messages_free(Net *net);

/* Makes room for Layout.flits up to the pool's capacity (pool.c). */
void messages_grow(Net *net);

#endif
