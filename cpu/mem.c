/* The interleaved, lazily committed processor memories of mem.h. */
#include "cpu/mem.h"

#include <errno.h>
#include <sys/mman.h>

int mem_init(CpuMemory *mem, uint32_t procs, uint32_t size)
{
    unsigned shift = 0;
    while ((1u << shift) < procs)
        shift++;
    if ((1u << shift) != procs || size == 0) {
        errno = EINVAL;
        return -1;
    }
    size_t chunks = ((size_t)size + MEM_CHUNK_WORDS - 1) >> MEM_CHUNK_SHIFT;
    /* chunks * procs * CHUNK words of 4 bytes; overflow is impossible for
     * procs <= 2^24 and size <= 2^28 on a 64-bit host, but check anyway. */
    if (chunks > SIZE_MAX / 4 / MEM_CHUNK_WORDS / procs) {
        errno = ENOMEM;
        return -1;
    }
    size_t bytes = chunks * procs * MEM_CHUNK_WORDS * 4;
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return -1;
    mem->words = p;
    mem->bytes = bytes;
    mem->size = size;
    mem->procs = procs;
    mem->proc_shift = shift;
    mem->row_shift = MEM_CHUNK_SHIFT + shift;
    return 0;
}

void mem_free(CpuMemory *mem)
{
    if (mem->words)
        munmap(mem->words, mem->bytes);
    mem->words = NULL;
}

void mem_load(CpuMemory *mem, uint32_t proc, const uint8_t *bytes, uint32_t len)
{
    for (uint32_t i = 0; i < len; i += 4) {
        uint32_t w = 0;
        for (uint32_t j = 0; j < 4 && i + j < len; j++)
            w |= (uint32_t)bytes[i + j] << (8 * j);
        *mem_word(mem, proc, i >> 2) = w;
    }
}
