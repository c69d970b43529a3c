/* Hints to the compiler that the hot loops of the emulator need: HOT for
 * the small helpers of the interpreter, the network stage and the router
 * that must be inlined into their loops (a call would cost more than the
 * helper itself, and GCC does not always inline them unasked); NOINLINE
 * for the bulk of a function whose common case is short, so that the
 * common case does not pay for the registers the bulk needs; UNLIKELY,
 * for a branch whose rare side the compiler would otherwise prepare for
 * on the common one; and PREFETCH, to ask for memory that a loop will
 * need a few iterations later. Other compilers get plain `static inline`,
 * no hint and no prefetch. */
#ifndef COMMON_HOT_H
#define COMMON_HOT_H

#if defined(__GNUC__)
#define HOT static inline __attribute__((always_inline))
#define NOINLINE __attribute__((noinline))
#define PREFETCH(address) __builtin_prefetch(address)
#define UNLIKELY(condition) __builtin_expect(!!(condition), 0)
#else
#define HOT static inline
#define NOINLINE
#define PREFETCH(address) ((void)(address))
#define UNLIKELY(condition) (condition)
#endif

#endif
