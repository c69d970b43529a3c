/* Why a deadlocked run is stuck (spec/machine.md "Termination"), for the
 * report: for each stalled processor what it waits for and why, and one
 * line that says which kind of deadlock it is.
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

/* Writes the start of processor c's waiting line, without a newline:
 * "waiting: p0 at 0019 (prog.x:4:16, in proc main) waits for IN on port 0";
 * the address is where the stalled instruction starts. */
void diagnosis_waiting(FILE *out, Machine *m, const Cpu *c);

#endif
