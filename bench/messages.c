/* Messages of several words (spec/messages.md) under the three switchings,
 * measured on the network alone (no processors): the figures of
 * docs/results.md, "Messages: wormhole, cut-through and store-and-forward".
 *
 *   messages lone [-o CSV] [--svg FILE] [--table]
 *       A lone message of L = 1, 2, 4, ..., 64 words from processor 0 to
 *       N - 1 (so it turns at layer c = k under every routing), injected
 *       into an empty network with input ports of 64 places, under every
 *       routing, both duplex modes, N = 8, 64 and 1,024, and each of
 *       wormhole with buffers of 1, 5 and 64 places, cut-through and
 *       store-forward with 64. One CSV row per run:
 *         N,routing,duplex,switching,buffer,turn,length,latency,formula,
 *         collisions
 *       where `formula` is messages.md's lone-message latency, 4c - 1 +
 *       (L - 1) or 4c - 1 + 2c(L - 1) ("-" for buffers of 1 place, which
 *       it does not cover). --table prints the doc's table (N = 64, benes,
 *       full duplex) on stdout in place of the CSV, which -o still writes;
 *       --svg draws it.
 *
 *   messages traffic [--procs LIST] [--routing LIST] [--configs LIST]
 *                    [--loads LIST] [--all-loads] [--length L] [--warmup W]
 *                    [--steps S] [--seed S] [-o CSV]
 *       Random traffic at increasing load, full duplex. Each timestep,
 *       each processor makes a message of L words (8) with probability
 *       load / L, to a processor other than itself and an input port drawn
 *       at random (16 ports of 1 place, as emu's default), and queues it;
 *       the oldest message of its queue goes into its output slot as soon
 *       as the slot is empty. So `load` is the offered load in flits per
 *       processor per timestep, and the traffic (every draw) is the same
 *       under every configuration. Every word is read the timestep after it
 *       arrives, so only the network limits what is carried. After W
 *       warm-up timesteps (300) the next S (600) are measured. LIST is
 *       comma-separated; a config is SWITCHING:BUFFER. The defaults are
 *       the doc's: N = 64, 256, 1,024, 4,096, dmodk, wormhole with 5, 8
 *       and 16 places, cut-through with 8 and 16, store-forward with 8,
 *       loads 0.1, 0.2, 0.4, 0.6, 0.8, 1.0. A configuration's loads run in
 *       the order given until one saturates (below), and then only the
 *       last, what the network carries when every source always has a
 *       message waiting (--all-loads runs every one: a saturated network is
 *       the slowest to emulate). One CSV row per run:
 *         N,routing,switching,buffer,length,load,offered,accepted,latency,
 *         network_latency,collisions_per_hop,backlog,saturated
 *       `offered` and `accepted` are flits made and flits delivered per
 *       processor per timestep in the measured timesteps; `latency` is the
 *       mean time from a message's making to its tail's arrival, over the
 *       messages whose tails arrived in them, `network_latency` the same
 *       from its send (machine.md's latency); `collisions_per_hop` is
 *       collisions per flit move; `backlog` the messages per processor
 *       still queued at the end; `saturated` is yes when the queues grew
 *       by more than one message per processor over the measured
 *       timesteps: the sources fall behind, and `latency` grows with the
 *       length of the run.
 *
 *   messages draw CSV DIR
 *       From a traffic CSV: prints the doc's tables and writes
 *       DIR/messages_latency.svg and DIR/messages_throughput.svg, titled
 *       with the messages' length and the routing of the CSV's first row.
 *       The CSV's messages must all be of one length (a CSV of two is
 *       refused: their rows would fall into the same lines). The latency
 *       table is at loads 0.2 and 0.6, or at the loads run nearest them.
 *
 * Every run is deterministic: any computer prints the same. bench/messages.sh
 * runs the three as the doc's section needs them. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/lib/svg.h"
#include "common/outfile.h"
#include "net/net.h"
#include "net/route.h"

enum {
    MAX_LIST = 32,         /* values of a list option */
    PORTS = 16,            /* emu's defaults */
    PLANES = 2,
    MAX_LINE = 512
};

/* ---- lists and numbers ------------------------------------------------------ */

/* Splits a comma-separated list into at most MAX_LIST items (in place). */
static size_t split(char *s, char **items)
{
    size_t n = 0;
    for (char *tok = strtok(s, ","); tok && n < MAX_LIST; tok = strtok(NULL, ","))
        items[n++] = tok;
    return n;
}

static int whole(const char *s, unsigned long lo, unsigned long hi, unsigned long *v)
{
    char *end;
    errno = 0;
    unsigned long x = strtoul(s, &end, 10);
    if (errno || end == s || *end || x < lo || x > hi || s[0] == '-')
        return -1;
    *v = x;
    return 0;
}

static unsigned log2_of(uint32_t n)
{
    unsigned k = 0;
    while ((1u << k) < n)
        k++;
    return k;
}

/* The traffic's draws: one 64-bit linear congruential generator, reset for
 * every run, so that every configuration meets the same traffic. */
static uint64_t rng;

static uint32_t draw32(void)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng >> 32);
}

static uint32_t draw(uint32_t n)
{
    return (uint32_t)(((uint64_t)draw32() * n) >> 32);
}

/* ---- one switching and buffer ----------------------------------------------- */

typedef struct Config {
    NetSwitching switching;
    unsigned buffer;
} Config;

static int config_parse(char *s, Config *c)
{
    char *colon = strchr(s, ':');
    unsigned long b;
    if (!colon)
        return -1;
    *colon = '\0';
    if (switching_parse(s, &c->switching) != 0 || whole(colon + 1, 1, 4096, &b) != 0)
        return -1;
    c->buffer = (unsigned)b;
    return 0;
}

/* ---- a lone message ------------------------------------------------------------ */

/* The lone message's configurations: wormhole at 1 place (outside the
 * formula), the default 5 and 64, and the two that need the whole message
 * in a buffer, at 64. */
static const Config lone_configs[] = {
    { SWITCHING_WORMHOLE, 1 }, { SWITCHING_WORMHOLE, 5 }, { SWITCHING_WORMHOLE, 64 },
    { SWITCHING_CUT_THROUGH, 64 }, { SWITCHING_STORE_FORWARD, 64 },
};
enum { NLONE = sizeof lone_configs / sizeof *lone_configs, MAX_L = 64, NLENGTHS = 7 };
static const uint32_t lone_sizes[] = { 8, 64, 1024 };

typedef struct Lone {
    uint32_t n;
    RoutingAlgorithm routing;
    bool full;
    Config config;
    unsigned turn;
    uint32_t length;
    uint64_t latency, collisions;
    bool arrived;
} Lone;

/* Sends one message of r->length words from 0 to N - 1 at timestep 1 into
 * an empty network and steps it until the network is empty. */
static int lone_run(Lone *r)
{
    unsigned k = log2_of(r->n);
    NetConfig cfg = { k, PLANES, r->full, r->config.buffer, PORTS, MAX_L,
                      r->routing == ROUTING_ADAPTIVE, 1, r->config.switching };
    Net *net = net_new(&cfg);
    Router *router = router_new(r->routing, k, PLANES, 1);
    if (!net || !router) {
        fprintf(stderr, "messages: out of memory\n");
        net_free(net), router_free(router);
        return -1;
    }
    uint32_t words[MAX_L];
    for (uint32_t i = 0; i < r->length; i++)
        words[i] = i;
    net_begin_timestep(net, 1);
    net_reserve_out(net, 0);
    RouteRequest req = { 0, r->n - 1, 0, net_count_request(net, 0), NULL,
                         r->length > 1 ? r->length : 0 };
    Route route;
    router_route(router, &req, 1, &route);
    net_inject(net, &req, &route, words, 1);
    r->turn = route.count;
    for (uint64_t t = 1; t <= 100000; t++) {
        if (t > 1)
            net_begin_timestep(net, t);
        net_step(net, t);
        if (!net_busy(net))
            break;
    }
    const NetStats *st = net_stats(net);
    r->arrived = st->delivered == 1 && st->flits_delivered == r->length;
    r->latency = st->latency_max;
    r->collisions = st->link_total + st->buffer_total;
    net_free(net);
    router_free(router);
    return 0;
}

/* messages.md's latency of a lone message; 0 where it says none (one place
 * per buffer). */
static uint64_t lone_formula(const Lone *r)
{
    uint64_t c = r->turn, l = r->length;
    if (r->config.buffer < 2)
        return 0;
    if (r->config.switching == SWITCHING_STORE_FORWARD)
        return 4 * c - 1 + 2 * c * (l - 1);
    return 4 * c - 1 + (l - 1);
}

static const char *const lone_header =
    "N,routing,duplex,switching,buffer,turn,length,latency,formula,collisions\n";

static void lone_row(FILE *f, const Lone *r)
{
    uint64_t formula = lone_formula(r);
    fprintf(f, "%u,%s,%s,%s,%u,%u,%u,", r->n, routing_name(r->routing), r->full ? "full" : "half",
            switching_name(r->config.switching), r->config.buffer, r->turn, r->length);
    if (r->arrived)
        fprintf(f, "%llu,", (unsigned long long)r->latency);
    else
        fprintf(f, "not-arrived,");
    if (formula)
        fprintf(f, "%llu,", (unsigned long long)formula);
    else
        fprintf(f, "-,");
    fprintf(f, "%llu\n", (unsigned long long)r->collisions);
}

/* The doc's table and plot: N = 64, benes, full duplex. */
static const Lone *lone_find(const Lone *runs, size_t n, size_t config, uint32_t length)
{
    for (size_t i = 0; i < n; i++)
        if (runs[i].n == 64 && runs[i].routing == ROUTING_BENES && runs[i].full &&
            runs[i].config.switching == lone_configs[config].switching &&
            runs[i].config.buffer == lone_configs[config].buffer && runs[i].length == length)
            return &runs[i];
    return NULL;
}

static void lone_table(const Lone *runs, size_t n)
{
    printf("| L | `wormhole` B=1 | `wormhole` B=5 | `wormhole` B=64 | `cut-through` B=64 "
           "| `store-forward` B=64 | 4c - 1 + (L - 1) | 4c - 1 + 2c(L - 1) |\n");
    printf("|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (uint32_t l = 1; l <= MAX_L; l *= 2) {
        printf("| %u |", l);
        unsigned c = 0;
        for (size_t j = 0; j < NLONE; j++) {
            const Lone *r = lone_find(runs, n, j, l);
            if (r && r->arrived)
                printf(" %llu |", (unsigned long long)r->latency);
            else
                printf(" - |");
            if (r)
                c = r->turn;
        }
        printf(" %u | %u |\n", 4 * c - 1 + (l - 1), 4 * c - 1 + 2 * c * (l - 1));
    }
}

/* Writes a file whole (common/outfile.h) with fn; 0 or -1 (said). */
static int write_file(const char *path, int (*fn)(FILE *, const void *), const void *ctx)
{
    OutFile file = { 0 };
    char err[1024];
    if (outfile_open(&file, path, err, sizeof err) != 0) {
        fprintf(stderr, "messages: %s\n", err);
        return -1;
    }
    if (fn(file.f, ctx) != 0) {
        fprintf(stderr, "messages: %s: nothing to draw\n", path);
        outfile_abort(&file);
        return -1;
    }
    if (outfile_commit(&file, err, sizeof err) != 0) {
        fprintf(stderr, "messages: %s\n", err);
        return -1;
    }
    return 0;
}

typedef struct LoneRuns {
    const Lone *runs;
    size_t n;
} LoneRuns;

/* Latency against L, one line per switching (wormhole at the default 5
 * places), the two formulas dashed through them. */
static int lone_svg(FILE *f, const void *ctx)
{
    const LoneRuns *lr = ctx;
    static const size_t drawn[] = { 0, 1, 3, 4 };        /* of lone_configs */
    static const char *const names[] = { "wormhole, B=1", "wormhole, B=5",
                                         "cut-through, B=64", "store-forward, B=64" };
    static const char *const formulas[] = { "4c-1+(L-1)", "4c-1+2c(L-1)" };
    double x[NLENGTHS], y[4][NLENGTHS], fy[2][NLENGTHS];
    SvgSeries series[6];
    size_t i = 0;
    for (uint32_t l = 1; l <= MAX_L; l *= 2, i++) {
        x[i] = l;
        unsigned c = 0;
        for (size_t j = 0; j < 4; j++) {
            const Lone *r = lone_find(lr->runs, lr->n, drawn[j], l);
            if (!r || !r->arrived)
                return -1;
            y[j][i] = (double)r->latency;
            c = r->turn;
        }
        fy[0][i] = 4.0 * c - 1 + (l - 1);
        fy[1][i] = 4.0 * c - 1 + 2.0 * c * (l - 1);
    }
    for (size_t j = 0; j < 4; j++)
        series[j] = (SvgSeries){ names[j], NLENGTHS, x, y[j], NULL, NULL, NULL };
    for (size_t j = 0; j < 2; j++)
        series[4 + j] = (SvgSeries){ formulas[j], NLENGTHS, x, fy[j], NULL, NULL, NULL };
    SvgPanel panel = { "N = 64, c = 6, benes, full duplex", 6, series };
    SvgPlot plot = { "A lone message: latency against its length", "message length L (words)",
                     "latency (timesteps)", 1, &panel, false };
    SvgStyle style = { true, 2, formulas };
    return svg_plot_styled(f, &plot, &style);
}

static int lone_main(int argc, char **argv)
{
    const char *out = NULL, *svg = NULL;
    bool table = false;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc) out = argv[++i];
        else if (!strcmp(argv[i], "--svg") && i + 1 < argc) svg = argv[++i];
        else if (!strcmp(argv[i], "--table")) table = true;
        else {
            fprintf(stderr, "messages lone: unknown option %s\n", argv[i]);
            return 1;
        }
    }
    enum { MAX_RUNS = 3 * ROUTING_COUNT * 2 * NLONE * NLENGTHS };
    static Lone runs[MAX_RUNS];
    size_t n = 0;
    for (size_t s = 0; s < sizeof lone_sizes / sizeof *lone_sizes; s++)
        for (int alg = 0; alg < ROUTING_COUNT; alg++)
            for (int d = 0; d < 2; d++)
                for (size_t c = 0; c < NLONE; c++)
                    for (uint32_t l = 1; l <= MAX_L; l *= 2) {
                        runs[n] = (Lone){ lone_sizes[s], (RoutingAlgorithm)alg, d == 1,
                                          lone_configs[c], 0, l, 0, 0, false };
                        if (lone_run(&runs[n++]) != 0)
                            return 1;
                    }
    int status = 0;
    OutFile file = { 0 };
    char err[1024];
    FILE *csv = table ? NULL : stdout;
    if (out) {
        if (outfile_open(&file, out, err, sizeof err) != 0) {
            fprintf(stderr, "messages: %s\n", err);
            return 1;
        }
        csv = file.f;
    }
    if (csv) {
        fputs(lone_header, csv);
        for (size_t i = 0; i < n; i++)
            lone_row(csv, &runs[i]);
    }
    if (out && outfile_commit(&file, err, sizeof err) != 0) {
        fprintf(stderr, "messages: %s\n", err);
        status = 1;
    }
    if (table)
        lone_table(runs, n);
    LoneRuns lr = { runs, n };
    if (svg && write_file(svg, lone_svg, &lr) != 0)
        status = 1;
    return status;
}

/* ---- random traffic ------------------------------------------------------------- */

/* A processor's messages made and not yet sent, oldest first. */
typedef struct Source {
    uint32_t *made, *dst, *port;   /* rings of cap entries */
    size_t head, n, cap;
} Source;

static int source_push(Source *s, uint32_t made, uint32_t dst, uint32_t port)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 8;
        uint32_t *m = malloc(cap * sizeof *m), *d = malloc(cap * sizeof *d),
                 *p = malloc(cap * sizeof *p);
        if (!m || !d || !p) {
            free(m), free(d), free(p);
            return -1;
        }
        for (size_t i = 0; i < s->n; i++) {
            size_t j = (s->head + i) % s->cap;
            m[i] = s->made[j], d[i] = s->dst[j], p[i] = s->port[j];
        }
        free(s->made), free(s->dst), free(s->port);
        s->made = m, s->dst = d, s->port = p, s->head = 0, s->cap = cap;
    }
    size_t j = (s->head + s->n) % s->cap;
    s->made[j] = made, s->dst[j] = dst, s->port[j] = port;
    s->n++;
    return 0;
}

typedef struct Traffic {
    uint32_t n, length;
    RoutingAlgorithm routing;
    Config config;
    double load;
    uint64_t warmup, steps, seed;
} Traffic;

typedef struct TrafficResult {
    double offered, accepted, latency, network_latency, collisions_per_hop, backlog;
    bool saturated;
} TrafficResult;

/* Reads every word of the input ports of the processors in `woken` (those
 * the last timestep delivered to), counting, when `measured`, the flits and
 * each tail's latencies: the tail arrived in timestep t - 1. */
typedef struct Tally {
    uint64_t flits, messages;
    double latency, network_latency;
} Tally;

static void read_ports(Net *net, const uint32_t *woken, size_t nwoken, uint64_t t,
                       const uint32_t *made, bool measured, Tally *tally)
{
    for (size_t i = 0; i < nwoken; i++)
        for (uint32_t port = 0; port < PORTS; port++) {
            uint32_t word, taken;
            while ((taken = net_take(net, woken[i], port, &word)) != NET_NIL) {
                NetPacket pk;
                net_taken_packet(net, taken, &pk);
                if (measured) {
                    tally->flits++;
                    if (pk.flit + 1 == pk.length) {
                        tally->messages++;
                        tally->latency += (double)(t - 1 - made[pk.id]);
                        tally->network_latency += (double)(t - 1 - pk.created);
                    }
                }
                net_release_read(net, taken);
            }
        }
}

static int traffic_run(const Traffic *tr, TrafficResult *res)
{
    unsigned k = log2_of(tr->n);
    NetConfig cfg = { k, PLANES, true, tr->config.buffer, PORTS, 1,
                      tr->routing == ROUTING_ADAPTIVE, 1, tr->config.switching };
    Net *net = net_new(&cfg);
    Router *router = router_new(tr->routing, k, PLANES, tr->seed);
    Source *sources = calloc(tr->n, sizeof *sources);
    RouteRequest *reqs = malloc(tr->n * sizeof *reqs);
    Route *routes = malloc(tr->n * sizeof *routes);
    uint32_t *words = calloc(tr->length, sizeof *words);
    uint32_t *woken = malloc(tr->n * sizeof *woken);
    uint32_t *made = NULL;           /* by message id: the timestep it was made */
    size_t made_cap = 0, nwoken = 0, woken_cap = tr->n;
    int status = -1;
    if (!net || !router || !sources || !reqs || !routes || !words || !woken)
        goto out;
    rng = tr->seed;
    /* load / L messages a timestep, as a threshold on 32 bits */
    double p = tr->load / tr->length;
    uint64_t threshold = p >= 1 ? (1ull << 32) : (uint64_t)(p * 4294967296.0);
    uint64_t end = tr->warmup + tr->steps;
    uint64_t made_flits = 0, backlog = 0, backlog_start = 0;
    uint64_t hops_start = 0, collisions_start = 0;
    Tally tally = { 0, 0, 0, 0 };
    for (uint64_t t = 1; t <= end + 1; t++) {
        net_begin_timestep(net, t);
        read_ports(net, woken, nwoken, t, made, t - 1 > tr->warmup, &tally);
        if (t == end + 1)
            break;          /* (the last timestep's arrivals, read) */
        if (t == tr->warmup + 1) {
            const NetStats *st = net_stats(net);
            hops_start = st->links_crossed;
            collisions_start = st->link_total + st->buffer_total;
            backlog_start = backlog;
        }
        size_t batch = 0;
        for (uint32_t src = 0; src < tr->n; src++) {
            if (draw32() < threshold) {
                uint32_t dst = draw(tr->n - 1), port = draw(PORTS);
                dst += dst >= src;
                if (source_push(&sources[src], (uint32_t)t, dst, port) != 0)
                    goto out;
                backlog++;
                made_flits += t > tr->warmup ? tr->length : 0;
            }
            Source *s = &sources[src];
            if (s->n && net_out_free(net, src)) {
                net_reserve_out(net, src);
                reqs[batch++] = (RouteRequest){ src, s->dst[s->head], s->port[s->head],
                                                net_count_request(net, src), NULL,
                                                tr->length > 1 ? tr->length : 0 };
            }
        }
        router_route(router, reqs, batch, routes);
        for (size_t i = 0; i < batch; i++) {
            Source *s = &sources[reqs[i].src];
            uint64_t id = net_inject(net, &reqs[i], &routes[i], words, t);
            if (id >= made_cap) {
                size_t cap = made_cap ? made_cap : 1u << 16;
                while (cap <= id)
                    cap *= 2;
                uint32_t *m = realloc(made, cap * sizeof *m);
                if (!m)
                    goto out;
                made = m, made_cap = cap;
            }
            made[id] = s->made[s->head];
            s->head = (s->head + 1) % s->cap;
            s->n--;
            backlog--;
        }
        /* (a processor may be named more than once: read a second time, its
         * ports are empty) */
        const NetStepResult *step = net_step(net, t);
        if (step->nwoken > woken_cap) {
            uint32_t *w = realloc(woken, 2 * step->nwoken * sizeof *w);
            if (!w)
                goto out;
            woken = w, woken_cap = 2 * step->nwoken;
        }
        nwoken = step->nwoken;
        memcpy(woken, step->woken, nwoken * sizeof *woken);
    }
    const NetStats *st = net_stats(net);
    double cells = (double)tr->n * (double)tr->steps;
    uint64_t hops = st->links_crossed - hops_start;
    *res = (TrafficResult){
        (double)made_flits / cells, (double)tally.flits / cells,
        tally.messages ? tally.latency / (double)tally.messages : 0,
        tally.messages ? tally.network_latency / (double)tally.messages : 0,
        hops ? (double)(st->link_total + st->buffer_total - collisions_start) / (double)hops : 0,
        (double)backlog / tr->n, backlog > backlog_start + tr->n
    };
    status = 0;
out:
    if (status != 0)
        fprintf(stderr, "messages: out of memory\n");
    for (uint32_t i = 0; sources && i < tr->n; i++)
        free(sources[i].made), free(sources[i].dst), free(sources[i].port);
    free(sources), free(reqs), free(routes), free(words), free(woken), free(made);
    router_free(router);
    net_free(net);
    return status;
}

static const char *const traffic_header =
    "N,routing,switching,buffer,length,load,offered,accepted,latency,network_latency,"
    "collisions_per_hop,backlog,saturated\n";

static int traffic_main(int argc, char **argv)
{
    char procs_s[] = "64,256,1024,4096", routing_s[] = "dmodk",
         configs_s[] = "wormhole:5,wormhole:8,cut-through:8,store-forward:8,wormhole:16,"
                       "cut-through:16",
         loads_s[] = "0.1,0.2,0.4,0.6,0.8,1.0";
    char *procs_a = procs_s, *routing_a = routing_s, *configs_a = configs_s, *loads_a = loads_s;
    const char *out = NULL;
    unsigned long length = 8, warmup = 300, steps = 600, seed = 1;
    bool all_loads = false;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = v == NULL;
        if (!bad && !strcmp(a, "--procs")) procs_a = argv[++i];
        else if (!bad && !strcmp(a, "--routing")) routing_a = argv[++i];
        else if (!bad && !strcmp(a, "--configs")) configs_a = argv[++i];
        else if (!bad && !strcmp(a, "--loads")) loads_a = argv[++i];
        else if (!bad && !strcmp(a, "--length")) bad = whole(argv[++i], 1, 65536, &length) ? 2 : 0;
        else if (!bad && !strcmp(a, "--warmup")) bad = whole(argv[++i], 0, 1000000, &warmup) ? 2 : 0;
        else if (!bad && !strcmp(a, "--steps")) bad = whole(argv[++i], 1, 1000000, &steps) ? 2 : 0;
        else if (!bad && !strcmp(a, "--seed")) bad = whole(argv[++i], 0, ~0ul, &seed) ? 2 : 0;
        else if (!bad && !strcmp(a, "-o")) out = argv[++i];
        else if (!strcmp(a, "--all-loads")) all_loads = true, bad = 0;
        else bad = 1;
        if (bad == 2) {         /* a known option, its value out of range */
            static const char *const range[] = { "--length", "1 to 65536", "--warmup",
                                                 "0 to 1000000", "--steps", "1 to 1000000",
                                                 "--seed", "a whole number from 0" };
            size_t r = 0;
            while (strcmp(range[r], a) != 0)
                r += 2;
            fprintf(stderr, "messages traffic: %s wants %s, not '%s'\n", a, range[r + 1], argv[i]);
            return 1;
        }
        if (bad) {
            fprintf(stderr, "messages traffic: bad option %s\n", a);
            return 1;
        }
    }
    char *items[MAX_LIST];
    uint32_t procs[MAX_LIST];
    RoutingAlgorithm routings[MAX_LIST];
    Config configs[MAX_LIST];
    double loads[MAX_LIST];
    size_t np = split(procs_a, items);
    for (size_t i = 0; i < np; i++) {
        unsigned long v;
        if (whole(items[i], 2, 1u << 20, &v) != 0 || (v & (v - 1))) {
            fprintf(stderr, "messages traffic: N must be a power of two: %s\n", items[i]);
            return 1;
        }
        procs[i] = (uint32_t)v;
    }
    size_t nr = split(routing_a, items);
    for (size_t i = 0; i < nr; i++)
        if (routing_parse(items[i], &routings[i]) != 0) {
            fprintf(stderr, "messages traffic: unknown routing %s\n", items[i]);
            return 1;
        }
    size_t nc = split(configs_a, items);
    for (size_t i = 0; i < nc; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s", items[i]);
        if (config_parse(items[i], &configs[i]) != 0) {
            fprintf(stderr, "messages traffic: bad config %s (SWITCHING:BUFFER)\n", name);
            return 1;
        }
        if (configs[i].switching != SWITCHING_WORMHOLE && configs[i].buffer < length) {
            fprintf(stderr, "messages traffic: %s: a buffer of %u places cannot hold a message "
                    "of %lu words\n", name, configs[i].buffer, length);
            return 1;
        }
    }
    size_t nl = split(loads_a, items);
    for (size_t i = 0; i < nl; i++) {
        char *end;
        loads[i] = strtod(items[i], &end);
        if (*end || !(loads[i] > 0 && loads[i] <= 1)) {
            fprintf(stderr, "messages traffic: a load is in (0, 1]: %s\n", items[i]);
            return 1;
        }
    }
    FILE *outs[2] = { stdout, NULL };
    int nouts = 1, status = 0;
    OutFile file = { 0 };
    char err[1024];
    if (out) {
        if (outfile_open(&file, out, err, sizeof err) != 0) {
            fprintf(stderr, "messages: %s\n", err);
            return 1;
        }
        outs[nouts++] = file.f;
    }
    for (int o = 0; o < nouts; o++)
        fputs(traffic_header, outs[o]);
    for (size_t a = 0; a < np; a++)
        for (size_t r = 0; r < nr; r++)
            for (size_t c = 0; c < nc; c++) {
                bool saturated = false;
                for (size_t l = 0; l < nl; l++) {
                    /* past the first load that saturates, only the last */
                    if (saturated && !all_loads && l + 1 < nl)
                        continue;
                    Traffic tr = { procs[a], (uint32_t)length, routings[r], configs[c], loads[l],
                                   warmup, steps, seed };
                    TrafficResult res;
                    if (traffic_run(&tr, &res) != 0) {
                        status = 1;
                        goto done;
                    }
                    saturated |= res.saturated;
                    for (int o = 0; o < nouts; o++) {
                        fprintf(outs[o], "%u,%s,%s,%u,%u,%.2f,%.3f,%.3f,%.1f,%.1f,%.3f,%.1f,%s\n",
                                tr.n, routing_name(tr.routing), switching_name(tr.config.switching),
                                tr.config.buffer, tr.length, tr.load, res.offered, res.accepted,
                                res.latency, res.network_latency, res.collisions_per_hop,
                                res.backlog, res.saturated ? "yes" : "no");
                        fflush(outs[o]);
                    }
                }
            }
done:
    if (out && (status != 0 || outfile_commit(&file, err, sizeof err) != 0)) {
        if (status == 0)
            fprintf(stderr, "messages: %s\n", err);
        outfile_abort(&file);
        status = 1;
    }
    return status;
}

/* ---- the doc's tables and plots, from a traffic CSV ------------------------------- */

typedef struct Row {
    uint32_t n;
    char routing[16], switching[16];
    unsigned buffer, length;
    double load, offered, accepted, latency, network_latency, collisions_per_hop, backlog;
    bool saturated;
} Row;

enum { MAX_ROWS = 4096, MAX_COLUMNS = 16 };

/* Reads the rows of a CSV that `messages traffic` wrote; their number, or
 * -1 (said) for a file that is not one, naming the line. */
static long read_rows(const char *path, Row *rows)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "messages: %s: %s\n", path, strerror(errno));
        return -1;
    }
    char line[MAX_LINE];
    long n = 0, lineno = 0;
    bool bad = !fgets(line, sizeof line, f) || strcmp(line, traffic_header) != 0;
    lineno++;
    while (!bad && fgets(line, sizeof line, f)) {
        lineno++;
        char *cells[MAX_COLUMNS];
        size_t nc = 0;
        line[strcspn(line, "\n")] = '\0';
        for (char *c = line, *comma; nc < MAX_COLUMNS; c = comma + 1) {
            cells[nc++] = c;
            comma = strchr(c, ',');
            if (!comma)
                break;
            *comma = '\0';
        }
        unsigned long v[3];
        double d[7];
        char *end;
        bad = nc != 13 || n >= MAX_ROWS || whole(cells[0], 2, 1u << 20, &v[0]) ||
              whole(cells[3], 1, 4096, &v[1]) || whole(cells[4], 1, 65536, &v[2]) ||
              strlen(cells[1]) >= sizeof rows->routing || strlen(cells[2]) >= sizeof rows->switching ||
              (strcmp(cells[12], "yes") && strcmp(cells[12], "no"));
        for (int i = 0; i < 7 && !bad; i++) {
            d[i] = strtod(cells[5 + i], &end);
            bad = *end || end == cells[5 + i] || !isfinite(d[i]) || d[i] < 0;
        }
        if (bad)
            break;
        Row *r = &rows[n++];
        *r = (Row){ (uint32_t)v[0], "", "", (unsigned)v[1], (unsigned)v[2], d[0], d[1], d[2], d[3],
                    d[4], d[5], d[6], strcmp(cells[12], "yes") == 0 };
        strcpy(r->routing, cells[1]);
        strcpy(r->switching, cells[2]);
    }
    fclose(f);
    if (bad) {
        fprintf(stderr, "messages: %s:%ld: not a row of messages traffic\n", path, lineno);
        return -1;
    }
    return n;
}

/* The configurations of a CSV, in their first order: a routing, a
 * switching and a buffer each. */
typedef struct Column {
    const Row *first;
} Column;

static bool same_config(const Row *a, const Row *b)
{
    return !strcmp(a->routing, b->routing) && !strcmp(a->switching, b->switching) &&
           a->buffer == b->buffer;
}

static const Row *find_row(const Row *rows, long n, const Row *config, uint32_t procs, double load)
{
    for (long i = 0; i < n; i++)
        if (same_config(&rows[i], config) && rows[i].n == procs && fabs(rows[i].load - load) < 1e-9)
            return &rows[i];
    return NULL;
}

/* The row of the highest load run for a configuration and N. */
static const Row *last_row(const Row *rows, long n, const Row *config, uint32_t procs)
{
    const Row *best = NULL;
    for (long i = 0; i < n; i++)
        if (same_config(&rows[i], config) && rows[i].n == procs && (!best || rows[i].load > best->load))
            best = &rows[i];
    return best;
}

typedef struct Drawing {
    const Row *rows;
    long n;
    const Row *configs[MAX_COLUMNS];   /* the main routing's */
    size_t nconfigs;
    const Row *others[MAX_COLUMNS];    /* the other routings', with the main one's same config */
    size_t nothers;
    uint32_t procs[MAX_COLUMNS];
    size_t nprocs;
} Drawing;

static void number_with_commas(char *buf, size_t size, uint32_t v)
{
    if (v >= 1000)
        snprintf(buf, size, "%u,%03u", v / 1000, v % 1000);
    else
        snprintf(buf, size, "%u", v);
}

static void config_name(char *buf, size_t size, const Row *r, bool markdown)
{
    snprintf(buf, size, markdown ? "`%s` B=%u" : "%s, B=%u", r->switching, r->buffer);
}

/* Sorts a CSV's rows into the drawing's columns: the configurations of the
 * routing of its first row, and the other routings of the one
 * configuration they were run with, that routing first. */
static int drawing_of(Drawing *dr, const Row *rows, long n)
{
    *dr = (Drawing){ rows, n, { 0 }, 0, { 0 }, 0, { 0 }, 0 };
    if (n == 0)
        return -1;
    const char *main_routing = rows[0].routing;
    for (long i = 0; i < n; i++) {
        const Row *r = &rows[i];
        size_t j = 0;
        while (j < dr->nprocs && dr->procs[j] != r->n)
            j++;
        if (j == dr->nprocs && dr->nprocs < MAX_COLUMNS)
            dr->procs[dr->nprocs++] = r->n;
        const Row **list = strcmp(r->routing, main_routing) ? dr->others : dr->configs;
        size_t *nlist = strcmp(r->routing, main_routing) ? &dr->nothers : &dr->nconfigs;
        for (j = 0; j < *nlist && !same_config(list[j], r); j++)
            ;
        if (j == *nlist && *nlist < MAX_COLUMNS)
            list[(*nlist)++] = r;
    }
    if (dr->nothers) {          /* the main routing's row of the others' config, first */
        for (size_t j = 0; j < dr->nconfigs; j++)
            if (!strcmp(dr->configs[j]->switching, dr->others[0]->switching) &&
                dr->configs[j]->buffer == dr->others[0]->buffer && dr->nothers < MAX_COLUMNS) {
                memmove(&dr->others[1], &dr->others[0], dr->nothers * sizeof *dr->others);
                dr->others[0] = dr->configs[j];
                dr->nothers++;
                break;
            }
    }
    return 0;
}

/* Whether a configuration saturated at N at some load up to `load`. */
static bool saturated_by(const Row *rows, long n, const Row *config, uint32_t procs, double load)
{
    for (long i = 0; i < n; i++)
        if (same_config(&rows[i], config) && rows[i].n == procs && rows[i].saturated &&
            rows[i].load <= load + 1e-9)
            return true;
    return false;
}

/* The load run that is nearest `want` (the lower of two as near), so
 * that the tables' light and middle loads, 0.2 and 0.6 as bench/messages.sh
 * runs them, come from a CSV of other loads too; `want` with no rows. */
static double nearest_load(const Drawing *dr, double want)
{
    if (dr->n == 0)
        return want;
    double best = dr->rows[0].load;
    for (long i = 1; i < dr->n; i++) {
        double load = dr->rows[i].load, d = fabs(load - want), bd = fabs(best - want);
        if (d < bd - 1e-9 || (d < bd + 1e-9 && load < best))
            best = load;
    }
    return best;
}

/* The mean latency at a load, or "saturated" when it or a lower load
 * saturated (the loads past that one were not run). */
static void latency_cell(const Drawing *dr, const Row *config, uint32_t procs, double load)
{
    const Row *r = find_row(dr->rows, dr->n, config, procs, load);
    if (saturated_by(dr->rows, dr->n, config, procs, load))
        printf(" saturated |");
    else if (!r)
        printf(" - |");
    else
        printf(" %.1f |", r->latency);
}

/* A table's header: its leading columns (`lead`, and their rule), then a
 * column for each configuration. */
static void table_header(const Drawing *dr, const char *lead, const char *rule)
{
    char name[64];
    printf("%s", lead);
    for (size_t c = 0; c < dr->nconfigs; c++)
        config_name(name, sizeof name, dr->configs[c], true), printf(" %s |", name);
    printf("\n%s", rule);
    for (size_t c = 0; c < dr->nconfigs; c++)
        printf("---:|");
    printf("\n");
}

static void draw_tables(const Drawing *dr)
{
    char num[32];
    /* (one row where both are the same load) */
    double loads[] = { nearest_load(dr, 0.2), nearest_load(dr, 0.6) };
    size_t nloads = fabs(loads[1] - loads[0]) < 1e-9 ? 1 : 2;
    table_header(dr, "| N |", "|---:|");
    for (size_t p = 0; p < dr->nprocs; p++) {
        number_with_commas(num, sizeof num, dr->procs[p]);
        printf("| %s |", num);
        for (size_t c = 0; c < dr->nconfigs; c++) {
            const Row *r = last_row(dr->rows, dr->n, dr->configs[c], dr->procs[p]);
            if (r)
                printf(" %.2f |", r->accepted);
            else
                printf(" - |");
        }
        printf("\n");
    }
    table_header(dr, "\n| N | load |", "|---:|---:|");
    for (size_t p = 0; p < dr->nprocs; p++)
        for (size_t l = 0; l < nloads; l++) {
            number_with_commas(num, sizeof num, dr->procs[p]);
            printf("| %s | %.2g |", num, loads[l]);
            for (size_t c = 0; c < dr->nconfigs; c++)
                latency_cell(dr, dr->configs[c], dr->procs[p], loads[l]);
            printf("\n");
        }
    if (!dr->nothers)
        return;
    /* the sizes at which the other routings ran */
    bool ran[MAX_COLUMNS] = { false };
    for (size_t p = 0; p < dr->nprocs; p++)
        for (size_t o = 1; o < dr->nothers; o++)
            ran[p] |= last_row(dr->rows, dr->n, dr->others[o], dr->procs[p]) != NULL;
    printf("\n| routing |");
    for (size_t p = 0; p < dr->nprocs; p++)
        if (ran[p])
            number_with_commas(num, sizeof num, dr->procs[p]), printf(" %s |", num);
    printf("\n|---|");
    for (size_t p = 0; p < dr->nprocs; p++)
        if (ran[p])
            printf("---:|");
    printf("\n");
    for (size_t o = 0; o < dr->nothers; o++) {
        printf("| `%s` |", dr->others[o]->routing);
        for (size_t p = 0; p < dr->nprocs; p++) {
            if (!ran[p])
                continue;
            const Row *most = last_row(dr->rows, dr->n, dr->others[o], dr->procs[p]);
            const Row *low = find_row(dr->rows, dr->n, dr->others[o], dr->procs[p], loads[0]);
            if (!most)
                printf(" - |");
            else if (saturated_by(dr->rows, dr->n, dr->others[o], dr->procs[p], loads[0]))
                printf(" %.2f (saturated) |", most->accepted);
            else if (!low)
                printf(" %.2f (-) |", most->accepted);
            else
                printf(" %.2f (%.1f) |", most->accepted, low->latency);
        }
        printf("\n");
    }
}

typedef struct Panels {
    const Drawing *dr;
    bool latency;       /* else throughput */
} Panels;

/* One panel per N, one line per configuration of the main routing: mean
 * latency at the loads that did not saturate, or flits delivered at every
 * load run. */
static int traffic_svg(FILE *f, const void *ctx)
{
    const Panels *pp = ctx;
    const Drawing *dr = pp->dr;
    enum { MAX_POINTS = 64 };
    static double xs[MAX_COLUMNS][MAX_COLUMNS][MAX_POINTS], ys[MAX_COLUMNS][MAX_COLUMNS][MAX_POINTS];
    static char names[MAX_COLUMNS][64], titles[MAX_COLUMNS][48];
    SvgSeries series[MAX_COLUMNS][MAX_COLUMNS];
    SvgPanel panels[MAX_COLUMNS];
    for (size_t c = 0; c < dr->nconfigs; c++)
        config_name(names[c], sizeof names[c], dr->configs[c], false);
    for (size_t p = 0; p < dr->nprocs; p++) {
        char num[32];
        number_with_commas(num, sizeof num, dr->procs[p]);
        snprintf(titles[p], sizeof titles[p], "N = %s", num);
        size_t ns = 0;
        for (size_t c = 0; c < dr->nconfigs; c++) {
            size_t np = 0;
            for (long i = 0; i < dr->n && np < MAX_POINTS; i++) {
                const Row *r = &dr->rows[i];
                if (!same_config(r, dr->configs[c]) || r->n != dr->procs[p] ||
                    (pp->latency && r->saturated))
                    continue;
                xs[p][c][np] = r->load;
                ys[p][c][np++] = pp->latency ? r->latency : r->accepted;
            }
            if (np)
                series[p][ns++] = (SvgSeries){ names[c], np, xs[p][c], ys[p][c], NULL, NULL, NULL };
        }
        panels[p] = (SvgPanel){ titles[p], ns, series[p] };
    }
    char title[160];
    snprintf(title, sizeof title, "Random messages of %u words, %s: %s", dr->rows[0].length,
             dr->configs[0]->routing,
             pp->latency ? "latency (loads that do not saturate)" : "flits delivered");
    SvgPlot plot = { title,
                     "offered load (flits per processor per timestep)",
                     pp->latency ? "mean latency (timesteps)" : "flits delivered per processor per timestep",
                     dr->nprocs, panels, false };
    SvgStyle style = { true, 0, NULL };
    return svg_plot_styled(f, &plot, &style);
}

static int draw_main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: messages draw CSV DIR\n");
        return 1;
    }
    static Row rows[MAX_ROWS];
    long n = read_rows(argv[2], rows);
    Drawing dr;
    if (n < 0 || drawing_of(&dr, rows, n) != 0) {
        if (n == 0)
            fprintf(stderr, "messages: %s: no rows\n", argv[2]);
        return 1;
    }
    /* The tables and plots name one length; rows of another would be
     * drawn into the same lines, as if of the same messages. */
    for (long i = 1; i < n; i++)
        if (rows[i].length != rows[0].length) {
            fprintf(stderr, "messages: %s: messages of %u and of %u words: draw one length at "
                    "a time\n", argv[2], rows[0].length, rows[i].length);
            return 1;
        }
    draw_tables(&dr);
    char path[4096];
    int status = 0;
    Panels lat = { &dr, true }, thr = { &dr, false };
    snprintf(path, sizeof path, "%s/messages_latency.svg", argv[3]);
    status |= write_file(path, traffic_svg, &lat);
    snprintf(path, sizeof path, "%s/messages_throughput.svg", argv[3]);
    status |= write_file(path, traffic_svg, &thr);
    return status ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "lone"))
        return lone_main(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "traffic"))
        return traffic_main(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "draw"))
        return draw_main(argc, argv);
    fprintf(stderr, "usage: messages lone|traffic|draw ... (see bench/messages.c)\n");
    return 1;
}
