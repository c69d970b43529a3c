/* Why a deadlocked run is stuck (spec/machine.md "Termination"), for the
 * report: for each stalled processor what it waits for and why, and one
 * line that says which kind of deadlock it is. Also where the processors
 * of a run stopped before its end were: the same line for each, without
 * the why.
 *
 * It is worked out from the state alone, through the network's public
 * questions (net/net.h): every packet in a slot, on a link or in a buffer,
 * and the packet that holds each up (net_blocker). Following those, each
 * packet's wait ends either at a full input port -- a processor has to read
 * it -- or in a cycle of packets inside the network. So a processor waiting
 * on OUT waits for whoever must read the port at the end of its packet's
 * chain, and one waiting on IN for the packets headed for its port, or for
 * nobody when none is. The summary is, in this order of precedence:
 *
 *   a network deadlock     packets wait for each other in a cycle
 *   a program deadlock:
 *     processors wait for each other     a cycle of those waits: "p0 waits
 *                                        for p3 waits for p0"
 *     packets that will never be read    a chain ends at a port whose
 *                                        processor has halted or waits on
 *                                        something else
 *     packets that no one has sent       processors wait on IN and nothing
 *                                        is headed for them */
#ifndef EMU_DIAGNOSIS_H
#define EMU_DIAGNOSIS_H

#include <stdio.h>

#include "emu/machine.h"

/* Writes "deadlock: ..." and one "waiting: ..." line per stalled processor,
 * each with why it waits. For a run that ended in deadlock. */
void diagnosis_write(FILE *out, Machine *m);

/* Writes the "deadlock: ..." line alone: which kind of deadlock it is. */
void diagnosis_summary(FILE *out, Machine *m);

/* The most processors diagnosis_stopped names. */
enum { DIAGNOSIS_STOPPED_SHOWN = 8 };

/* For a run stopped before its end (--max-steps, q in --step, a signal):
 * where each processor still running or waiting was and what it was
 * doing, one line each (diagnosis_where), without reasons, since it might
 * have gone on; after DIAGNOSIS_STOPPED_SHOWN of them, how many more. */
void diagnosis_stopped(FILE *out, Machine *m);

/* Writes where processor c is and what it does, without a newline:
 * "waiting: p0 at 0019 (prog.x:4:16, in proc main) waits for IN on port 0",
 * "waiting: p2 at 0022 (...) waits for OUT", or, for one that runs,
 * "running: p1 at 0014 (prog.x:3:9, in proc main): BR -3". The address is
 * where the instruction starts, its first prefix, as the listing shows it. */
void diagnosis_where(FILE *out, Machine *m, const Cpu *c);

#endif
