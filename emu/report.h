/* The final report of a run (spec/cli.md "Output", machine.md
 * "Statistics"): as text, closing with exactly "collisions: N" and
 * "timesteps: T", or as one JSON object with the keys of machine.md. */
#ifndef EMU_REPORT_H
#define EMU_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "emu/machine.h"

typedef struct ReportOptions {
    bool json;        /* --json */
    bool quiet;       /* -q: only the halt lines and the two closing lines */
    FILE *quiet_end;  /* -q: where a run that did not end normally says how
                         it ended and why (stderr); NULL: nowhere */
    const char *signal; /* the signal that stopped an interrupted run
                           ("SIGTERM"), or NULL */
    bool histogram;   /* --histogram: the latency histogram in the text */
    int exit_status;  /* the process's exit status, which the JSON gives, when it
                         is not the run's own (an output that failed, a signal);
                         0: the run's */
} ReportOptions;

void report_write(FILE *out, Machine *m, const ReportOptions *opt);

/* The statistics block alone (what `s` shows in --step, before the two
 * closing lines). */
void report_statistics(FILE *out, Machine *m, bool histogram);

/* Why the run ended as it did, as the text report says it after its "end:"
 * line: the halt statuses that are not 0, the faults, the deadlock's
 * diagnosis, or what each processor waited for when it was stopped. */
void report_ending(FILE *out, Machine *m);

/* The two lines every report ends with: "collisions: N", "timesteps: T". */
void report_closing_lines(FILE *out, Machine *m);

#endif
