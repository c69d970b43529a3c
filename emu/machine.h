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
 * A processor whose IN or OUT stalls is not scheduled again: re-executing
 * it would only stall until the network changes its input port or output
 * slot, and the network says when it does (Net.woken). So a waiting
 * processor costs nothing per timestep; its stall timesteps are counted all
 * the same.
 *
 * Running ahead. Between two instructions that reach outside it (IN, OUT,
 * PRINT, HALT, TIME, or one that faults), a processor's work is private:
 * nothing else in the machine can observe it, and nothing else can change
 * what it computes. So when a processor is due, it executes the
 * instruction of that timestep and then runs the private instructions after
 * it for several timesteps at once (cpu_run_private), with its state in
 * registers, and is next due at the timestep of the first instruction it did
 * not run. External instructions always execute at their
 * own timestep, in processor order, exactly as in lockstep. The instructions
 * run ahead are counted at the timesteps they belong to, so the statistics,
 * the deadlock test (nothing executed) and every end are those of lockstep;
 * run-ahead never passes --max-steps or sync_at (the next --state), and
 * run_ahead is off under --step, so every state shown is exact. */
#ifndef EMU_MACHINE_H
#define EMU_MACHINE_H

#include <stdbool.h>
#include <stdint.h>

#include "cpu/cpu.h"
#include "cpu/hex.h"
#include "net/net.h"
#include "net/route.h"

/* The processor stage can be split across --threads workers: each runs a
 * contiguous share of the processors, collecting its send requests,
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
    unsigned vcs;              /* --vcs: virtual channels (channels.md) */
    NetSwitching switching;    /* --switching (messages.md) */
    uint32_t parallel_min;     /* split the processor stage only when at least
                                  this many processors run and do not wait
                                  (tests set 1) */
    bool run_ahead;            /* processors may run ahead (off for --step) */
    bool check_invariants;     /* verify the network after every timestep */
    uint64_t max_bytes;        /* --max-mem: refuse a machine that needs more
                                  (machine_bytes); 0: no limit */
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
    .max_steps = 0, .threads = 1, .vcs = 1, .parallel_min = 1024, .run_ahead = true, \
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

/* Timesteps are kept in a ring of DUE_SLOTS bitmaps: bit p of slot
 * t % DUE_SLOTS says processor p executes at timestep t. A processor runs
 * ahead at most AHEAD_MAX timesteps, so the ring never wraps onto itself. */
enum { DUE_SLOTS = 64, AHEAD_MAX = DUE_SLOTS - 1 };

/* One worker's part of the processor stage: a fixed range of words of every
 * due bitmap (so a fixed range of processors), and what those processors
 * did in this timestep, kept apart so that workers never write the same
 * memory; the machine merges the shares in order, which is processor order. */
typedef struct Share {
    uint32_t word_begin, word_end; /* its words of each bitmap: [begin, end) */
    uint32_t lo[DUE_SLOTS];        /* per slot, the words that may hold bits: */
    uint32_t hi[DUE_SLOTS];        /* [lo, hi], or lo > hi when none */
    int64_t ahead[DUE_SLOTS];      /* run-ahead intervals: +1 where one starts,
                                      -1 where it ends (by timestep % slots) */
    uint32_t stopped;              /* halted or faulted this timestep */
    uint64_t executed;             /* instructions executed in lockstep */
    uint64_t stalled_in, stalled_out, faulted;
    RouteRequest *requests;        /* send requests, in processor order */
    uint32_t *words;
    uint32_t nrequests;
    DestSet *sets;                 /* MOUT's destinations, by request */
    uint32_t *members;             /* ...their lists, one after another, */
    size_t *members_at;            /* ...each from here, by request */
    size_t nmembers, members_cap;
    uint32_t *taken;               /* packets taken by IN, to release */
    uint32_t ntaken;
    uint32_t *print_proc;          /* PRINTs */
    int32_t *print_value;
    uint32_t nprints;
} Share;

struct Workers;

typedef struct Machine {
    MachineConfig cfg;
    uint32_t nprocs;           /* N, a power of two >= 2 */
    uint32_t programmed;       /* processors with an image record */
    const struct LineTable *lines; /* the program's source lines (cpu/lines.h), set
                                  by whoever compiled it; NULL for a hex file */
    unsigned k;                /* log2 N */
    Cpu *cpus;
    CpuMemory mem;
    Net *net;
    const NetStats *stats;     /* the network's statistics (net_stats) */
    Router *router;
    MachineObserver obs;
    uint64_t t;                /* timesteps run so far */
    uint64_t *due;             /* DUE_SLOTS bitmaps of due_words words each */
    uint32_t due_words;
    uint64_t ahead_level;      /* instructions run ahead that belong to this timestep */
    uint64_t sync_at;          /* no processor runs ahead past this timestep (0: none) */
    uint32_t nrunning;         /* processors neither halted, faulted nor idle */
    uint32_t waiting_in;       /* running processors stalled on IN or OUT: */
    uint32_t waiting_out;      /* they wait, off the bitmaps, until woken */
    RouteRequest *requests;    /* this timestep's send requests (stage 1) */
    uint32_t *request_words;
    const uint32_t **request_message;  /* a SEND's words, or NULL (by request) */
    Route *routes;
    uint32_t nrequests;
    bool executed;             /* some processor executed a byte this timestep */
    Share *shares;             /* cfg.threads of them */
    struct Workers *workers;   /* the threads of --threads */
    uint32_t faulted;          /* processors faulted so far */
    uint64_t instructions, stalls_in, stalls_out;
    uint64_t step_collisions;  /* collisions in the last timestep */
    uint64_t split_steps;      /* timesteps whose processors ran on the workers */
    MachineEnd end;
    char internal_error[512];  /* what broke, for END_INTERNAL */
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

/* The bytes of memory a machine of this configuration holds when its
 * network is busy, for an image of `programmed` processors: the network's
 * buffers, links and tables (net_bytes), the processors' records, and the
 * memory the programs touch at the start. */
uint64_t machine_bytes(const MachineConfig *cfg, unsigned k, const HexImage *img);
const char *machine_end_name(MachineEnd end);

#endif
