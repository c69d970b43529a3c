/* What the network tells an observer (events.c): every event of a packet,
 * described as net.h's NetPacket says, and the names of places (net.h). */
#ifndef NET_EVENTS_H
#define NET_EVENTS_H

#include <stdint.h>

#include "net/state.h"

/* For an observer, after mc_give_ids: a split, and the copy it made
 * entering its buffer. */
void net_emit_split(Net *net, const Split *split);

/* Tells the observer, if any, what happened to packet x: the event `ev`
 * says what and where, and gets the timestep and the packet here. */
void net_emit(Net *net, uint32_t x, NetEvent ev);

/* Describes packet x as its record in the pool says (settled); and all of
 * it but its position in a buffer or input port. */
void net_describe(const Net *net, uint32_t x, NetPacket *pk);
void net_describe_fields(const Net *net, uint32_t x, NetPacket *pk);

/* What the network stage (step.c) tells an observer, with the places of
 * the packets concerned recorded first: where the packet that channel v
 * of sender h would send is (returned); packet x entering channel c's
 * buffer in a stage d (with the share whose list of buffers entered it
 * joins); channel v of sender h sending packet x onto its link; and after
 * the stage, the packets that queued in it, behind another. */
uint32_t settle_claimant(Net *net, uint32_t h, unsigned v);
void report_entered(Net *net, NetShare *sh, uint32_t x, uint32_t c);
void report_claimed(Net *net, uint32_t h, unsigned v, uint32_t x);
void report_queued_all(Net *net);

#endif
