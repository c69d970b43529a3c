/* Why a deadlocked run is stuck, and where a stopped run's processors were
 * (diagnosis.h). */
#include "emu/diagnosis.h"

#include <stdlib.h>

#include "common/plural.h"
#include "cpu/lines.h"

typedef unsigned long long ull;

#define NONE SIZE_MAX

enum {
    DESTS_MAX = 1 << 24, /* (packet, destination) pairs indexed; beyond, no reasons */
    HOPS_SHOWN = 4,      /* packets of a chain named before the rest are counted */
    CYCLE_SHOWN = 8      /* processors of a cycle named in the summary */
};

/* Where a packet's chain of waits ends. */
typedef enum RootKind {
    ROOT_PORT,     /* at a packet on its last link, waiting for a full input port */
    ROOT_CYCLE,    /* in a cycle of packets */
    ROOT_FREE      /* at a packet that nothing holds up (not after a deadlock) */
} RootKind;

/* A packet in flight by where it goes. */
typedef struct Dest {
    uint32_t dst, port;
    uint64_t id;
    size_t index;         /* in Flight.pk */
} Dest;

/* The packets in flight and what holds each up, in id order. */
typedef struct Flight {
    Machine *m;
    NetPacket *pk;
    size_t n, cap;
    size_t *blocker;      /* the packet each waits for, or NONE */
    size_t *root;         /* the packet its chain ends at (in its cycle, for ROOT_CYCLE) */
    uint8_t *kind;        /* RootKind of that end */
    struct Dest *by_dest; /* the packets by destination, port and id: a
                             multicast once for each of its members */
    size_t ndest;
    bool failed;          /* out of memory: the reasons are left out */
} Flight;

static void collect(void *ctx, const NetPacket *pk)
{
    Flight *f = ctx;
    if (f->n == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 64;
        NetPacket *p = realloc(f->pk, cap * sizeof *p);
        if (!p) {
            f->failed = true;
            return;
        }
        f->pk = p;
        f->cap = cap;
    }
    f->pk[f->n++] = *pk;
}

/* Packets in id order, the flits of a message by index. */
static int by_id(const void *a, const void *b)
{
    const NetPacket *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x->flit < y->flit ? -1 : x->flit > y->flit;
}

/* The index of the packet (flit) that pk describes, or NONE. */
static size_t find(const Flight *f, const NetPacket *pk)
{
    size_t lo = 0, hi = f->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (by_id(&f->pk[mid], pk) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < f->n && by_id(&f->pk[lo], pk) == 0 ? lo : NONE;
}

/* "#5", or "#5.2" for a flit: from a few buffers, for one line's printf. */
static const char *pkname(const NetPacket *pk)
{
    static char names[4][48];
    static unsigned next;
    char *name = names[next++ % 4];
    net_packet_name(pk, name, sizeof names[0]);
    return name;
}

/* Whether a packet is on the link into its destination: only that
 * processor's input port can hold it up. */
static bool on_last_link(const NetPacket *pk)
{
    return pk->place == PLACE_LINK && pk->dir == DIR_DOWN && pk->layer == 1;
}

/* Follows the chain of waits from every packet to its end; each packet is
 * visited once (0 new, 1 on the path being followed, 2 done). */
static void find_roots(Flight *f)
{
    uint8_t *state = calloc(f->n ? f->n : 1, 1);
    size_t *path = malloc((f->n ? f->n : 1) * sizeof *path);
    if (!state || !path) {
        f->failed = true;
        free(state);
        free(path);
        return;
    }
    for (size_t i = 0; i < f->n; i++) {
        size_t len = 0, j = i, root;
        uint8_t kind;
        while (state[j] == 0) {
            state[j] = 1;
            path[len++] = j;
            if (f->blocker[j] == NONE)
                break;
            j = f->blocker[j];
        }
        if (state[j] == 2) {                        /* joins a chain already followed */
            root = f->root[j];
            kind = f->kind[j];
        } else if (f->blocker[j] == NONE && j == path[len - 1]) {
            root = j;
            kind = on_last_link(&f->pk[j]) ? ROOT_PORT : ROOT_FREE;
        } else {                                    /* came back to the path: a cycle */
            root = j;
            kind = ROOT_CYCLE;
        }
        for (size_t k = 0; k < len; k++) {
            f->root[path[k]] = root;
            f->kind[path[k]] = kind;
            state[path[k]] = 2;
        }
    }
    free(state);
    free(path);
}

static int by_destination(const void *a, const void *b)
{
    const Dest *x = a, *y = b;
    if (x->dst != y->dst)
        return x->dst < y->dst ? -1 : 1;
    if (x->port != y->port)
        return x->port < y->port ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* Every packet in flight, what holds it up and where its chain ends. */
static void flight_build(Flight *f, Machine *m)
{
    *f = (Flight){ .m = m };
    net_for_each_in_flight(m->net, collect, f);
    size_t n = f->n ? f->n : 1;
    f->blocker = malloc(n * sizeof *f->blocker);
    f->root = malloc(n * sizeof *f->root);
    f->kind = malloc(n);
    size_t ndest = 0;
    for (size_t i = 0; i < f->n && ndest <= DESTS_MAX; i++)
        ndest += f->pk[i].multicast ? f->pk[i].set.n : 1;
    f->by_dest = ndest <= DESTS_MAX ? malloc((ndest ? ndest : 1) * sizeof *f->by_dest) : NULL;
    if (f->failed || !f->blocker || !f->root || !f->kind || !f->by_dest) {
        f->failed = true;
        return;
    }
    if (f->n)                               /* (no packets: f->pk is NULL) */
        qsort(f->pk, f->n, sizeof *f->pk, by_id);
    for (size_t i = 0; i < f->n; i++) {
        NetPacket b;
        const NetPacket *pk = &f->pk[i];
        f->blocker[i] = net_blocker(m->net, pk, &b) ? find(f, &b) : NONE;
        if (!pk->multicast) {
            f->by_dest[f->ndest++] = (Dest){ pk->dst, pk->port, pk->id, i };
            continue;
        }
        for (uint32_t k = 0; k < pk->set.n; k++)
            f->by_dest[f->ndest++] = (Dest){ dest_set_member(&pk->set, k), pk->port, pk->id, i };
    }
    find_roots(f);
    qsort(f->by_dest, f->ndest, sizeof *f->by_dest, by_destination);
}

static void flight_free(Flight *f)
{
    free(f->pk);
    free(f->blocker);
    free(f->root);
    free(f->kind);
    free(f->by_dest);
}

/* The packets in flight headed for input port `port` of processor p:
 * by_dest[*first .. *first + count), oldest first. */
static size_t headed_for(const Flight *f, uint32_t p, uint32_t port, size_t *first)
{
    size_t lo = 0, hi = f->ndest;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const Dest *d = &f->by_dest[mid];
        if (d->dst < p || (d->dst == p && d->port < port))
            lo = mid + 1;
        else
            hi = mid;
    }
    *first = lo;
    size_t end = lo;
    while (end < f->ndest && f->by_dest[end].dst == p && f->by_dest[end].port == port)
        end++;
    return end - lo;
}

/* The packet whose chain a waiting processor's wait follows: its output
 * slot's, or the oldest headed for the port its IN reads. NONE if none. */
static size_t awaited(const Flight *f, const Cpu *c)
{
    if (c->wait == WAIT_OUT) {
        NetPacket pk;
        return net_slot_packet(f->m->net, c->id, &pk) ? find(f, &pk) : NONE;
    }
    size_t first;
    return headed_for(f, c->id, c->areg, &first) ? f->by_dest[first].index : NONE;
}

/* The processor that has to read a port for processor c to go on, or NONE:
 * the destination at the end of its awaited packet's chain. */
static size_t waits_for_processor(const Flight *f, const Cpu *c)
{
    size_t x = awaited(f, c);
    if (x == NONE || f->kind[x] != ROOT_PORT)
        return NONE;
    return f->pk[f->root[x]].dst;
}

static bool is_waiting(const Cpu *c)
{
    return c->state == CPU_RUNNING && c->wait != WAIT_NONE;
}

/* ---- text ------------------------------------------------------------------ */

static void place_of(const Flight *f, const NetPacket *pk, char *buf, size_t size)
{
    net_place_name(f->m->net, pk, buf, size);
}

/* What processor q is doing, as the owner of a port others wait for. */
static void owner_state(FILE *out, const Flight *f, uint32_t q, const Cpu *asking)
{
    const Cpu *c = &f->m->cpus[q];
    if (asking && q == asking->id)
        fprintf(out, " (p%u itself)", q);
    else if (c->state == CPU_HALTED)
        fprintf(out, " (p%u has halted)", q);
    else if (c->state == CPU_IDLE)
        fprintf(out, " (p%u has no program)", q);
    else if (c->wait == WAIT_IN)
        fprintf(out, " (p%u waits for IN on port %u)", q, c->areg);
    else if (c->wait == WAIT_OUT)
        fprintf(out, " (p%u waits for OUT)", q);
}

/* "input port 0 of p1: full with #3 from p0" and whose it is. */
static void full_port(FILE *out, const Flight *f, const NetPacket *last, const Cpu *asking)
{
    NetPacket head;
    Net *net = f->m->net;
    fprintf(out, "input port %u of p%u", last->port, last->dst);
    owner_state(out, f, last->dst, asking);
    uint32_t count = net_port_count(net, last->dst, last->port);
    if (!net_port_packet(net, last->dst, last->port, 0, &head))
        fprintf(out, ", which is full");
    else if (count == 1)
        fprintf(out, ", full with %s from p%u", pkname(&head), head.src);
    else
        fprintf(out, ", full with %u packets, the oldest %s from p%u", count,
                pkname(&head), head.src);
}

/* The chain of waits from packet x on: the packets that hold it up, then
 * where the chain ends. */
static void chain(FILE *out, const Flight *f, size_t x, const Cpu *asking)
{
    char place[96];
    size_t shown[HOPS_SHOWN + 1], nshown = 0, j = x;
    shown[nshown++] = x;
    while (f->blocker[j] != NONE && nshown <= HOPS_SHOWN) {
        size_t b = f->blocker[j];
        for (size_t k = 0; k < nshown; k++)
            if (shown[k] == b) {
                fprintf(out, ", which is held up by %s again: packets that wait for "
                        "each other in the network", pkname(&f->pk[b]));
                return;
            }
        place_of(f, &f->pk[b], place, sizeof place);
        fprintf(out, ", %sheld up by %s from p%u (%s)", nshown > 1 ? "which is " : "",
                pkname(&f->pk[b]), f->pk[b].src, place);
        shown[nshown++] = j = b;
    }
    if (f->blocker[j] != NONE) {                   /* more than HOPS_SHOWN: skip to the end */
        size_t r = f->root[j], between = 0;
        for (size_t k = f->blocker[j]; k != r && k != NONE && between < f->n; k = f->blocker[k])
            between++;
        place_of(f, &f->pk[r], place, sizeof place);
        fprintf(out, ", and so on through %zu more %s to %s from p%u (%s)", between,
                plural(between, "packet", "packets"), pkname(&f->pk[r]), f->pk[r].src, place);
        if (f->kind[j] == ROOT_CYCLE) {
            fprintf(out, ", in a cycle of packets that wait for each other in the network");
            return;
        }
        j = r;
    }
    if (on_last_link(&f->pk[j])) {
        fprintf(out, ", which waits for ");
        full_port(out, f, &f->pk[j], asking);
    }
}

/* One of processor c's other input ports that holds packets, if any, and
 * its oldest packet: a packet sent to the wrong port is a common mistake. */
static bool other_port(const Flight *f, const Cpu *c, uint32_t *port, NetPacket *pk)
{
    for (*port = 0; *port < f->m->cfg.ports; (*port)++)
        if (*port != c->areg && net_port_packet(f->m->net, c->id, *port, 0, pk))
            return true;
    return false;
}

static void other_ports(FILE *out, const Flight *f, const Cpu *c)
{
    uint32_t port;
    NetPacket pk;
    if (other_port(f, c, &port, &pk))
        fprintf(out, " (its port %u holds %s from p%u, unread)", port, pkname(&pk), pk.src);
}

/* The messages that by_dest[first .. first + n) are flits of: the flits
 * of one message are together there, in index order. */
static size_t messages_among(const Flight *f, size_t first, size_t n)
{
    size_t count = 0;
    for (size_t i = first; i < first + n; i++)
        count += i == first || f->by_dest[i].id != f->by_dest[i - 1].id;
    return count;
}

/* Why processor c waits, after its waiting line's start. */
static void reason(FILE *out, const Flight *f, const Cpu *c)
{
    char place[96];
    size_t first, x, messages;
    if (c->wait == WAIT_OUT) {
        x = awaited(f, c);
        if (x == NONE) {
            fprintf(out, ": its output slot is full");
            return;
        }
        char dst[160];
        dest_name(dst, sizeof dst, f->pk[x].multicast ? &f->pk[x].set : NULL, f->pk[x].dst);
        fprintf(out, ": its output slot holds %s for %s", pkname(&f->pk[x]), dst);
        chain(out, f, x, c);
        return;
    }
    size_t n = headed_for(f, c->id, c->areg, &first);
    if (n == 0) {
        fprintf(out, ": no packet in the network is headed for it");
        other_ports(out, f, c);
        return;
    }
    x = f->by_dest[first].index;
    place_of(f, &f->pk[x], place, sizeof place);
    if (n == 1)
        fprintf(out, ": %s from p%u is headed for it (%s)", pkname(&f->pk[x]),
                f->pk[x].src, place);
    else if ((messages = messages_among(f, first, n)) == n)
        fprintf(out, ": %zu packets are headed for it, the oldest %s from p%u (%s)", n,
                pkname(&f->pk[x]), f->pk[x].src, place);
    else if (messages == 1)
        fprintf(out, ": %zu flits of message #%llu from p%u are headed for it, the oldest %s "
                "(%s)", n, (ull)f->pk[x].id, f->pk[x].src, pkname(&f->pk[x]), place);
    else
        fprintf(out, ": %zu flits of %zu messages are headed for it, the oldest %s from p%u "
                "(%s)", n, messages, pkname(&f->pk[x]), f->pk[x].src, place);
    chain(out, f, x, c);
}

void diagnosis_where(FILE *out, Machine *m, const Cpu *c)
{
    char source[512], insn[64];
    fprintf(out, "%s: p%u at %04x", is_waiting(c) ? "waiting" : "running", c->id, c->istart);
    if (lines_describe(m->lines, c->id, c->istart, source, sizeof source))
        fprintf(out, " (%s)", source);
    if (c->wait == WAIT_IN) {
        fprintf(out, " waits for IN on port %u", c->areg);
    } else if (c->wait == WAIT_OUT) {
        fprintf(out, " waits for OUT");
    } else {
        cpu_disassemble_at(&m->mem, c->id, c->istart, insn, sizeof insn);
        fprintf(out, ": %s", insn);
    }
}

void diagnosis_stopped(FILE *out, Machine *m)
{
    uint32_t shown = 0, more = 0;
    for (uint32_t p = 0; p < m->programmed; p++) {
        const Cpu *c = &m->cpus[p];
        if (c->state != CPU_RUNNING)
            continue;
        if (shown == DIAGNOSIS_STOPPED_SHOWN) {
            more++;
            continue;
        }
        diagnosis_where(out, m, c);
        fputc('\n', out);
        shown++;
    }
    if (more)
        fprintf(out, "... and %u more %s running or waiting\n", more,
                plural(more, "processor", "processors"));
}

/* ---- the summary ------------------------------------------------------------ */

/* A cycle of packets, named from packet x of it. */
static void packet_cycle(FILE *out, const Flight *f, size_t x)
{
    size_t j = x, n = 0;
    do {
        fprintf(out, "%s waits for ", pkname(&f->pk[j]));
        j = f->blocker[j];
    } while (j != x && j != NONE && ++n < CYCLE_SHOWN);
    fprintf(out, j == x ? "%s" : "... %s", pkname(&f->pk[x]));
}

/* Whether the cycle of waits through packet x is made of the flits of
 * x's message alone. */
static bool cycle_of_one_message(const Flight *f, size_t x)
{
    size_t j = x;
    do {
        if (f->pk[j].id != f->pk[x].id)
            return false;
        j = f->blocker[j];
    } while (j != x && j != NONE);
    return j == x;
}

/* A processor of a cycle of waits, or NONE: following each waiting
 * processor to the one it waits for (at most one each). */
static size_t processor_cycle(const Flight *f, size_t *next)
{
    Machine *m = f->m;
    uint8_t *state = calloc(m->nprocs, 1);
    size_t found = NONE;
    if (!state)
        return NONE;
    for (uint32_t p = 0; p < m->programmed; p++)
        next[p] = is_waiting(&m->cpus[p]) ? waits_for_processor(f, &m->cpus[p]) : NONE;
    for (uint32_t p = 0; p < m->programmed && found == NONE; p++) {
        size_t j = p;
        while (j < m->programmed && state[j] == 0) {
            state[j] = 1;
            j = next[j];
        }
        if (j < m->programmed && state[j] == 1)
            found = j;                              /* came back to this walk */
        for (size_t k = p; k < m->programmed && state[k] == 1; k = next[k])
            state[k] = 2;
    }
    free(state);
    return found;
}

/* The first chain end at a full input port: the packet on its last link. */
static size_t first_port_end(const Flight *f)
{
    for (size_t i = 0; i < f->n; i++)
        if (f->kind[i] == ROOT_PORT)
            return f->root[i];
    return NONE;
}

static void summary(FILE *out, const Flight *f)
{
    Machine *m = f->m;
    if (net_is_stuck(m->net)) {
        fprintf(out, "deadlock: a network deadlock: packets wait for each other in a cycle "
                "inside the network");
        size_t cycle = NONE;
        for (size_t i = 0; i < f->n && cycle == NONE; i++)
            if (f->kind[i] == ROOT_CYCLE) {
                cycle = f->root[i];
                fprintf(out, " (");
                packet_cycle(out, f, cycle);
                fprintf(out, ")");
            }
        fprintf(out, " and would stay even if every input port were read");
        if (cycle != NONE && cycle_of_one_message(f, cycle)) {
            const NetPacket *pk = &f->pk[cycle];
            fprintf(out, "; it is one message, #%llu of %u words from p%u to p%u, held up by "
                    "its own flits", (ull)pk->id, pk->length, pk->src, pk->dst);
            if (!m->cfg.full_duplex)
                fprintf(out, ": its route crosses a half-duplex link twice, and the buffers "
                        "between the two crossings (--buffer %u) cannot hold the whole "
                        "message: a larger --buffer or --duplex full lets it through",
                        m->cfg.buffer);
        }
        fputc('\n', out);
        return;
    }
    size_t *next = malloc((size_t)m->programmed * sizeof *next);
    size_t p = next ? processor_cycle(f, next) : NONE;
    if (p != NONE && next[p] == p) {
        const Cpu *c = &m->cpus[p];
        fprintf(out, "deadlock: a program deadlock: p%zu waits for itself: %s is held up "
                "behind packets for its own input port %u, which it does not read while "
                "it waits\n", p, c->wait == WAIT_OUT ? "its OUT" : "the packet its IN waits for",
                f->pk[f->root[awaited(f, c)]].port);
    } else if (p != NONE) {
        fprintf(out, "deadlock: a program deadlock: processors wait for each other: p%zu", p);
        size_t j = next[p], n = 1;
        for (; j != p && n < CYCLE_SHOWN; j = next[j], n++)
            fprintf(out, " waits for p%zu", j);
        fprintf(out, "%s waits for p%zu\n", j == p ? "" : " ...", p);
    } else if (first_port_end(f) != NONE) {
        fprintf(out, "deadlock: a program deadlock: packets that will never be read hold up "
                "the others: ");
        full_port(out, f, &f->pk[first_port_end(f)], NULL);
        fputc('\n', out);
    } else {
        fprintf(out, "deadlock: a program deadlock: the processors wait for packets that no "
                "one has sent, and none is in the network");
        for (uint32_t q = 0; q < m->programmed; q++) {
            const Cpu *c = &m->cpus[q];
            uint32_t port;
            NetPacket pk;
            if (is_waiting(c) && c->wait == WAIT_IN && other_port(f, c, &port, &pk)) {
                fprintf(out, "; p%u waits on port %u, but its port %u holds %s from p%u, "
                        "unread", q, c->areg, port, pkname(&pk), pk.src);
                break;
            }
        }
        fputc('\n', out);
    }
    free(next);
}

/* Builds f and writes the "deadlock: ..." line. */
static void flight_summary(FILE *out, Flight *f, Machine *m)
{
    flight_build(f, m);
    if (f->failed)
        fprintf(out, "deadlock: %s deadlock (out of memory to say why)\n",
                net_is_stuck(m->net) ? "a network" : "a program");
    else
        summary(out, f);
}

void diagnosis_summary(FILE *out, Machine *m)
{
    Flight f;
    flight_summary(out, &f, m);
    flight_free(&f);
}

void diagnosis_write(FILE *out, Machine *m)
{
    Flight f;
    flight_summary(out, &f, m);
    for (uint32_t p = 0; p < m->programmed; p++) {
        const Cpu *c = &m->cpus[p];
        if (!is_waiting(c))
            continue;
        diagnosis_where(out, m, c);
        if (!f.failed)
            reason(out, &f, c);
        fputc('\n', out);
    }
    flight_free(&f);
}
