/* Reads back the recording inside a page of `bin/emu --html` and prints, for
 * every recorded timestep, what `--state T` prints of it: the heading with
 * the collisions, each programmed processor's status, output slot and input
 * ports, every packet in the network with its place, and the buffers and
 * ports that messages own -- and, at the end, the report's counts as the
 * recorded changes add them up, after "printed:" the lines the program
 * printed, and after "ending:" why the run ended. tests/cli/html.sh
 * compares that with the emulator's own --state and report, so the page's
 * data cannot drift from the machine.
 *
 *   build/tools/html_state page.html
 *
 * It replays the recording as the page's script does (emu/html.h says what
 * each part is): a packet's place in a buffer or input port is its rank in
 * order of entry. Places are named by net/net.h's own net_place_name, on a
 * network of the recorded size, and routes by route_describe. A flit of a
 * message of several words is the page's "id.i", and keeps that name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/plural.h"
#include "net/net.h"

typedef unsigned long long ull;

/* ---- a small JSON reader ------------------------------------------------------- */

typedef enum { J_NUM, J_STR, J_ARR, J_OBJ, J_OTHER } JKind;

typedef struct J {
    JKind kind;
    double num;
    char *str;              /* J_STR */
    char *key;              /* a member's key */
    struct J **items;       /* J_ARR, J_OBJ */
    size_t n;
} J;

static const char *src;

static void fail(const char *why)
{
    fprintf(stderr, "html_state: %s near '%.30s'\n", why, src);
    exit(1);
}

static void skip(void)
{
    while (*src == ' ' || *src == '\n' || *src == '\r' || *src == '\t')
        src++;
}

static void *must(void *p)
{
    if (!p)
        fail("out of memory");
    return p;
}

static void j_free(J *j)
{
    if (!j)
        return;
    for (size_t i = 0; i < j->n; i++)
        j_free(j->items[i]);
    free(j->items);
    free(j->str);
    free(j->key);
    free(j);
}

static char *parse_string(void)
{
    size_t cap = 16, len = 0;
    char *s = must(malloc(cap));
    src++;
    while (*src != '"') {
        if (!*src)
            fail("unterminated string");
        char c = *src++;
        if (c == '\\') {
            c = *src++;
            if (c == 'u') {
                c = (char)strtol((char[]){ src[0], src[1], src[2], src[3], 0 }, NULL, 16);
                src += 4;
            } else if (c == 'n') {
                c = '\n';
            }
        }
        if (len + 2 > cap)
            s = must(realloc(s, cap *= 2));
        s[len++] = c;
    }
    src++;
    s[len] = 0;
    return s;
}

static J *parse(void)
{
    J *j = must(calloc(1, sizeof *j));
    skip();
    if (*src == '[' || *src == '{') {
        char close = *src == '[' ? ']' : '}';
        j->kind = *src == '[' ? J_ARR : J_OBJ;
        src++;
        size_t cap = 0;
        for (skip(); *src != close; skip()) {
            char *key = NULL;
            if (j->kind == J_OBJ) {
                if (*src != '"')
                    fail("expected a key");
                key = parse_string();
                skip();
                if (*src++ != ':')
                    fail("expected ':'");
            }
            if (j->n == cap)
                j->items = must(realloc(j->items, (cap = cap ? 2 * cap : 8) * sizeof *j->items));
            J *item = parse();
            item->key = key;
            j->items[j->n++] = item;
            skip();
            if (*src == ',')
                src++;
            else if (*src != close)
                fail("expected ',' or a closing bracket");
        }
        src++;
    } else if (*src == '"') {
        j->kind = J_STR;
        j->str = parse_string();
    } else if (*src == '-' || (*src >= '0' && *src <= '9')) {
        char *end;
        j->kind = J_NUM;
        j->num = strtod(src, &end);
        src = end;
    } else {
        fail("unexpected character");
    }
    return j;
}

static J *member(const J *obj, const char *key)
{
    for (size_t i = 0; i < obj->n; i++)
        if (obj->items[i]->key && strcmp(obj->items[i]->key, key) == 0)
            return obj->items[i];
    fprintf(stderr, "html_state: no '%s' in the recording\n", key);
    exit(1);
}

static long long num(const J *j) { return (long long)j->num; }
static long long at(const J *arr, size_t i) { return (long long)arr->items[i]->num; }

/* ---- the replay ------------------------------------------------------------------ */

typedef struct Pk {
    char name[32];            /* "5", or "5.2" for flit 2 of message 5 */
    bool present, known;
    uint64_t code;            /* its place (emu/html.h) */
    uint64_t order;           /* when it entered that place */
    J *info;                  /* [id, src, dst, port, data, created, plane, count, routing, addressing] */
    Route route;
    J *dst;                   /* its destination(s) now */
} Pk;

static Pk *pks;
static size_t npks;

/* The packets by name: an open-addressed table of indexes into pks. */
static size_t *by_name, nby_name;

static size_t name_hash(const char *name)
{
    size_t h = 5381;
    for (; *name; name++)
        h = h * 33 + (unsigned char)*name;
    return h;
}

/* The index of the packet a recording names (a number, or a flit's
 * string), given one when first named. */
static size_t index_of(const J *id)
{
    char name[32];
    if (id->kind == J_STR)
        snprintf(name, sizeof name, "%s", id->str);
    else
        snprintf(name, sizeof name, "%.0f", id->num);
    size_t h = name_hash(name) % nby_name;
    while (by_name[h] != SIZE_MAX && strcmp(pks[by_name[h]].name, name) != 0)
        h = (h + 1) % nby_name;
    if (by_name[h] == SIZE_MAX) {
        by_name[h] = npks;
        snprintf(pks[npks++].name, sizeof pks[0].name, "%s", name);
    }
    return by_name[h];
}
static Net *net;
static unsigned nports;

enum { KIND_SLOT, KIND_LINK, KIND_BUFFER, KIND_PORT };
static unsigned kind_of(uint64_t c) { return (unsigned)(c % 4); }
static unsigned lanes;
/* The lane or channel buffer (net.h) of a place on a link or in a buffer,
 * else what it names. */
static uint64_t at_of(uint64_t c)
{
    return kind_of(c) == KIND_LINK || kind_of(c) == KIND_BUFFER ? c / 64 * lanes + c / 8 % 8
                                                                : c / 64;
}

/* The packets present at the end of the timestep being printed. */
static size_t *live;
static size_t nlive;

/* Its rank in its buffer (1: the head) and how many are there. */
static void rank(size_t id, unsigned *position, unsigned *queued)
{
    *position = 1;
    *queued = 0;
    for (size_t i = 0; i < nlive; i++)
        if (pks[live[i]].code == pks[id].code) {
            (*queued)++;
            *position += pks[live[i]].order < pks[id].order;
        }
}

static NetPacket describe(size_t id)
{
    const Pk *p = &pks[id];
    NetPacket pk = { 0 };
    pk.id = id;
    pk.src = (uint32_t)at(p->info, 1);
    pk.multicast = p->dst->kind == J_STR;
    pk.dst = pk.multicast ? 0 : (uint32_t)p->dst->num;
    pk.port = (unsigned)at(p->info, 3);
    pk.data = (uint32_t)at(p->info, 4);
    pk.route = p->route;
    unsigned kind = kind_of(p->code);
    pk.place = kind == KIND_SLOT ? PLACE_SLOT : kind == KIND_LINK ? PLACE_LINK
             : kind == KIND_BUFFER ? PLACE_BUFFER : PLACE_PORT;
    pk.at = (uint32_t)at_of(p->code);
    pk.dir = (unsigned)(p->code / 4 % 2);
    if (kind >= KIND_BUFFER)
        rank(id, &pk.position, &pk.queued);
    return pk;
}

static int by_place(const void *a_, const void *b_)
{
    size_t a = *(const size_t *)a_, b = *(const size_t *)b_;
    uint64_t ka = kind_of(pks[a].code), kb = kind_of(pks[b].code);
    uint64_t xa = at_of(pks[a].code), xb = at_of(pks[b].code);
    if (ka != kb)
        return ka < kb ? -1 : 1;
    if (xa != xb)
        return xa < xb ? -1 : 1;
    return pks[a].order < pks[b].order ? -1 : pks[a].order > pks[b].order;
}

static void print_packets(void)
{
    size_t *list = must(malloc((nlive + 1) * sizeof *list)), n = 0;
    for (size_t i = 0; i < nlive; i++)
        if (kind_of(pks[live[i]].code) != KIND_PORT)
            list[n++] = live[i];
    qsort(list, n, sizeof *list, by_place);
    printf("packets in the network: %zu\n", n);
    for (size_t i = 0; i < n; i++) {
        NetPacket pk = describe(list[i]);
        char place[96], route[96], dst[160];
        net_place_name(net, &pk, place, sizeof place);
        route_describe(route, sizeof route, &pk.route, 0, pk.multicast);
        if (pk.multicast)
            snprintf(dst, sizeof dst, "%s", pks[list[i]].dst->str);
        else
            snprintf(dst, sizeof dst, "p%u", pk.dst);
        printf("  #%s p%u->%s port %u data %d, %s: %s\n", pks[list[i]].name, pk.src, dst, pk.port,
               (int32_t)pk.data, route, place);
    }
    free(list);
}

/* The processors' lines of --state without their instructions and
 * registers: status, output slot, input ports with their packets oldest
 * first. */
static void print_processors(uint32_t programmed, long long (*status)[2], char *const *fault)
{
    static const char *const names[] = { "running", "waiting on IN port %lld",
        "waiting on OUT", "halted (status %lld)", "faulted: %s", "idle" };
    size_t *ports = must(malloc((nlive + 1) * sizeof *ports)), n = 0;
    for (size_t i = 0; i < nlive; i++)
        if (kind_of(pks[live[i]].code) == KIND_PORT)
            ports[n++] = live[i];
    qsort(ports, n, sizeof *ports, by_place);
    size_t next = 0;
    for (uint32_t p = 0; p < programmed; p++) {
        char text[64];
        if (status[p][0] == 4)
            snprintf(text, sizeof text, names[4], fault[p]);
        else
            snprintf(text, sizeof text, names[status[p][0]], status[p][1]);
        printf("  p%-3u %-22s  slot ", p, text);
        size_t slot = npks;
        for (size_t i = 0; i < nlive; i++)
            if (kind_of(pks[live[i]].code) == KIND_SLOT && at_of(pks[live[i]].code) == p &&
                (slot == npks || pks[live[i]].order < pks[slot].order))
                slot = live[i];     /* (a message's next flit to offer) */
        if (slot < npks)
            printf("#%s", pks[slot].name);
        else
            printf("-");
        printf("  ports");
        int any = 0;
        uint64_t port = UINT64_MAX;
        for (; next < n && at_of(pks[ports[next]].code) / nports == p; next++) {
            uint64_t here = at_of(pks[ports[next]].code);
            if (here == port)
                printf(" #%s", pks[ports[next]].name);
            else
                printf("%s %llu:[#%s", port == UINT64_MAX ? "" : "]", (ull)(here % nports),
                       pks[ports[next]].name);
            port = here;
            any = 1;
        }
        printf("%s\n", any ? "]" : " -");
    }
    free(ports);
}

/* The owned places' line of --state: "owned: buffer p0.l1.s1.u0 by #5,
 * input port 0 of p3 by #7", buffers first, each in the order of its
 * number; owner[] is by place code. */
static void print_owned(const long long *owner, size_t nplaces, size_t nowned)
{
    const char *lead = "owned: ";
    if (nowned == 0)
        return;
    for (int kind = KIND_BUFFER; kind <= KIND_PORT; kind++)
        for (size_t code = 0; code < nplaces; code++) {
            if (owner[code] < 0 || kind_of(code) != (unsigned)kind)
                continue;
            uint64_t at = code / 64;
            if (kind == KIND_BUFFER) {
                char name[64];
                net_buffer_name(net, (uint32_t)at, name, sizeof name);
                printf("%sbuffer %s", lead, name);
                if (lanes > 1)
                    printf(" vc%llu", (ull)(code / 8 % 8));
            } else {
                printf("%sinput port %llu of p%llu", lead, (ull)(at % nports), (ull)(at / nports));
            }
            printf(" by #%lld", owner[code]);
            lead = ", ";
        }
    if (lead[0] == ',')
        printf("\n");
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: html_state page.html\n");
        return 1;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    size_t cap = 1 << 20, len = 0, got;
    char *page = must(malloc(cap));
    while ((got = fread(page + len, 1, cap - len - 1, f)) > 0)
        if ((len += got) + 1 == cap)
            page = must(realloc(page, cap *= 2));
    fclose(f);
    page[len] = 0;
    const char *start = strstr(page, "<script type=\"application/json\" id=\"run\">");
    if (!start)
        fail("no recording in the page");
    src = strchr(start, '>') + 1;
    J *rec = parse();

    J *cfg = member(rec, "config");
    NetConfig nc = { (unsigned)num(member(cfg, "k")), (unsigned)num(member(cfg, "planes")),
                     strcmp(member(cfg, "duplex")->str, "full") == 0,
                     (unsigned)num(member(cfg, "buffer")), (unsigned)num(member(cfg, "ports")),
                     (unsigned)num(member(cfg, "port_depth")),
                     strcmp(member(cfg, "routing")->str, "adaptive") == 0,
                     (unsigned)num(member(cfg, "lanes")), SWITCHING_WORMHOLE };
    net = must(net_new(&nc));
    lanes = nc.vcs;
    nports = nc.ports;
    uint32_t nprocs = (uint32_t)num(member(cfg, "procs"));
    uint32_t programmed = (uint32_t)num(member(cfg, "programmed"));
    J *packets = member(rec, "packets"), *moves = member(rec, "moves");
    J *procs = member(rec, "procs"), *routes = member(rec, "routes");
    J *counts = member(rec, "counts"), *more = member(rec, "more_counts");
    J *owners = member(rec, "owners");
    size_t recorded = (size_t)num(member(rec, "recorded"));
    pks = must(calloc(packets->n + 1, sizeof *pks));
    live = must(calloc(packets->n + 1, sizeof *live));
    nby_name = 2 * packets->n + 1;
    by_name = must(malloc(nby_name * sizeof *by_name));
    for (size_t i = 0; i < nby_name; i++)
        by_name[i] = SIZE_MAX;
    for (size_t i = 0; i < packets->n; i++) {
        J *p = packets->items[i];
        Pk *pk = &pks[index_of(p->items[0])];
        pk->info = p;
        pk->known = true;
        pk->dst = p->items[2];
        pk->route = (Route){ (uint8_t)at(p, 6), (uint8_t)at(p, 7), (uint32_t)at(p, 8),
                             (uint32_t)at(p, 9) };
    }
    long long (*status)[2] = must(calloc(nprocs, sizeof *status));
    char **fault = must(calloc(nprocs, sizeof *fault));
    long long total[5] = { 0 }, more_total[5] = { 0 };
    /* Owners by place code: buffers b * 64 + channel * 8 + 2, ports n * 64 + 3. */
    size_t nplaces = (size_t)(2 * nc.planes * nc.k) * nprocs * 64 + (size_t)nprocs * nports * 64;
    long long *owner = must(malloc(nplaces * sizeof *owner));
    for (size_t i = 0; i < nplaces; i++)
        owner[i] = -1;
    size_t next_owner = 0, next_more = 0, nowned = 0;
    for (size_t t = 0; t <= recorded; t++) {
        J *mv = moves->items[t], *pr = procs->items[t], *ro = routes->items[t];
        for (size_t i = 0; i + 1 < mv->n; i += 2) {
            Pk *pk = &pks[index_of(mv->items[i])];
            long long code = at(mv, i + 1);
            pk->present = code >= 0;
            pk->code = (uint64_t)code;
            pk->order = (uint64_t)t * 100000000ull + i;
        }
        for (size_t i = 0; i + 2 < pr->n; i += 3) {
            uint32_t p = (uint32_t)at(pr, i);
            status[p][0] = at(pr, i + 1);
            if (pr->items[i + 2]->kind == J_STR)
                fault[p] = pr->items[i + 2]->str;
            else
                status[p][1] = at(pr, i + 2);
        }
        for (size_t i = 0; i + 5 < ro->n; i += 6) {
            Pk *pk = &pks[index_of(ro->items[i])];
            pk->route = (Route){ (uint8_t)at(ro, i + 1), (uint8_t)at(ro, i + 2),
                                 (uint32_t)at(ro, i + 3), (uint32_t)at(ro, i + 4) };
            pk->dst = ro->items[i + 5];
        }
        for (; next_owner + 2 < owners->n && (size_t)at(owners, next_owner) == t; next_owner += 3) {
            size_t code = (size_t)at(owners, next_owner + 1);
            if (code >= nplaces)
                fail("an owned place outside the network");
            nowned += (owner[code] < 0) - (at(owners, next_owner + 2) < 0);
            owner[code] = at(owners, next_owner + 2);
        }
        for (; next_more + 5 < more->n && (size_t)at(more, next_more) == t; next_more += 6)
            for (int i = 0; i < 5; i++)
                more_total[i] += at(more, next_more + 1 + (size_t)i);
        long long before = total[0] + total[1];
        for (int i = 0; i < 5; i++)
            total[i] += at(counts, 5 * t + (size_t)i);
        long long now = total[0] + total[1] - before;
        printf("=== state after timestep %zu: %lld %s in this timestep, %lld in all ===\n",
               t, now, plural((unsigned long long)now, "collision", "collisions"),
               total[0] + total[1]);
        nlive = 0;
        for (size_t i = 0; i < npks; i++)
            if (pks[i].present)
                live[nlive++] = i;
        print_processors(programmed, status, fault);
        if (programmed < nprocs)
            printf("  p%u..p%u idle (no program)\n", programmed, nprocs - 1);
        print_packets();
        print_owned(owner, nplaces, nowned);
    }
    printf("packets: %lld sent, %lld delivered\n", total[2], total[3]);
    if (more_total[0])
        printf("multicasts: %lld, making %lld copies\n", more_total[0], more_total[1]);
    if (more_total[2])
        printf("messages: %lld, flits: sent %lld, delivered %lld\n", more_total[2],
               total[2] + more_total[3], total[3] + more_total[4]);
    printf("link collisions: %lld\nbuffer collisions: %lld\ncollisions: %lld\n", total[0],
           total[1], total[0] + total[1]);
    /* What the program printed, and why the run ended, after a line each. */
    J *prints = member(rec, "prints");
    printf("printed:\n");
    for (size_t i = 0; i + 2 < prints->n; i += 3)
        printf("p%lld: %lld\n", at(prints, i + 1), at(prints, i + 2));
    printf("ending:\n%s", member(rec, "ending")->str);
    net_free(net);
    free(status);
    free(fault);
    free(pks);
    free(live);
    free(by_name);
    free(owner);
    j_free(rec);
    free(page);
    return 0;
}
