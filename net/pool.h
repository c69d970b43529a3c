/* The packet pool (pool.c): packets are records in one array, named by
 * their index (1, 2, ...; NET_NIL is 0), with a stack of free indices. */
#ifndef NET_POOL_H
#define NET_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "net/state.h"

/* Makes a packet and gives it a pool index; frees one (pool.c). Before a
 * stage that makes copies, room for n more, so that pool_take, unlike
 * pool_alloc, never moves the pool's arrays. */
uint32_t pool_alloc(Net *net);
void pool_release(Net *net, uint32_t x);
void pool_reserve(Net *net, size_t n);
uint32_t pool_take(Net *net);

#endif
