/* Where packets are, between timesteps (places.c). */
#ifndef NET_PLACES_H
#define NET_PLACES_H

#include <stdint.h>

#include "net/state.h"

/* Writes into the pool where each packet in flight is (Packet: place, at,
 * dir, layer, links, asleep, and next in a buffer), and into each wire's
 * keeper the packet on it, for every reader; until the next net_step or
 * net_inject. */
void net_settle(Net *net);

/* The packet on wire c (with V > 1, lane c), or NET_NIL (it settles the
 * network). */
uint32_t link_packet_at(Net *net, uint32_t c);

#endif
