/* The machine state view of --state and --step (spec/cli.md "State"),
 * for teaching: every processor's status and registers, every packet in
 * the network and where it is, the timestep's collisions, and -- for up to
 * 16 processors -- a text drawing of the folded network layer by layer. */
#ifndef EMU_STATE_H
#define EMU_STATE_H

#include <stdio.h>

#include "emu/machine.h"

enum { STATE_DRAW_MAX_PROCS = 16 };

void state_print(FILE *out, Machine *m);

/* The drawing alone (any machine up to STATE_DRAW_MAX_PROCS processors). */
void state_draw_network(FILE *out, Machine *m);

#endif
