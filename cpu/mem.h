/* The processors' private memories, all in one lazily committed mapping.
 *
 * Each processor has M 32-bit words, word addressed. A machine of 65,536
 * processors with the default M = 200,000 needs 52 GB of address space, far
 * more than the host has, but a program touches only a few words of it: its
 * code at the bottom and its stack and globals at the top. So the memory is
 * one anonymous mapping made with MAP_NORESERVE, whose pages the kernel
 * commits only when first touched.
 *
 * The layout is interleaved to keep the touched pages few and shared: a
 * processor's memory is cut into chunks of MEM_CHUNK_WORDS words, and chunk c
 * of every processor lies side by side,
 *
 *     mapping:  [chunk 0 of p0][chunk 0 of p1]...[chunk 0 of pN-1][chunk 1 of p0]...
 *
 * so word a of processor p is at index
 *
 *     (a / CHUNK) * (N * CHUNK) + p * CHUNK + a % CHUNK.
 *
 * Every processor's code then sits in one dense region (the first chunks
 * of all of them), and so does every processor's stack top: the timestep
 * loop, which visits the processors in order, walks through memory
 * sequentially. A chunk is one cache line of the host, so that the lines
 * it needs for one processor are next to those of the one before, where
 * the host's prefetcher finds them, and the pages it touches are few. An
 * idle processor touches nothing. */
#ifndef CPU_MEM_H
#define CPU_MEM_H

#include <stddef.h>
#include <stdint.h>

enum { MEM_CHUNK_SHIFT = 4, MEM_CHUNK_WORDS = 1 << MEM_CHUNK_SHIFT };

typedef struct CpuMemory {
    uint32_t *words;        /* the interleaved mapping */
    size_t bytes;           /* its length */
    uint32_t size;          /* M: words per processor */
    uint32_t procs;         /* processors; a power of two */
    unsigned proc_shift;    /* log2(procs) */
    unsigned row_shift;     /* log2 of a row of chunks: MEM_CHUNK_SHIFT + proc_shift */
} CpuMemory;

/* Maps the memory of `procs` processors (a power of two) of `size` words
 * each. Returns 0, or -1 with errno set when the mapping cannot be made. */
int mem_init(CpuMemory *mem, uint32_t procs, uint32_t size);
void mem_free(CpuMemory *mem);

/* Index into mem->words of word `addr` (< size) of processor `proc`. */
static inline size_t mem_index(const CpuMemory *mem, uint32_t proc, uint32_t addr)
{
    return ((size_t)(addr >> MEM_CHUNK_SHIFT) << mem->row_shift)
         | ((size_t)proc << MEM_CHUNK_SHIFT) | (addr & (MEM_CHUNK_WORDS - 1));
}

static inline uint32_t *mem_word(const CpuMemory *mem, uint32_t proc, uint32_t addr)
{
    return &mem->words[mem_index(mem, proc, addr)];
}

/* The same, given the processor's first word, &words[proc << MEM_CHUNK_SHIFT]:
 * the interpreter keeps that pointer, one register for the memory's base
 * and the processor's place in it, so that its loop has a register to spare
 * and its loads and stores do not reload the geometry from the stack. */
static inline uint32_t *mem_word_from(const CpuMemory *mem, uint32_t *first, uint32_t addr)
{
    return first + ((size_t)(addr >> MEM_CHUNK_SHIFT) << mem->row_shift)
                 + (addr & (MEM_CHUNK_WORDS - 1));
}

/* Byte `a` of a processor's memory: byte a & 3 of word a >> 2, little-endian.
 * The caller checks a < 4 * size. */
static inline uint8_t mem_byte(const CpuMemory *mem, uint32_t proc, uint32_t a)
{
    return (uint8_t)(*mem_word(mem, proc, a >> 2) >> (8 * (a & 3)));
}

/* Copies an image to byte address 0 of a processor's memory (len <= 4 * size). */
void mem_load(CpuMemory *mem, uint32_t proc, const uint8_t *bytes, uint32_t len);

#endif
