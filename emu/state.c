/* Printing the machine state (state.h). Example, Appendix C after
 * timestep 19 (trimmed):
 *
 *   === state after timestep 19: 2 collisions in this timestep, 2 in all ===
 *   processors:
 *     p0   waiting on IN port 0   pc 0019 IN         areg 0      breg 22     sp 199997  slot -  ports -
 *     ...
 *   packets in the network: 8
 *     #0 p0->p2 port 0 data 22, plane 0 count 2 routing 0b0 addressing 0b10: buffer p0.l1.s0.u0 place 1 of 2
 *   plane 0   s<j>[u0 u1|d0 d1]: packets in each output buffer
 *             under each switch, its down links:
 *             #id^ going up, #idv going down, . empty
 *     layer 3   s0[- -|0 0]    s1[- -|0 0]   ...
 *               d0 .   d1 .    d0 .   d1 .  ...
 *     layer 1   s0[2 0|0 0]    ...
 *               p0 .   p1 .    ...                                        */
#include "emu/state.h"

#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/plural.h"
#include "cpu/isa.h"
#include "cpu/lines.h"

typedef unsigned long long ull;

/* ---- fitting a screen ---------------------------------------------------------- */

/* Whether a line of len bytes may be broken before s[b]: after a comma (a
 * list of packets), or at a space that does not part a number from the
 * word it belongs to ("breg 1", "ADJ -3", "place 1 of 2"). */
static bool breaks_before(const char *s, size_t len, size_t b)
{
    if (s[b - 1] == ',')
        return true;
    if (s[b] != ' ')
        return false;
    size_t i = b + 1;
    i += i < len && s[i] == '-';
    if (i == len || s[i] < '0' || s[i] > '9')
        return true;
    while (i < len && s[i] >= '0' && s[i] <= '9')
        i++;
    return !(i == len || s[i] == ' ' || s[i] == ',' || s[i] == ')');
}

/* Whether a break before s[b] would part two fields: at two spaces, or
 * after a colon ("data 22: buffer ..."). */
static bool parts_fields(const char *s, size_t len, size_t b)
{
    return s[b] == ' ' && (s[b - 1] == ':' || s[b - 1] == ' ' || (b + 1 < len && s[b + 1] == ' '));
}

/* Where to break a line of len bytes that has room for `room`: between two
 * fields in the second half of the room, else where it may be
 * (breaks_before), else where it must. */
static size_t break_point(const char *s, size_t len, size_t room)
{
    for (size_t b = room; b > room / 2; b--)
        if (parts_fields(s, len, b))
            return b;
    for (size_t b = room; b > 0; b--)
        if (breaks_before(s, len, b))
            return b;
    return room;
}

/* Writes a line (len bytes, no newline) in lines of at most `width`
 * columns: the first indented by `first`, those it goes on in by
 * `indent`, each broken at its break_point. Returns the lines written;
 * with out NULL, only counts them. */
static unsigned put_wrapped(FILE *out, const char *s, size_t len, unsigned width,
                            unsigned first, unsigned indent)
{
    unsigned lines = 0, lead = first;
    for (;;) {
        size_t room = width > lead + 1 ? width - lead : 1, n = len, shown;
        if (len > room)
            n = break_point(s, len, room);
        for (shown = n; n < len && shown > 0 && s[shown - 1] == ' '; shown--)
            ;
        if (out)
            fprintf(out, "%*s%.*s\n", (int)lead, "", (int)shown, s);
        lines++;
        s += n;
        len -= n;
        while (len > 0 && *s == ' ') {
            s++;
            len--;
        }
        if (len == 0)
            return lines;
        lead = indent;
    }
}

/* A line built a piece at a time, for put_wrapped; what does not fit is
 * left out. */
typedef struct Text {
    char s[2048];
    size_t len;
} Text;

static void add(Text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->s + t->len, sizeof t->s - t->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        t->len = t->len + (size_t)n < sizeof t->s ? t->len + (size_t)n : sizeof t->s - 1;
}

/* Removes the blanks at the end of the line (a padded column's). */
static void trim(Text *t)
{
    while (t->len > 0 && t->s[t->len - 1] == ' ')
        t->len--;
    t->s[t->len] = 0;
}

/* ---- columns that stay where they are ------------------------------------------- */

static unsigned digits(unsigned long long v)
{
    unsigned n = 1;
    for (; v >= 10; v /= 10)
        n++;
    return n;
}

/* The columns of this run (cols), set up at its first state from what the
 * machine can be told to hold; or, with cols NULL, `fresh`, for this
 * state alone. */
static StateColumns *run_columns(const Machine *m, StateColumns *cols, StateColumns *fresh)
{
    if (!cols) {
        *fresh = (StateColumns){ .ready = false };
        cols = fresh;
    }
    if (cols->ready)
        return cols;
    cols->ready = true;
    cols->id = m->nprocs > 1 ? digits(m->nprocs - 1) : 1;
    cols->proc = cols->id > 3 ? cols->id : 3;
    cols->route = 2 + 2 * (1 + cols->id);                 /* "p12->p13" */
    cols->line = m->lines ? (unsigned)strlen("(line )") + digits(m->lines->nlines) : 0;
    /* (an address, as SETSP's) */
    cols->reg = cols->sp = cols->full_reg = cols->full_sp = digits(m->cfg.mem_words);
    cols->status = 9;               /* "wait IN 0" */
    cols->insn = 9;
    cols->full_status = 22;         /* "waiting on IN port 10" */
    cols->full_insn = 10;
    return cols;
}

/* Adds a column's text, then blanks to the column's width, widening the
 * column when the text is wider, up to `limit`: a state built once to
 * measure its columns, then again to be printed, prints them aligned. A
 * text wider than the limit moves the rest of its line only. */
static void add_column(Text *t, unsigned *width, unsigned limit, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void add_column(Text *t, unsigned *width, unsigned limit, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    size_t n = strlen(text);
    if (n > *width && *width < limit)
        *width = n < limit ? (unsigned)n : limit;
    add(t, "%s%*s", text, (int)(n < *width ? *width - n : 0), "");
}

/* "#5", or "#5.2" for flit 2 of a message of several words. */
static const char *packet_name(const NetPacket *pk, char name[48])
{
    net_packet_name(pk, name, 48);
    return name;
}

void state_print_owned(FILE *out, Machine *m)
{
    const char *lead = "owned: ";
    char name[64];
    uint64_t id;
    for (uint32_t b = 0; b < 2 * m->cfg.planes * m->k * m->nprocs; b++)   /* (4 per switch) */
        for (unsigned v = 0; v < m->cfg.vcs; v++)
            if (net_buffer_owner(m->net, b * m->cfg.vcs + v, &id)) {
                net_buffer_name(m->net, b, name, sizeof name);
                fprintf(out, "%sbuffer %s", lead, name);
                if (m->cfg.vcs > 1)
                    fprintf(out, " vc%u", v);
                fprintf(out, " by #%llu", (ull)id);
                lead = ", ";
            }
    for (uint32_t p = 0; p < m->nprocs; p++)
        for (unsigned port = 0; port < m->cfg.ports; port++)
            if (net_port_owner(m->net, p, port, &id)) {
                fprintf(out, "%sinput port %u of p%u by #%llu", lead, port, p, (ull)id);
                lead = ", ";
            }
    if (lead[0] == ',')
        fputc('\n', out);
}

/* A processor's line of the full state; with out NULL, only widens the
 * columns. */
static void processor_line(FILE *out, Machine *m, const Cpu *c, StateColumns *cols)
{
    char status[64], insn[64];
    Text line = { .len = 0 };
    switch ((CpuState)c->state) {
    case CPU_RUNNING:
        if (c->wait == WAIT_IN)
            snprintf(status, sizeof status, "waiting on IN port %u", c->areg);
        else if (c->wait == WAIT_OUT)
            snprintf(status, sizeof status, "waiting on OUT");
        else
            snprintf(status, sizeof status, "running");
        break;
    case CPU_HALTED:
        snprintf(status, sizeof status, "halted (status %d)", c->status);
        break;
    case CPU_FAULTED:
        snprintf(status, sizeof status, "faulted: %s", cpu_fault_name((CpuFault)c->fault));
        break;
    case CPU_IDLE:
        snprintf(status, sizeof status, "idle");
        break;
    }
    add(&line, "  p%-*u ", (int)cols->proc, c->id);
    add_column(&line, &cols->full_status, UINT_MAX, "%s", status);
    if (c->state == CPU_RUNNING || c->state == CPU_FAULTED) {
        /* The instruction's address is where its prefixes start, as the
         * listing shows it; its source, when the program has one. */
        char source[512];
        cpu_disassemble_at(&m->mem, c->id, c->istart, insn, sizeof insn);
        add(&line, " pc %04x ", c->istart);
        add_column(&line, &cols->full_insn, UINT_MAX, "%s", insn);
        if (lines_describe(m->lines, c->id, c->istart, source, sizeof source)) {
            add(&line, " ");
            add_column(&line, &cols->full_source, UINT_MAX, "(%s)", source);
        } else if (cols->full_source) {
            add(&line, " %*s", (int)cols->full_source, "");
        }
        add(&line, " areg ");
        add_column(&line, &cols->full_reg, UINT_MAX, "%d", (int32_t)c->areg);
        add(&line, " breg ");
        add_column(&line, &cols->full_reg, UINT_MAX, "%d", (int32_t)c->breg);
        add(&line, " sp ");
        add_column(&line, &cols->full_sp, UINT_MAX, "%u", c->sp);
    }
    Net *net = m->net;
    NetPacket pk;
    char name[48];
    add(&line, "  ");
    if (net_slot_packet(net, c->id, &pk))
        add_column(&line, &cols->full_slot, UINT_MAX, "slot %s", packet_name(&pk, name));
    else
        add_column(&line, &cols->full_slot, UINT_MAX, "slot -");
    if (!out)
        return;
    fprintf(out, "%s  ports", line.s);         /* (every packet: no Text holds them all) */
    int any = 0;
    for (unsigned port = 0; port < m->cfg.ports; port++) {
        if (net_port_count(net, c->id, port) == 0)
            continue;
        fprintf(out, " %u:[", port);
        for (uint32_t i = 0; net_port_packet(net, c->id, port, i, &pk); i++)
            fprintf(out, "%s%s", i == 0 ? "" : " ", packet_name(&pk, name));
        fputc(']', out);
        any = 1;
    }
    fprintf(out, "%s\n", any ? "" : " -");
}

typedef struct PacketCtx { FILE *out; Machine *m; StateColumns *cols; } PacketCtx;

/* A packet's line of the full state; with out NULL, only widens the
 * columns. */
static void packet_line(void *ctx_, const NetPacket *pk)
{
    PacketCtx *ctx = ctx_;
    StateColumns *cols = ctx->cols;
    char place[96], route[96], dst[160];
    route_describe(route, sizeof route, &pk->route, 0, pk->multicast);
    net_place_name(ctx->m->net, pk, place, sizeof place);
    dest_name(dst, sizeof dst, pk->multicast ? &pk->set : NULL, pk->dst);
    char name[48];
    Text line = { .len = 0 };
    add(&line, "  ");
    add_column(&line, &cols->full_name, UINT_MAX, "%s", packet_name(pk, name));
    add(&line, " ");
    add_column(&line, &cols->full_route, UINT_MAX, "p%u->%s", pk->src, dst);
    add(&line, " port ");
    add_column(&line, &cols->full_port, UINT_MAX, "%u", pk->port);
    add(&line, " ");
    add_column(&line, &cols->full_data, UINT_MAX, "data %d,", (int32_t)pk->data);
    add(&line, " ");
    add_column(&line, &cols->full_routing, UINT_MAX, "%s:", route);
    add(&line, " %s", place);
    if (ctx->out)
        fprintf(ctx->out, "%s\n", line.s);
}

/* ---- the drawing -------------------------------------------------------------- */

/* What is on link `link`: ".", "#3^", "#5v" or, in full duplex, both;
 * with virtual channels, each lane's, separated by '/'. */
static void link_cell(Machine *m, uint32_t link, char *buf, size_t size)
{
    Net *net = m->net;
    unsigned V = m->cfg.vcs;
    size_t used = 0;
    buf[0] = 0;
    for (unsigned v = 0; v < V && used < size; v++) {
        size_t lane_start = used;
        if (v > 0)
            used += (size_t)snprintf(buf + used, size - used, "/");
        for (unsigned dir = 0; dir < (m->cfg.full_duplex ? 2u : 1u) && used < size; dir++) {
            NetPacket pk;
            uint32_t c = m->cfg.full_duplex ? 2 * link + dir : link;
            char name[48];
            if (net_link_packet(net, c * V + v, &pk))
                used += (size_t)snprintf(buf + used, size - used, "%s%c", packet_name(&pk, name),
                                         pk.dir == DIR_UP ? '^' : 'v');
        }
        if (used == lane_start + (v > 0) && used < size)
            used += (size_t)snprintf(buf + used, size - used, ".");
    }
}

/* The packets in output port b's buffer, or with virtual channels in each
 * channel's, separated by '/'. */
static void buffer_cell(Machine *m, uint32_t b, char *buf, size_t size)
{
    size_t used = 0;
    for (unsigned v = 0; v < m->cfg.vcs && used < size; v++)
        used += (size_t)snprintf(buf + used, size - used, "%s%u", v ? "/" : "",
                                 net_buffer_count(m->net, b * m->cfg.vcs + v));
}

/* One layer's row of switch boxes and row of down-link cells. */
enum { CELL = 160,     /* room for any box, link cell, or pair of cells */
       DRAW_LEAD = 11  /* "  layer 1  ", before the first column */ };

typedef struct LayerRows {
    char boxes[STATE_DRAW_MAX_PROCS / 2][CELL];
    char cells[STATE_DRAW_MAX_PROCS][CELL / 2 - 1];
} LayerRows;

static void layer_rows(Machine *m, unsigned plane, unsigned l, LayerRows *r)
{
    uint32_t half = m->nprocs / 2;
    for (uint32_t j = 0; j < half; j++) {
        uint32_t s = (plane * m->k + l - 1) * half + j;
        char count[4][2 * NET_MAX_VCS];
        for (unsigned q = 0; q < 4; q++)
            buffer_cell(m, 4 * s + q, count[q], sizeof count[q]);
        if (l == m->k)
            snprintf(r->boxes[j], sizeof r->boxes[j], "s%u[- -|%s %s]", j, count[0], count[1]);
        else
            snprintf(r->boxes[j], sizeof r->boxes[j], "s%u[%s %s|%s %s]", j, count[2],
                     count[3], count[0], count[1]);
        for (unsigned x = 0; x < 2; x++) {
            char what[32];
            link_cell(m, 2 * s + x, what, sizeof what);
            if (l == 1)
                snprintf(r->cells[2 * j + x], sizeof r->cells[0], "p%u %s", 2 * j + x, what);
            else
                snprintf(r->cells[2 * j + x], sizeof r->cells[0], "d%u %s", x, what);
        }
    }
}

/* Prints cells left-aligned in columns of `width`, without trailing blanks. */
static void print_columns(FILE *out, const char *lead, char (*texts)[CELL], uint32_t n,
                          size_t width)
{
    fputs(lead, out);
    for (uint32_t i = 0; i + 1 < n; i++)
        fprintf(out, "%-*s", (int)width, texts[i]);
    fprintf(out, "%s\n", texts[n - 1]);
}

void state_draw_network(FILE *out, Machine *m, unsigned max_width, StateColumns *cols)
{
    unsigned k = m->k;
    uint32_t half = m->nprocs / 2;
    LayerRows *rows = calloc(k + 1, sizeof *rows);
    if (!rows)
        return;
    for (unsigned plane = 0; plane < m->cfg.planes; plane++) {
        size_t width = 0;
        for (unsigned l = 1; l <= k; l++) {
            layer_rows(m, plane, l, &rows[l]);
            for (uint32_t j = 0; j < half; j++) {
                size_t w = strlen(rows[l].boxes[j]);
                size_t c = strlen(rows[l].cells[2 * j]) + 1 + strlen(rows[l].cells[2 * j + 1]);
                width = w > width ? w : width;
                width = c > width ? c : width;
            }
        }
        if (cols) {             /* (the run's widest cells so far) */
            width = width > cols->cell ? width : cols->cell;
            cols->cell = width;
        }
        width += 2;
        /* Bands as even as they can be of as many switches side by side as
         * max_width has room for: each band draws every layer of its
         * switches. */
        uint32_t band = half;
        if (max_width > DRAW_LEAD && (max_width + 2 - DRAW_LEAD) / width < half) {
            uint32_t fit = (uint32_t)((max_width + 2 - DRAW_LEAD) / width);
            fit = fit ? fit : 1;
            uint32_t bands = (half + fit - 1) / fit;
            band = (half + bands - 1) / bands;
        } else if (max_width && max_width <= DRAW_LEAD) {
            band = 1;
        }
        /* (lines of at most 60 columns, so that a narrow screen does not
         * break them) */
        fprintf(out, "plane %u   s<j>[u0 u1|d0 d1]: packets in each output buffer\n"
                     "          under each switch, its down links:\n"
                     "          #id^ going up, #idv going down, . empty\n", plane);
        if (m->cfg.vcs > 1)
            fprintf(out, "          (%u virtual channels: a/b/... = channel 0/1/...)\n",
                    m->cfg.vcs);
        for (uint32_t first = 0; first < half; first += band) {
            if (first > 0)
                fputc('\n', out);          /* (bands apart: each is all the layers) */
            uint32_t n = half - first < band ? half - first : band;
            for (unsigned l = k; l >= 1; l--) {
                char lead[32], pairs[STATE_DRAW_MAX_PROCS / 2][CELL];
                snprintf(lead, sizeof lead, "  layer %-2u ", l);
                print_columns(out, lead, rows[l].boxes + first, n, width);
                for (uint32_t j = 0; j < n; j++)
                    snprintf(pairs[j], sizeof pairs[j], "%s %s", rows[l].cells[2 * (first + j)],
                             rows[l].cells[2 * (first + j) + 1]);
                print_columns(out, "           ", pairs, n, width);
            }
        }
    }
    free(rows);
}

/* The full state, its drawing in bands of at most max_width columns (0: one). */
static void full_state(FILE *out, Machine *m, unsigned max_width, StateColumns *cols)
{
    StateColumns fresh;
    cols = run_columns(m, cols, &fresh);
    for (uint32_t p = 0; p < m->programmed; p++)          /* (the columns first) */
        processor_line(NULL, m, &m->cpus[p], cols);
    PacketCtx ctx = { NULL, m, cols };
    net_for_each_in_flight(m->net, packet_line, &ctx);
    const NetStats *st = net_stats(m->net);
    fprintf(out, "=== state after timestep %llu: %llu %s in this timestep, %llu in all ===\n",
            (ull)m->t, (ull)m->step_collisions, plural(m->step_collisions, "collision", "collisions"),
            (ull)(st->link_total + st->buffer_total));
    if (m->t == 0)
        fprintf(out, "(before the first timestep)\n");
    fprintf(out, "processors:\n");
    for (uint32_t p = 0; p < m->programmed; p++)
        processor_line(out, m, &m->cpus[p], cols);
    if (m->programmed < m->nprocs)
        fprintf(out, "  p%u..p%u idle (no program)\n", m->programmed, m->nprocs - 1);
    fprintf(out, "packets in the network: %llu\n", (ull)net_in_flight(m->net));
    ctx.out = out;
    net_for_each_in_flight(m->net, packet_line, &ctx);
    state_print_owned(out, m);
    if (m->nprocs <= STATE_DRAW_MAX_PROCS)
        state_draw_network(out, m, max_width, cols);
    fprintf(out, "===\n");
}

void state_print(FILE *out, Machine *m, StateColumns *cols)
{
    full_state(out, m, 0, cols);
}

void state_print_fitted(FILE *out, Machine *m, unsigned width, StateColumns *cols)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem) {
        full_state(out, m, width, cols);
        return;
    }
    full_state(mem, m, width, cols);
    if (fclose(mem) != 0) {
        free(text);
        full_state(out, m, width, cols);
        return;
    }
    for (size_t at = 0; at < len;) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
        put_wrapped(out, text + at, n, width, 0, STATE_FULL_INDENT);
        at += n + 1;
    }
    free(text);
}

/* ---- the compact state of --step ------------------------------------------------- */

/* A processor's status in a few letters, for the compact state. */
static void brief_status(const Cpu *c, char *buf, size_t size)
{
    switch ((CpuState)c->state) {
    case CPU_RUNNING:
        if (c->wait == WAIT_IN)
            snprintf(buf, size, "wait IN %u", c->areg);
        else if (c->wait == WAIT_OUT)
            snprintf(buf, size, "wait OUT");
        else
            snprintf(buf, size, "running");
        return;
    case CPU_HALTED:
        snprintf(buf, size, "halted %d", c->status);
        return;
    case CPU_FAULTED:
        snprintf(buf, size, "faulted");
        return;
    case CPU_IDLE:
        snprintf(buf, size, "idle");
        return;
    }
}

/* Its output slot and input ports, only when they hold packets:
 * "  slot #3  ports 0:#1,#4 2:#5"; after STATE_PORT_PACKETS_SHOWN
 * packets, how many more ("+12 more"), which f lists. */
static void brief_adapter(Text *t, Machine *m, uint32_t id, StateColumns *cols)
{
    Net *net = m->net;
    NetPacket pk;
    char name[48];
    uint64_t shown = 0, more = 0;
    bool ports = false;
    for (unsigned port = 0; port < m->cfg.ports && !ports; port++)
        ports = net_port_count(net, id, port) > 0;
    if (net_slot_packet(net, id, &pk)) {
        add(t, "  ");
        add_column(t, &cols->slot, UINT_MAX, "slot %s", packet_name(&pk, name));
    } else if (ports && cols->slot) {
        add(t, "  %*s", (int)cols->slot, "");     /* (the ports where the others' are) */
    }
    const char *lead = "  ports ";
    for (unsigned port = 0; port < m->cfg.ports; port++) {
        uint32_t count = net_port_count(net, id, port);
        if (count == 0)
            continue;
        if (shown == STATE_PORT_PACKETS_SHOWN) {
            more += count;
            continue;
        }
        add(t, "%s%u:", lead, port);
        for (uint32_t i = 0; net_port_packet(net, id, port, i, &pk); i++) {
            if (shown == STATE_PORT_PACKETS_SHOWN) {
                more += count - i;
                break;
            }
            add(t, "%s%s", i == 0 ? "" : ",", packet_name(&pk, name));
            shown++;
        }
        lead = " ";
    }
    if (more)
        add(t, " +%llu more", (ull)more);
}

/* The columns of the compact processor line, up to its source line:
 * "p0 running   0019 IN        areg 0      breg 2      sp 199995 (line 4)". */
static unsigned compact_width(const StateColumns *c)
{
    return 1 + c->id + 1 + c->status + 1 + 4 + 1 + c->insn + 6 + c->reg + 6 + c->reg + 4
         + c->sp + (c->line ? 1 + c->line : 0);
}

/* How wide a column of it may grow, `times` on the line, while the line
 * fits STATE_COMPACT_WIDTH (a value wider moves the rest of its line). */
static unsigned compact_limit(const StateColumns *c, unsigned width, unsigned times)
{
    unsigned used = compact_width(c);
    return used < STATE_COMPACT_WIDTH ? width + (STATE_COMPACT_WIDTH - used) / times : width;
}

/* A processor's line, and the lines its packets go on in when they do not
 * fit beside it; returns the lines written (with out NULL, none: it only
 * widens the columns). The address shown is where
 * the instruction's prefixes start, the address the listing gives it, so
 * that a student finds it in xc -S. */
static unsigned brief_processor_line(FILE *out, Machine *m, const Cpu *c, unsigned columns,
                                     StateColumns *cols)
{
    char status[32], insn[64];
    Text line = { .len = 0 }, adapter = { .len = 0 };
    brief_status(c, status, sizeof status);
    add(&line, "p%-*u ", (int)cols->id, c->id);
    if (c->state != CPU_RUNNING && c->state != CPU_FAULTED) {
        add(&line, "%s", status);
    } else {
        add_column(&line, &cols->status, compact_limit(cols, cols->status, 1), "%s", status);
        cpu_disassemble_at(&m->mem, c->id, c->istart, insn, sizeof insn);
        char *target = strstr(insn, " ;");    /* "LDAP 3   ; -> 000f": the full state has it */
        if (target) {
            while (target > insn && target[-1] == ' ')
                target--;
            *target = 0;
        }
        add(&line, " %04x ", c->istart);
        add_column(&line, &cols->insn, compact_limit(cols, cols->insn, 1), "%s", insn);
        add(&line, " areg ");
        add_column(&line, &cols->reg, compact_limit(cols, cols->reg, 2), "%d", (int32_t)c->areg);
        add(&line, " breg ");
        add_column(&line, &cols->reg, compact_limit(cols, cols->reg, 2), "%d", (int32_t)c->breg);
        add(&line, " sp ");
        add_column(&line, &cols->sp, compact_limit(cols, cols->sp, 1), "%u", c->sp);
        LineEntry at;           /* the line only: f shows file, column, procedure */
        if (lines_find(m->lines, c->id, c->istart, &at) && at.line > 0) {
            add(&line, " ");
            add_column(&line, &cols->line, compact_limit(cols, cols->line, 1), "(line %u)",
                       at.line);
        } else if (cols->line) {
            add(&line, " %*s", (int)cols->line, "");
        }
    }
    brief_adapter(&adapter, m, c->id, cols);
    if (!out)
        return 0;
    if (line.len + adapter.len <= columns) {
        add(&line, "%s", adapter.s);
        trim(&line);
        return put_wrapped(out, line.s, line.len, columns, 0, STATE_COMPACT_INDENT);
    }
    trim(&line);
    trim(&adapter);
    unsigned lines = put_wrapped(out, line.s, line.len, columns, 0, STATE_COMPACT_INDENT);
    size_t skip = strspn(adapter.s, " ");
    if (adapter.len > skip)
        lines += put_wrapped(out, adapter.s + skip, adapter.len - skip, columns,
                             STATE_COMPACT_INDENT, STATE_COMPACT_INDENT);
    return lines;
}

/* How much wider the columns of a compact packet line before its place
 * ("#0 p0->p2 port 0 data 22: ") may grow: while they leave the place
 * PLACE_ROOM of STATE_COMPACT_WIDTH ("buffer p0.l1.s0.u0 place 1 of 2").
 * Its route is as wide as any two processors' names, and a multicast's set
 * moves the rest of its line only. */
enum { PLACE_ROOM = 32 };

static unsigned packet_room(const StateColumns *c)
{
    unsigned used = c->name + 1 + c->route + 6 + c->port + 1 + c->data + 1;
    return used + PLACE_ROOM < STATE_COMPACT_WIDTH ? STATE_COMPACT_WIDTH - PLACE_ROOM - used : 0;
}

typedef struct BriefPackets {
    FILE *out;                /* NULL: only widens the columns */
    Machine *m;
    StateColumns *cols;
    uint64_t after;           /* packets still to come after the group */
    uint64_t lines, room;     /* lines written, lines allowed */
    unsigned columns;         /* the screen's width */
    uint64_t hidden;          /* packets left out */
    NetPacket first;          /* the group: a packet, or the flits of one */
    uint32_t last_flit, last_data;   /* message waiting in its output slot, */
    uint64_t grouped;         /* this many (0: none yet) */
} BriefPackets;

/* The group's line ("#4.2..#4.9 ...: output slot of p1, 8 flits"), while
 * the screen has room for it and, when more packets follow, for the line
 * that counts those left out. */
static void brief_group_line(BriefPackets *ctx)
{
    const NetPacket *pk = &ctx->first;
    StateColumns *cols = ctx->cols;
    char place[96], dst[160], name[48];
    if (ctx->hidden || (!ctx->out && ctx->lines >= ctx->room)) {
        ctx->hidden += ctx->grouped;        /* (and those not shown widen nothing) */
        return;
    }
    Text line = { .len = 0 };
    net_place_name(ctx->m->net, pk, place, sizeof place);
    dest_name(dst, sizeof dst, pk->multicast ? &pk->set : NULL, pk->dst);
    if (ctx->grouped > 1)
        add_column(&line, &cols->name, cols->name + packet_room(cols), "%s..#%llu.%u",
                   packet_name(pk, name), (ull)pk->id, ctx->last_flit);
    else
        add_column(&line, &cols->name, cols->name + packet_room(cols), "%s",
                   packet_name(pk, name));
    add(&line, " ");
    add_column(&line, &cols->route, cols->route, "p%u->%s", pk->src, dst);   /* (a set passes) */
    add(&line, " port ");
    add_column(&line, &cols->port, cols->port + packet_room(cols), "%u", pk->port);
    add(&line, " ");
    if (ctx->grouped > 1)
        add_column(&line, &cols->data, cols->data + packet_room(cols), "data %d..%d:",
                   (int32_t)pk->data, (int32_t)ctx->last_data);
    else
        add_column(&line, &cols->data, cols->data + packet_room(cols), "data %d:",
                   (int32_t)pk->data);
    add(&line, " %s", place);
    if (ctx->grouped > 1)
        add(&line, ", %llu flits", (ull)ctx->grouped);
    if (!ctx->out) {
        ctx->lines++;
        return;
    }
    unsigned n = put_wrapped(NULL, line.s, line.len, ctx->columns, 0, STATE_COMPACT_INDENT);
    if (ctx->lines + n + (ctx->after > 0) > ctx->room) {
        ctx->hidden = ctx->grouped;
        return;
    }
    ctx->lines += put_wrapped(ctx->out, line.s, line.len, ctx->columns, 0,
                              STATE_COMPACT_INDENT);
}

/* A packet: one line, but for the flits of a message in its output slot,
 * one line for all of them, so that the flits in the network come into
 * view (a message may be 65,536 words). */
static void brief_packet_line(void *ctx_, const NetPacket *pk)
{
    BriefPackets *ctx = ctx_;
    ctx->after -= ctx->after > 0;
    if (ctx->grouped && pk->place == PLACE_SLOT && ctx->first.place == PLACE_SLOT &&
        pk->length > 1 && pk->id == ctx->first.id && pk->flit == ctx->last_flit + 1) {
        ctx->last_flit = pk->flit;
        ctx->last_data = pk->data;
        ctx->grouped++;
        return;
    }
    if (ctx->grouped) {
        ctx->after++;                 /* (this packet follows the group) */
        brief_group_line(ctx);
        ctx->after--;
    }
    ctx->first = *pk;
    ctx->last_flit = pk->flit;
    ctx->last_data = pk->data;
    ctx->grouped = 1;
}

void state_print_compact(FILE *out, Machine *m, unsigned columns, unsigned screen_lines,
                         StateColumns *cols)
{
    StateColumns fresh;
    cols = run_columns(m, cols, &fresh);
    const NetStats *st = net_stats(m->net);
    uint64_t in_flight = net_in_flight(m->net);
    Text heading = { .len = 0 };
    if (m->t == 0)
        add(&heading, "=== t=0, before the first timestep: %llu %s in the network ===",
            (ull)in_flight, plural(in_flight, "packet", "packets"));
    else
        add(&heading, "=== t=%llu: %llu %s (%llu in all), %llu %s in the network ===",
            (ull)m->t, (ull)m->step_collisions,
            plural(m->step_collisions, "collision", "collisions"),
            (ull)(st->link_total + st->buffer_total), (ull)in_flight,
            plural(in_flight, "packet", "packets"));
    uint64_t used = put_wrapped(out, heading.s, heading.len, columns, 0, STATE_COMPACT_INDENT);
    for (uint32_t p = 0; p < m->programmed; p++)          /* (the columns first) */
        brief_processor_line(NULL, m, &m->cpus[p], columns, cols);
    for (uint32_t p = 0; p < m->programmed; p++)
        used += brief_processor_line(out, m, &m->cpus[p], columns, cols);
    if (m->programmed + 1 == m->nprocs)
        fprintf(out, "p%u idle (no program)\n", m->programmed);
    else if (m->programmed < m->nprocs)
        fprintf(out, "p%u..p%u idle (no program)\n", m->programmed, m->nprocs - 1);
    /* The packets get the screen's lines that the heading, the processors
     * and the two prompts (the one answered, the next) leave; when they do
     * not all fit, the last line says how many more there are (f lists
     * them all). */
    used += 2 + (m->programmed < m->nprocs);
    uint64_t room = used + STATE_MIN_PACKET_LINES < screen_lines
                  ? screen_lines - used : STATE_MIN_PACKET_LINES;
    BriefPackets measure = { .m = m, .cols = cols, .after = in_flight, .room = room,
                             .columns = columns };
    net_for_each_in_flight(m->net, brief_packet_line, &measure);
    if (measure.grouped)
        brief_group_line(&measure);
    BriefPackets ctx = { .out = out, .m = m, .cols = cols, .after = in_flight, .room = room,
                         .columns = columns };
    net_for_each_in_flight(m->net, brief_packet_line, &ctx);
    if (ctx.grouped)
        brief_group_line(&ctx);
    if (ctx.hidden)
        fprintf(out, "... and %llu more %s (f shows them all)\n", (ull)ctx.hidden,
                plural(ctx.hidden, "packet", "packets"));
}
