/* The machine: N processors, their memories and the network, advanced one
 * timestep at a time in the four stages of spec/machine.md (thesis 5.5):
 *
 *   1. processors: every running processor executes one instruction byte;
 *      each OUT that finds its output slot empty makes a send request;
 *   2. routing: the batch of this timestep's requests is routed together;
 *   3. injection: each new packet goes into its adapter's output slot;
 *   4. network: the sub-stages a-e of net_step.
 *
 * After each timestep the run ends on the first of: a fault, a normal end
 * (every processor halted and the network empty), a deadlock (nothing moved)
 * or the --max-steps limit.
 *
 * A processor whose IN or OUT stalls leaves the list of ready processors:
 * re-executing it would only stall again until the network changes its
 * input port or output slot, and the network says when it does (Net.woken).
 * So a waiting processor costs nothing per timestep; its stall timesteps
 * are counted all the same. */
#ifndef EMU_MACHINE_H
#define EMU_MACHINE_H

#include <stdbool.h>
#include <stdint.h>

#include "cpu/cpu.h"
#include "cpu/hex.h"
#include "net/net.h"
#include "net/route.h"

/* The processor stage can be split across --threads workers: each runs a
 * contiguous share of the ready processors, collecting its send requests,
 * prints and IN reads privately, and the shares are merged in processor
 * order, so every output is the same for any number of threads. */

/* Everything the command line can set about a run, with the defaults of
 * spec/cli.md in MACHINE_CONFIG_DEFAULT. */
typedef struct MachineConfig {
    uint32_t procs;            /* --procs (0: the program's record count) */
    unsigned planes;           /* --planes */
    bool full_duplex;          /* --duplex full */
    unsigned buffer;           /* --buffer */
    unsigned ports;            /* --ports */
    unsigned port_depth;       /* --port-depth */
    uint32_t mem_words;        /* --mem */
    RoutingAlgorithm routing;  /* --routing */
    uint64_t seed;             /* --seed */
    uint64_t max_steps;        /* --max-steps (0: none) */
    unsigned threads;          /* --threads */
    uint32_t parallel_min;     /* split the processor stage only when at least
                                  this many processors are ready (tests set 1) */
    bool check_invariants;     /* verify the network after every timestep */
} MachineConfig;

/* The debug build (make check) verifies the network after every timestep
 * unless told otherwise; any build does with --check. */
#ifdef MACHINE_DEBUG
#define MACHINE_CHECK_DEFAULT true
#else
#define MACHINE_CHECK_DEFAULT false
#endif

#define MACHINE_CONFIG_DEFAULT { \
    .procs = 0, .planes = 2, .full_duplex = false, .buffer = 5, .ports = 16, \
    .port_depth = 1, .mem_words = 200000, .routing = ROUTING_BENES, .seed = 1, \
    .max_steps = 0, .threads = 1, .parallel_min = 1024, \
    .check_invariants = MACHINE_CHECK_DEFAULT }

typedef enum MachineEnd {
    END_RUNNING,      /* not ended yet */
    END_NORMAL,       /* every processor halted, the network empty: status 0 */
    END_FAULT,        /* a processor faulted: status 2 */
    END_DEADLOCK,     /* nothing moved in a timestep: status 3 */
    END_LIMIT,        /* --max-steps reached (or q in --step): status 4 */
    END_INTERNAL,     /* an invariant broke: status 70 */
    END_INTERRUPTED   /* Ctrl-C: status 130 */
} MachineEnd;

/* What the run shows while it runs; any callback may be NULL. */
typedef struct MachineObserver {
    void *ctx;
    /* PRINT, in timestep-then-processor order. */
    void (*print)(void *ctx, uint64_t t, uint32_t proc, int32_t value);
    /* A route, when computed (stage 2); id is the packet's id. */
    void (*route)(void *ctx, uint64_t t, uint64_t id, const RouteRequest *req,
                  const Route *route);
    /* Every packet event of the network (trace, adaptive route choices). */
    NetEventFn *event;
} MachineObserver;

/* One worker's part of the processor stage: a contiguous run of the ready
 * list, and what those processors did, kept apart so that workers never
 * write the same memory; the machine merges the shares in order. */
typedef struct Share {
    uint32_t begin, end;       /* the ready list's [begin, end) */
    uint32_t kept;             /* still ready, compacted from ready[begin] */
    uint32_t stopped;          /* halted or faulted */
    uint64_t executed, stalled_in, stalled_out, faulted;
    RouteRequest *requests;    /* send requests, in processor order */
    uint32_t *words;
    uint32_t nrequests;
    uint32_t *taken;           /* packets taken by IN, to release */
    uint32_t ntaken;
    uint32_t *print_proc;      /* PRINTs */
    int32_t *print_value;
    uint32_t nprints;
} Share;

struct Workers;

typedef struct Machine {
    MachineConfig cfg;
    uint32_t nprocs;           /* N, a power of two >= 2 */
    uint32_t programmed;       /* processors with an image record */
    unsigned k;                /* log2 N */
    Cpu *cpus;
    CpuMemory mem;
    Net *net;
    Router *router;
    MachineObserver obs;
    uint64_t t;                /* timesteps run so far */
    uint32_t *ready;           /* processors that execute in the next timestep,
                                  in increasing order */
    uint32_t nready;
    uint32_t *merge;           /* scratch for merging woken processors in */
    uint32_t nrunning;         /* processors neither halted, faulted nor idle */
    uint32_t waiting_in;       /* running processors stalled on IN or OUT: */
    uint32_t waiting_out;      /* they wait off the ready list until woken */
    RouteRequest *requests;    /* this timestep's send requests (stage 1) */
    uint32_t *request_words;
    Route *routes;
    uint32_t nrequests;
    bool executed;             /* some processor executed a byte this timestep */
    Share *shares;             /* cfg.threads of them */
    struct Workers *workers;   /* the threads of --threads */
    uint32_t faulted;          /* processors faulted so far */
    uint64_t instructions, stalls_in, stalls_out;
    uint64_t step_collisions;  /* collisions in the last timestep */
    MachineEnd end;
    char internal_error[256];  /* what broke, for END_INTERNAL */
} Machine;

/* Builds the machine for an image. Returns 0, or -1 with a message in err
 * (too many records for --procs, a machine too large to allocate, ...). */
int machine_init(Machine *m, const MachineConfig *cfg, const HexImage *img,
                 const MachineObserver *obs, char *err, size_t errsize);
void machine_free(Machine *m);

/* Runs one timestep and decides whether the run ends; returns m->end. */
MachineEnd machine_step(Machine *m);

/* The exit status of an end (spec/cli.md). */
int machine_exit_status(MachineEnd end);
const char *machine_end_name(MachineEnd end);

#endif
