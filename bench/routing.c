/* The routing study that the thesis's chapter 7 promised and never made:
 * collisions of `benes` against two-phase randomised routing (`valiant`)
 * and the other algorithms of spec/routing.md, on whole programs running in
 * the emulated machine. docs/results.md reports and discusses its output.
 *
 * Each traffic pattern is a program in which every processor, for a stated
 * number of rounds, sends one packet (OUT) and then reads (IN) every packet
 * it is sent in that round, before it sends again. All processors run the
 * same code, so their first OUTs fall in one timestep and form one batch;
 * later batches form as the processors drift apart. The code is a loop over
 * a per-processor table of two words per round -- the network address to
 * send to and how many packets to read -- so every processor executes the
 * same bytes and only the tables differ:
 *
 *   random     a new random permutation each round (fixed seed)
 *   bitrev     p to p with its k address bits reversed
 *   transpose  p to p with its high ceil(k/2) and low floor(k/2) bits swapped
 *   shift      p to p + 1 (mod N)
 *   alltoall   round r (1 .. N-1) sends p to p + r: N - 1 rounds
 *   hotspot    each round a random quarter of processors 1 .. N-1 send to
 *              processor 0, and the rest, processor 0 among them, a random
 *              permutation among themselves
 *
 * Port discipline: every packet goes to input port 0, and after each OUT a
 * processor reads from port 0 as many packets as it is sent in that round,
 * whichever rounds they come from (a fast sender's packet of the next round
 * may come first). So no packet waits for a port that its processor is not
 * going to read. A first version used port r % 16 for round r and
 * deadlocked under the hot spot: processor 0 waited on the port of round r
 * while packets of round r + 1, waiting for their own full port, blocked
 * both of its links. Processor 0 is kept out of the hot senders for a
 * similar reason: its packet to itself queued behind the hot traffic, and it
 * ended up waiting to send while packets waited for it to read. With
 * --lag L, the packets of round r are read after the OUT of round r + L, so
 * that the processors never wait for a packet and keep in step.
 *
 * Output: one CSV line per run, to stdout and to the file named by -o:
 *   pattern,N,routing,duplex,rounds,collisions,link_collisions,
 *   buffer_collisions,timesteps,mean_latency,max_latency,end,delivered,
 *   batches
 * (`end` is how the run ended -- normal, or network-deadlock (packets wait
 * for each other in the network), program-deadlock (processors wait for
 * packets that cannot come) or limit (--max-steps), when the figures are
 * those of the part that ran -- `delivered` how many of the
 * N * rounds packets arrived, and `batches` in how many timesteps packets
 * were sent, so N * rounds / batches is the mean batch size). Each run is
 * deterministic: the traffic and the random routings use --seed (default 1).
 *
 *   routing [--quick] [--report] [--min-n N] [--max-n N] [--pattern P]
 *           [--routing R] [--duplex half|full] [--rounds R] [--lag L]
 *           [--seed S] [--port-depth D] [--max-steps S] [-o FILE]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/outfile.h"
#include "cpu/isa.h"
#include "emu/machine.h"
#include "emu/report.h"
#include "tests/image.h"
#include "tests/perm.h"

typedef enum Pattern {
    PAT_RANDOM, PAT_BITREV, PAT_TRANSPOSE, PAT_SHIFT, PAT_ALLTOALL, PAT_HOTSPOT
} Pattern;
enum { PATTERNS = PAT_HOTSPOT + 1, WORDS_PER_ROUND = 2 };
static const char *const pattern_names[PATTERNS] = {
    "random", "bitrev", "transpose", "shift", "alltoall", "hotspot"
};

/* Everything a run depends on. */
typedef struct Options {
    uint32_t min_n, max_n;
    int pattern;                 /* -1: all */
    int routing;                 /* -1: all */
    int duplex;                  /* -1: both; 0 half; 1 full */
    uint32_t rounds;             /* rounds of the non-alltoall patterns */
    uint32_t lag;                /* rounds sent before the first is read */
    uint64_t seed;               /* traffic and the random routings */
    unsigned port_depth;
    uint64_t max_steps;
    const char *out;
    bool report;                 /* each run's emulator report on stderr */
    unsigned vcs, buffer;        /* virtual channels and places per buffer */
} Options;

/* ---- the program --------------------------------------------------------- */

/* Frame words (from sp): 0 this round's row of the table (a word address),
 * 1 rounds left, 2 this round's network address, 3 packets left to read
 * this round, 4 the word last read. */

/* The loop every processor runs; its table starts at word `table` and its
 * stack frame at word `frame`. */
static void build_code(Program *p, uint32_t table, uint32_t frame, uint32_t rounds)
{
    memset(p, 0, sizeof *p);
    asm_op(p, OP_LDC, frame);
    asm_opr(p, OPR_SETSP);
    asm_op(p, OP_LDC, table);
    asm_op(p, OP_STWSP, 0);
    asm_op(p, OP_LDC, rounds);
    asm_op(p, OP_STWSP, 1);
    uint32_t loop = p->n;                       /* one round: */
    asm_op(p, OP_LDWSP, 0);                     /*   address := table[0] */
    asm_op(p, OP_LDWI, 0);
    asm_op(p, OP_STWSP, 2);
    asm_op(p, OP_LDWSP, 0);                     /*   to read := table[1] */
    asm_op(p, OP_LDWI, 1);
    asm_op(p, OP_STWSP, 3);
    asm_opr(p, OPR_ID);                         /*   send ID to address */
    asm_op(p, OP_LDWSP, 2);
    asm_opr(p, OPR_OUT);
    uint32_t read = p->n;                       /*   while to read != 0: */
    asm_op(p, OP_LDWSP, 3);
    asm_op(p, OP_EQC, 0);
    /* BRT over the body when nothing is left to read: the body's branch back
     * depends on where the body starts, so on the BRT's own length; try each
     * length. */
    for (uint32_t brt = 1; brt <= ISA_MAX_LENGTH; brt++) {
        Program body = { .n = p->n + brt };     /* assembled at its real address */
        asm_op(&body, OP_LDC, 0);               /*     IN port 0; to read -= 1 */
        asm_opr(&body, OPR_IN);
        asm_op(&body, OP_STWSP, 4);
        asm_op(&body, OP_LDWSP, 3);
        asm_op(&body, OP_ADDC, (uint32_t)-1);
        asm_op(&body, OP_STWSP, 3);
        asm_branch_back(&body, OP_BR, read);
        uint32_t skip = body.n - (p->n + brt);
        if (isa_encoded_length(OP_BRT, skip) == brt) {
            asm_op(p, OP_BRT, skip);
            memcpy(p->bytes + p->n, body.bytes + p->n, skip);
            p->n = body.n;
            break;
        }
    }
    asm_op(p, OP_LDWSP, 0);                     /*   next table row */
    asm_op(p, OP_ADDC, WORDS_PER_ROUND);
    asm_op(p, OP_STWSP, 0);
    asm_op(p, OP_LDWSP, 1);                     /*   rounds left -= 1 */
    asm_op(p, OP_ADDC, (uint32_t)-1);
    asm_op(p, OP_STWSP, 1);
    asm_op(p, OP_LDWSP, 1);
    asm_branch_back(p, OP_BRT, loop);
    asm_op(p, OP_LDC, 0);
    asm_opr(p, OPR_HALT);
}

/* ---- the traffic ----------------------------------------------------------- */

static uint32_t reverse_bits(uint32_t p, unsigned k)
{
    uint32_t q = 0;
    for (unsigned i = 0; i < k; i++)
        q |= ((p >> i) & 1u) << (k - 1 - i);
    return q;
}

/* Hot spot: a random quarter of the processors 1 .. N-1 (at least one) send
 * to processor 0, the others -- processor 0 among them -- a random
 * permutation among themselves. (Were processor 0 to send to itself, its
 * own packet would queue behind the hot traffic in the buffers down to it,
 * and it could end up waiting to send while packets wait for it to read.) */
static void hotspot_round(uint32_t n, uint64_t *x, uint32_t *dst, uint32_t *scratch)
{
    uint32_t hot = n / 4 ? n / 4 : 1, rest = n - hot;
    test_shuffle(scratch, n - 1, x);            /* scratch[0..hot) + 1 send to 0 */
    for (uint32_t i = 0; i < n - 1; i++)
        scratch[i]++;
    for (uint32_t i = 0; i < hot; i++)
        dst[scratch[i]] = 0;
    uint32_t *others = scratch + hot, *to = scratch + n;
    others[rest - 1] = 0;                       /* the rest, with processor 0 */
    test_shuffle(to, rest, x);                  /* others[i] sends to others[to[i]] */
    for (uint32_t i = 0; i < rest; i++)
        dst[others[i]] = others[to[i]];
}

/* Round r's destination of every processor. scratch holds 2n words. */
static void round_destinations(Pattern pat, unsigned k, uint32_t r, uint64_t *x,
                               uint32_t *dst, uint32_t *scratch)
{
    uint32_t n = 1u << k, low = k / 2;
    switch (pat) {
    case PAT_RANDOM:
        test_shuffle(dst, n, x);
        break;
    case PAT_BITREV:
        for (uint32_t p = 0; p < n; p++)
            dst[p] = reverse_bits(p, k);
        break;
    case PAT_TRANSPOSE:                         /* (high, low) -> (low, high) */
        for (uint32_t p = 0; p < n; p++)
            dst[p] = (p & ((1u << low) - 1)) << (k - low) | p >> low;
        break;
    case PAT_SHIFT:
        for (uint32_t p = 0; p < n; p++)
            dst[p] = (p + 1) & (n - 1);
        break;
    case PAT_ALLTOALL:
        for (uint32_t p = 0; p < n; p++)
            dst[p] = (p + r + 1) & (n - 1);
        break;
    case PAT_HOTSPOT:
        hotspot_round(n, x, dst, scratch);
        break;
    }
}

static uint32_t rounds_of(Pattern pat, uint32_t n, uint32_t rounds)
{
    return pat == PAT_ALLTOALL ? n - 1 : rounds;
}

/* Stores and loads a little-endian word. */
static void put_word(uint8_t *at, uint32_t w)
{
    for (int b = 0; b < 4; b++)
        at[b] = (uint8_t)(w >> (8 * b));
}

static uint32_t get_word(const uint8_t *at)
{
    return (uint32_t)at[0] | (uint32_t)at[1] << 8 | (uint32_t)at[2] << 16 |
           (uint32_t)at[3] << 24;
}

/* The image of `pat` on 2^k processors: the loop, then each processor's
 * table of (address, packets to read) per round. The packets of round r are
 * read after the OUT of round r + lag (the last round's reads all that is
 * left). Returns the memory size the processors need, in words, or 0 if
 * out of memory. */
static uint32_t build_image(HexImage *img, Pattern pat, unsigned k, uint32_t rounds,
                            uint32_t lag, uint64_t seed)
{
    uint32_t n = 1u << k, table = 0, frame, mem_words;
    Program code;
    do {                                        /* the table starts after the code */
        table++;
        frame = table + WORDS_PER_ROUND * rounds;
        build_code(&code, table, frame, rounds);
    } while (code.n > 4 * table);
    mem_words = frame + 8 < 256 ? 256 : frame + 8;
    size_t record = 8 + 4 * (size_t)frame;
    uint32_t *dst = malloc(n * sizeof *dst), *scratch = malloc(2 * n * sizeof *scratch);
    uint32_t *reads = calloc(n, sizeof *reads);
    img->nbytes = record * n;
    img->bytes = calloc(img->nbytes, 1);
    img->records = malloc(n * sizeof *img->records);
    img->count = n;
    if (!dst || !scratch || !reads || !img->bytes || !img->records)
        mem_words = 0;
    for (uint32_t p = 0; p < n && mem_words; p++) {
        uint8_t *rec = img->bytes + record * p;
        put_word(rec, 4 * frame);                 /* length; entry word 0 */
        memcpy(rec + 8, code.bytes, code.n);
        img->records[p] = (HexRecord){ 4 * frame, 0, rec + 8 };
    }
    uint64_t x = seed;
    for (uint32_t r = 0; r < rounds && mem_words; r++) {
        uint32_t read_in = r + lag < rounds ? r + lag : rounds - 1;
        round_destinations(pat, k, r, &x, dst, scratch);
        memset(reads, 0, n * sizeof *reads);
        for (uint32_t p = 0; p < n; p++)
            reads[dst[p]]++;
        for (uint32_t p = 0; p < n; p++) {
            uint8_t *row = img->bytes + record * p + 8 + 4 * (size_t)table;
            put_word(row + 4 * WORDS_PER_ROUND * r, dst[p]);      /* port 0 */
            uint8_t *count = row + 4 * (WORDS_PER_ROUND * read_in + 1);
            put_word(count, get_word(count) + reads[p]);
        }
    }
    free(dst);
    free(scratch);
    free(reads);
    return mem_words;
}

/* ---- runs ------------------------------------------------------------------- */

typedef struct Run {
    Pattern pattern;
    unsigned k;
    RoutingAlgorithm routing;
    bool full_duplex;
} Run;

/* Counts the batches: the timesteps in which some packet was routed. */
typedef struct BatchCount {
    uint64_t last_t, batches;
} BatchCount;

static void count_batch(void *ctx, uint64_t t, uint64_t id, const RouteRequest *req,
                        const Route *route)
{
    BatchCount *bc = ctx;
    (void)id, (void)req, (void)route;
    bc->batches += t != bc->last_t;
    bc->last_t = t;
}

/* Runs one configuration and prints its CSV line to each of `outs`.
 * Returns 0, or -1 if the machine could not be built. */
static int run_one(const Options *o, const Run *run, FILE *const *outs, int nouts)
{
    uint32_t n = 1u << run->k, rounds = rounds_of(run->pattern, n, o->rounds);
    HexImage img = { 0 };
    uint32_t mem = build_image(&img, run->pattern, run->k, rounds, o->lag, o->seed);
    MachineConfig cfg = MACHINE_CONFIG_DEFAULT;
    cfg.procs = n;
    cfg.routing = run->routing;
    cfg.full_duplex = run->full_duplex;
    cfg.port_depth = o->port_depth;
    cfg.vcs = o->vcs;
    cfg.buffer = o->buffer;
    cfg.mem_words = mem;
    cfg.seed = o->seed;
    cfg.max_steps = o->max_steps;
    cfg.check_invariants = false;
    Machine m;
    char err[256];
    BatchCount bc = { 0, 0 };
    MachineObserver obs = { &bc, NULL, count_batch, NULL };
    if (mem == 0 || machine_init(&m, &cfg, &img, &obs, err, sizeof err) != 0) {
        fprintf(stderr, "routing: %s: N=%u: %s\n", pattern_names[run->pattern], n,
                mem ? err : "out of memory");
        hex_free(&img);
        return -1;
    }
    hex_free(&img);
    while (machine_step(&m) == END_RUNNING)
        ;
    const NetStats *st = net_stats(m.net);
    char label[40];                             /* "random", or "random+lag3" */
    snprintf(label, sizeof label, o->lag ? "%s+lag%u" : "%s", pattern_names[run->pattern],
             o->lag);
    const char *end = m.end != END_DEADLOCK ? machine_end_name(m.end)
                      : net_is_stuck(m.net) ? "network-deadlock" : "program-deadlock";
    double mean = st->delivered ? (double)st->latency_sum / (double)st->delivered : 0.0;
    for (int i = 0; i < nouts; i++) {
        fprintf(outs[i], "%s,%u,%s,%s,%u,%llu,%llu,%llu,%llu,%.3f,%llu,%s,%llu,%llu\n",
                label, n, routing_name(run->routing),
                run->full_duplex ? "full" : "half", rounds,
                (unsigned long long)(st->link_total + st->buffer_total),
                (unsigned long long)st->link_total, (unsigned long long)st->buffer_total,
                (unsigned long long)m.t, mean, (unsigned long long)st->latency_max,
                end, (unsigned long long)st->delivered,
                (unsigned long long)bc.batches);
        fflush(outs[i]);
    }
    if (o->report) {
        ReportOptions ro = { 0 };
        fprintf(stderr, "== %s N=%u %s %s duplex\n", label, n,
                routing_name(run->routing), run->full_duplex ? "full" : "half");
        report_write(stderr, &m, &ro);
    }
    machine_free(&m);
    return 0;
}

/* ---- the command line ------------------------------------------------------- */

static int usage(void)
{
    fprintf(stderr, "usage: routing [--quick] [--report] [--min-n N] [--max-n N] "
                    "[--pattern P] [--routing R] [--duplex half|full] [--rounds R] "
                    "[--lag L] [--seed S] [--port-depth D] [--max-steps S] [--vcs V] "
                    "[--buffer B] [-o FILE]\n");
    return -1;
}

static int parse_u64(const char *s, uint64_t *v)
{
    char *end;
    errno = 0;
    *v = strtoull(s, &end, 10);
    return *s && !*end && !errno && *s != '-' ? 0 : -1;
}

/* Parses the options; returns 0, or -1 after a message. */
static int parse(int argc, char **argv, Options *o)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t u = 0;
        if (!strcmp(a, "--quick") || !strcmp(a, "--report")) {
            if (a[2] == 'q')
                o->max_n = 64;
            else
                o->report = true;
            continue;
        }
        if (!v)
            return usage();
        i++;
        if (!strcmp(a, "-o"))
            o->out = v;
        else if (!strcmp(a, "--pattern")) {
            o->pattern = -1;
            for (int p = 0; p < PATTERNS; p++)
                if (!strcmp(v, pattern_names[p]))
                    o->pattern = p;
            if (o->pattern < 0)
                return usage();
        } else if (!strcmp(a, "--routing")) {
            RoutingAlgorithm r;
            if (routing_parse(v, &r) != 0)
                return usage();
            o->routing = (int)r;
        } else if (!strcmp(a, "--duplex") && (!strcmp(v, "half") || !strcmp(v, "full")))
            o->duplex = !strcmp(v, "full");
        else if (parse_u64(v, &u) != 0)
            return usage();
        else if (!strcmp(a, "--min-n") && u >= 2 && u <= 1u << 20)
            o->min_n = (uint32_t)u;
        else if (!strcmp(a, "--max-n") && u >= 2 && u <= 1u << 20)
            o->max_n = (uint32_t)u;
        else if (!strcmp(a, "--rounds") && u >= 1 && u <= 100000)
            o->rounds = (uint32_t)u;
        else if (!strcmp(a, "--lag") && u <= 100000)
            o->lag = (uint32_t)u;
        else if (!strcmp(a, "--seed"))
            o->seed = u;
        else if (!strcmp(a, "--port-depth") && u >= 1 && u <= 1024)
            o->port_depth = (unsigned)u;
        else if (!strcmp(a, "--max-steps") && u >= 1)
            o->max_steps = u;
        else if (!strcmp(a, "--vcs") && u >= 1 && u <= NET_MAX_VCS)
            o->vcs = (unsigned)u;
        else if (!strcmp(a, "--buffer") && u >= 1 && u <= 1024)
            o->buffer = (unsigned)u;
        else
            return usage();
    }
    return 0;
}

int main(int argc, char **argv)
{
    Options o = { 8, 1024, -1, -1, -1, 32, 0, 1, 1, 2000000, NULL, false, 1, 5 };
    if (parse(argc, argv, &o) != 0)
        return 1;
    FILE *outs[2] = { stdout, NULL };
    int nouts = 1;
    OutFile file = { 0 };
    char err[1024];
    if (o.out && outfile_open(&file, o.out, err, sizeof err) != 0) {
        fprintf(stderr, "routing: %s\n", err);
        return 1;
    }
    if (o.out)
        outs[nouts++] = file.f;
    for (int i = 0; i < nouts; i++)
        fprintf(outs[i], "pattern,N,routing,duplex,rounds,collisions,link_collisions,"
                         "buffer_collisions,timesteps,mean_latency,max_latency,end,"
                         "delivered,batches\n");
    int status = 0;
    for (int pat = 0; pat < PATTERNS; pat++)
        for (unsigned k = 1; (1u << k) <= o.max_n; k++)
            for (int alg = 0; alg < ROUTING_COUNT; alg++)
                for (int full = 0; full <= 1; full++) {
                    Run run = { (Pattern)pat, k, (RoutingAlgorithm)alg, full };
                    if ((1u << k) < o.min_n || (o.pattern >= 0 && pat != o.pattern) ||
                        (o.routing >= 0 && alg != o.routing) || (o.duplex >= 0 && full != o.duplex))
                        continue;
                    if (run_one(&o, &run, outs, nouts) != 0)
                        status = 1;
                }
    if (o.out && outfile_commit(&file, err, sizeof err) != 0) {
        fprintf(stderr, "routing: %s\n", err);
        status = 1;
    }
    return status;
}
