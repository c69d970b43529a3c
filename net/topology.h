/* The wiring of one plane of the folded Beneš network (spec/machine.md,
 * thesis 4.1 and 5.1.4), as small pure index functions.
 *
 * N = 2^k processors. A plane has k layers of N/2 switches; switch (l, j)
 * has layer l in 1..k and index j in [0, N/2), a (k-1)-bit label. Each switch
 * has two down ports d0, d1 (towards the processors) and two up ports u0, u1;
 * layer k has no up links.
 *
 *   - Processor p is wired to switch (1, p >> 1), down port p & 1.
 *   - For l < k, up port b of (l, j) is wired to switch (l+1, j') where j' is
 *     j with bit l-1 replaced by b; it arrives there on down port d = bit l-1
 *     of j.
 *
 * Derivation of the way down: down port d of (l, j), l > 1, leads to the
 * switch (l-1, i) whose up port b reaches (l, j): i's bit l-2 must be d
 * (it arrives on down port d = bit l-2 of i) and j is i with bit l-2 replaced
 * by b, so i = j with bit l-2 replaced by d, and b = bit l-2 of j.
 *
 * Consequences, tested in tests/unit/test_topology.c:
 *   - going up from p, the switch at layer c is (c, (p >> 1) with bits
 *     0..c-2 replaced by the up ports taken), whatever those ports are;
 *   - going down from layer c to q sets bits 0..c-2 of the index to bits
 *     1..c-1 of q (down port at layer l = bit l-1 of q) and leaves the rest,
 *     so q is reachable iff p >> c == q >> c, i.e. c > msb(p xor q);
 *     cmin(p, q) = msb(p xor q) + 1 (1 when p = q) is the lowest turn. */
#ifndef NET_TOPOLOGY_H
#define NET_TOPOLOGY_H

#include <stdint.h>

/* Index of the highest set bit of x (x != 0). */
static inline unsigned topo_msb(uint32_t x)
{
#if defined(__GNUC__)
    return 31u - (unsigned)__builtin_clz(x);
#else
    unsigned b = 0;
    while (x >>= 1)
        b++;
    return b;
#endif
}

/* The lowest layer at which p and q meet: the shortest possible turn. */
static inline unsigned topo_cmin(uint32_t p, uint32_t q)
{
    return p == q ? 1 : topo_msb(p ^ q) + 1;
}

/* The layer-1 switch index of processor p, and the down port it uses. */
static inline uint32_t topo_proc_switch(uint32_t p) { return p >> 1; }
static inline unsigned topo_proc_port(uint32_t p) { return p & 1; }

/* The down port on which up port b of switch (l, j), l < k, arrives in
 * the switch above (topo_up_switch): bit l-1 of j. */
static inline unsigned topo_up_arrival_port(unsigned l, uint32_t j)
{
    return (j >> (l - 1)) & 1;
}

/* Up port b (0 or 1) of switch (l, j), l < k: the index of the switch
 * above. (Bit l-1 of j replaced by b, as j plus the difference: with the
 * bit at hand for the arrival port, the fewest host instructions.) */
static inline uint32_t topo_up_switch(unsigned l, uint32_t j, unsigned b)
{
    return j + (((uint32_t)b - topo_up_arrival_port(l, j)) << (l - 1));
}

/* The up port on which down port d of switch (l, j), l > 1, arrives in
 * the switch below (topo_down_switch): bit l-2 of j. */
static inline unsigned topo_down_arrival_port(unsigned l, uint32_t j)
{
    return (j >> (l - 2)) & 1;
}

/* Down port d (0 or 1) of switch (l, j), l > 1: the index of the switch
 * below (bit l-2 of j replaced by d, as in topo_up_switch). */
static inline uint32_t topo_down_switch(unsigned l, uint32_t j, unsigned d)
{
    return j + (((uint32_t)d - topo_down_arrival_port(l, j)) << (l - 2));
}

/* Down port d of a layer-1 switch j leads to processor 2j + d. */
static inline uint32_t topo_down_proc(uint32_t j, unsigned d)
{
    return 2 * j + d;
}

#endif
