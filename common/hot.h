/* Hints to the compiler that the hot loops of the emulator need: HOT for
 * the small helpers of the interpreter, the network stage and the router
 * that must be inlined into their loops (a call would cost more than the
 * helper itself, and GCC does not always inline them unasked); NOINLINE
 * for the bulk of a function whose common case is short, so that the
 * common case does not pay for the registers the bulk needs; and
 * PREFETCH, to ask for memory that a loop will need a few iterations
 * later. Other compilers get plain `static inline` and no prefetch. */
#ifndef COMMON_HOT_H
#define COMMON_HOT_H

#if defined(__GNUC__)
#define HOT static inline __attribute__((always_inline))
#define NOINLINE __attribute__((noinline))
#define PREFETCH(address) __builtin_prefetch(address)
#else
#define HOT static inline
#define NOINLINE
#define PREFETCH(address) ((void)(address))
#endif

#endif
