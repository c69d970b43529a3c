/* The machine state view of --state and --step (spec/cli.md "State"),
 * for teaching: every processor's status and registers, every packet in
 * the network and where it is, the timestep's collisions, and -- for up to
 * 16 processors -- a text drawing of the folded network layer by layer.
 * --step shows a compact form that fits a terminal, and the full one on f. */
#ifndef EMU_STATE_H
#define EMU_STATE_H

#include <stdio.h>

#include "emu/machine.h"

enum { STATE_DRAW_MAX_PROCS = 16 };

/* The compact state fits a terminal of STATE_SCREEN_LINES lines, with the
 * prompt answered above it and the next below, when the processors leave
 * room for STATE_MIN_PACKET_LINES. */
enum { STATE_SCREEN_LINES = 24, STATE_MIN_PACKET_LINES = 4 };

/* The full state: what --state prints, and f in --step. */
void state_print(FILE *out, Machine *m);

/* The compact state that --step shows after each stop: a heading, one line
 * per processor (status, instruction, registers, slot and ports) and one per
 * packet in the network, no drawing; the packets cut short to fit the
 * screen, with a line saying how many more there are. */
void state_print_compact(FILE *out, Machine *m);

/* The drawing alone (any machine up to STATE_DRAW_MAX_PROCS processors). */
void state_draw_network(FILE *out, Machine *m);

#endif
