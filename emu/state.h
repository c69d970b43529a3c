/* The machine state view of --state and --step (spec/cli.md "State"),
 * for teaching: every processor's status and registers, every packet in
 * the network and where it is, the timestep's collisions, and -- for up to
 * 16 processors -- a text drawing of the folded network layer by layer.
 * --step shows a compact form that fits a terminal, and the full one on f. */
#ifndef EMU_STATE_H
#define EMU_STATE_H

#include <stdbool.h>
#include <stdio.h>

#include "emu/machine.h"

enum { STATE_DRAW_MAX_PROCS = 16 };

/* The compact state fits a terminal of STATE_SCREEN_LINES lines, with the
 * prompt answered above it and the next below, when the processors leave
 * room for STATE_MIN_PACKET_LINES; every line of it fits
 * STATE_COMPACT_WIDTH columns, a longer one going on in lines indented by
 * STATE_COMPACT_INDENT. A processor's line names at most
 * STATE_PORT_PACKETS_SHOWN of the packets in its input ports. */
enum { STATE_SCREEN_LINES = 24, STATE_MIN_PACKET_LINES = 4, STATE_COMPACT_WIDTH = 80,
       STATE_COMPACT_INDENT = 5, STATE_PORT_PACKETS_SHOWN = 24 };

/* The longest lines of state_print_fitted go on in lines indented so. */
enum { STATE_FULL_INDENT = 6 };

/* The widths of the columns of the states printed in one run (the
 * registers, the instruction, the source line, a processor's output slot,
 * a packet's name, route and data, the drawing's cells): each is what the
 * run's states have needed so far, and never less than the run can be
 * told to need from the start (the stack pointer's room for --mem, the
 * line number's for the source), so that from one state to the next the
 * columns stay where they were and only ever move right. Zero it before
 * the first state; the state functions set and widen it. NULL: the widths
 * of this state alone. */
typedef struct StateColumns {
    bool ready;
    unsigned id, proc;                              /* the run's: compact, full */
    unsigned status, insn, reg, sp, line, slot;     /* compact: reg is areg's and breg's */
    unsigned name, route, port, data;
    unsigned full_status, full_insn, full_source, full_reg, full_sp, full_slot;   /* full */
    unsigned full_name, full_route, full_port, full_data, full_routing;
    size_t cell;                                    /* the drawing */
} StateColumns;

/* The full state: what --state prints. */
void state_print(FILE *out, Machine *m, StateColumns *cols);

/* The full state for a screen `width` columns wide (f in --step): what
 * state_print prints, with the drawing in bands of as many switches as fit
 * side by side, and every longer line broken onto indented continuation
 * lines. */
void state_print_fitted(FILE *out, Machine *m, unsigned width, StateColumns *cols);

/* The compact state that --step shows after each stop: a heading, one line
 * per processor (status, instruction, registers, slot and ports) and one per
 * packet in the network, no drawing; the packets cut short to fit the
 * screen, with a line saying how many more there are. The screen is
 * `columns` wide (at most STATE_COMPACT_WIDTH) and `lines` high (at least
 * STATE_SCREEN_LINES counts): a terminal's, or 80 by 24. */
void state_print_compact(FILE *out, Machine *m, unsigned columns, unsigned lines,
                         StateColumns *cols);

/* The buffers and input ports that messages own (messages.md), on one
 * line, or nothing when none is owned: "owned: buffer p0.l1.s1.u0 by #5,
 * input port 0 of p3 by #7". A place owned may be empty: the head of its
 * message has gone on and its next flit not yet come, and no other head
 * enters. --state prints it, and the report of a run that did not end. */
void state_print_owned(FILE *out, Machine *m);

/* The drawing alone (any machine up to STATE_DRAW_MAX_PROCS processors),
 * in bands of switches at most max_width columns wide (0: all side by side). */
void state_draw_network(FILE *out, Machine *m, unsigned max_width, StateColumns *cols);

#endif
