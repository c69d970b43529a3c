/* --trace FILE: one CSV line per packet event (spec/cli.md), with a header:
 *
 *   timestep,event,packet,src,dst,port,place,detail
 *
 * event is one of created, claimed, link-collision, buffer-full,
 * buffer-owned, entered, queued, port-wait, delivered, read, chose-up,
 * split (docs/emulator.md explains each); place names the slot, link,
 * buffer or port concerned; detail is "layer L up port B" for chose-up,
 * "copy #C" for split, "owned by #M" for buffer-owned, and else empty. */
#ifndef EMU_TRACE_H
#define EMU_TRACE_H

#include <stdio.h>

#include "net/net.h"

extern const char trace_header[];

/* The event's name in the trace. */
const char *trace_event_name(NetEventKind kind);

/* Writes one line for an event. */
void trace_write(FILE *f, const Net *net, const NetEvent *ev);

#endif
