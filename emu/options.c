/* Parsing the emulator's options (options.h). Each numeric option has one
 * row in a table with its range; every bad value gets the same one-line
 * message naming the option and what it accepts. "--opt value" and
 * "--opt=value" are both accepted. */
#include "emu/options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Parses a decimal number in [lo, hi]; 0 on success, -1 for what is no
 * number, -2 for one out of range (a negative one among them). */
static int parse_number(const char *s, uint64_t lo, uint64_t hi, uint64_t *out)
{
    uint64_t v = 0;
    if (s[0] == '-' && s[1] >= '0' && s[1] <= '9' && s[strspn(s + 1, "0123456789") + 1] == 0)
        return -2;
    if (!*s)
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        unsigned d = (unsigned)(*s - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -2;                      /* too large to represent: out of range */
        v = v * 10 + d;
    }
    if (v < lo || v > hi)
        return -2;
    *out = v;
    return 0;
}

typedef enum { OPT_PROCS, OPT_PLANES, OPT_BUFFER, OPT_PORTS, OPT_PORT_DEPTH, OPT_MEM,
               OPT_SEED, OPT_MAX_STEPS, OPT_THREADS, OPT_VCS } NumberOption;

static const struct { const char *name; uint64_t lo, hi; const char *accepted; } numbers[] = {
    [OPT_PROCS]      = { "--procs", 1, 1u << 24, "1 .. 16777216" },
    [OPT_PLANES]     = { "--planes", 1, 2, "1 or 2" },
    [OPT_BUFFER]     = { "--buffer", 1, 1024, "1 .. 1024" },
    [OPT_PORTS]      = { "--ports", 1, 256, "1 .. 256" },
    [OPT_PORT_DEPTH] = { "--port-depth", 1, 1024, "1 .. 1024" },
    [OPT_MEM]        = { "--mem", 256, 1u << 28, "256 .. 268435456" },
    [OPT_SEED]       = { "--seed", 0, UINT64_MAX, "0 .. 18446744073709551615" },
    [OPT_MAX_STEPS]  = { "--max-steps", 1, 1ull << 63, "1 .. 9223372036854775808" },
    [OPT_THREADS]    = { "--threads", 1, 256, "1 .. 256" },
    [OPT_VCS]        = { "--vcs", 1, NET_MAX_VCS, "1 .. 8" },
};

static int bad_value(char *err, size_t size, const char *opt, const char *value,
                     const char *why, const char *accepted)
{
    snprintf(err, size, "%s: '%s' %s (accepted: %s)", opt, value, why, accepted);
    return -1;
}

static int set_number(EmuOptions *o, NumberOption which, const char *value, char *err, size_t size)
{
    uint64_t v;
    int rc = parse_number(value, numbers[which].lo, numbers[which].hi, &v);
    if (rc != 0)
        return bad_value(err, size, numbers[which].name, value,
                         rc == -1 ? "is not a number" : "is out of range", numbers[which].accepted);
    MachineConfig *mc = &o->machine;
    switch (which) {
    case OPT_PROCS:      mc->procs = (uint32_t)v; break;
    case OPT_PLANES:     mc->planes = (unsigned)v; break;
    case OPT_BUFFER:     mc->buffer = (unsigned)v; break;
    case OPT_PORTS:      mc->ports = (unsigned)v; break;
    case OPT_PORT_DEPTH: mc->port_depth = (unsigned)v; break;
    case OPT_MEM:        mc->mem_words = (uint32_t)v; break;
    case OPT_SEED:       mc->seed = v; break;
    case OPT_MAX_STEPS:  mc->max_steps = v; break;
    case OPT_THREADS:    mc->threads = (unsigned)v; break;
    case OPT_VCS:        mc->vcs = (unsigned)v; break;
    }
    return 0;
}

/* --max-mem SIZE: bytes, or a number with K, M, G or T (binary). */
static const char max_mem_accepted[] = "a number of bytes, or of K, M, G or T (binary), from 1M";

static int set_max_mem(EmuOptions *o, const char *value, char *err, size_t size)
{
    const char *accepted = max_mem_accepted;
    char digits[32];
    size_t len = strlen(value), shift = 0;
    const char *units = "KMGT", *unit = len ? strchr(units, value[len - 1]) : NULL;
    if (unit && value[len - 1]) {
        shift = 10 * (size_t)(unit - units + 1);
        len--;
    }
    uint64_t v;
    if (len == 0 || len >= sizeof digits)
        return bad_value(err, size, "--max-mem", value, "is not a size", accepted);
    memcpy(digits, value, len);
    digits[len] = 0;
    int rc = parse_number(digits, 1, UINT64_MAX >> shift, &v);
    if (rc == 0 && (v << shift) < (1u << 20))
        rc = -2;
    if (rc != 0)
        return bad_value(err, size, "--max-mem", value,
                         rc == -1 ? "is not a size" : "is out of range", accepted);
    o->machine.max_bytes = v << shift;
    return 0;
}

/* The host's memory, the default of --max-mem; 0 when it cannot be told. */
static uint64_t host_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* --state T[,T...]: kept sorted and without repeats. */
static int set_states(EmuOptions *o, const char *value, char *err, size_t size)
{
    const char *accepted = "timesteps 0 .. 18446744073709551615, separated by commas";
    const char *s = value;
    for (;;) {
        char tok[24];
        size_t len = strcspn(s, ",");
        uint64_t v;
        if (len == 0 || len >= sizeof tok)
            return bad_value(err, size, "--state", value, "is not a list of timesteps", accepted);
        memcpy(tok, s, len);
        tok[len] = 0;
        if (parse_number(tok, 0, UINT64_MAX, &v) != 0)
            return bad_value(err, size, "--state", value, "is not a list of timesteps", accepted);
        uint64_t *ts = realloc(o->states, (o->nstates + 1) * sizeof *ts);
        if (!ts)
            return bad_value(err, size, "--state", value, "cannot be stored", accepted);
        o->states = ts;
        ts[o->nstates++] = v;
        if (s[len] == 0)
            break;
        s += len + 1;
    }
    qsort(o->states, o->nstates, sizeof *o->states, compare_u64);
    size_t kept = 0;
    for (size_t i = 0; i < o->nstates; i++)
        if (kept == 0 || o->states[i] != o->states[kept - 1])
            o->states[kept++] = o->states[i];
    o->nstates = kept;
    return 0;
}

int options_parse(int argc, char **argv, EmuOptions *o, char *err, size_t size)
{
    *o = (EmuOptions){ .machine = MACHINE_CONFIG_DEFAULT };
    o->machine.max_bytes = host_memory();
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        char name[32];
        const char *value = NULL;
        if (arg[0] != '-' || strcmp(arg, "-") == 0) {
            if (o->program) {
                snprintf(err, size, "more than one program given ('%s' and '%s')",
                         o->program, arg);
                return -1;
            }
            o->program = arg;
            continue;
        }
        /* -D NAME=VALUE or -DNAME=VALUE, as a C compiler takes it */
        if (strncmp(arg, "-D", 2) == 0) {
            const char *def = arg[2] ? arg + 2 : i + 1 < argc ? argv[++i] : NULL;
            if (!def) {
                snprintf(err, size, "-D needs a value (accepted: NAME=VALUE, an integer for "
                         "a global val of the .x program)");
                return -1;
            }
            CompileDefine *defs = realloc(o->defines, (o->ndefines + 1) * sizeof *defs);
            if (!defs) {
                snprintf(err, size, "-D %s: out of memory", def);
                return -1;
            }
            o->defines = defs;
            if (compile_define_parse(def, &o->defines[o->ndefines++], err, size) != 0)
                return -1;
            continue;
        }
        /* Split "--opt=value". */
        const char *eq = strchr(arg, '=');
        size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
        if (len >= sizeof name)
            len = sizeof name - 1;
        memcpy(name, arg, len);
        name[len] = 0;
        if (eq)
            value = eq + 1;

        /* Flags. */
        static const char *const flags[] = { "--routes", "--step", "--json", "--histogram",
            "-q", "--help", "-h", "--version", "--disasm", "--check" };
        bool is_flag = false;
        for (size_t f = 0; f < sizeof flags / sizeof flags[0]; f++)
            is_flag |= strcmp(name, flags[f]) == 0;
        if (is_flag) {
            if (value) {
                snprintf(err, size, "%s takes no value (got '%s')", name, value);
                return -1;
            }
            if (!strcmp(name, "--routes")) o->routes = true;
            else if (!strcmp(name, "--step")) o->step = true;
            else if (!strcmp(name, "--json")) o->report.json = true;
            else if (!strcmp(name, "--histogram")) o->report.histogram = true;
            else if (!strcmp(name, "-q")) o->report.quiet = true;
            else if (!strcmp(name, "--version")) o->version = true;
            else if (!strcmp(name, "--disasm")) o->disasm = true;
            else if (!strcmp(name, "--check")) o->machine.check_invariants = true;
            else o->help = true;
            continue;
        }

        /* Options with a value. */
        int which = -1;
        for (size_t n = 0; n < sizeof numbers / sizeof numbers[0]; n++)
            if (strcmp(name, numbers[n].name) == 0)
                which = (int)n;
        const char *accepted = which >= 0 ? numbers[which].accepted
                             : !strcmp(name, "--routing") ? "benes, benes-full, greedy, valiant, random, dmodk, adaptive"
                             : !strcmp(name, "--duplex") ? "half, full"
                             : !strcmp(name, "--switching") ? "wormhole, cut-through, store-forward"
                             : !strcmp(name, "--state") ? "timesteps 0 .. 18446744073709551615, separated by commas"
                             : !strcmp(name, "--max-mem") ? max_mem_accepted
                             : !strcmp(name, "--trace") ? "a file name"
                             : !strcmp(name, "--html") ? "a file name" : NULL;
        if (!accepted) {
            snprintf(err, size, "unknown option '%s' (see emu --help)", arg);
            return -1;
        }
        if (!value) {
            if (i + 1 >= argc) {
                snprintf(err, size, "%s needs a value (accepted: %s)", name, accepted);
                return -1;
            }
            value = argv[++i];
        }
        if (which >= 0) {
            if (set_number(o, (NumberOption)which, value, err, size) != 0)
                return -1;
        } else if (!strcmp(name, "--routing")) {
            if (routing_parse(value, &o->machine.routing) != 0)
                return bad_value(err, size, name, value, "is not a routing", accepted);
        } else if (!strcmp(name, "--switching")) {
            if (switching_parse(value, &o->machine.switching) != 0)
                return bad_value(err, size, name, value, "is not a switching", accepted);
        } else if (!strcmp(name, "--duplex")) {
            if (strcmp(value, "half") && strcmp(value, "full"))
                return bad_value(err, size, name, value, "is not a link model", accepted);
            o->machine.full_duplex = !strcmp(value, "full");
        } else if (!strcmp(name, "--state")) {
            if (set_states(o, value, err, size) != 0)
                return -1;
        } else if (!strcmp(name, "--max-mem")) {
            if (set_max_mem(o, value, err, size) != 0)
                return -1;
        } else {
            if (!*value)
                return bad_value(err, size, name, value, "is empty", accepted);
            if (!strcmp(name, "--html"))
                o->html_path = value;
            else
                o->trace_path = value;
        }
    }
    if (!o->program && !o->help && !o->version) {
        snprintf(err, size, "no program given (usage: emu [options] prog.x | prog.hex; "
                 "see emu --help)");
        return -1;
    }
    if (o->ndefines && o->program && !options_is_source(o->program)) {
        snprintf(err, size, "-D %s: %s is not a .x program but an image, compiled already "
                 "(give the -D to the .x, or to xc)", o->defines[0].arg, o->program);
        return -1;
    }
    return 0;
}

void options_free(EmuOptions *opt)
{
    free(opt->states);
    opt->states = NULL;
    free(opt->defines);
    opt->defines = NULL;
}

bool options_is_source(const char *path)
{
    size_t len = strlen(path);
    return len > 2 && strcmp(path + len - 2, ".x") == 0;
}
