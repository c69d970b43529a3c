/* Permutations for the tests and benchmarks: the tests' own pseudo-random
 * generator (splitmix64, kept apart from the router's so that a test never
 * disturbs what it measures), random shuffles, and every permutation in
 * lexicographic order. */
#ifndef TESTS_PERM_H
#define TESTS_PERM_H

#include <stdint.h>

/* splitmix64: the next draw of the generator whose state is *x. */
static inline uint64_t test_rand(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

/* A random permutation of 0..n-1 (Fisher-Yates). */
static inline void test_shuffle(uint32_t *a, uint32_t n, uint64_t *x)
{
    for (uint32_t i = 0; i < n; i++)
        a[i] = i;
    for (uint32_t i = n; i > 1; i--) {
        uint32_t j = (uint32_t)(test_rand(x) % i), t = a[i - 1];
        a[i - 1] = a[j];
        a[j] = t;
    }
}

/* The next permutation in lexicographic order; 0 after the last. */
static inline int next_permutation(uint32_t *a, uint32_t n)
{
    uint32_t i = n - 1;
    while (i > 0 && a[i - 1] >= a[i])
        i--;
    if (i == 0)
        return 0;
    uint32_t j = n - 1;
    while (a[j] <= a[i - 1])
        j--;
    uint32_t t = a[i - 1];
    a[i - 1] = a[j];
    a[j] = t;
    for (uint32_t lo = i, hi = n - 1; lo < hi; lo++, hi--) {
        t = a[lo];
        a[lo] = a[hi];
        a[hi] = t;
    }
    return 1;
}

#endif
