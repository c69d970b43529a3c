/* bin/emu: runs a program on the machine (spec/cli.md).
 *
 *   emu [options] prog.x | prog.hex      run it and print the report
 *   emu --disasm prog.x | prog.hex       list each processor's code
 *
 * A .x file is compiled in memory; anything else is read as a hex image.
 * Errors before the run go to stderr with exit status 1; everything the run
 * prints goes to stdout, ending with the report. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/disasm.h"
#include "cpu/hex.h"
#include "emu/machine.h"
#include "emu/options.h"
#include "emu/report.h"

#define EMU_VERSION "emu 0.1"

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

typedef struct Run {
    FILE *out;
    EmuOptions *opt;
} Run;

static void show_print(void *ctx, uint64_t t, uint32_t proc, int32_t value)
{
    Run *run = ctx;
    (void)t;
    fprintf(run->out, "p%u: %d\n", proc, value);
}

static void show_route(void *ctx, uint64_t t, uint64_t id, const RouteRequest *req,
                       const Route *route)
{
    Run *run = ctx;
    char line[200];
    route_format(line, sizeof line, t, id, req, route,
                 run->opt->machine.routing == ROUTING_ADAPTIVE);
    fprintf(run->out, "%s\n", line);
}

/* Loads the program: a .x file is compiled in memory, anything else read as
 * a hex image. Returns 0 or -1 after printing the error. */
static int load_program(const EmuOptions *opt, HexImage *img)
{
    char err[1024];
    size_t len = strlen(opt->program);
    if (len > 2 && strcmp(opt->program + len - 2, ".x") == 0) {
        fprintf(stderr, "emu: %s: compiling .x programs is not available yet; "
                "compile it with bin/xc and run the .hex\n", opt->program);
        return -1;
    }
    if (hex_read_file(opt->program, opt->machine.mem_words, img, err, sizeof err) != 0) {
        fprintf(stderr, "emu: %s\n", err);
        return -1;
    }
    return 0;
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
        return 0;
    }
    if (load_program(&opt, &img) != 0) {
        options_free(&opt);
        return 1;
    }
    if (opt.disasm) {
        disasm_image(stdout, &img);
        hex_free(&img);
        options_free(&opt);
        return 0;
    }
    Run run = { stdout, &opt };
    MachineObserver obs = { &run, show_print, opt.routes ? show_route : NULL, NULL };
    if (machine_init(&m, &opt.machine, &img, &obs, err, sizeof err) != 0) {
        fprintf(stderr, "emu: %s\n", err);
        hex_free(&img);
        options_free(&opt);
        return 1;
    }
    hex_free(&img);
    signal(SIGINT, on_sigint);
    while (machine_step(&m) == END_RUNNING)
        if (interrupted)
            m.end = END_INTERRUPTED;
    report_write(stdout, &m, &opt.report);
    int status = machine_exit_status(m.end);
    machine_free(&m);
    options_free(&opt);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "emu: cannot write the output\n");
        return 1;
    }
    return status;
}
