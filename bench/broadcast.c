/* Hardware against software broadcast: one word sent to every processor by
 * the switches' copies (MOUT, spec/multicast.md) or by a tree of unicasts
 * (OUT), as Robinson compares replication in the network with software
 * multicast trees (spec seed 001); and Byrd, Nakano and Delagi's
 * contention case (seed 000), two multicasts to the same two processors at
 * once. Each case is a program run on the emulated machine under every
 * routing; docs/results.md reports and discusses the output.
 *
 *   mout      processor 0 sends one word to all the others with one MOUT
 *             (a broadcast list: n = 0, R = 0); each other processor reads
 *             it (IN) and halts with it as its status
 *   tree      the same word by a binomial tree of OUTs: in round r = 0 ..
 *             k-1 every processor p < 2^r, which has the word, sends it to
 *             p + 2^r. A processor reads the word, sends it on in each
 *             round after its own, and halts with it
 *   all-mout  every processor broadcasts its number with one MOUT, then
 *             reads N - 1 words and halts with their sum
 *   all-out   every processor sends its number to p + r (mod N) for r =
 *             N-1 down to 1, one OUT a round, and reads one word after
 *             each OUT (as bench/routing.c's alltoall, so that no packet
 *             waits for a processor that is not going to read); it halts
 *             with the sum of the words it read
 *   pair-far  two processors each send W multicasts, one after the other,
 *             to the same two processors, which read 2W words each and
 *             halt with their sum: processors 0 and 1 send to 14 and 15,
 *             so both multicasts climb to the top of the network and split
 *             at the same layer on the way down
 *   pair-near the same from processors 0 and 3 to 1 and 2: each multicast
 *             turns at layer 2, and a copy for one receiver may come down
 *             the link by which the other multicast goes up
 *   pair-far-out, pair-near-out
 *             the same words sent by two OUTs each, one to each receiver
 *   The pair cases run at N = 16, with W = 1 and 8 and buffers of 1 and 5
 *   places.
 *
 * Every packet goes to input port 0. After a run that ended normally the
 * bench checks each processor's halt status, so a word that went to the
 * wrong place, or twice, is an error and not a figure. A run that ends in a
 * deadlock is a result like any other, and its figures are those of the
 * part that ran.
 *
 * Output: one CSV line per run, to stdout and to the file named by -o:
 *   case,N,routing,duplex,buffer,words,collisions,link_collisions,
 *   buffer_collisions,first_send,last_read,timesteps,end,sent,copies,read
 * (`first_send` is the timestep of the first send request, `last_read` that
 * in which the last word was read by an IN, `timesteps` the length of the
 * run; `end` is normal, network-deadlock (packets wait for each other in
 * the network), program-deadlock (processors wait for packets that cannot
 * come) or limit (--max-steps); `sent` counts send requests (OUT and MOUT),
 * `copies` the packets made by splits and `read` the words read, which a
 * complete run makes N - 1 for a broadcast, N(N - 1) for all-to-all and 4W
 * for a pair). The broadcast cases run at N = 16, 64, ..., 4,096, all-to-all
 * up to N = --max-all (1,024, so that the bench takes under a minute). The
 * machine is otherwise the default: two planes, 16 input ports of depth 1,
 * --seed 1, so every run is deterministic.
 *
 * With --hex FILE the bench runs nothing: it writes the image of the first
 * run the other options select, headed by the bin/emu command that runs it
 * as the bench did, so that emu's reports can show what happened.
 *
 *   broadcast [--case C] [--routing R] [--duplex half|full] [--min-n N]
 *             [--max-n N] [--max-all N] [--buffer B] [--max-steps S]
 *             [-o FILE] [--hex FILE]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/outfile.h"
#include "cpu/isa.h"
#include "emu/machine.h"
#include "tests/image.h"

typedef enum Case {
    CASE_MOUT, CASE_TREE, CASE_ALL_MOUT, CASE_ALL_OUT,
    CASE_PAIR_FAR, CASE_PAIR_NEAR, CASE_PAIR_FAR_OUT, CASE_PAIR_NEAR_OUT
} Case;
enum { CASES = CASE_PAIR_NEAR_OUT + 1, FIRST_PAIR = CASE_PAIR_FAR };
static const char *const case_names[CASES] = {
    "mout", "tree", "all-mout", "all-out", "pair-far", "pair-near", "pair-far-out",
    "pair-near-out"
};

/* The pair cases: their machine, senders and receivers (far, near), and
 * the buffers and stream lengths they run with. */
enum { PAIR_K = 4 };
static const uint32_t pair_senders[2][2] = { { 0, 1 }, { 0, 3 } };
static const uint32_t pair_receivers[2][2] = { { 14, 15 }, { 1, 2 } };
static const unsigned pair_buffers[] = { 1, 5 };
static const unsigned pair_words[] = { 1, 8 };

/* Everything a run depends on. */
typedef struct Options {
    int only_case;               /* -1: all */
    int routing;                 /* -1: all */
    int duplex;                  /* -1: both; 0 half; 1 full */
    uint32_t min_n, max_n;       /* the broadcast and all-to-all cases' machines */
    uint32_t max_all;            /* ...and the all-to-all cases' largest */
    unsigned buffer;             /* their buffers */
    uint64_t max_steps;
    const char *out;
    const char *hex;             /* write the first run's image here, run nothing */
} Options;

/* One run. */
typedef struct Run {
    Case c;
    unsigned k;
    RoutingAlgorithm routing;
    bool full_duplex;
    unsigned buffer;
    unsigned words;              /* a pair's words per sender (else 1) */
} Run;

/* ---- the programs ---------------------------------------------------------- */

/* Word addresses in every processor's memory. The code ends before LIST;
 * the destination list is image data at LIST; the frame (sp) is at FRAME,
 * whose words are F_DEST, F_LEFT, F_SUM and F_WORD. */
enum { LIST = 48, FRAME = 128, MEM_WORDS = 256 };
enum { WORD = 42 };             /* what the broadcast cases send */
enum { F_DEST = 0, F_LEFT = 1, F_SUM = 2, F_WORD = 3 };

static void prologue(Program *p)
{
    asm_op(p, OP_LDC, FRAME);
    asm_opr(p, OPR_SETSP);
}

/* Reads `count` (>= 1) words from port 0 and halts with their sum. */
static void read_and_halt(Program *p, uint32_t count)
{
    asm_op(p, OP_LDC, 0);
    asm_op(p, OP_STWSP, F_SUM);
    asm_op(p, OP_LDC, count);
    asm_op(p, OP_STWSP, F_LEFT);
    uint32_t loop = p->n;
    asm_op(p, OP_LDC, 0);                       /* sum += IN port 0 */
    asm_opr(p, OPR_IN);
    asm_op(p, OP_LDWSP, F_SUM);
    asm_opr(p, OPR_ADD);
    asm_op(p, OP_STWSP, F_SUM);
    asm_op(p, OP_LDWSP, F_LEFT);                /* while --left != 0 */
    asm_op(p, OP_ADDC, (uint32_t)-1);
    asm_op(p, OP_STWSP, F_LEFT);
    asm_op(p, OP_LDWSP, F_LEFT);
    asm_branch_back(p, OP_BRT, loop);
    asm_op(p, OP_LDWSP, F_SUM);
    asm_opr(p, OPR_HALT);
}

/* MOUT of this processor's number, or of `word`, to the list at LIST. */
static void mout(Program *p, bool own_number, uint32_t word)
{
    if (own_number)
        asm_opr(p, OPR_ID);
    else
        asm_op(p, OP_LDC, word);
    asm_op(p, OP_LDC, LIST);
    asm_opr(p, OPR_MOUT);
}

/* Puts the destination list after the code: n | port 0 << 24, then the
 * entries (a broadcast's R). */
static void put_list(Program *p, const uint32_t *words, unsigned n)
{
    if (p->n > 4 * LIST) {
        fprintf(stderr, "broadcast: code of %u bytes runs into the list\n", p->n);
        exit(1);
    }
    memset(p->bytes + p->n, 0, 4 * LIST - p->n);
    p->n = 4 * LIST;
    for (unsigned i = 0; i < n; i++)
        for (int b = 0; b < 4; b++)
            p->bytes[p->n++] = (uint8_t)(words[i] >> (8 * b));
}

/* The binomial tree: processor `p` (its highest bit is its round) reads the
 * word, unless it is the root, then sends it on in each later round. */
static void tree_program(Program *pr, uint32_t p, unsigned k)
{
    unsigned first = 0;                         /* its first sending round */
    prologue(pr);
    if (p == 0) {
        asm_op(pr, OP_LDC, WORD);
    } else {
        while ((p >> first) != 0)
            first++;                            /* 1 + its highest bit */
        asm_op(pr, OP_LDC, 0);
        asm_opr(pr, OPR_IN);
    }
    asm_op(pr, OP_STWSP, F_WORD);
    for (unsigned r = first; r < k; r++) {
        asm_op(pr, OP_LDWSP, F_WORD);
        asm_op(pr, OP_LDC, p + (1u << r));
        asm_opr(pr, OPR_OUT);
    }
    asm_op(pr, OP_LDWSP, F_WORD);
    asm_opr(pr, OPR_HALT);
}

/* all-out: round r = N-1 .. 1 sends the processor's number to p + r mod N,
 * then reads one word. */
static void all_out_program(Program *p, uint32_t n)
{
    prologue(p);
    asm_op(p, OP_LDC, 0);
    asm_op(p, OP_STWSP, F_SUM);
    asm_op(p, OP_LDC, n - 1);
    asm_op(p, OP_STWSP, F_LEFT);
    uint32_t loop = p->n;
    asm_opr(p, OPR_ID);                         /* dest := (id + r) & (N - 1) */
    asm_op(p, OP_LDWSP, F_LEFT);
    asm_opr(p, OPR_ADD);
    asm_op(p, OP_LDC, n - 1);
    asm_opr(p, OPR_AND);
    asm_op(p, OP_STWSP, F_DEST);
    asm_opr(p, OPR_ID);                         /* send id to dest */
    asm_op(p, OP_LDWSP, F_DEST);
    asm_opr(p, OPR_OUT);
    asm_op(p, OP_LDC, 0);                       /* sum += IN port 0 */
    asm_opr(p, OPR_IN);
    asm_op(p, OP_LDWSP, F_SUM);
    asm_opr(p, OPR_ADD);
    asm_op(p, OP_STWSP, F_SUM);
    asm_op(p, OP_LDWSP, F_LEFT);                /* while --r != 0 */
    asm_op(p, OP_ADDC, (uint32_t)-1);
    asm_op(p, OP_STWSP, F_LEFT);
    asm_op(p, OP_LDWSP, F_LEFT);
    asm_branch_back(p, OP_BRT, loop);
    asm_op(p, OP_LDWSP, F_SUM);
    asm_opr(p, OPR_HALT);
}

/* A pair case: the senders send W words each, by MOUT to the list of both
 * receivers or by an OUT to each; the receivers read 2W words. Returns the
 * status processor p must halt with. */
static int32_t pair_program(Program *pr, const Run *run, uint32_t p)
{
    bool near = run->c == CASE_PAIR_NEAR || run->c == CASE_PAIR_NEAR_OUT;
    bool by_mout = run->c == CASE_PAIR_FAR || run->c == CASE_PAIR_NEAR;
    const uint32_t *from = pair_senders[near], *to = pair_receivers[near];
    const uint32_t list[3] = { 2, to[0], to[1] };
    bool sends = p == from[0] || p == from[1], reads = p == to[0] || p == to[1];
    prologue(pr);
    for (unsigned w = 0; sends && w < run->words; w++) {
        if (by_mout) {
            mout(pr, true, 0);
            continue;
        }
        for (int r = 0; r < 2; r++) {
            asm_opr(pr, OPR_ID);
            asm_op(pr, OP_LDC, to[r]);
            asm_opr(pr, OPR_OUT);
        }
    }
    if (reads)
        read_and_halt(pr, 2 * run->words);
    else {
        asm_op(pr, OP_LDC, 0);
        asm_opr(pr, OPR_HALT);
    }
    if (by_mout)
        put_list(pr, list, 3);
    return reads ? (int32_t)(run->words * (from[0] + from[1])) : 0;
}

/* Processor p's program for `run`, and the status it must halt with. */
static int32_t build_program(Program *pr, const Run *run, uint32_t p)
{
    uint32_t n = 1u << run->k;
    int32_t everyone_else = (int32_t)(n * (n - 1) / 2 - p);    /* sum of the others */
    const uint32_t broadcast[2] = { 0, 0 };     /* n = 0, port 0; R = 0 */
    memset(pr, 0, sizeof *pr);
    switch (run->c) {
    case CASE_MOUT:
        if (p == 0) {
            mout(pr, false, WORD);
            asm_op(pr, OP_LDC, 0);
            asm_opr(pr, OPR_HALT);
            put_list(pr, broadcast, 2);
            return 0;
        }
        asm_op(pr, OP_LDC, 0);
        asm_opr(pr, OPR_IN);
        asm_opr(pr, OPR_HALT);
        return WORD;
    case CASE_TREE:
        tree_program(pr, p, run->k);
        return WORD;
    case CASE_ALL_MOUT:
        prologue(pr);
        mout(pr, true, 0);
        read_and_halt(pr, n - 1);
        put_list(pr, broadcast, 2);
        return everyone_else;
    case CASE_ALL_OUT:
        all_out_program(pr, n);
        return everyone_else;
    case CASE_PAIR_FAR:
    case CASE_PAIR_NEAR:
    case CASE_PAIR_FAR_OUT:
    case CASE_PAIR_NEAR_OUT:
        return pair_program(pr, run, p);
    }
    return 0;
}

/* ---- runs ------------------------------------------------------------------- */

/* The timestep of the first send request. */
static void note_send(void *ctx, uint64_t t, uint64_t id, const RouteRequest *req,
                      const Route *route)
{
    uint64_t *first = ctx;
    (void)id, (void)req, (void)route;
    if (*first == 0)
        *first = t;
}

/* The image of `run` and the status each processor must halt with (want,
 * N entries). Returns 0, or -1 if there is no memory for the programs. */
static int build_image(HexImage *img, int32_t *want, const Run *run)
{
    uint32_t n = 1u << run->k;
    Program *programs = malloc(n * sizeof *programs);
    if (!programs)
        return -1;
    for (uint32_t p = 0; p < n; p++)
        want[p] = build_program(&programs[p], run, p);
    image_build(img, programs, n);
    free(programs);
    return 0;
}

/* Writes an image as the hex format's digit pairs, a comment before each
 * record. Returns 0, or -1 after a message. */
static int write_hex(const char *path, const HexImage *img, const Run *run)
{
    OutFile file;
    char err[1024];
    if (outfile_open(&file, path, err, sizeof err) != 0) {
        fprintf(stderr, "broadcast: %s\n", err);
        return -1;
    }
    FILE *f = file.f;
    fprintf(f, "# bench/broadcast: case %s, N = %u", case_names[run->c], 1u << run->k);
    if ((int)run->c >= FIRST_PAIR)
        fprintf(f, ", W = %u", run->words);
    fprintf(f, "; run it with\n# bin/emu --procs %u --routing %s --duplex %s --buffer %u "
               "--mem %d\n", 1u << run->k, routing_name(run->routing),
            run->full_duplex ? "full" : "half", run->buffer, MEM_WORDS);
    for (uint32_t p = 0; p < img->count; p++) {
        const uint8_t *rec = img->records[p].image - 8;
        fprintf(f, "# processor %u\n", p);
        for (uint32_t i = 0; i < 8 + img->records[p].length; i++)
            fprintf(f, "%02x%c", rec[i], i % 16 == 15 ? '\n' : ' ');
        fputc('\n', f);
    }
    if (outfile_commit(&file, err, sizeof err) != 0) {
        fprintf(stderr, "broadcast: %s\n", err);
        return -1;
    }
    return 0;
}

/* Runs one configuration and prints its CSV line to each of `outs`.
 * Returns 0, or -1 if the machine could not be built or a processor halted
 * with a status other than its program's. */
static int run_one(const Options *o, const Run *run, FILE *const *outs, int nouts)
{
    uint32_t n = 1u << run->k;
    int32_t *want = malloc(n * sizeof *want);
    HexImage img = { 0 };
    if (!want || build_image(&img, want, run) != 0) {
        fprintf(stderr, "broadcast: out of memory\n");
        hex_free(&img);
        free(want);
        return -1;
    }
    MachineConfig cfg = MACHINE_CONFIG_DEFAULT;
    cfg.procs = n;
    cfg.routing = run->routing;
    cfg.full_duplex = run->full_duplex;
    cfg.buffer = run->buffer;
    cfg.mem_words = MEM_WORDS;
    cfg.max_steps = o->max_steps;
    uint64_t first_send = 0, last_read = 0, read = 0;
    MachineObserver obs = { &first_send, NULL, note_send, NULL };
    Machine m;
    char err[256];
    if (machine_init(&m, &cfg, &img, &obs, err, sizeof err) != 0) {
        fprintf(stderr, "broadcast: %s: N=%u: %s\n", case_names[run->c], n, err);
        hex_free(&img);
        free(want);
        return -1;
    }
    hex_free(&img);
    const NetStats *st = net_stats(m.net);
    while (machine_step(&m) == END_RUNNING)
        if (st->read != read) {
            read = st->read;
            last_read = m.t;
        }
    if (st->read != read)                       /* (in the last timestep) */
        last_read = m.t;
    const char *end = m.end != END_DEADLOCK ? machine_end_name(m.end)
                      : net_is_stuck(m.net) ? "network-deadlock" : "program-deadlock";
    for (int i = 0; i < nouts; i++) {
        fprintf(outs[i], "%s,%u,%s,%s,%u,%u,%llu,%llu,%llu,%llu,%llu,%llu,%s,%llu,%llu,%llu\n",
                case_names[run->c], n, routing_name(run->routing),
                run->full_duplex ? "full" : "half", run->buffer, run->words,
                (unsigned long long)(st->link_total + st->buffer_total),
                (unsigned long long)st->link_total, (unsigned long long)st->buffer_total,
                (unsigned long long)first_send, (unsigned long long)last_read,
                (unsigned long long)m.t, end, (unsigned long long)st->sent,
                (unsigned long long)st->copies, (unsigned long long)st->read);
        fflush(outs[i]);
    }
    int status = 0;
    for (uint32_t p = 0; p < n && m.end == END_NORMAL; p++)
        if (m.cpus[p].status != want[p]) {
            fprintf(stderr, "broadcast: %s N=%u %s: processor %u halted with %d, not %d\n",
                    case_names[run->c], n, routing_name(run->routing), p,
                    m.cpus[p].status, want[p]);
            status = -1;
            break;
        }
    machine_free(&m);
    free(want);
    return status;
}

/* ---- the command line ------------------------------------------------------- */

static int usage(void)
{
    fprintf(stderr, "usage: broadcast [--case C] [--routing R] [--duplex half|full] "
                    "[--min-n N] [--max-n N] [--max-all N] [--buffer B] "
                    "[--max-steps S] [-o FILE] [--hex FILE]\n");
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
        if (!v)
            return usage();
        i++;
        if (!strcmp(a, "-o"))
            o->out = v;
        else if (!strcmp(a, "--hex"))
            o->hex = v;
        else if (!strcmp(a, "--case")) {
            o->only_case = -1;
            for (int c = 0; c < CASES; c++)
                if (!strcmp(v, case_names[c]))
                    o->only_case = c;
            if (o->only_case < 0)
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
        else if (!strcmp(a, "--min-n") && u >= 2 && u <= 4096)
            o->min_n = (uint32_t)u;
        else if (!strcmp(a, "--max-n") && u >= 2 && u <= 4096)
            o->max_n = (uint32_t)u;
        else if (!strcmp(a, "--max-all") && u >= 2 && u <= 4096)
            o->max_all = (uint32_t)u;
        else if (!strcmp(a, "--buffer") && u >= 1 && u <= 64)
            o->buffer = (unsigned)u;
        else if (!strcmp(a, "--max-steps") && u >= 1)
            o->max_steps = u;
        else
            return usage();
    }
    return 0;
}

/* Whether the options leave `run` in. */
static bool wanted(const Options *o, const Run *run)
{
    uint32_t n = 1u << run->k;
    return (o->only_case < 0 || (int)run->c == o->only_case) &&
           (o->routing < 0 || (int)run->routing == o->routing) &&
           (o->duplex < 0 || (int)run->full_duplex == o->duplex) &&
           ((int)run->c >= FIRST_PAIR ||
            (n >= o->min_n && n <= o->max_n &&
             (n <= o->max_all || (run->c != CASE_ALL_MOUT && run->c != CASE_ALL_OUT))));
}

/* The runs the options select, in the order of the CSV: the broadcast cases
 * at N = 16, 64, ..., 4,096, then the pairs. Returns how many. */
static size_t select_runs(const Options *o, Run *runs)
{
    size_t n = 0;
    for (int c = 0; c < FIRST_PAIR; c++)
        for (unsigned k = 4; k <= 12; k += 2)
            for (int alg = 0; alg < ROUTING_COUNT; alg++)
                for (int full = 0; full <= 1; full++)
                    runs[n++] = (Run){ (Case)c, k, (RoutingAlgorithm)alg, full, o->buffer, 1 };
    for (int c = FIRST_PAIR; c < CASES; c++)
        for (size_t w = 0; w < sizeof pair_words / sizeof *pair_words; w++)
            for (size_t b = 0; b < sizeof pair_buffers / sizeof *pair_buffers; b++)
                for (int alg = 0; alg < ROUTING_COUNT; alg++)
                    for (int full = 0; full <= 1; full++)
                        runs[n++] = (Run){ (Case)c, PAIR_K, (RoutingAlgorithm)alg, full,
                                           pair_buffers[b], pair_words[w] };
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (wanted(o, &runs[i]))
            runs[kept++] = runs[i];
    return kept;
}

/* Every run of select_runs, selected or not. */
enum { MAX_RUNS = FIRST_PAIR * 5 * ROUTING_COUNT * 2 +
                  (CASES - FIRST_PAIR) * (int)(sizeof pair_words / sizeof *pair_words) *
                  (int)(sizeof pair_buffers / sizeof *pair_buffers) * ROUTING_COUNT * 2 };

/* Writes the image of the first run selected (--hex). */
static int image_only(const Options *o, const Run *runs, size_t nruns)
{
    if (nruns == 0) {
        fprintf(stderr, "broadcast: --hex: the options select no run\n");
        return 1;
    }
    uint32_t n = 1u << runs[0].k;
    int32_t *want = malloc(n * sizeof *want);
    HexImage img = { 0 };
    int status = !want || build_image(&img, want, &runs[0]) != 0 ||
                 write_hex(o->hex, &img, &runs[0]) != 0;
    hex_free(&img);
    free(want);
    return status;
}

int main(int argc, char **argv)
{
    Options o = { -1, -1, -1, 16, 4096, 1024, 5, 2000000, NULL, NULL };
    static Run runs[MAX_RUNS];
    if (parse(argc, argv, &o) != 0)
        return 1;
    size_t nruns = select_runs(&o, runs);
    if (o.hex)
        return image_only(&o, runs, nruns);
    FILE *outs[2] = { stdout, NULL };
    int nouts = 1;
    OutFile file = { 0 };
    char err[1024];
    if (o.out && outfile_open(&file, o.out, err, sizeof err) != 0) {
        fprintf(stderr, "broadcast: %s\n", err);
        return 1;
    }
    if (o.out)
        outs[nouts++] = file.f;
    for (int i = 0; i < nouts; i++)
        fprintf(outs[i], "case,N,routing,duplex,buffer,words,collisions,link_collisions,"
                         "buffer_collisions,first_send,last_read,timesteps,end,sent,"
                         "copies,read\n");
    int status = 0;
    for (size_t i = 0; i < nruns; i++)
        if (run_one(&o, &runs[i], outs, nouts) != 0)
            status = 1;
    if (o.out && outfile_commit(&file, err, sizeof err) != 0) {
        fprintf(stderr, "broadcast: %s\n", err);
        status = 1;
    }
    return status;
}
