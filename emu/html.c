/* Recording a run and writing it as a web page (html.h). The recorder
 * keeps, for every packet it has seen, the place it was at the end of the
 * last timestep, for every processor its status then, and for every buffer
 * and input port the message that owned it; after each timestep it walks
 * the packets the network holds (in flight, then unread in input ports, in
 * the order net/net.h gives them) and the owned places, and writes down
 * only what differs. The page's script replays those changes forwards. */
#include "emu/html.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cpu.h"
#include "emu/page/page.h"
#include "emu/report.h"

typedef unsigned long long ull;

/* Text that grows; a failed allocation is remembered and reported once, at
 * html_write. */
typedef struct Text {
    char *s;
    size_t len, cap;
    bool failed;
} Text;

static void text_printf(Text *t, const char *fmt, ...)
{
    if (t->failed)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? t->cap - t->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            t->failed = true;
            return;
        }
        if (t->s && t->len + (size_t)n < t->cap) {
            t->len += (size_t)n;
            return;
        }
        size_t cap = t->cap ? t->cap : 4096;
        while (cap <= t->len + (size_t)n)
            cap *= 2;
        char *s = realloc(t->s, cap);
        if (!s) {
            t->failed = true;
            return;
        }
        t->s = s;
        t->cap = cap;
    }
}

/* A JSON string: '/' is escaped too, so that no "</script>" can end the
 * page's data early. */
static void text_string(Text *t, const char *s)
{
    text_printf(t, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\' || c == '/')
            text_printf(t, "\\%c", c);
        else if (c < 0x20)
            text_printf(t, "\\u%04x", c);
        else
            text_printf(t, "%c", c);
    }
    text_printf(t, "\"");
}

#define NOWHERE UINT64_MAX

/* What the recorder remembers of a packet. */
typedef struct Seen {
    uint64_t place;        /* at the end of the last timestep (NOWHERE: not there) */
    uint64_t stamp;        /* the last walk that met it */
    Route route;           /* as last recorded */
    char *set;             /* a multicast's destinations as last recorded (a
                              split leaves each copy part of the set) */
    bool known;            /* its details are in `packets` */
    struct Seen *flits;    /* a message of several words: each of its flits,
                              the page's packets "id.i" (messages.md) */
} Seen;

/* Which packet the recorder means in its lists: a packet's id and, for
 * a flit of a message of several words, its index + 1 in the low bits. */
enum { FLIT_BITS = 17 };

static uint64_t key_of(const NetPacket *pk)
{
    return pk->id << FLIT_BITS | (pk->length > 1 ? pk->flit + 1 : 0);
}

/* A packet as the page names it: its id, or "id.i" for a flit. */
static void write_key(Text *t, uint64_t key)
{
    uint64_t flit = key & ((1u << FLIT_BITS) - 1);
    if (flit == 0)
        text_printf(t, "%llu", (unsigned long long)(key >> FLIT_BITS));
    else
        text_printf(t, "\"%llu.%llu\"", (unsigned long long)(key >> FLIT_BITS),
                    (unsigned long long)(flit - 1));
}

struct HtmlRecorder {
    const char *program;
    unsigned vcs;          /* virtual channels: places name lanes when > 1 */
    uint64_t max_steps;    /* timesteps it records after timestep 0 */
    uint64_t recorded;     /* timesteps recorded so far, after timestep 0 */
    Seen *seen;            /* by packet id */
    size_t nseen;
    uint64_t *present, *next_present;   /* ids in the network at the last walk */
    size_t npresent, nnext, present_cap;
    uint64_t stamp;
    int64_t (*status)[2];  /* by processor: the status and value last recorded */
    char **fault_names;    /* ...and a fault's name */
    uint64_t last_counts[5];
    uint64_t last_more[5]; /* multicasts, copies, messages, and flits sent and
                              delivered beyond packets */
    unsigned ports;        /* input ports per processor */
    uint32_t nchannel_buffers;  /* buffers times channels: the first owner places */
    uint64_t *owner;       /* by channel buffer, then input port (p * P + port):
                              the message that owns it, or NOWHERE */
    uint64_t nowned;       /* places owned at the last look */
    uint64_t flits_moving; /* flits of messages of several words seen in
                              slots, on links or in buffers by this walk */
    Text packets, moves, procs, events, routes, counts, more_counts, owners, prints;
    Text step_moves, step_events, step_routes;   /* this timestep's */
    bool failed;
};

HtmlRecorder *html_new(const Machine *m, const char *program, char *err, size_t size)
{
    if (m->nprocs > HTML_MAX_PROCS) {
        snprintf(err, size, "--html: the page draws at most %u processors (this run has %u)",
                 HTML_MAX_PROCS, m->nprocs);
        return NULL;
    }
    HtmlRecorder *rec = calloc(1, sizeof *rec);
    /* (a buffer per port of every switch: 2k switches' worth per processor) */
    uint32_t nchannel_buffers = 2 * m->cfg.planes * m->k * m->nprocs * m->cfg.vcs;
    size_t nplaces = (size_t)nchannel_buffers + (size_t)m->nprocs * m->cfg.ports;
    if (rec) {
        rec->status = malloc(m->nprocs * sizeof *rec->status);
        rec->owner = malloc(nplaces * sizeof *rec->owner);
    }
    if (!rec || !rec->status || !rec->owner) {
        if (rec) {
            free(rec->status);
            free(rec->owner);
        }
        free(rec);
        snprintf(err, size, "--html: out of memory");
        return NULL;
    }
    rec->program = program;
    rec->max_steps = HTML_MAX_WORK / m->nprocs;
    rec->vcs = m->cfg.vcs;
    for (uint32_t p = 0; p < m->nprocs; p++)
        rec->status[p][0] = -1;
    rec->ports = m->cfg.ports;
    rec->nchannel_buffers = nchannel_buffers;
    for (size_t i = 0; i < nplaces; i++)
        rec->owner[i] = NOWHERE;
    return rec;
}

void html_free(HtmlRecorder *rec)
{
    if (!rec)
        return;
    Text *texts[] = { &rec->packets, &rec->moves, &rec->procs, &rec->events, &rec->routes,
                      &rec->counts, &rec->more_counts, &rec->owners, &rec->prints,
                      &rec->step_moves, &rec->step_events, &rec->step_routes };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        free(texts[i]->s);
    for (size_t i = 0; i < rec->nseen; i++) {
        free(rec->seen[i].set);
        free(rec->seen[i].flits);
    }
    free(rec->seen);
    free(rec->present);
    free(rec->next_present);
    free(rec->status);
    free(rec->owner);
    free(rec);
}

static bool recording(const HtmlRecorder *rec, uint64_t t)
{
    return t <= rec->max_steps;
}

/* ---- events ----------------------------------------------------------------- */

/* The page's kind of a network event; -1 for those it leaves out: claims
 * and entries are the moves, an adaptive choice the route's change. */
static int event_kind(NetEventKind kind)
{
    switch (kind) {
    case EV_CREATED:         return HTML_EV_SENT;
    case EV_LINK_COLLISION:  return HTML_EV_LINK_COLLISION;
    case EV_BUFFER_FULL:     return HTML_EV_BUFFER_FULL;
    case EV_BUFFER_OWNED:    return HTML_EV_BUFFER_OWNED;
    case EV_QUEUED:          return HTML_EV_QUEUED;
    case EV_DELIVERED:       return HTML_EV_DELIVERED;
    case EV_READ:            return HTML_EV_READ;
    case EV_SPLIT:           return HTML_EV_SPLIT;
    case EV_PORT_WAIT:       return HTML_EV_PORT_WAIT;
    case EV_CLAIMED:
    case EV_ENTERED:
    case EV_ADAPTIVE_CHOICE:
        return -1;
    }
    return -1;
}

void html_event(HtmlRecorder *rec, const NetEvent *ev)
{
    int kind = event_kind(ev->kind);
    if (kind < 0)
        return;
    if (!recording(rec, ev->timestep))
        return;
    /* (The link or buffer of a lane or channel buffer: the page marks it.) */
    bool laned = kind == HTML_EV_LINK_COLLISION || kind == HTML_EV_BUFFER_FULL ||
                 kind == HTML_EV_QUEUED || kind == HTML_EV_BUFFER_OWNED;
    text_printf(&rec->step_events, "%s%d,", rec->step_events.len ? "," : "", kind);
    write_key(&rec->step_events, key_of(ev->packet));
    text_printf(&rec->step_events, ",%u,%llu", laned ? ev->place / rec->vcs : ev->place,
                ev->kind == EV_SPLIT ? (ull)ev->copy->id : (ull)ev->owner);
}

/* ---- the state after a timestep ------------------------------------------------- */

static uint64_t place_code(const NetPacket *pk, unsigned vcs)
{
    uint64_t kind = pk->place == PLACE_SLOT ? HTML_SLOT : pk->place == PLACE_LINK ? HTML_LINK
                  : pk->place == PLACE_BUFFER ? HTML_BUFFER : HTML_PORT;
    /* With V > 1 a link's or buffer's place is a lane or channel buffer
     * (net.h): the wire or buffer, and the lane. */
    uint64_t at = pk->at, lane = 0;
    if ((kind == HTML_LINK || kind == HTML_BUFFER) && vcs > 1) {
        at = pk->at / vcs;
        lane = pk->at % vcs;
    }
    return ((at * HTML_LANES + lane) * 2 + pk->dir) * 4 + kind;
}

static bool same_route(const Route *a, const Route *b)
{
    return a->plane == b->plane && a->count == b->count && a->routing == b->routing
        && a->addressing == b->addressing;
}

static int grow(HtmlRecorder *rec, uint64_t id)
{
    if (id < rec->nseen)
        return 0;
    size_t n = rec->nseen ? rec->nseen : 256;
    while (n <= id)
        n *= 2;
    Seen *seen = realloc(rec->seen, n * sizeof *seen);
    if (!seen)
        return -1;
    for (size_t i = rec->nseen; i < n; i++)
        seen[i] = (Seen){ NOWHERE, 0, { 0 }, NULL, false, NULL };
    rec->seen = seen;
    rec->nseen = n;
    return 0;
}

/* What the recorder remembers of the packet of `key`, or NULL if memory
 * cannot be had: a flit's among its message's (`length` of them). */
static Seen *seen_of(HtmlRecorder *rec, uint64_t key, uint32_t length)
{
    uint64_t id = key >> FLIT_BITS, flit = key & ((1u << FLIT_BITS) - 1);
    if (grow(rec, id) != 0)
        return NULL;
    Seen *s = &rec->seen[id];
    if (flit == 0)
        return s;
    if (!s->flits) {
        s->flits = malloc((size_t)length * sizeof *s->flits);
        if (!s->flits)
            return NULL;
        for (uint32_t i = 0; i < length; i++)
            s->flits[i] = (Seen){ NOWHERE, 0, { 0 }, NULL, false, NULL };
    }
    return &s->flits[flit - 1];
}

static int note_present(HtmlRecorder *rec, uint64_t id)
{
    if (rec->nnext == rec->present_cap) {
        size_t cap = rec->present_cap ? 2 * rec->present_cap : 256;
        uint64_t *a = realloc(rec->present, cap * sizeof *a);
        uint64_t *b = a ? realloc(rec->next_present, cap * sizeof *b) : NULL;
        if (a)
            rec->present = a;
        if (!b)
            return -1;
        rec->next_present = b;
        rec->present_cap = cap;
    }
    rec->next_present[rec->nnext++] = id;
    return 0;
}

/* A packet's destination: a number, or a multicast's set as a string. */
static void write_dst(Text *t, const NetPacket *pk, const char *set)
{
    if (pk->multicast)
        text_string(t, set);
    else
        text_printf(t, "%u", pk->dst);
}

static void visit_packet(void *ctx, const NetPacket *pk)
{
    HtmlRecorder *rec = ctx;
    uint64_t key = key_of(pk);
    Seen *s = seen_of(rec, key, pk->length);
    if (!s || note_present(rec, key) != 0) {
        rec->failed = true;
        return;
    }
    const Route *r = &pk->route;
    char dst[160];
    if (pk->multicast)
        dest_name(dst, sizeof dst, &pk->set, pk->dst);
    /* The last split of a multicast leaves a packet to one processor. */
    bool set_changed = pk->multicast ? !s->set || strcmp(s->set, dst) != 0 : s->set != NULL;
    if (set_changed) {
        free(s->set);
        s->set = pk->multicast ? strdup(dst) : NULL;
        rec->failed |= pk->multicast && !s->set;
    }
    if (!s->known) {
        text_printf(&rec->packets, "%s[", rec->packets.len ? ",\n" : "");
        write_key(&rec->packets, key);
        text_printf(&rec->packets, ",%u,", pk->src);
        write_dst(&rec->packets, pk, dst);
        text_printf(&rec->packets, ",%u,%d,%llu,%u,%u,%u,%u]", pk->port, (int32_t)pk->data,
                    (ull)pk->created, (unsigned)r->plane, (unsigned)r->count,
                    (unsigned)r->routing, (unsigned)r->addressing);
        s->known = true;
        s->route = *r;
    } else if (!same_route(&s->route, r) || set_changed) {
        text_printf(&rec->step_routes, "%s", rec->step_routes.len ? "," : "");
        write_key(&rec->step_routes, key);
        text_printf(&rec->step_routes, ",%u,%u,%u,%u,", (unsigned)r->plane, (unsigned)r->count,
                    (unsigned)r->routing, (unsigned)r->addressing);
        write_dst(&rec->step_routes, pk, dst);
        s->route = *r;
    }
    rec->flits_moving += pk->length > 1 && pk->place != PLACE_PORT;
    uint64_t place = place_code(pk, rec->vcs);
    if (s->place != place) {
        text_printf(&rec->step_moves, "%s", rec->step_moves.len ? "," : "");
        write_key(&rec->step_moves, key);
        text_printf(&rec->step_moves, ",%llu", (ull)place);
    }
    s->place = place;
    s->stamp = rec->stamp;
}

/* A processor's status as state.c shows it, and the number that goes with
 * it (the port waited on, the halt status). */
static HtmlStatus cpu_status(const Cpu *c, int64_t *value)
{
    *value = 0;
    switch ((CpuState)c->state) {
    case CPU_RUNNING:
        if (c->wait == WAIT_IN) {
            *value = c->areg;
            return HTML_STATUS_WAIT_IN;
        }
        return c->wait == WAIT_OUT ? HTML_STATUS_WAIT_OUT : HTML_STATUS_RUNNING;
    case CPU_HALTED:
        *value = c->status;
        return HTML_STATUS_HALTED;
    case CPU_FAULTED:
        *value = c->fault;
        return HTML_STATUS_FAULTED;
    case CPU_IDLE:
        return HTML_STATUS_IDLE;
    }
    return HTML_STATUS_IDLE;
}

static void record_processors(HtmlRecorder *rec, const Machine *m)
{
    const char *sep = "";
    text_printf(&rec->procs, "%s[", m->t ? ",\n" : "");
    for (uint32_t p = 0; p < m->nprocs; p++) {
        int64_t value;
        const Cpu *c = &m->cpus[p];
        value = 0;
        HtmlStatus st = p < m->programmed ? cpu_status(c, &value) : HTML_STATUS_IDLE;
        if (rec->status[p][0] == st && rec->status[p][1] == value)
            continue;
        rec->status[p][0] = st;
        rec->status[p][1] = value;
        text_printf(&rec->procs, "%s%u,%d,", sep, p, (int)st);
        if (st == HTML_STATUS_FAULTED)
            text_string(&rec->procs, cpu_fault_name((CpuFault)c->fault));
        else
            text_printf(&rec->procs, "%lld", (long long)value);
        sep = ",";
    }
    text_printf(&rec->procs, "]");
}

static void record_counts(HtmlRecorder *rec, Machine *m)
{
    const NetStats *st = net_stats(m->net);
    uint64_t now[5] = { st->link_total, st->buffer_total, st->sent, st->delivered,
                        net_in_flight(m->net) };
    text_printf(&rec->counts, "%s", m->t ? "," : "");
    for (int i = 0; i < 5; i++) {
        text_printf(&rec->counts, "%s%lld", i ? "," : "", (long long)(now[i] - rec->last_counts[i]));
        rec->last_counts[i] = now[i];
    }
    /* The counts of multicasts and messages change in few timesteps, and
     * in none of most runs: only those timesteps are written. A flit
     * count is kept as the flits beyond the packets, which only messages
     * of several words have. */
    uint64_t more[5] = { st->multicasts, st->copies, st->messages, st->flits_sent - st->sent,
                         st->flits_delivered - st->delivered };
    if (memcmp(more, rec->last_more, sizeof more) == 0)
        return;
    text_printf(&rec->more_counts, "%s%llu", rec->more_counts.len ? ",\n" : "", (ull)m->t);
    for (int i = 0; i < 5; i++) {
        text_printf(&rec->more_counts, ",%llu", (ull)(more[i] - rec->last_more[i]));
        rec->last_more[i] = more[i];
    }
}

/* One owner place's change: its new owner, or -1. */
static void owner_change(HtmlRecorder *rec, uint64_t t, size_t i, uint64_t id)
{
    uint64_t code;
    if (i < rec->nchannel_buffers)       /* a channel buffer: the buffer and its channel */
        code = ((i / rec->vcs * HTML_LANES + i % rec->vcs) * 2) * 4 + HTML_BUFFER;
    else
        code = ((i - rec->nchannel_buffers) * HTML_LANES * 2) * 4 + HTML_PORT;
    text_printf(&rec->owners, "%s%llu,%llu,", rec->owners.len ? ",\n" : "", (ull)t, (ull)code);
    if (id == NOWHERE)
        text_printf(&rec->owners, "-1");
    else
        text_printf(&rec->owners, "%llu", (ull)id);
    rec->nowned += id != NOWHERE;
    rec->nowned -= rec->owner[i] != NOWHERE;
    rec->owner[i] = id;
}

/* The owners of buffers and input ports that changed. A place is owned
 * only while flits of its owner are still to enter it, so without such
 * flits moving and with no place owned before, none is now. */
static void record_owners(HtmlRecorder *rec, Machine *m)
{
    if (rec->flits_moving == 0 && rec->nowned == 0)
        return;
    for (uint32_t b = 0; b < rec->nchannel_buffers; b++) {
        uint64_t id;
        if (!net_buffer_owner(m->net, b, &id))
            id = NOWHERE;
        if (id != rec->owner[b])
            owner_change(rec, m->t, b, id);
    }
    for (uint32_t p = 0; p < m->nprocs; p++)
        for (unsigned port = 0; port < rec->ports; port++) {
            size_t i = rec->nchannel_buffers + (size_t)p * rec->ports + port;
            uint64_t id;
            if (!net_port_owner(m->net, p, port, &id))
                id = NOWHERE;
            if (id != rec->owner[i])
                owner_change(rec, m->t, i, id);
        }
}

void html_print(HtmlRecorder *rec, uint64_t t, uint32_t proc, int32_t value)
{
    if (recording(rec, t))
        text_printf(&rec->prints, "%s%llu,%u,%d", rec->prints.len ? ",\n" : "", (ull)t, proc,
                    value);
}

/* Appends this timestep's list to a per-timestep array, and empties it. */
static void flush_step(Text *all, Text *step, uint64_t t)
{
    text_printf(all, "%s[%s]", t ? ",\n" : "", step->len ? step->s : "");
    step->len = 0;
    step->failed = false;
}

void html_timestep(HtmlRecorder *rec, Machine *m)
{
    if (!recording(rec, m->t))
        return;
    rec->recorded = m->t;
    rec->stamp++;
    rec->nnext = 0;
    rec->flits_moving = 0;
    net_for_each_in_flight(m->net, visit_packet, rec);
    net_for_each_unread(m->net, visit_packet, rec);
    for (size_t i = 0; i < rec->npresent; i++) {
        Seen *s = seen_of(rec, rec->present[i], 0);     /* (met before: it exists) */
        if (s->stamp != rec->stamp) {
            text_printf(&rec->step_moves, "%s", rec->step_moves.len ? "," : "");
            write_key(&rec->step_moves, rec->present[i]);
            text_printf(&rec->step_moves, ",-1");
            s->place = NOWHERE;
        }
    }
    uint64_t *swap = rec->present;
    rec->present = rec->next_present;
    rec->next_present = swap;
    rec->npresent = rec->nnext;
    rec->failed |= rec->step_moves.failed || rec->step_events.failed || rec->step_routes.failed;
    flush_step(&rec->moves, &rec->step_moves, m->t);
    flush_step(&rec->events, &rec->step_events, m->t);
    flush_step(&rec->routes, &rec->step_routes, m->t);
    record_processors(rec, m);
    record_counts(rec, m);
    record_owners(rec, m);
}

/* ---- the page ------------------------------------------------------------------- */


static void write_report(FILE *out, Machine *m)
{
    const NetStats *st = net_stats(m->net);
    fprintf(out, "\"report\":{\"end\":\"%s\",\"timesteps\":%llu,\"collisions\":%llu,"
            "\"link_collisions\":%llu,\"buffer_collisions\":%llu,\"packets_sent\":%llu,"
            "\"packets_delivered\":%llu,\"in_network\":%llu,\"multicasts\":%llu,"
            "\"copies\":%llu,\"messages\":%llu,\"flits_sent\":%llu,\"flits_delivered\":%llu,"
            "\"latency_histogram\":{",
            machine_end_name(m->end), (ull)m->t, (ull)(st->link_total + st->buffer_total),
            (ull)st->link_total, (ull)st->buffer_total, (ull)st->sent, (ull)st->delivered,
            (ull)net_in_flight(m->net), (ull)st->multicasts, (ull)st->copies,
            (ull)st->messages, (ull)st->flits_sent, (ull)st->flits_delivered);
    const char *sep = "";
    for (size_t i = 0; i < st->latency_hist_len; i++)
        if (st->latency_hist[i]) {
            fprintf(out, "%s\"%zu\":%llu", sep, i, (ull)st->latency_hist[i]);
            sep = ",";
        }
    fprintf(out, "}},\n");
}

static void write_json(HtmlRecorder *rec, Machine *m, FILE *out)
{
    Text name = { 0 };
    text_string(&name, rec->program);
    const MachineConfig *c = &m->cfg;
    fprintf(out, "{\"version\":1,\"program\":%s,\n\"config\":{\"procs\":%u,\"programmed\":%u,"
            "\"k\":%u,\"planes\":%u,\"duplex\":\"%s\",\"buffer\":%u,\"ports\":%u,"
            "\"port_depth\":%u,\"routing\":\"%s\",\"lanes\":%u},\n\"recorded\":%llu,\n",
            name.failed ? "\"\"" : name.s, m->nprocs, m->programmed, m->k, c->planes,
            c->full_duplex ? "full" : "half", c->buffer, c->ports, c->port_depth,
            routing_name(c->routing), c->vcs, (ull)rec->recorded);
    free(name.s);
    write_report(out, m);
    /* Why the run ended, as the report says it. */
    Text ending = { 0 };
    char *why = NULL;
    size_t why_len = 0;
    FILE *f = open_memstream(&why, &why_len);
    if (f) {
        report_ending(f, m);
        fclose(f);
    }
    text_string(&ending, why ? why : "");
    free(why);
    fprintf(out, "\"ending\":%s,\n", ending.failed ? "\"\"" : ending.s);
    free(ending.s);
    const struct { const char *key; Text *text; } parts[] = {
        { "packets", &rec->packets }, { "moves", &rec->moves }, { "procs", &rec->procs },
        { "events", &rec->events }, { "routes", &rec->routes }, { "counts", &rec->counts },
        { "more_counts", &rec->more_counts }, { "owners", &rec->owners },
        { "prints", &rec->prints },
    };
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        fprintf(out, "\"%s\":[\n%s]%s\n", parts[i].key, parts[i].text->len ? parts[i].text->s : "",
                i + 1 < sizeof parts / sizeof parts[0] ? "," : "}");
}

int html_write(HtmlRecorder *rec, Machine *m, FILE *out)
{
    Text *texts[] = { &rec->packets, &rec->moves, &rec->procs, &rec->events, &rec->routes,
                      &rec->counts, &rec->more_counts, &rec->owners, &rec->prints };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        rec->failed |= texts[i]->failed;
    if (rec->failed)
        return -1;
    fputs(html_page_head, out);
    fputs("<style>\n", out);
    fputs(html_page_css, out);
    fputs("</style>\n</head>\n<body>\n", out);
    fputs(html_page_body, out);
    fputs("<script type=\"application/json\" id=\"run\">\n", out);
    write_json(rec, m, out);
    fputs("</script>\n<script>\n", out);
    fputs(html_page_js, out);
    fputs("</script>\n</body>\n</html>\n", out);
    return 0;
}
