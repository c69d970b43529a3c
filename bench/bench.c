/* The benchmark table of `make bench`: instructions per second, timesteps
 * per second, packet hops (links crossed) per second and peak resident
 * memory, for three kinds of program at several machine sizes and thread
 * counts. Each configuration runs in a child process of its own, so its
 * peak resident memory (getrusage's ru_maxrss, via wait4) is its own.
 *
 * The programs are built here as images (no compiler needed), one record
 * per processor, every processor programmed:
 *   compute  a tight loop of loads, stores and arithmetic, no network;
 *   network  random traffic paced by the processors: in round k every
 *            processor sends one packet to port k % 16 of processor
 *            p xor h(k) (a random permutation for each round, so each also
 *            receives one per round) and reads the packet of round k - 8:
 *            eight rounds of packets per processor are in flight at once.
 *            About 50 instructions a packet, so at 4,096 some 0.02 packets
 *            a processor a timestep (1,700 hops a timestep): light traffic
 *            (bench/net_bench.c offers up to 25 times as much);
 *   flood    the network as the bottleneck: in round r every processor
 *            sends 8 packets, to p xor h(r) xor i for i = 0..7 (each a
 *            permutation), on ports 8 (r mod 2) + i, then reads its 8; about
 *            14 instructions per packet, and processors mostly wait (0.05
 *            packets a processor a timestep at 4,096);
 *   mixed    every processor sends one packet per round (to p xor h(k)) and
 *            waits for its own, with 40 instructions of arithmetic between.
 *   single   one processor (of 2) running the compute loop: the raw speed
 *            of the interpreter;
 *   idle     one processor running the compute loop in a machine of N: what
 *            N - 1 idle processors cost in memory and time;
 *   broadcast every processor broadcasts its number once (MOUT to all but
 *            itself, on port p mod 16) and reads the other N - 1: N(N - 2)
 *            copies made by the switches; hops/s counts every copy's hops
 *            (ports deep enough to take every packet sent them, so that
 *            none waits for its reader).
 *            Only with --only broadcast, and up to N = 4,096.
 *
 *   bench [--quick] [--only NAME] [--routing NAME] [--procs N] [--threads T]
 *         [--duplex half|full] [--vcs V]
 *
 * (--vcs V: every run with V virtual channels, spec/channels.md, which a
 * row ends by saying when V > 1.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpu/isa.h"
#include "emu/machine.h"
#include "tests/image.h"
#include "bench/clock.h"

typedef enum { PROG_SINGLE, PROG_COMPUTE, PROG_NETWORK, PROG_FLOOD, PROG_MIXED, PROG_IDLE,
               PROG_BROADCAST } ProgramKind;
static const char *const kind_names[] = { "single", "compute", "network", "flood", "mixed", "idle",
                                          "broadcast" };
enum { PROG_KINDS = 7 };

/* Stack frame words: 0 rounds left, 1 this processor, 2 destination, 3 scratch. */
static void emit_setup(Program *p, uint32_t rounds)
{
    asm_op(p, OP_LDC, 200);
    asm_opr(p, OPR_SETSP);
    asm_op(p, OP_LDC, rounds);
    asm_op(p, OP_STWSP, 0);
    asm_opr(p, OPR_ID);
    asm_op(p, OP_STWSP, 1);
}

/* 8 instructions of arithmetic on the frame. */
static void emit_arith(Program *p)
{
    asm_op(p, OP_LDWSP, 3);
    asm_op(p, OP_ADDC, 7);
    asm_op(p, OP_LDWSP, 1);
    asm_opr(p, OPR_XOR);
    asm_op(p, OP_STWSP, 3);
    asm_op(p, OP_LDWSP, 3);
    asm_op(p, OP_EQC, 5);
    asm_op(p, OP_STWSP, 2);
}

/* BRT back to `top`: the operand is relative to the end of the BRT, whose
 * length depends on the operand; the shortest consistent encoding wins. */
static void emit_brt_back(Program *p, uint32_t top)
{
    for (uint32_t len = 1; len <= ISA_MAX_LENGTH; len++) {
        uint32_t off = top - (p->n + len);
        if (isa_encoded_length(OP_BRT, off) == len) {
            asm_op(p, OP_BRT, off);
            return;
        }
    }
}

/* Frame word 0 := n, the count of a loop closed by emit_count_down. */
static void emit_count(Program *p, uint32_t n)
{
    asm_op(p, OP_LDC, n);
    asm_op(p, OP_STWSP, 0);
}

static void emit_count_down(Program *p, uint32_t top)
{
    asm_op(p, OP_LDWSP, 0);
    asm_op(p, OP_ADDC, (uint32_t)-1);
    asm_op(p, OP_STWSP, 0);
    asm_op(p, OP_LDWSP, 0);
    emit_brt_back(p, top);
}

/* areg := ((areg >> 16) xor p) & (N - 1): a processor p xor a hash's top
 * bits, a permutation of the processors for each hash. */
static void emit_scramble(Program *p, uint32_t nprocs)
{
    asm_op(p, OP_LDC, 16);
    asm_opr(p, OPR_SHR);
    asm_op(p, OP_LDWSP, 1);
    asm_opr(p, OPR_XOR);
    asm_op(p, OP_LDC, nprocs - 1);
    asm_opr(p, OPR_AND);
}

/* Frame word 2 := (p xor h(word `k`)) & (N - 1), h a multiplicative hash. */
static void emit_destination(Program *p, uint32_t nprocs, uint32_t k)
{
    asm_op(p, OP_LDWSP, k);
    asm_op(p, OP_LDC, 0x9E3779B1u);
    asm_opr(p, OPR_MUL);
    emit_scramble(p, nprocs);
    asm_op(p, OP_STWSP, 2);
}

/* Sends this processor's number to port (word 4) % 16 of the round's
 * destination; word 4 += 1. */
static void emit_send(Program *p, uint32_t nprocs)
{
    emit_destination(p, nprocs, 4);
    asm_op(p, OP_LDWSP, 4);
    asm_op(p, OP_LDC, 15);
    asm_opr(p, OPR_AND);
    asm_op(p, OP_LDC, 24);
    asm_opr(p, OPR_SHL);
    asm_op(p, OP_LDWSP, 2);
    asm_opr(p, OPR_OR);
    asm_op(p, OP_STWSP, 2);
    asm_op(p, OP_LDWSP, 1);
    asm_op(p, OP_LDWSP, 2);
    asm_opr(p, OPR_OUT);
    asm_op(p, OP_LDWSP, 4);
    asm_op(p, OP_ADDC, 1);
    asm_op(p, OP_STWSP, 4);
}

/* Reads port (word 5) % 16; word 5 += 1. */
static void emit_receive(Program *p)
{
    asm_op(p, OP_LDWSP, 5);
    asm_op(p, OP_LDC, 15);
    asm_opr(p, OPR_AND);
    asm_opr(p, OPR_IN);
    asm_op(p, OP_STWSP, 3);
    asm_op(p, OP_LDWSP, 5);
    asm_op(p, OP_ADDC, 1);
    asm_op(p, OP_STWSP, 5);
}

/* The flood program's frame, after the words of emit_setup: 4 h, a hash
 * stepped each round (the same on every processor); 5 the round's port set
 * (0 or 8) shifted into a destination word's port field; 6 the port set;
 * 8 + i the constant (i << 24) | i. Rounds alternate between ports 0-7 and
 * 8-15, so a processor a round ahead never sends to a port still holding a
 * packet of the round before, and no packet waits for a port. */
static void emit_flood_setup(Program *p)
{
    for (uint32_t i = 0; i < 8; i++) {
        asm_op(p, OP_LDC, i << 24 | i);
        asm_op(p, OP_STWSP, 8 + i);
    }
}

static void emit_flood_round(Program *p, uint32_t nprocs)
{
    asm_op(p, OP_LDWSP, 4);                     /* h := h * a + c */
    asm_op(p, OP_LDC, 0x9E3779B1u);
    asm_opr(p, OPR_MUL);
    asm_op(p, OP_LDC, 0x7F4A7C15u);
    asm_opr(p, OPR_ADD);
    asm_op(p, OP_STWSP, 4);
    asm_op(p, OP_LDWSP, 5);                     /* the other port set */
    asm_op(p, OP_LDC, 8u << 24);
    asm_opr(p, OPR_XOR);
    asm_op(p, OP_STWSP, 5);
    asm_op(p, OP_LDWSP, 6);
    asm_op(p, OP_LDC, 8);
    asm_opr(p, OPR_XOR);
    asm_op(p, OP_STWSP, 6);
    asm_op(p, OP_LDWSP, 4);                     /* base := ((h >> 16) xor p) | set */
    emit_scramble(p, nprocs);
    asm_op(p, OP_LDWSP, 5);
    asm_opr(p, OPR_OR);
    asm_op(p, OP_STWSP, 2);
    for (uint32_t i = 0; i < 8; i++) {          /* send p to base xor (i, port i) */
        asm_op(p, OP_LDWSP, 2);
        asm_op(p, OP_LDWSP, 8 + i);
        asm_opr(p, OPR_XOR);
        asm_op(p, OP_STWSP, 3);
        asm_op(p, OP_LDWSP, 1);
        asm_op(p, OP_LDWSP, 3);
        asm_opr(p, OPR_OUT);
    }
    for (uint32_t i = 0; i < 8; i++) {          /* read the round's 8 */
        asm_op(p, OP_LDWSP, 6);
        asm_op(p, OP_ADDC, i);
        asm_opr(p, OPR_IN);
        asm_op(p, OP_STWSP, 3);
    }
}

/* The broadcast program: word 6 := (p mod 16) << 24 and word 7 := 0, a
 * broadcast to every processor on port p mod 16 (multicast.md); MOUT it;
 * then read N - 1 packets, from sender p + j on port (p + j) mod 16 for j
 * = 1 .. N - 1, so that every port is read as often as it is sent to. */
static void emit_broadcast(Program *p, uint32_t nprocs)
{
    asm_op(p, OP_LDWSP, 1);
    asm_op(p, OP_LDC, 15);
    asm_opr(p, OPR_AND);
    asm_op(p, OP_LDC, 24);
    asm_opr(p, OPR_SHL);
    asm_op(p, OP_STWSP, 6);
    asm_op(p, OP_LDC, 0);
    asm_op(p, OP_STWSP, 7);
    asm_op(p, OP_LDWSP, 1);
    asm_op(p, OP_LDAWSP, 6);
    asm_opr(p, OPR_MOUT);
    emit_count(p, nprocs - 1);
    asm_op(p, OP_LDWSP, 1);
    asm_op(p, OP_STWSP, 4);
    uint32_t top = p->n;
    asm_op(p, OP_LDWSP, 4);
    asm_op(p, OP_ADDC, 1);
    asm_op(p, OP_STWSP, 4);
    asm_op(p, OP_LDWSP, 4);
    asm_op(p, OP_LDC, 15);
    asm_opr(p, OPR_AND);
    asm_opr(p, OPR_IN);
    asm_op(p, OP_STWSP, 3);
    emit_count_down(p, top);
}

enum { LAG = 8 };   /* rounds of packets in flight per processor (network) */

static void build(Program *p, ProgramKind kind, uint32_t nprocs, uint32_t rounds)
{
    memset(p, 0, sizeof *p);
    emit_setup(p, rounds);
    uint32_t top;
    if (kind == PROG_NETWORK) {
        emit_count(p, LAG);                     /* LAG sends to fill the pipe */
        top = p->n;
        emit_send(p, nprocs);
        emit_count_down(p, top);
        emit_count(p, rounds - LAG);            /* then send one, read one */
        top = p->n;
        emit_send(p, nprocs);
        emit_receive(p);
        emit_count_down(p, top);
        emit_count(p, LAG);                     /* and read the last LAG */
        top = p->n;
        emit_receive(p);
        emit_count_down(p, top);
    } else if (kind == PROG_BROADCAST) {
        emit_broadcast(p, nprocs);
    } else if (kind == PROG_FLOOD) {
        emit_flood_setup(p);
        top = p->n;
        emit_flood_round(p, nprocs);
        emit_count_down(p, top);
    } else {
        top = p->n;
        if (kind == PROG_MIXED) {
            emit_destination(p, nprocs, 0);
            asm_op(p, OP_LDWSP, 1);
            asm_op(p, OP_LDWSP, 2);
            asm_opr(p, OPR_OUT);
            for (int i = 0; i < 5; i++)
                emit_arith(p);
            asm_op(p, OP_LDC, 0);
            asm_opr(p, OPR_IN);
            asm_op(p, OP_STWSP, 3);
        } else {
            emit_arith(p);
            emit_arith(p);
        }
        emit_count_down(p, top);
    }
    asm_op(p, OP_LDC, 0);
    asm_opr(p, OPR_HALT);
}

typedef struct Result {
    double seconds;
    uint64_t timesteps, instructions, hops;
    int end;
    unsigned vcs;           /* the virtual channels the machine ran with */
} Result;

/* --duplex and --vcs, which every run takes. */
static bool full_duplex;
static unsigned vcs = 1;

/* Runs one configuration in this process. */
static Result run_one(ProgramKind kind, uint32_t nprocs, unsigned threads, RoutingAlgorithm routing,
                      uint64_t budget)
{
    Result r = { 0 };
    uint32_t programmed = kind == PROG_SINGLE || kind == PROG_IDLE ? 1 : nprocs;
    /* rounds so that the whole run executes about `budget` instructions */
    /* (flood, about 120 instructions a round, is given a quarter of the
     * budget: its hops cost more time than any other row's instructions) */
    uint32_t per_round = kind == PROG_NETWORK ? 50 : kind == PROG_FLOOD ? 4 * 120
                       : kind == PROG_MIXED ? 65 : 21;
    uint64_t rounds = budget / ((uint64_t)programmed * per_round);
    if (kind == PROG_IDLE)
        rounds = 100000;
    if (rounds < 2 * LAG)
        rounds = 2 * LAG;
    Program *progs = malloc(programmed * sizeof *progs);
    for (uint32_t i = 0; i < programmed; i++)
        build(&progs[i], kind, nprocs, (uint32_t)rounds);
    HexImage img;
    image_build(&img, progs, programmed);
    free(progs);
    MachineConfig cfg = MACHINE_CONFIG_DEFAULT;
    cfg.procs = nprocs;
    cfg.routing = routing;
    cfg.threads = threads;
    cfg.full_duplex = full_duplex;
    cfg.vcs = vcs;
    cfg.check_invariants = false;
    if (kind == PROG_BROADCAST)     /* (room for every packet a port is sent: no port waits) */
        cfg.port_depth = nprocs / 16 + 1;
    Machine m;
    char err[256];
    if (machine_init(&m, &cfg, &img, NULL, err, sizeof err) != 0) {
        fprintf(stderr, "bench: %s\n", err);
        exit(1);
    }
    hex_free(&img);
    double t0 = bench_now();
    while (machine_step(&m) == END_RUNNING)
        ;
    r.seconds = bench_now() - t0;
    r.timesteps = m.t;
    r.instructions = m.instructions;
    r.hops = net_stats(m.net)->links_crossed;
    r.end = m.end;
    r.vcs = m.cfg.vcs;
    machine_free(&m);
    return r;
}

int main(int argc, char **argv)
{
    static const uint32_t sizes[] = { 64, 1024, 4096, 65536 };
    static const unsigned thread_counts[] = { 1, 2 };
    int quick = 0;
    const char *only = NULL;
    uint32_t only_procs = 0;
    unsigned only_threads = 0;
    RoutingAlgorithm routing = ROUTING_BENES;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) quick = 1;
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
        else if (!strcmp(argv[i], "--procs") && i + 1 < argc) only_procs = (uint32_t)atol(argv[++i]);
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc) only_threads = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--duplex") && i + 1 < argc) full_duplex = !strcmp(argv[++i], "full");
        else if (!strcmp(argv[i], "--vcs") && i + 1 < argc) {
            vcs = (unsigned)atoi(argv[++i]);
            if (vcs < 1 || vcs > NET_MAX_VCS) {
                fprintf(stderr, "bench: --vcs must be 1 .. %d\n", NET_MAX_VCS);
                return 1;
            }
        }
        else if (!strcmp(argv[i], "--routing") && i + 1 < argc) {
            if (routing_parse(argv[++i], &routing) != 0) {
                fprintf(stderr, "bench: unknown routing %s\n", argv[i]);
                return 1;
            }
        } else {
            fprintf(stderr, "usage: bench [--quick] [--only single|compute|network|flood|mixed|idle"
                            "|broadcast] "
                            "[--procs N] [--threads T] [--routing NAME] [--duplex half|full] "
                            "[--vcs V]\n");
            return 1;
        }
    }
    uint64_t budget = quick ? 20000000ull : 400000000ull;
    printf("%-8s %6s %7s %10s %8s %12s %12s %12s %9s\n", "program", "N", "threads",
           "timesteps", "seconds", "instr/s", "timesteps/s", "hops/s", "RSS MiB");
    for (int kind = 0; kind < PROG_KINDS; kind++) {
        if (only ? strcmp(only, kind_names[kind]) != 0 : kind == PROG_BROADCAST)
            continue;
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            uint32_t n = kind == PROG_SINGLE ? 2 : sizes[s];
            if ((kind == PROG_SINGLE && s > 0) || (only_procs && kind != PROG_SINGLE && n != only_procs))
                continue;
            if (kind == PROG_BROADCAST && n > 4096)
                continue;
            for (size_t t = 0; t < sizeof thread_counts / sizeof thread_counts[0]; t++) {
                unsigned threads = thread_counts[t];
                if (only_threads && threads != only_threads)
                    continue;
                int fds[2];
                if (pipe(fds) != 0)
                    return 1;
                fflush(stdout);
                pid_t pid = fork();
                if (pid == 0) {
                    close(fds[0]);
                    Result r = run_one((ProgramKind)kind, n, threads, routing, budget);
                    if (write(fds[1], &r, sizeof r) != (ssize_t)sizeof r)
                        _exit(1);
                    _exit(0);
                }
                close(fds[1]);
                Result r;
                ssize_t got = read(fds[0], &r, sizeof r);
                close(fds[0]);
                int status;
                struct rusage ru;
                wait4(pid, &status, 0, &ru);
                if (got != (ssize_t)sizeof r || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
                    printf("%-8s %6u %7u   failed\n", kind_names[kind], n, threads);
                    continue;
                }
                printf("%-8s %6u %7u %10llu %8.2f %12.3g %12.3g %12.3g %9.1f%s",
                       kind_names[kind], n, threads, (unsigned long long)r.timesteps, r.seconds,
                       r.instructions / r.seconds, r.timesteps / r.seconds, r.hops / r.seconds,
                       ru.ru_maxrss / 1024.0, r.end == END_NORMAL ? "" : "  (did not end normally)");
                if (r.vcs > 1)
                    printf("  (%u channels)", r.vcs);
                printf("\n");
                fflush(stdout);
            }
        }
    }
    return 0;
}
