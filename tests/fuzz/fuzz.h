/* What the fuzzers share: one splitmix64 generator, reseeded for every
 * input (input i of a run from seed s is made from s + i, so a failing
 * input is reproduced by its number alone). */
#ifndef TESTS_FUZZ_FUZZ_H
#define TESTS_FUZZ_FUZZ_H

#include <stddef.h>
#include <stdint.h>

static uint64_t fuzz_rng;

static inline void fuzz_seed(uint64_t seed) { fuzz_rng = seed; }

static inline uint64_t fuzz_next(void)
{
    uint64_t z = (fuzz_rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A number in [0, n), 0 when n is 0. */
static inline size_t fuzz_below(size_t n) { return n ? (size_t)(fuzz_next() % n) : 0; }

#endif
