/* Writing the final report (report.h). The text report reads top to bottom:
 * how the run ended, the details of a fault or deadlock, packets left unread,
 * the statistics, and the two closing lines that users and tests read. */
#include "emu/report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/plural.h"
#include "common/utf8.h"
#include "cpu/lines.h"
#include "emu/diagnosis.h"
#include "emu/state.h"

typedef unsigned long long ull;

/* ---- helpers shared by text and JSON ----------------------------------------- */

typedef struct Emit {
    FILE *out;
    Machine *m;
    bool json;
    int count;        /* items written so far, for JSON commas */
} Emit;

/* A multicast's members, ascending, as a JSON list. */
static void json_members(FILE *out, const DestSet *set)
{
    fputc('[', out);
    for (uint32_t i = 0; i < set->n; i++)
        fprintf(out, "%s%u", i ? ", " : "", dest_set_member(set, i));
    fputc(']', out);
}

static void packet_line(void *ctx, const NetPacket *pk)
{
    Emit *e = ctx;
    char place[96], dst[160];
    net_place_name(e->m->net, pk, place, sizeof place);
    if (e->json) {
        fprintf(e->out, "%s{\"id\": %llu, ", e->count ? ", " : "", (ull)pk->id);
        if (pk->length > 1)
            fprintf(e->out, "\"flit\": %u, \"length\": %u, ", pk->flit, pk->length);
        fprintf(e->out, "\"src\": %u, \"dst\": ", pk->src);
        if (pk->multicast)
            json_members(e->out, &pk->set);
        else
            fprintf(e->out, "%u", pk->dst);
        fprintf(e->out, ", \"port\": %u, \"data\": %d, \"sent\": %llu, \"place\": \"%s\"}",
                pk->port, (int32_t)pk->data, (ull)pk->created, place);
    } else {
        char name[48];
        net_packet_name(pk, name, sizeof name);
        dest_name(dst, sizeof dst, pk->multicast ? &pk->set : NULL, pk->dst);
        fprintf(e->out, "  packet %s p%u->%s port %u data %d (sent at t=%llu): %s\n", name,
                pk->src, dst, pk->port, (int32_t)pk->data, (ull)pk->created, place);
    }
    e->count++;
}

static double latency_mean(const NetStats *st)
{
    return st->delivered ? (double)st->latency_sum / (double)st->delivered : 0.0;
}

/* ---- text ------------------------------------------------------------------------ */

/* A faulted processor in one line, with the source of the instruction
 * when the program was compiled in this run. */
static void describe_fault(Machine *m, const Cpu *c, char *buf, size_t size)
{
    char source[512];
    lines_describe(m->lines, c->id, c->istart, source, sizeof source);
    cpu_describe_fault(c, &m->mem, source, buf, size);
}

/* Why a run that did not end normally ended, in a line: the fault (a line
 * per faulted processor), the kind of deadlock, the limit or the signal
 * that stopped it, or the broken invariant. */
static void end_reason(FILE *out, Machine *m, const ReportOptions *opt)
{
    char buf[1024];
    switch (m->end) {
    case END_FAULT:
        for (uint32_t p = 0; p < m->nprocs; p++)
            if (m->cpus[p].state == CPU_FAULTED) {
                describe_fault(m, &m->cpus[p], buf, sizeof buf);
                fprintf(out, "fault: p%u: %s\n", p, buf);
            }
        break;
    case END_DEADLOCK:
        diagnosis_summary(out, m);
        break;
    case END_LIMIT:
        if (m->cfg.max_steps && m->t >= m->cfg.max_steps)
            fprintf(out, "limit: --max-steps %llu reached\n", (ull)m->cfg.max_steps);
        else
            fprintf(out, "limit: ended by q in --step at timestep %llu\n", (ull)m->t);
        break;
    case END_INTERRUPTED:
        if (opt && opt->signal)
            fprintf(out, "interrupted: stopped by %s at timestep %llu\n", opt->signal,
                    (ull)m->t);
        else
            fprintf(out, "interrupted: stopped at timestep %llu\n", (ull)m->t);
        break;
    case END_INTERNAL:
        fprintf(out, "internal error: %s at timestep %llu\n", m->internal_error, (ull)m->t);
        break;
    case END_RUNNING:
    case END_NORMAL:
        break;
    }
}

static void halt_lines(FILE *out, Machine *m);

/* Why the run ended as it did, after its "end:" line (report_ending). */
static void ending(FILE *out, Machine *m, const ReportOptions *opt)
{
    halt_lines(out, m);
    if (m->end == END_DEADLOCK)
        diagnosis_write(out, m);        /* its kind, then each processor's wait and why */
    else
        end_reason(out, m, opt);
    if (m->end == END_LIMIT || m->end == END_INTERRUPTED)
        diagnosis_stopped(out, m);
}

void report_ending(FILE *out, Machine *m)
{
    ending(out, m, NULL);
}

/* The ids of some packets, to count the messages their flits are of. */
typedef struct Ids {
    uint64_t *id;
    size_t n, cap;
    bool flits;       /* one is a flit of a message of several words */
    bool failed;
} Ids;

static void collect_id(void *ctx, const NetPacket *pk)
{
    Ids *ids = ctx;
    ids->flits |= pk->length > 1;
    if (ids->n == ids->cap) {
        size_t cap = ids->cap ? 2 * ids->cap : 64;
        uint64_t *id = realloc(ids->id, cap * sizeof *id);
        if (!id) {
            ids->failed = true;
            return;
        }
        ids->id = id;
        ids->cap = cap;
    }
    ids->id[ids->n++] = pk->id;
}

static int by_value(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* "N packets" of what `each` visits, or "N flits of M messages" when some
 * are flits of a message of several words: such a message is not ten
 * packets to the one who sent it. */
static void count_packets(char *buf, size_t size, Machine *m, uint64_t n,
                          void (*each)(Net *, void (*)(void *, const NetPacket *), void *))
{
    Ids ids = { 0 };
    size_t messages = 0;
    each(m->net, collect_id, &ids);
    if (!ids.failed && ids.n) {
        qsort(ids.id, ids.n, sizeof *ids.id, by_value);
        for (size_t i = 0; i < ids.n; i++)
            messages += i == 0 || ids.id[i] != ids.id[i - 1];
    }
    free(ids.id);
    if (ids.failed || !ids.flits)
        snprintf(buf, size, "%llu %s", (ull)n, plural(n, "packet", "packets"));
    else
        snprintf(buf, size, "%llu %s of %zu %s", (ull)n, plural(n, "flit", "flits"), messages,
                 plural(messages, "message", "messages"));
}

/* The packets a run left behind: in the network when it stopped before
 * its end (and, when messages were sent, the places they own), and
 * unread in input ports. */
static void packets_left(FILE *out, Machine *m)
{
    Emit e = { out, m, false, 0 };
    char count[96];
    if (m->end == END_DEADLOCK || m->end == END_LIMIT || m->end == END_INTERRUPTED) {
        if (net_busy(m->net)) {
            count_packets(count, sizeof count, m, net_in_flight(m->net),
                          net_for_each_in_flight);
            fprintf(out, "in the network: %s\n", count);
            net_for_each_in_flight(m->net, packet_line, &e);
            if (net_stats(m->net)->messages)
                state_print_owned(out, m);
        }
    }
    uint64_t unread = net_unread(m->net);
    if (unread) {
        count_packets(count, sizeof count, m, unread, net_for_each_unread);
        fprintf(out, "unread: %s left in input ports\n", count);
        e.count = 0;
        net_for_each_unread(m->net, packet_line, &e);
    }
}

void report_statistics(FILE *out, Machine *m, bool histogram)
{
    const NetStats *st = net_stats(m->net);
    uint32_t halted = 0, faulted = 0;
    for (uint32_t p = 0; p < m->programmed; p++) {
        halted += m->cpus[p].state == CPU_HALTED;
        faulted += m->cpus[p].state == CPU_FAULTED;
    }
    fprintf(out, "processors: %u (%u programmed, %u halted, ", m->nprocs, m->programmed, halted);
    if (faulted)            /* (so that the counts add up to the programmed) */
        fprintf(out, "%u faulted, ", faulted);
    fprintf(out, "%u running)\n", m->nrunning);
    if (m->cfg.switching != SWITCHING_WORMHOLE)
        fprintf(out, "switching: %s\n", switching_name(m->cfg.switching));
    fprintf(out, "instructions: %llu\n", (ull)m->instructions);
    fprintf(out, "stall timesteps: %llu on IN, %llu on OUT\n", (ull)m->stalls_in,
            (ull)m->stalls_out);
    fprintf(out, "packets: %llu sent, %llu delivered, %llu read\n", (ull)st->sent,
            (ull)st->delivered, (ull)st->read);
    if (st->multicasts)
        fprintf(out, "multicasts: %llu, making %llu %s\n", (ull)st->multicasts,
                (ull)st->copies, plural(st->copies, "copy", "copies"));
    if (st->messages)
        fprintf(out, "messages: %llu, flits: sent %llu, delivered %llu\n", (ull)st->messages,
                (ull)st->flits_sent, (ull)st->flits_delivered);
    if (st->delivered)
        fprintf(out, "latency: min %llu, mean %.3f, max %llu timesteps\n",
                (ull)st->latency_min, latency_mean(st), (ull)st->latency_max);
    else
        fprintf(out, "latency: none (no packet delivered)\n");
    if (histogram)
        for (size_t l = 0; l < st->latency_hist_len; l++)
            if (st->latency_hist[l])
                fprintf(out, "  latency %zu: %llu %s\n", l, (ull)st->latency_hist[l],
                        plural(st->latency_hist[l], "packet", "packets"));
    fprintf(out, "links crossed: %llu\n", (ull)st->links_crossed);
    fprintf(out, "port waits: %llu\n", (ull)st->port_waits);
    /* Worded apart from the state's "place 1 of 2", which counts the packets
     * present, not the places a buffer has. */
    if (m->cfg.vcs > 1)
        fprintf(out, "virtual channels: %u (a buffer per channel at every output port)\n",
                m->cfg.vcs);
    fprintf(out, "largest buffer occupancy: %u %s (each buffer holds %u)\n",
            st->max_buffer, plural(st->max_buffer, "packet", "packets"), m->cfg.buffer);
    fprintf(out, "collisions by layer   link up  link down  buffer up  buffer down\n");
    for (unsigned l = 1; l <= m->k; l++)
        fprintf(out, "  layer %-2u          %10llu %10llu %10llu %12llu\n", l,
                (ull)st->link_collisions[DIR_UP][l], (ull)st->link_collisions[DIR_DOWN][l],
                (ull)st->buffer_collisions[DIR_UP][l], (ull)st->buffer_collisions[DIR_DOWN][l]);
    fprintf(out, "link collisions: %llu\n", (ull)st->link_total);
    fprintf(out, "buffer collisions: %llu\n", (ull)st->buffer_total);
    if (m->cfg.vcs > 1) {
        fprintf(out, "collisions by channel  link  buffer\n");
        for (unsigned v = 0; v < m->cfg.vcs; v++)
            fprintf(out, "  vc%u             %10llu %7llu\n", v, (ull)st->vc_link[v],
                    (ull)st->vc_buffer[v]);
    }
}

/* A processor that halted, and its status. */
typedef struct Halt {
    int32_t status;
    uint32_t proc;
} Halt;

/* By status, then by processor number. */
static int by_status(const void *a, const void *b)
{
    const Halt *x = a, *y = b;
    if (x->status != y->status)
        return x->status < y->status ? -1 : 1;
    return x->proc < y->proc ? -1 : x->proc > y->proc;
}

/* One line per non-zero halt status, naming the processors that halted
 * with it, runs of consecutive numbers shortened ("halted with status 1:
 * p0, p4..p7"): a normal end says nothing of the statuses, and `stop`
 * would otherwise pass unseen. */
static void halt_lines(FILE *out, Machine *m)
{
    uint32_t n = 0;
    Halt *h = malloc((size_t)m->programmed * sizeof *h);
    if (!h)
        return;
    for (uint32_t p = 0; p < m->programmed; p++)
        if (m->cpus[p].state == CPU_HALTED && m->cpus[p].status != 0)
            h[n++] = (Halt){ m->cpus[p].status, p };
    qsort(h, n, sizeof *h, by_status);
    for (uint32_t i = 0; i < n;) {
        int32_t status = h[i].status;
        fprintf(out, "halted with status %d:", status);
        for (int first = 1; i < n && h[i].status == status; first = 0) {
            uint32_t j = i;
            while (j + 1 < n && h[j + 1].status == status && h[j + 1].proc == h[j].proc + 1)
                j++;
            fprintf(out, "%s p%u", first ? "" : ",", h[i].proc);
            if (j > i)
                fprintf(out, "..p%u", h[j].proc);
            i = j + 1;
        }
        fputc('\n', out);
    }
    free(h);
}

void report_closing_lines(FILE *out, Machine *m)
{
    const NetStats *st = net_stats(m->net);
    fprintf(out, "collisions: %llu\n", (ull)(st->link_total + st->buffer_total));
    fprintf(out, "timesteps: %llu\n", (ull)m->t);
}

/* ---- JSON -------------------------------------------------------------------------- */

/* A JSON string: a byte that is no part of a UTF-8 character (a file name
 * may hold any) becomes U+FFFD, so that the report stays JSON. */
static void json_string(FILE *out, const char *text)
{
    const unsigned char *s = (const unsigned char *)text;
    const unsigned char *end = s + strlen(text);
    fputc('"', out);
    while (*s) {
        uint32_t code;
        size_t n = utf8_char(s, (size_t)(end - s), &code);
        if (*s == '"' || *s == '\\')
            fprintf(out, "\\%c", *s);
        else if (*s < 0x20)
            fprintf(out, "\\u%04x", *s);
        else if (n == 0)
            fputs("\\ufffd", out);
        else
            fwrite(s, 1, n, out);
        s += n ? n : 1;
    }
    fputc('"', out);
}

/* `"source": "p.x:3:5, in proc main"` for the instruction at addr of
 * processor p, or null. */
static void json_source(FILE *out, Machine *m, uint32_t p, uint32_t addr)
{
    char source[512];
    fprintf(out, "\"source\": ");
    if (lines_describe(m->lines, p, addr, source, sizeof source))
        json_string(out, source);
    else
        fprintf(out, "null");
}

static void json_report(FILE *out, Machine *m, int exit_status)
{
    const NetStats *st = net_stats(m->net);
    char buf[1024];
    Emit e = { out, m, true, 0 };
    fprintf(out, "{\"end\": \"%s\", \"exit_status\": %d, \"processors\": %u, "
            "\"programmed\": %u, \"timesteps\": %llu, \"collisions\": %llu, "
            "\"link_collisions\": %llu, \"buffer_collisions\": %llu, ",
            machine_end_name(m->end), exit_status ? exit_status : machine_exit_status(m->end),
            m->nprocs, m->programmed,
            (ull)m->t, (ull)(st->link_total + st->buffer_total), (ull)st->link_total,
            (ull)st->buffer_total);
    fprintf(out, "\"collisions_by_layer\": {");
    for (unsigned l = 1; l <= m->k; l++)
        fprintf(out, "%s\"%u\": {\"link\": {\"up\": %llu, \"down\": %llu}, "
                "\"buffer\": {\"up\": %llu, \"down\": %llu}}", l > 1 ? ", " : "", l,
                (ull)st->link_collisions[DIR_UP][l], (ull)st->link_collisions[DIR_DOWN][l],
                (ull)st->buffer_collisions[DIR_UP][l], (ull)st->buffer_collisions[DIR_DOWN][l]);
    fprintf(out, "}, \"instructions\": %llu, \"stalls_in\": %llu, \"stalls_out\": %llu, "
            "\"packets_sent\": %llu, \"packets_delivered\": %llu, \"packets_read\": %llu, ",
            (ull)m->instructions, (ull)m->stalls_in, (ull)m->stalls_out, (ull)st->sent,
            (ull)st->delivered, (ull)st->read);
    if (st->delivered)
        fprintf(out, "\"latency_min\": %llu, \"latency_mean\": %.3f, \"latency_max\": %llu, ",
                (ull)st->latency_min, latency_mean(st), (ull)st->latency_max);
    else
        fprintf(out, "\"latency_min\": null, \"latency_mean\": null, \"latency_max\": null, ");
    fprintf(out, "\"latency_histogram\": {");
    int first = 1;
    for (size_t l = 0; l < st->latency_hist_len; l++)
        if (st->latency_hist[l]) {
            fprintf(out, "%s\"%zu\": %llu", first ? "" : ", ", l, (ull)st->latency_hist[l]);
            first = 0;
        }
    fprintf(out, "}, \"links_crossed\": %llu, \"port_waits\": %llu, \"max_buffer\": %u, ",
            (ull)st->links_crossed, (ull)st->port_waits, st->max_buffer);
    fprintf(out, "\"multicasts\": %llu, \"copies\": %llu, ", (ull)st->multicasts,
            (ull)st->copies);
    fprintf(out, "\"switching\": \"%s\", \"messages\": %llu, \"flits_sent\": %llu, "
            "\"flits_delivered\": %llu, ", switching_name(m->cfg.switching),
            (ull)st->messages, (ull)st->flits_sent, (ull)st->flits_delivered);
    fprintf(out, "\"vcs\": %u, \"collisions_by_vc\": {", m->cfg.vcs);
    for (unsigned v = 0; v < m->cfg.vcs; v++)           /* (one channel: the totals) */
        fprintf(out, "%s\"%u\": {\"link\": %llu, \"buffer\": %llu}", v ? ", " : "", v,
                (ull)(m->cfg.vcs > 1 ? st->vc_link[v] : st->link_total),
                (ull)(m->cfg.vcs > 1 ? st->vc_buffer[v] : st->buffer_total));
    fprintf(out, "}, ");
    fprintf(out, "\"halted\": {");
    first = 1;
    for (uint32_t p = 0; p < m->programmed; p++)
        if (m->cpus[p].state == CPU_HALTED) {
            fprintf(out, "%s\"%u\": %d", first ? "" : ", ", p, m->cpus[p].status);
            first = 0;
        }
    fprintf(out, "}, \"faults\": [");
    first = 1;
    for (uint32_t p = 0; p < m->nprocs; p++)
        if (m->cpus[p].state == CPU_FAULTED) {
            const Cpu *c = &m->cpus[p];
            describe_fault(m, c, buf, sizeof buf);
            fprintf(out, "%s{\"processor\": %u, \"fault\": \"%s\", \"pc\": %u, "
                    "\"prefix_pc\": %u, ", first ? "" : ", ", p,
                    cpu_fault_name((CpuFault)c->fault), c->pc, c->istart);
            json_source(out, m, p, c->istart);
            fprintf(out, ", \"message\": ");
            json_string(out, buf);
            fputc('}', out);
            first = 0;
        }
    fprintf(out, "], \"waiting\": [");
    first = 1;
    for (uint32_t p = 0; p < m->programmed; p++) {
        const Cpu *c = &m->cpus[p];
        if (c->state != CPU_RUNNING || c->wait == WAIT_NONE)
            continue;
        if (c->wait == WAIT_IN)
            fprintf(out, "%s{\"processor\": %u, \"on\": \"in\", \"port\": %u, \"pc\": %u, ",
                    first ? "" : ", ", c->id, c->areg, c->pc);
        else
            fprintf(out, "%s{\"processor\": %u, \"on\": \"out\", \"pc\": %u, ",
                    first ? "" : ", ", c->id, c->pc);
        fprintf(out, "\"prefix_pc\": %u, ", c->istart);
        json_source(out, m, c->id, c->istart);
        fputc('}', out);
        first = 0;
    }
    fprintf(out, "], \"network_deadlock\": %s, \"in_network\": [",
            m->end == END_DEADLOCK && net_is_stuck(m->net) ? "true" : "false");
    net_for_each_in_flight(m->net, packet_line, &e);
    fprintf(out, "], \"unread\": [");
    e.count = 0;
    net_for_each_unread(m->net, packet_line, &e);
    /* The options the run was made with, so that a report read alone says
     * what it measured (not --threads, which changes nothing in it). */
    const MachineConfig *cfg = &m->cfg;
    fprintf(out, "], \"options\": {\"routing\": \"%s\", \"duplex\": \"%s\", \"planes\": %u, "
            "\"buffer\": %u, \"ports\": %u, \"port_depth\": %u, \"mem\": %u, \"seed\": %llu, ",
            routing_name(cfg->routing), cfg->full_duplex ? "full" : "half", cfg->planes,
            cfg->buffer, cfg->ports, cfg->port_depth, cfg->mem_words, (ull)cfg->seed);
    if (cfg->max_steps)
        fprintf(out, "\"max_steps\": %llu}}\n", (ull)cfg->max_steps);
    else
        fprintf(out, "\"max_steps\": null}}\n");
}

void report_write(FILE *out, Machine *m, const ReportOptions *opt)
{
    if (opt->json) {
        json_report(out, m, opt->exit_status);
        return;
    }
    if (!opt->quiet) {
        fprintf(out, "end: %s\n", machine_end_name(m->end));
        ending(out, m, opt);
        packets_left(out, m);
        report_statistics(out, m, opt->histogram);
    } else {
        halt_lines(out, m);
    }
    report_closing_lines(out, m);
    /* -q keeps quiet about a normal end only: a fault, a deadlock or a
     * limit would otherwise pass as if the run had ended well. */
    if (opt->quiet && opt->quiet_end && m->end != END_NORMAL) {
        fflush(out);                    /* (after the report, on a terminal too) */
        fprintf(opt->quiet_end, "end: %s\n", machine_end_name(m->end));
        end_reason(opt->quiet_end, m, opt);
    }
    /* ...and a normal end that leaves packets unread is most often a
     * forgotten receive, which the report would have shown. */
    uint64_t unread = net_unread(m->net);
    if (opt->quiet && opt->quiet_end && m->end == END_NORMAL && unread) {
        char count[96];
        count_packets(count, sizeof count, m, unread, net_for_each_unread);
        fflush(out);
        fprintf(opt->quiet_end, "emu: note: %s left unread in input ports (without -q "
                "the report lists them)\n", count);
    }
}
