/* The timestep loop (machine.h). */
#include "emu/machine.h"

#include "common/plural.h"
#include "cpu/exec.h"
#include "emu/workers.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the processors' view of the machine (CpuBus callbacks) ---------------
 * The context is the worker's Share; everything a callback changes belongs
 * to the calling processor or to that share, so workers never collide. */

typedef struct ShareContext {
    Machine *m;
    Share *share;
} ShareContext;

static bool bus_in(void *ctx, uint32_t proc, uint32_t port, uint32_t *word)
{
    ShareContext *c = ctx;
    uint32_t x = net_take(c->m->net, proc, port, word);
    if (x == NET_NIL)
        return false;
    c->share->taken[c->share->ntaken++] = x;
    return true;
}

static bool bus_out(void *ctx, uint32_t proc, uint32_t dest, uint32_t port, uint32_t word)
{
    ShareContext *c = ctx;
    Net *net = c->m->net;
    if (!net_out_free(net, proc))
        return false;
    net_reserve_out(net, proc);
    Share *s = c->share;
    uint32_t i = s->nrequests++;
    s->requests[i] = (RouteRequest){ proc, dest, port, net_count_request(net, proc), NULL, 0 };
    s->words[i] = word;
    return true;
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Room for n more words in the share's words (MOUT's members, SEND's
 * messages); false if memory cannot be had. */
static bool reserve_words(Share *s, size_t n)
{
    if (s->nmembers + n <= s->members_cap)
        return true;
    size_t cap = s->members_cap ? 2 * s->members_cap : 1024;
    while (cap < s->nmembers + n)
        cap *= 2;
    uint32_t *grown = realloc(s->members, cap * sizeof *grown);
    if (!grown)
        return false;
    s->members = grown;
    s->members_cap = cap;
    return true;
}

/* The destinations of the list at word `list` (checked by the processor)
 * into the share's lists: ascending, each once. Returns how many, or 0
 * if memory cannot be had. */
static uint32_t copy_members(Share *s, const CpuMemory *mem, uint32_t proc, uint32_t list,
                             uint32_t n)
{
    if (!reserve_words(s, n))
        return 0;
    uint32_t *m = s->members + s->nmembers, kept = 0;
    for (uint32_t i = 0; i < n; i++)
        m[i] = *mem_word(mem, proc, list + 1 + i);
    qsort(m, n, sizeof *m, compare_u32);
    for (uint32_t i = 0; i < n; i++)
        if (kept == 0 || m[i] != m[kept - 1])
            m[kept++] = m[i];
    return kept;
}

/* MOUT: as OUT, to a set (multicast.md). The members are copied now, and
 * the set pointed at them when the share's run is over (run_share), since
 * the share's list may move while it grows. */
static bool bus_mout(void *ctx, uint32_t proc, uint32_t list, uint32_t word)
{
    ShareContext *c = ctx;
    Net *net = c->m->net;
    if (!net_out_free(net, proc))
        return false;
    Share *s = c->share;
    const CpuMemory *mem = &c->m->mem;
    uint32_t head = *mem_word(mem, proc, list), n = head & 0xFFFFFFu, dst;
    uint32_t i = s->nrequests;
    DestSet *set = &s->sets[i];
    if (n == 0) {                   /* every processor below the bound but this one */
        uint32_t bound = *mem_word(mem, proc, list + 1);
        bound = bound ? bound : c->m->nprocs;
        *set = dest_set_broadcast(proc, bound, bound == c->m->nprocs);
        dst = dest_set_min(set);
    } else {
        s->members_at[i] = s->nmembers;
        uint32_t kept = copy_members(s, mem, proc, list, n);
        if (kept == 0)
            return false;           /* (out of memory: it stalls) */
        *set = (DestSet){ NULL, kept, 0, 0, DEST_NONE, false };
        dst = s->members[s->nmembers];
        s->nmembers += kept;
    }
    net_reserve_out(net, proc);
    s->nrequests++;
    s->requests[i] = (RouteRequest){ proc, dst, head >> 24, net_count_request(net, proc), set, 0 };
    s->words[i] = word;
    return true;
}

/* SEND: as OUT, a message of `length` words from word `first` of the
 * processor's memory (messages.md), read now, into the share's words
 * (run_share points the request at them, as at MOUT's members). */
static bool bus_send(void *ctx, uint32_t proc, uint32_t dest, uint32_t port, uint32_t first,
                     uint32_t length)
{
    ShareContext *c = ctx;
    Net *net = c->m->net;
    if (!net_out_free(net, proc))
        return false;
    Share *s = c->share;
    if (!reserve_words(s, length))
        return false;               /* (out of memory: it stalls) */
    const CpuMemory *mem = &c->m->mem;
    for (uint32_t i = 0; i < length; i++)
        s->members[s->nmembers + i] = *mem_word(mem, proc, first + i);
    uint32_t i = s->nrequests++;
    s->members_at[i] = s->nmembers;
    s->nmembers += length;
    net_reserve_out(net, proc);
    s->requests[i] = (RouteRequest){ proc, dest, port, net_count_request(net, proc), NULL,
                                     length };
    s->words[i] = s->members[s->members_at[i]];
    return true;
}

static void bus_print(void *ctx, uint32_t proc, int32_t value)
{
    Share *s = ((ShareContext *)ctx)->share;
    s->print_proc[s->nprints] = proc;
    s->print_value[s->nprints++] = value;
}

/* ---- the due bitmaps ------------------------------------------------------------ */

/* Makes processor p (of share sh) due at timestep t. */
static void schedule(Machine *m, Share *sh, uint32_t p, uint64_t t)
{
    unsigned slot = (unsigned)(t % DUE_SLOTS);
    uint32_t w = p >> 6;
    m->due[(size_t)slot * m->due_words + w] |= 1ull << (p & 63);
    if (w < sh->lo[slot])
        sh->lo[slot] = w;
    if (w > sh->hi[slot])
        sh->hi[slot] = w;
}

/* The share that owns processor p. */
static Share *share_of(Machine *m, uint32_t p)
{
    unsigned threads = m->cfg.threads ? m->cfg.threads : 1;
    uint32_t w = p >> 6;
    unsigned i = (unsigned)((uint64_t)w * threads / m->due_words);
    while (i > 0 && m->shares[i].word_begin > w)
        i--;
    while (i + 1 < threads && m->shares[i].word_end <= w)
        i++;
    return &m->shares[i];
}

/* The index of the lowest set bit of x (x != 0). */
static unsigned lowest_bit(uint64_t x)
{
#if defined(__GNUC__)
    return (unsigned)__builtin_ctzll(x);
#else
    unsigned i = 0;
    while (!(x & 1)) {
        x >>= 1;
        i++;
    }
    return i;
#endif
}

/* ---- construction ------------------------------------------------------------ */

static unsigned log2_ceil(uint64_t n)
{
    unsigned k = 0;
    while ((1ull << k) < n)
        k++;
    return k;
}

/* The runner lent to the network (for its lanes) and to the router (for its
 * planes): the same workers as the processors'. */
static void run_on_workers(void *ctx, ParallelFn *fn, void *arg)
{
    Machine *m = ctx;
    workers_run(m->workers, fn, arg);
}

static NetConfig net_config(const MachineConfig *cfg, unsigned k)
{
    return (NetConfig){ k, cfg->planes, cfg->full_duplex, cfg->buffer, cfg->ports,
                        cfg->port_depth, cfg->routing == ROUTING_ADAPTIVE, cfg->vcs,
                        cfg->switching };
}

uint64_t machine_bytes(const MachineConfig *cfg, unsigned k, const HexImage *img)
{
    NetConfig nc = net_config(cfg, k);
    uint64_t n = 1ull << k;
    uint64_t bytes = net_bytes(&nc);
    bytes += n * (sizeof(Cpu) + sizeof(RouteRequest) + sizeof(uint32_t) + sizeof(Route));
    /* A program touches its image and the top of its stack: a chunk of
     * memory each at least (cpu/mem.h). */
    for (uint32_t p = 0; p < img->count; p++)
        bytes += img->records[p].length + 2 * MEM_CHUNK_WORDS * sizeof(uint32_t);
    return bytes;
}

int machine_init(Machine *m, const MachineConfig *cfg, const HexImage *img,
                 const MachineObserver *obs, char *err, size_t errsize)
{
    memset(m, 0, sizeof *m);
    m->cfg = *cfg;
    if (obs)
        m->obs = *obs;
    m->programmed = img->count;
    if (cfg->procs && cfg->procs < img->count) {
        snprintf(err, errsize, "--procs %u is fewer than the program's %u processors",
                 cfg->procs, img->count);
        return -1;
    }
    uint64_t want = cfg->procs ? cfg->procs : img->count;
    m->k = log2_ceil(want < 2 ? 2 : want);
    m->nprocs = 1u << m->k;
    if (m->nprocs > HEX_MAX_RECORDS) {
        snprintf(err, errsize, "a machine of %llu processors is larger than OUT can "
                 "address (2^24)", 1ull << m->k);
        return -1;
    }
    uint64_t bytes = machine_bytes(cfg, m->k, img);
    if (cfg->max_bytes && bytes > cfg->max_bytes) {
        char network[64] = "";
        if (cfg->vcs > 1)
            snprintf(network, sizeof network, " with %u virtual channels", cfg->vcs);
        snprintf(err, errsize, "a machine of %u processors%s needs about %.1f GiB, more "
                 "than the %.1f GiB it may have (--max-mem; by default the host's memory): "
                 "give it fewer processors%s, or a larger --max-mem", m->nprocs, network,
                 (double)bytes / (1u << 30), (double)cfg->max_bytes / (1u << 30),
                 cfg->vcs > 1 ? " or channels" : "");
        return -1;
    }
    NetConfig nc = net_config(cfg, m->k);
    /* One cache line per processor, aligned. */
    if (posix_memalign((void **)&m->cpus, 64, (size_t)m->nprocs * sizeof *m->cpus) != 0)
        m->cpus = NULL;
    m->due_words = (m->nprocs + 63) / 64;
    m->due = calloc((size_t)DUE_SLOTS * m->due_words, sizeof *m->due);
    m->requests = malloc((size_t)m->nprocs * sizeof *m->requests);
    m->request_words = malloc((size_t)m->nprocs * sizeof *m->request_words);
    m->request_message = malloc((size_t)m->nprocs * sizeof *m->request_message);
    m->routes = malloc((size_t)m->nprocs * sizeof *m->routes);
    m->net = net_new(&nc);
    bool unnumbered = m->net == NULL && errno == EFBIG;
    m->router = router_new(cfg->routing, m->k, cfg->planes, cfg->seed);
    unsigned threads = cfg->threads ? cfg->threads : 1;
    m->shares = calloc(threads, sizeof *m->shares);
    bool shares_ok = m->shares != NULL;
    for (unsigned i = 0; shares_ok && i < threads; i++) {
        /* Share i owns words [i W / T, (i+1) W / T) of every bitmap. */
        Share *sh = &m->shares[i];
        sh->word_begin = (uint32_t)((uint64_t)m->due_words * i / threads);
        sh->word_end = (uint32_t)((uint64_t)m->due_words * (i + 1) / threads);
        for (int slot = 0; slot < DUE_SLOTS; slot++) {
            sh->lo[slot] = UINT32_MAX;
            sh->hi[slot] = 0;
        }
        size_t cap = (size_t)(sh->word_end - sh->word_begin) * 64 + 1;
        sh->requests = malloc(cap * sizeof *sh->requests);
        sh->sets = malloc(cap * sizeof *sh->sets);
        sh->members_at = malloc(cap * sizeof *sh->members_at);
        sh->words = malloc(cap * sizeof *sh->words);
        sh->taken = malloc(cap * sizeof *sh->taken);
        sh->print_proc = malloc(cap * sizeof *sh->print_proc);
        sh->print_value = malloc(cap * sizeof *sh->print_value);
        shares_ok = sh->requests && sh->words && sh->taken && sh->print_proc && sh->print_value &&
                    sh->sets && sh->members_at;
    }
    if (shares_ok && threads > 1)
        shares_ok = (m->workers = workers_new(threads)) != NULL;
    /* An observer sees every event of the network, in the spec's order;
     * without one, the two planes' network stages run on two threads. */
    if (m->net)
        m->stats = net_stats(m->net);
    if (m->net && m->obs.event)
        net_observe(m->net, m->obs.event, m->obs.ctx);
    if (m->net && cfg->check_invariants && net_compare_with_reference(m->net) != 0)
        shares_ok = false;
    if (shares_ok && threads > 1 && cfg->planes == 2 && m->net && !m->obs.event)
        shares_ok = net_use_shares(m->net, run_on_workers, m, cfg->parallel_min) == 0;
    /* And the router's two planes, for batches of distinct terminals. */
    if (shares_ok && threads > 1 && m->router)
        shares_ok = router_use_runner(m->router, run_on_workers, m, cfg->parallel_min) == 0;
    if (!m->cpus || !m->due || !m->requests || !m->request_words || !m->request_message ||
        !m->routes ||
        !m->net || !m->router || !shares_ok ||
        mem_init(&m->mem, m->nprocs, cfg->mem_words) != 0) {
        if (unnumbered) {
            snprintf(err, errsize, "a network of %u processors on %u %s has more ports than "
                     "the emulator can number: give it fewer processors%s", m->nprocs,
                     cfg->planes, plural(cfg->planes, "plane", "planes"),
                     cfg->planes == 2 ? " or one plane (--planes 1)" : "");
            machine_free(m);
            return -1;
        }
        char network[64] = "";
        if (!m->net && cfg->vcs > 1)    /* (the channels' buffers are what grew) */
            snprintf(network, sizeof network, " and %u virtual channels of %u %s",
                     cfg->vcs, cfg->buffer, plural(cfg->buffer, "place", "places"));
        snprintf(err, errsize, "cannot allocate a machine of %u processors with %u "
                 "words of memory each%s%s", m->nprocs, cfg->mem_words, network,
                 m->router ? "" : " (or this routing is not available)");
        machine_free(m);
        return -1;
    }
    for (uint32_t p = 0; p < m->nprocs; p++) {
        if (p < img->count) {
            mem_load(&m->mem, p, img->records[p].image, img->records[p].length);
            cpu_boot(&m->cpus[p], p, img->records[p].entry, img->records[p].length);
            m->cpus[p].ready = 1;
            schedule(m, share_of(m, p), p, 1);
            m->nrunning++;
        } else {
            cpu_idle(&m->cpus[p], p);
        }
    }
    return 0;
}

void machine_free(Machine *m)
{
    free(m->cpus);
    free(m->due);
    free(m->requests);
    free(m->request_words);
    free(m->request_message);
    free(m->routes);
    workers_free(m->workers);
    for (unsigned i = 0; m->shares && i < (m->cfg.threads ? m->cfg.threads : 1); i++) {
        Share *sh = &m->shares[i];
        free(sh->requests);
        free(sh->sets);
        free(sh->members_at);
        free(sh->members);
        free(sh->words);
        free(sh->taken);
        free(sh->print_proc);
        free(sh->print_value);
    }
    free(m->shares);
    net_free(m->net);
    router_free(m->router);
    mem_free(&m->mem);
    memset(m, 0, sizeof *m);
}

/* ---- one timestep ------------------------------------------------------------ */

/* How many timesteps a processor due now may run ahead: none under --step,
 * and never past --max-steps or sync_at. */
static uint32_t ahead_limit(const Machine *m)
{
    if (!m->cfg.run_ahead)
        return 0;
    uint64_t limit = AHEAD_MAX;
    if (m->cfg.max_steps && m->cfg.max_steps - m->t + 1 < limit)
        limit = m->cfg.max_steps - m->t + 1;
    if (m->sync_at >= m->t && m->sync_at - m->t + 1 < limit)
        limit = m->sync_at - m->t + 1;
    return (uint32_t)limit;
}

/* Stage 1 for one share: each of its processors due at this timestep
 * executes its instruction of this timestep in lockstep, and then runs its
 * private instructions ahead (as many as the limit allows), up to the next
 * one that reaches outside it. A processor that stalls, halts or faults is
 * not scheduled again; the others are scheduled at the timestep of their
 * next instruction. The loop keeps what it needs in locals: the
 * processors' stores could alias the machine's fields as far as the
 * compiler knows. */
static void run_share(void *arg, unsigned index)
{
    Machine *m = arg;
    Share *sh = &m->shares[index];
    ShareContext ctx = { m, sh };
    CpuBus bus = { &m->mem, m->t, m->nprocs, m->cfg.ports, &ctx, bus_in, bus_out, bus_mout,
                   bus_print, bus_send,
                   m->cfg.switching == SWITCHING_WORMHOLE ? 65536u : m->cfg.buffer };
    const CpuMemory mem = m->mem;   /* by value: the geometry stays in registers */
    Cpu *const cpus = m->cpus;
    const uint64_t t = m->t;
    const unsigned slot = (unsigned)(t % DUE_SLOTS);
    const uint32_t limit = ahead_limit(m);
    uint64_t *const due = m->due + (size_t)slot * m->due_words;
    uint32_t stopped = 0;
    uint64_t executed = 0, stalled_in = 0, stalled_out = 0, faulted = 0;
    sh->nrequests = sh->ntaken = sh->nprints = 0;
    sh->nmembers = 0;
    /* First, the input ports that INs due now will read are asked for, all
     * at once: one by one, in the loop below, each would be a miss that
     * waits (the ports of a large machine do not stay in the cache while
     * the network runs). This pass also brings in the processors' lines. */
    for (uint32_t w = sh->lo[slot]; w <= sh->hi[slot] && w < sh->word_end; w++)
        for (uint64_t bits = due[w]; bits; bits &= bits - 1) {
            uint32_t p = w * 64 + lowest_bit(bits), port;
            if (cpu_next_is_in(&cpus[p], &port))
                net_prefetch_port(m->net, p, port);
        }
    for (uint32_t w = sh->lo[slot]; w <= sh->hi[slot] && w < sh->word_end; w++) {
        uint64_t bits = due[w];
        due[w] = 0;
        for (; bits; bits &= bits - 1) {
            uint32_t p = w * 64 + lowest_bit(bits);
            Cpu *cpu = &cpus[p];
            /* One visit, on the processor's registers in locals: its
             * instruction at t, in lockstep (external or not), then its
             * private ones from t + 1 on, which can run now as they would at
             * its next visit (nothing can observe them in between either).
             * A run of private instructions stops before an external one, so
             * most visits begin with one. */
            CpuRegs r;
            cpu_regs_load(&r, cpu, mem);
            uint32_t ran = 0;
            CpuStep step = cpu_step_regs(cpu, &r, mem, &bus);
            if (step == STEP_EXECUTED && limit > 1)
                ran = cpu_run_private(cpu, &r, mem, &bus, limit - 1);
            cpu_regs_store(cpu, &r);
            switch (step) {
            case STEP_EXECUTED:
                executed++;
                if (ran) {                  /* timesteps t + 1 .. t + ran */
                    sh->ahead[(t + 1) % DUE_SLOTS]++;
                    sh->ahead[(t + 1 + ran) % DUE_SLOTS]--;
                }
                schedule(m, sh, p, t + 1 + ran);
                continue;
            case STEP_HALTED:
                executed++;
                stopped++;
                break;
            case STEP_STALLED:
                if (cpu->wait == WAIT_IN)
                    stalled_in++;
                else
                    stalled_out++;
                break;
            case STEP_FAULTED:
                faulted++;
                stopped++;
                break;
            case STEP_EXTERNAL:             /* (never: a lockstep step executes it) */
                break;
            }
            cpu->ready = 0;                 /* waits, or has stopped */
        }
    }
    sh->lo[slot] = UINT32_MAX;
    sh->hi[slot] = 0;
    sh->stopped = stopped;
    sh->executed = executed;
    sh->stalled_in = stalled_in;
    sh->stalled_out = stalled_out;
    sh->faulted = faulted;
    for (uint32_t i = 0; i < sh->nrequests; i++)       /* (bus_mout) */
        if (sh->requests[i].set && sh->requests[i].set->hi == 0)
            sh->sets[i].members = sh->members + sh->members_at[i];
}

/* Stage 1: every processor due at this timestep runs, split into shares
 * when --threads asks for it and there is enough to share (the processors
 * that wait stall again without being visited). Only the processors that do
 * not wait count as work to share: a machine whose processors all wait on
 * one would otherwise make the threads meet at every timestep for nothing.
 * The shares are then merged in order, which is processor order: the send
 * requests, the packets read and the prints. */
static void stage_processors(Machine *m)
{
    unsigned threads = m->cfg.threads ? m->cfg.threads : 1;
    uint32_t awake = m->nrunning - m->waiting_in - m->waiting_out;
    if (threads > 1 && awake >= m->cfg.parallel_min) {
        workers_run(m->workers, run_share, m);
        m->split_steps++;
    } else
        for (unsigned i = 0; i < threads; i++)
            run_share(m, i);

    unsigned slot = (unsigned)(m->t % DUE_SLOTS);
    m->stalls_in += m->waiting_in;      /* the waiting stall again */
    m->stalls_out += m->waiting_out;
    m->nrequests = 0;
    uint64_t executed = 0;
    for (unsigned i = 0; i < threads; i++) {
        Share *sh = &m->shares[i];
        memcpy(m->requests + m->nrequests, sh->requests, sh->nrequests * sizeof *sh->requests);
        memcpy(m->request_words + m->nrequests, sh->words, sh->nrequests * sizeof *sh->words);
        for (uint32_t j = 0; j < sh->nrequests; j++)        /* (bus_send) */
            m->request_message[m->nrequests + j] =
                sh->requests[j].length ? sh->members + sh->members_at[j] : NULL;
        m->nrequests += sh->nrequests;
        for (uint32_t j = 0; j < sh->ntaken; j++)
            net_release_read(m->net, sh->taken[j]);
        for (uint32_t j = 0; j < sh->nprints; j++)
            if (m->obs.print)
                m->obs.print(m->obs.ctx, m->t, sh->print_proc[j], sh->print_value[j]);
        m->nrunning -= sh->stopped;
        m->waiting_in += (uint32_t)sh->stalled_in;
        m->waiting_out += (uint32_t)sh->stalled_out;
        m->stalls_in += sh->stalled_in;
        m->stalls_out += sh->stalled_out;
        m->faulted += (uint32_t)sh->faulted;
        executed += sh->executed;
        m->ahead_level += (uint64_t)sh->ahead[slot];   /* intervals that start or end now */
        sh->ahead[slot] = 0;
    }
    executed += m->ahead_level;
    m->instructions += executed;
    m->executed = executed != 0;
}

/* After the network stage: the processors whose awaited input port now
 * holds a packet, or whose output slot emptied, are due next timestep
 * (their IN or OUT will succeed then). */
static void wake_processors(Machine *m, const NetStepResult *net)
{
    for (size_t i = 0; i < net->nwoken; i++) {
        uint32_t p = net->woken[i];
        Cpu *cpu = &m->cpus[p];
        if (cpu->ready || cpu->state != CPU_RUNNING)
            continue;
        if (cpu->wait == WAIT_IN &&
            net_port_count(m->net, p, cpu->areg) > 0) {
            m->waiting_in--;
        } else if (cpu->wait == WAIT_OUT && net_out_free(m->net, p)) {
            m->waiting_out--;
        } else {
            continue;
        }
        cpu->ready = 1;
        schedule(m, share_of(m, p), p, m->t + 1);
    }
}

/* Stages 2 and 3: route this timestep's batch and inject its packets. */
static void stage_route_and_inject(Machine *m)
{
    if (m->nrequests == 0)
        return;
    router_route(m->router, m->requests, m->nrequests, m->routes);
    for (uint32_t i = 0; i < m->nrequests; i++) {
        if (m->obs.route)
            m->obs.route(m->obs.ctx, m->t, net_next_id(m->net) + i, &m->requests[i], &m->routes[i]);
    }
    for (uint32_t i = 0; i < m->nrequests; i++)
        net_inject(m->net, &m->requests[i], &m->routes[i],
                   m->request_message[i] ? m->request_message[i] : &m->request_words[i], m->t);
}

MachineEnd machine_step(Machine *m)
{
    if (m->end != END_RUNNING)
        return m->end;
    m->t++;
    net_begin_timestep(m->net, m->t);
    stage_processors(m);
    stage_route_and_inject(m);
    const NetStats *st = m->stats;
    uint64_t collisions = st->link_total + st->buffer_total;
    const NetStepResult *net = net_step(m->net, m->t);
    m->step_collisions = st->link_total + st->buffer_total - collisions;
    wake_processors(m, net);
    if (m->cfg.check_invariants) {
        const char *differs = net_reference_error(m->net);
        if (differs) {
            snprintf(m->internal_error, sizeof m->internal_error, "%s", differs);
            return m->end = END_INTERNAL;
        }
        if (net_check(m->net, m->internal_error, sizeof m->internal_error) != 0)
            return m->end = END_INTERNAL;
    }
    if (m->faulted)
        m->end = END_FAULT;
    else if (m->nrunning == 0 && !net->busy)
        m->end = END_NORMAL;
    else if (!m->executed && !net->moved)
        m->end = END_DEADLOCK;
    else if (m->cfg.max_steps && m->t >= m->cfg.max_steps)
        m->end = END_LIMIT;
    return m->end;
}

int machine_exit_status(MachineEnd end)
{
    switch (end) {
    case END_NORMAL:      return 0;
    case END_FAULT:       return 2;
    case END_DEADLOCK:    return 3;
    case END_LIMIT:       return 4;
    case END_INTERNAL:    return 70;
    case END_INTERRUPTED: return 130;
    case END_RUNNING:     return 0;
    }
    return 70;
}

const char *machine_end_name(MachineEnd end)
{
    switch (end) {
    case END_NORMAL:      return "normal";
    case END_FAULT:       return "fault";
    case END_DEADLOCK:    return "deadlock";
    case END_LIMIT:       return "limit";
    case END_INTERNAL:    return "internal-error";
    case END_INTERRUPTED: return "interrupted";
    case END_RUNNING:     return "running";
    }
    return "unknown";
}
