/* A test double of the machine for the compiler's tests: the processors of
 * cpu/ stepped in lockstep, one byte each per timestep in processor order,
 * with an ideal network in place of the folded Benes one -- a packet sent
 * by OUT is in its destination port at once, ports are unbounded FIFOs, and
 * the output slot never fills. MOUT puts one copy in the port of each
 * member of its set at once (spec/multicast.md), and SEND the L words of
 * its message, in order, in one port (spec/messages.md: an ideal wormhole
 * network, which takes any length up to 65,536). It runs a compiled image and collects what
 * the program prints as `pN: value` lines, which is what compiled programs'
 * results depend on when they are written, as they should be, not to
 * depend on the network's timing. */
#ifndef TESTS_UNIT_MACHINE_DOUBLE_H
#define TESTS_UNIT_MACHINE_DOUBLE_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu.h"
#include "cpu/hex.h"
#include "cpu/mem.h"

enum { MD_PORTS = 16, MD_QUEUE = 4096 };

typedef struct MdPort {
    uint32_t words[MD_QUEUE];
    int head, count;
} MdPort;

typedef struct MdRun {
    char out[65536];      /* the printed lines */
    size_t used;
    int faulted;          /* a processor faulted (or the queue overflowed) */
    int finished;         /* every processor stopped before the limit */
    int32_t status[64];   /* exit status of the first processors */
    char fault[256];      /* the first fault, described */
} MdRun;

typedef struct MdMachine {
    uint32_t nprocs;
    const CpuMemory *mem; /* for MOUT's lists and SEND's messages */
    MdPort *ports;        /* nprocs * MD_PORTS */
    MdRun *run;
} MdMachine;

static bool md_in(void *ctx, uint32_t proc, uint32_t port, uint32_t *word)
{
    MdMachine *m = ctx;
    MdPort *q = &m->ports[proc * MD_PORTS + port];
    if (q->count == 0)
        return false;
    *word = q->words[q->head];
    q->head = (q->head + 1) % MD_QUEUE;
    q->count--;
    return true;
}

static bool md_out(void *ctx, uint32_t proc, uint32_t dest, uint32_t port, uint32_t word)
{
    MdMachine *m = ctx;
    MdPort *q = &m->ports[dest * MD_PORTS + port];
    (void)proc;
    if (q->count == MD_QUEUE) {
        m->run->faulted = 1;
        return true;
    }
    q->words[(q->head + q->count) % MD_QUEUE] = word;
    q->count++;
    return true;
}

/* MOUT, whose list cpu_mout has checked: a member named more than once gets
 * one copy; a broadcast (n = 0) goes to every processor below its bound R
 * (0: all of them) but the sender. */
static bool md_mout(void *ctx, uint32_t proc, uint32_t list, uint32_t word)
{
    MdMachine *m = ctx;
    uint32_t head = *mem_word(m->mem, proc, list), n = head & 0xFFFFFFu, port = head >> 24;
    uint32_t bound = n ? 0 : *mem_word(m->mem, proc, list + 1);
    for (uint32_t d = 0; d < m->nprocs; d++) {
        bool member = n == 0 && d != proc && (bound == 0 || d < bound);
        for (uint32_t i = 1; i <= n && !member; i++)
            member = *mem_word(m->mem, proc, list + i) == d;
        if (member)
            md_out(ctx, proc, d, port, word);
    }
    return true;
}

/* SEND, whose message cpu_send has checked: its words, in order, in the
 * port at once, read from the sender's memory now. */
static bool md_send(void *ctx, uint32_t proc, uint32_t dest, uint32_t port, uint32_t first,
                    uint32_t length)
{
    MdMachine *m = ctx;
    for (uint32_t i = 0; i < length; i++)
        md_out(ctx, proc, dest, port, *mem_word(m->mem, proc, first + i));
    return true;
}

static void md_print(void *ctx, uint32_t proc, int32_t value)
{
    MdMachine *m = ctx;
    MdRun *r = m->run;
    if (r->used + 40 < sizeof r->out)
        r->used += (size_t)snprintf(r->out + r->used, sizeof r->out - r->used,
                                    "p%u: %d\n", (unsigned)proc, (int)value);
}

/* Runs img with `mem_words` words per processor for at most max_steps
 * timesteps. */
static void md_run(const HexImage *img, uint32_t mem_words, long max_steps, MdRun *r)
{
    MdMachine m = { .nprocs = 2, .run = r };
    while (m.nprocs < img->count)
        m.nprocs *= 2;
    memset(r, 0, sizeof *r);
    CpuMemory mem;
    Cpu *cpus = calloc(m.nprocs, sizeof *cpus);
    m.ports = calloc((size_t)m.nprocs * MD_PORTS, sizeof *m.ports);
    if (!cpus || !m.ports || mem_init(&mem, m.nprocs, mem_words) != 0)
        abort();
    m.mem = &mem;
    for (uint32_t p = 0; p < m.nprocs; p++) {
        if (p < img->count) {
            mem_load(&mem, p, img->records[p].image, img->records[p].length);
            cpu_boot(&cpus[p], p, img->records[p].entry, img->records[p].length);
        } else {
            cpu_idle(&cpus[p], p);
        }
    }
    CpuBus bus = { .mem = &mem, .nprocs = m.nprocs, .nports = MD_PORTS, .ctx = &m,
                   .in = md_in, .out = md_out, .mout = md_mout, .print = md_print,
                   .send = md_send, .longest_message = CPU_LONGEST_MESSAGE };
    for (long t = 1; t <= max_steps && !r->faulted; t++) {
        int running = 0;
        bus.timestep = (uint64_t)t;
        for (uint32_t p = 0; p < m.nprocs; p++) {
            if (cpus[p].state != CPU_RUNNING)
                continue;
            running = 1;
            if (cpu_step(&cpus[p], &bus) == STEP_FAULTED && !r->faulted) {
                r->faulted = 1;
                cpu_describe_fault(&cpus[p], &mem, NULL, r->fault, sizeof r->fault);
            }
        }
        if (!running) {
            r->finished = 1;
            break;
        }
    }
    for (uint32_t p = 0; p < m.nprocs && p < 64; p++)
        r->status[p] = cpus[p].status;
    mem_free(&mem);
    free(cpus);
    free(m.ports);
}

#endif
