/* bin/emu: runs a program on the machine (spec/cli.md).
 *
 *   emu [options] prog.x | prog.hex      run it and print the report
 *   emu --disasm prog.x | prog.hex       list each processor's code
 *
 * A .x file is compiled in memory; anything else is read as a hex image.
 * Errors before the run go to stderr with exit status 1; everything the run
 * prints goes to stdout, ending with the report. --step talks to the user on
 * stderr (prompt and help) and reads commands from stdin. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "compiler/compiler.h"
#include "common/outfile.h"
#include "common/plural.h"
#include "cpu/disasm.h"
#include "cpu/hex.h"
#include "cpu/lines.h"
#include "emu/html.h"
#include "emu/machine.h"
#include "emu/options.h"
#include "emu/report.h"
#include "emu/state.h"
#include "emu/trace.h"

#define EMU_VERSION "emu 0.1"

/* The signal that stopped the run (SIGINT, SIGTERM, SIGHUP, SIGQUIT), or
 * 0: each ends it as Ctrl-C does, at the end of the timestep, with the
 * report and complete files, and the exit status 128 + the signal. */
static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    interrupted = sig;
}

static const int stopping_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

/* The collisions of the last timestep, for --step to name under its
 * state: the first STEP_COLLISIONS_SHOWN, and how many there were. */
enum { STEP_COLLISIONS_SHOWN = 3 };
typedef struct StepCollisions {
    uint64_t t;               /* the timestep they are of */
    unsigned n;
    char line[STEP_COLLISIONS_SHOWN][400];
} StepCollisions;

typedef struct RunView {
    FILE *out;
    FILE *trace;
    HtmlRecorder *html;       /* --html */
    EmuOptions *opt;
    Machine *m;
    StepCollisions collisions;   /* --step */
    StateColumns columns;        /* --state, --step: their widths, which only grow */
} RunView;

/* ---- what the run shows as it goes ---------------------------------------- */

static void show_print(void *ctx, uint64_t t, uint32_t proc, int32_t value)
{
    RunView *run = ctx;
    fprintf(run->out, "p%u: %d\n", proc, value);
    if (run->html)
        html_print(run->html, t, proc, value);
}

static void show_route(void *ctx, uint64_t t, uint64_t id, const RouteRequest *req,
                       const Route *route)
{
    RunView *run = ctx;
    char line[200];
    route_format(line, sizeof line, id, req, route,
                 run->opt->machine.routing == ROUTING_ADAPTIVE);
    fprintf(run->out, "t=%llu %s\n", (unsigned long long)t, line);
}

/* A collision, kept for --step: which packet, what kind, where. */
static void keep_collision(StepCollisions *sc, const Net *net, const NetEvent *ev)
{
    if (ev->kind != EV_LINK_COLLISION && ev->kind != EV_BUFFER_FULL &&
        ev->kind != EV_BUFFER_OWNED && ev->kind != EV_QUEUED)
        return;
    if (sc->t != ev->timestep) {
        sc->t = ev->timestep;
        sc->n = 0;
    }
    if (sc->n < STEP_COLLISIONS_SHOWN) {
        const NetPacket *pk = ev->packet;
        char name[48], dst[160], place[96], owner[48] = "";
        net_packet_name(pk, name, sizeof name);
        dest_name(dst, sizeof dst, pk->multicast ? &pk->set : NULL, pk->dst);
        net_event_place(net, ev, place, sizeof place);
        if (ev->kind == EV_BUFFER_OWNED)
            snprintf(owner, sizeof owner, ", owned by message #%llu",
                     (unsigned long long)ev->owner);
        snprintf(sc->line[sc->n], sizeof sc->line[0], "%s collision: %s p%u->%s %s %s%s%s",
                 ev->kind == EV_LINK_COLLISION ? "link" : "buffer", name, pk->src, dst,
                 ev->kind == EV_LINK_COLLISION ? "claimed" : ev->kind == EV_QUEUED ? "queued in"
                                                           : "refused by", place, owner,
                 ev->kind == EV_BUFFER_FULL ? ", without room" : "");
    }
    sc->n++;
}

static void show_event(void *ctx, const NetEvent *ev)
{
    RunView *run = ctx;
    if (run->opt->step)
        keep_collision(&run->collisions, run->m->net, ev);
    if (run->trace)
        trace_write(run->trace, run->m->net, ev);
    if (run->html)
        html_event(run->html, ev);
    if (ev->kind == EV_ADAPTIVE_CHOICE && run->opt->routes)
        fprintf(run->out, "t=%llu route #%llu p%u->p%u layer %u up port %u\n",
                (unsigned long long)ev->timestep, (unsigned long long)ev->packet->id,
                ev->packet->src, ev->packet->dst, ev->layer, ev->value);
}

/* ---- loading ------------------------------------------------------------------ */

/* Loads the program: a .x file is compiled in memory, anything else read as
 * a hex image. Returns 0 or -1 after printing the error. */
static int load_program(const EmuOptions *opt, HexImage *img)
{
    char err[1024];
    if (options_is_source(opt->program)) {
        /* Compiled in memory with this run's --mem and -D: no file is written. */
        return compile_file_with(opt->program, opt->machine.mem_words, opt->defines,
                                 opt->ndefines, img, stderr, "emu") == 0 ? 0 : -1;
    }
    if (hex_read_file(opt->program, opt->machine.mem_words, img, err, sizeof err) != 0) {
        fprintf(stderr, "emu: %s\n", err);
        size_t n = strlen(opt->program);
        if (access(opt->program, R_OK) == 0 && (n < 4 || strcmp(opt->program + n - 4, ".hex")))
            fprintf(stderr, "emu: note: '%s' does not end in .x, so it was read as a hex "
                    "image (only a .x file is compiled)\n", opt->program);
        return -1;
    }
    return 0;
}

/* ---- output files ------------------------------------------------------------- */

/* Whether an output path names the program file itself (the same file, by
 * device and inode, however it is spelled), so that writing it would destroy
 * the student's source: say so and return 1. A path that does not exist yet
 * names no input. */
static int output_is_program(const char *option, const char *path, const char *program)
{
    if (!outfile_is_file(path, program))
        return 0;
    if (strcmp(path, program) == 0)
        fprintf(stderr, "emu: %s: '%s' is the program itself: writing there would "
                "destroy it (name another file)\n", option, path);
    else
        fprintf(stderr, "emu: %s: '%s' is the program '%s' itself: writing there would "
                "destroy it (name another file)\n", option, path, program);
    return 1;
}

/* Whether the outputs asked for would destroy an input or each other; says
 * which and returns 1. */
static int outputs_clash(const EmuOptions *opt)
{
    if ((opt->trace_path && output_is_program("--trace", opt->trace_path, opt->program)) ||
        (opt->html_path && output_is_program("--html", opt->html_path, opt->program)))
        return 1;
    if (opt->trace_path && opt->html_path && outfile_same(opt->trace_path, opt->html_path)) {
        fprintf(stderr, "emu: --trace '%s' and --html '%s' are the same file: one would "
                "overwrite the other (name two files)\n", opt->trace_path, opt->html_path);
        return 1;
    }
    return 0;
}

/* Opens an output file for the run; 0, or -1 after a message naming it. */
static int open_output(OutFile *f, const char *option, const char *path)
{
    char err[1024];
    if (outfile_open(f, path, err, sizeof err) == 0)
        return 0;
    fprintf(stderr, "emu: %s: %s\n", option, err);
    return -1;
}

/* Finishes an output file; 0, or -1 after a message naming it. */
static int close_output(OutFile *f, const char *option)
{
    char err[1024];
    if (outfile_commit(f, err, sizeof err) == 0)
        return 0;
    fprintf(stderr, "emu: %s: %s\n", option, err);
    return -1;
}

/* Whether what was written to stdout got there: 0, or -1 after a message. */
static int stdout_written(void)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return 0;
    fprintf(stderr, "emu: cannot write the output (standard output): %s\n",
            errno ? strerror(errno) : "write error");
    return -1;
}

/* ---- the progress line -------------------------------------------------------- */

typedef struct Progress {
    int enabled;          /* stderr is a terminal and not --step */
    double start, last;   /* seconds */
    int shown;
} Progress;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void progress_tick(Progress *p, const Machine *m)
{
    if (!p->enabled || (m->t & 1023) != 0)
        return;
    double t = now();
    if (t - p->start < 1.0 || t - p->last < 0.25)
        return;
    p->last = t;
    p->shown = 1;
    uint64_t in_flight = net_in_flight(m->net);
    fprintf(stderr, "\rtimestep %llu  %.0f timesteps/s  %llu %s in flight ",
            (unsigned long long)m->t, (double)m->t / (t - p->start),
            (unsigned long long)in_flight, plural(in_flight, "packet", "packets"));
}

static void progress_clear(Progress *p)
{
    if (p->shown)
        fprintf(stderr, "\r\033[K");
}

/* ---- stepping ------------------------------------------------------------------ */

/* f is at most FULL_STATE_COLUMNS wide (spec/cli.md), and on a terminal
 * narrower than that takes its width (down to SCREEN_COLUMNS_MIN); it pages
 * by the terminal's height, or by FULL_STATE_LINES when the terminal does
 * not say. */
enum { FULL_STATE_COLUMNS = 100, FULL_STATE_LINES = 40, SCREEN_COLUMNS_MIN = 40 };

/* The terminal's size, when --step talks to one both ways (so that what
 * it shows is seen there): true, and *columns and *lines; else false, and
 * a pipe or a file gets the same lines on every run. */
static bool terminal_size(FILE *out, unsigned *columns, unsigned *lines)
{
    struct winsize ws;
    if (!isatty(fileno(out)) || !isatty(STDIN_FILENO) ||
        ioctl(fileno(out), TIOCGWINSZ, &ws) != 0 || ws.ws_row <= 1 || ws.ws_col == 0)
        return false;
    *columns = ws.ws_col > SCREEN_COLUMNS_MIN ? ws.ws_col : SCREEN_COLUMNS_MIN;
    *lines = ws.ws_row;
    return true;
}

/* The compact state, fitted to the terminal when it is narrower than
 * STATE_COMPACT_WIDTH or taller than STATE_SCREEN_LINES; then the
 * timestep's collisions, named (the lines they take are the packets'). */
static void show_compact_state(FILE *out, Machine *m, const StepCollisions *sc,
                               StateColumns *cols)
{
    unsigned columns = STATE_COMPACT_WIDTH, lines = STATE_SCREEN_LINES, tc, tl;
    if (terminal_size(out, &tc, &tl)) {
        columns = tc < columns ? tc : columns;
        lines = tl > lines ? tl : lines;
    }
    unsigned n = m->t > 0 && sc->t == m->t ? sc->n : 0;
    unsigned shown = n < STEP_COLLISIONS_SHOWN ? n : STEP_COLLISIONS_SHOWN;
    state_print_compact(out, m, columns, lines - shown - (n > shown), cols);
    for (unsigned i = 0; i < shown; i++)
        fprintf(out, "%.*s\n", (int)columns, sc->line[i]);
    if (n > shown)
        fprintf(out, "... and %u more collisions (--trace lists them)\n", n - shown);
}

/* Writes to the user on stderr (--step's prompts, the help, what it did
 * not understand), after what is waiting for stdout: through a pipe stdout
 * goes a buffer at a time, and `emu --step prog.x 2>&1 | tee log` would
 * show a prompt before the state it asks about. */
static void tell(FILE *out, const char *fmt, ...)
{
    fflush(out);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fflush(stderr);
}

/* Asks, as more(1) does, whether to show the next screen: Enter shows it,
 * q does not; end of input shows all the rest (*all). The prompt is erased
 * from a terminal. */
static bool more(FILE *out, bool *all)
{
    char line[128];
    bool erase = isatty(STDERR_FILENO);
    tell(out, "--More--");
    if (!interrupted && fgets(line, sizeof line, stdin)) {
        tell(out, "%s", erase ? "\033[1A\r\033[K" : "");  /* (the line Enter ended) */
        return line[0] != 'q';
    }
    tell(out, "%s", erase ? "\r\033[K" : "\n");
    *all = !interrupted;
    return *all;
}

/* Writes text, a screen of `lines` lines at a time. */
static void page(FILE *out, const char *text, size_t len, unsigned lines)
{
    unsigned shown = 0;
    bool all = false;
    for (size_t at = 0; at < len;) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t n = nl ? (size_t)(nl - (text + at)) + 1 : len - at;
        if (shown == lines && !all) {
            if (!more(out, &all))
                return;
            shown = 0;
        }
        fwrite(text + at, 1, n, out);
        shown++;
        at += n;
    }
}

/* f: the full state, at most FULL_STATE_COLUMNS wide. On a terminal (both
 * ways, so that the answers to --More-- are the user's) it fits the
 * terminal's width and shows a screen at a time; to a pipe or a file it is
 * written whole, the same every run. */
static void show_full_state(FILE *out, Machine *m, StateColumns *cols)
{
    unsigned columns = FULL_STATE_COLUMNS, lines = FULL_STATE_LINES, tc, tl;
    if (!isatty(fileno(out)) || !isatty(STDIN_FILENO)) {
        state_print_fitted(out, m, columns, cols);
        return;
    }
    if (terminal_size(out, &tc, &tl)) {
        lines = tl;
        columns = tc < columns ? tc : columns;
    }
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem) {
        state_print_fitted(out, m, columns, cols);
        return;
    }
    state_print_fitted(mem, m, columns, cols);
    if (fclose(mem) == 0)
        page(out, text, len, lines - 1);        /* (and the line of --More--) */
    free(text);
}

/* Asks what to do next; returns the timesteps to run before asking again
 * (UINT64_MAX: to the end), or 0 after setting the machine's end (q, or
 * Ctrl-C at the prompt, which ends the run here rather than a timestep on). */
static uint64_t ask(Machine *m, FILE *out, StateColumns *cols)
{
    char line[128];
    for (;;) {
        tell(out, "step t=%llu> ", (unsigned long long)m->t);
        if (interrupted || !fgets(line, sizeof line, stdin)) {
            /* The report starts on a line of its own, after Ctrl-D too. */
            if (interrupted || isatty(STDIN_FILENO))
                tell(out, "\n");
            if (!interrupted)
                return UINT64_MAX;          /* end of input: as c */
            m->end = END_INTERRUPTED;
            return 0;
        }
        /* (without the spaces around it) */
        line[strcspn(line, "\r\n")] = 0;
        for (size_t n = strlen(line); n > 0 && (line[n - 1] == ' ' || line[n - 1] == '\t'); n--)
            line[n - 1] = 0;
        char *cmd = line + strspn(line, " \t");
        char *end;
        errno = 0;
        unsigned long long n = strtoull(cmd, &end, 10);
        if (cmd[0] == 0)
            return 1;
        if (cmd[0] >= '0' && cmd[0] <= '9' && *end == 0 && errno == 0 && n > 0)
            return n;
        if (!strcmp(cmd, "c"))
            return UINT64_MAX;
        if (!strcmp(cmd, "q")) {
            m->end = END_LIMIT;
            return 0;
        }
        if (!strcmp(cmd, "s")) {
            report_statistics(out, m, false);
            report_closing_lines(out, m);
            continue;
        }
        if (!strcmp(cmd, "f")) {
            show_full_state(out, m, cols);
            continue;
        }
        if (cmd[0] >= '0' && cmd[0] <= '9' && *end == 0)
            tell(out, "'%s': a number of timesteps is from 1 to %llu\n", cmd,
                 (unsigned long long)ULLONG_MAX);
        else
            tell(out, "'%.40s' is not a command\n", cmd);
        tell(out, "commands: Enter = next timestep, n = run n timesteps, c = to the end,\n"
                  "          s = statistics so far, f = full state, q = quit\n");
    }
}

/* ---- the run ------------------------------------------------------------------- */

/* Whether --state asks for timestep t; also tells the machine the next
 * timestep asked for, which no processor may run ahead past. */
static int wants_state(Machine *m, const EmuOptions *opt, uint64_t t, size_t *next)
{
    while (*next < opt->nstates && opt->states[*next] < t)
        (*next)++;
    int wanted = *next < opt->nstates && opt->states[*next] == t;
    size_t after = *next + wanted;
    m->sync_at = after < opt->nstates ? opt->states[after] : 0;
    return wanted;
}

static void run_machine(Machine *m, EmuOptions *opt, RunView *view, FILE *out)
{
    HtmlRecorder *html = view->html;
    size_t next_state = 0;
    uint64_t before_prompt = 0;      /* timesteps left before --step asks */
    Progress progress = { isatty(STDERR_FILENO) && !opt->step, now(), 0, 0 };
    /* --state's timesteps get the full state; --step's stops get the compact
     * one, unless the full one was just printed. */
    bool full = wants_state(m, opt, 0, &next_state);
    if (html)
        html_timestep(html, m);
    if (full)
        state_print(out, m, &view->columns);
    if (opt->step) {
        if (!full)
            show_compact_state(out, m, &view->collisions, &view->columns);
        before_prompt = ask(m, out, &view->columns);
    }
    while (m->end == END_RUNNING) {
        machine_step(m);
        if (interrupted && m->end == END_RUNNING)
            m->end = END_INTERRUPTED;
        progress_tick(&progress, m);
        if (html)
            html_timestep(html, m);
        full = wants_state(m, opt, m->t, &next_state);
        if (full)
            state_print(out, m, &view->columns);
        /* A stretch of n timesteps stops at its end, or at the run's if
         * that comes first, and shows where it stopped. */
        bool stepping = opt->step && before_prompt != UINT64_MAX;
        if (stepping && (--before_prompt == 0 || m->end != END_RUNNING)) {
            if (!full)
                show_compact_state(out, m, &view->collisions, &view->columns);
            if (m->end == END_RUNNING)
                before_prompt = ask(m, out, &view->columns);
        }
    }
    progress_clear(&progress);
}

/* Says which of --state's timesteps the run never reached, which would
 * otherwise pass without a word. */
static void warn_states_not_reached(const EmuOptions *opt, const Machine *m)
{
    size_t first = 0;
    while (first < opt->nstates && opt->states[first] <= m->t)
        first++;
    if (first == opt->nstates)
        return;
    fprintf(stderr, "emu: --state ");
    for (size_t i = first; i < opt->nstates; i++)
        fprintf(stderr, "%s%llu", i > first ? "," : "", (unsigned long long)opt->states[i]);
    fprintf(stderr, ": the run ended at timestep %llu\n", (unsigned long long)m->t);
}

/* An image compiled for more memory than the run has puts its stack and
 * globals beyond the end, and faults at an address that names neither
 * --mem: when its header says what it was compiled for, say both. */
static void hint_built_mem(const Machine *m, uint32_t built_mem)
{
    if (m->end != END_FAULT || built_mem <= m->cfg.mem_words)
        return;
    fprintf(stderr, "emu: note: the image was compiled for --mem %u (its header says so), "
            "but this run has --mem %u: its stack and globals lie beyond memory; run it "
            "with --mem %u, or compile it again with xc --mem %u\n", built_mem,
            m->cfg.mem_words, built_mem, m->cfg.mem_words);
}

/* The name of the signal that stopped the run, or NULL. */
static const char *signal_name(void)
{
    return interrupted == SIGINT ? "Ctrl-C (SIGINT)" : interrupted == SIGTERM ? "SIGTERM"
         : interrupted == SIGHUP ? "SIGHUP" : interrupted == SIGQUIT ? "SIGQUIT" : NULL;
}

/* Says, after the report, which signal other than Ctrl-C stopped the run
 * (which -q's lines on stderr have said already). */
static void note_signal(const Machine *m, const ReportOptions *report)
{
    if (m->end == END_INTERRUPTED && interrupted && interrupted != SIGINT &&
        !(report->quiet && !report->json))
        fprintf(stderr, "emu: stopped by %s at timestep %llu\n", signal_name(),
                (unsigned long long)m->t);
}

/* The exit status of the run: the machine's, but 128 + the signal for a
 * run that a signal other than SIGINT stopped. */
static int run_status(const Machine *m)
{
    if (m->end == END_INTERRUPTED && interrupted && interrupted != SIGINT)
        return 128 + interrupted;
    return machine_exit_status(m->end);
}

/* Runs the loaded machine with its outputs; returns the exit status. */
static int run(RunView *view, uint32_t built_mem)
{
    Machine *m = view->m;
    EmuOptions *opt = view->opt;
    OutFile trace = { 0 }, page = { 0 };
    char err[1024];
    /* The page is refused (too many processors) before any file is
     * opened; the files are written beside their names and put in place
     * only when complete, so a refused or failed run leaves existing
     * files as they were. */
    if (opt->html_path && !(view->html = html_new(m, opt->program, err, sizeof err))) {
        fprintf(stderr, "emu: %s\n", err);
        return 1;
    }
    struct sigaction sa = { 0 };
    sa.sa_handler = on_signal;          /* no SA_RESTART: a blocked read returns */
    for (size_t i = 0; i < sizeof stopping_signals / sizeof *stopping_signals; i++)
        sigaction(stopping_signals[i], &sa, NULL);
    if ((opt->trace_path && open_output(&trace, "--trace", opt->trace_path) != 0) ||
        (opt->html_path && open_output(&page, "--html", opt->html_path) != 0)) {
        outfile_abort(&trace);
        html_free(view->html);
        return 1;
    }
    view->trace = trace.f;
    if (view->trace)
        fputs(trace_header, view->trace);

    run_machine(m, opt, view, stdout);
    fflush(stdout);         /* (the run's output before any message about the files) */
    int status = run_status(m);
    /* The files are finished before the report, so that its exit status
     * is the process's. */
    int failed = opt->trace_path && close_output(&trace, "--trace") != 0;
    if (view->html) {
        if (html_write(view->html, m, page.f) != 0) {
            fprintf(stderr, "emu: --html: cannot write '%s': %s\n", opt->html_path,
                    strerror(errno));
            outfile_abort(&page);
            failed = 1;
        } else {
            failed |= close_output(&page, "--html") != 0;
        }
        html_free(view->html);
    }
    if (failed)
        status = 1;
    opt->report.exit_status = status;
    opt->report.signal = m->end == END_INTERRUPTED ? signal_name() : NULL;
    opt->report.quiet_end = stderr;
    if (opt->report.json)
        fflush(stdout);
    report_write(stdout, m, &opt->report);
    if (stdout_written() != 0)          /* (and the notes on stderr follow the report) */
        status = 1;
    warn_states_not_reached(opt, m);
    hint_built_mem(m, built_mem);
    note_signal(m, &opt->report);
    return status;
}

int main(int argc, char **argv)
{
    EmuOptions opt;
    char err[1024];
    HexImage img;
    Machine m;
    if (options_parse(argc, argv, &opt, err, sizeof err) != 0) {
        fprintf(stderr, "emu: %s\n", err);
        options_free(&opt);
        return 1;
    }
    if (opt.help || opt.version) {
        fputs(opt.help ? emu_help_text : EMU_VERSION "\n", stdout);
        options_free(&opt);
        return stdout_written() == 0 ? 0 : 1;
    }
    if (outputs_clash(&opt) || load_program(&opt, &img) != 0) {
        options_free(&opt);
        return 1;
    }
    if (opt.disasm) {
        disasm_image(stdout, &img);
        hex_free(&img);
        options_free(&opt);
        return stdout_written() == 0 ? 0 : 1;
    }
    /* Every stepped or recorded state is exact. */
    opt.machine.run_ahead = !opt.step && !opt.html_path;
    RunView view = { .out = stdout, .opt = &opt, .m = &m };
    MachineObserver obs = { &view, show_print, opt.routes ? show_route : NULL,
                            opt.trace_path || opt.html_path || opt.step
                            || (opt.routes && opt.machine.routing == ROUTING_ADAPTIVE)
                            ? show_event : NULL };
    if (machine_init(&m, &opt.machine, &img, &obs, err, sizeof err) != 0) {
        fprintf(stderr, "emu: %s\n", err);
        hex_free(&img);
        options_free(&opt);
        return 1;
    }
    uint32_t built_mem = img.built_mem;
    LineTable *lines = img.lines;       /* kept for the run's reports */
    img.lines = NULL;
    m.lines = lines;
    hex_free(&img);
    int status = run(&view, built_mem);
    machine_free(&m);
    lines_free(lines);
    options_free(&opt);
    return status;
}
