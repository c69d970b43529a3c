/* The emulator's command line (spec/cli.md "bin/emu"): every option, its
 * range and default, parsed into one typed struct. */
#ifndef EMU_OPTIONS_H
#define EMU_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compiler/compiler.h"
#include "emu/machine.h"
#include "emu/report.h"

typedef struct EmuOptions {
    MachineConfig machine;
    ReportOptions report;
    bool routes;              /* --routes */
    bool step;                /* --step */
    bool disasm;              /* --disasm */
    bool help, version;
    uint64_t *states;         /* --state timesteps, sorted, without repeats */
    size_t nstates;
    const char *trace_path;   /* --trace FILE */
    const char *html_path;    /* --html FILE */
    const char *program;      /* the .x or .hex file */
    CompileDefine *defines;   /* -D NAME=VALUE, in order */
    size_t ndefines;
} EmuOptions;

/* Parses argv. Returns 0, or -1 with a one-line message (naming the option
 * and the accepted values) in err. Free with options_free. */
int options_parse(int argc, char **argv, EmuOptions *opt, char *err, size_t size);
void options_free(EmuOptions *opt);

/* Whether a program file is a source to compile (a name ending in .x), or
 * else a hex image. */
bool options_is_source(const char *path);

/* The --help text. */
extern const char emu_help_text[];

#endif
