/* --html FILE: the run as a web page that plays it (spec/cli.md "The run
 * as a web page"). The recorder watches the run -- every packet event, and
 * the machine after every timestep -- and keeps what changed: a packet's
 * new place, a processor's new status, the timestep's events and counts.
 * At the end it writes one self-contained HTML file: the page's CSS and
 * script (emu/page/, built into the binary) and the recording as JSON.
 *
 * The recording (the JSON of <script id="run">), which tests/tools/
 * html_state.c reads back:
 *
 *   config    the machine: procs, programmed, k, planes, duplex, buffer,
 *             ports, port_depth, routing, lanes (the virtual channels, --vcs)
 *   packets   [id, src, dst, port, data, created, plane, count, routing,
 *             addressing] once per packet, when first seen; dst is a
 *             string ("{1,4,5}", "all") for a multicast
 *   moves     per timestep from 0, flat pairs [id, place]: the packets that
 *             changed place by the end of it; place -1: it left (read)
 *   procs     per timestep, flat triples [p, status, value] for the
 *             processors whose status changed (HTML_STATUS_*; value: the
 *             port waited on, the halt status, the fault's name)
 *   events    per timestep, flat quadruples [kind, id, place, other]
 *             (HTML_EV_*: place is a wire, buffer, processor or, for a
 *             split, a switch; other the split's new packet, or the
 *             message owning the buffer that refused a head, else 0)
 *   routes    per timestep, flat [id, plane, count, routing, addressing,
 *             dst] for packets whose route changed (adaptive routing fills
 *             it in) or whose set did (a multicast's split divides it)
 *   counts    per timestep, flat [link collisions, buffer collisions, sent,
 *             delivered, in flight], each the change since the one before
 *   more_counts  flat [t, multicasts, copies, messages, flits sent,
 *             flits delivered], each the change in timestep t, for the
 *             timesteps that changed one (net.h's NetStats); a flit count
 *             less the packets sent or delivered, which it is with no
 *             message of several words
 *   owners    flat [t, place, id]: the buffers and input ports whose owner
 *             (messages.md) changed in timestep t, a channel buffer or port
 *             as a place below, id the message that owns it from then on,
 *             or -1: none
 *   prints    flat [t, p, value]: what PRINT printed, in the order printed
 *   ending    why the run ended as it did, as the report says it (the
 *             halt statuses, faults, deadlock's diagnosis), or ""
 *   report    the run's totals, which the counts add up to when the whole
 *             run was recorded
 *
 * A place packs what net/net.h's NetPacket says of it into one number:
 *
 *   place = ((at * HTML_LANES + lane) * 2 + dir) * 4 + kind
 *
 * kind 0 output slot (at: processor), 1 link (at: wire), 2 buffer (at:
 * buffer), 3 input port (at: p * P + port); dir is DIR_UP or DIR_DOWN;
 * lane is the virtual channel of a packet on a link or in a buffer (0
 * with one channel). An event's place is a link's wire or a buffer,
 * without the lane. A packet's
 * place in a FIFO (buffer or input port) is not recorded: packets enter
 * in the order the moves list them, so their order of entry gives it. */
#ifndef EMU_HTML_H
#define EMU_HTML_H

#include <stdint.h>
#include <stdio.h>

#include "emu/machine.h"

/* The recording grows with processors times timesteps: a page is drawn for
 * at most HTML_MAX_PROCS processors (above 256 only as the page's summary,
 * a heat map of switches and links), and records at most HTML_MAX_WORK
 * processor-timesteps (10,000 timesteps at 256 processors, 625 at 4,096):
 * about 20 MB, which the page's script opens in under two seconds. A
 * longer run is recorded up to there, and the page says so. */
enum { HTML_MAX_PROCS = 4096, HTML_LANES = 8 };
#define HTML_MAX_WORK (256ull * 10000ull)

enum { HTML_SLOT = 0, HTML_LINK = 1, HTML_BUFFER = 2, HTML_PORT = 3 };

typedef enum HtmlStatus {
    HTML_STATUS_RUNNING, HTML_STATUS_WAIT_IN, HTML_STATUS_WAIT_OUT,
    HTML_STATUS_HALTED, HTML_STATUS_FAULTED, HTML_STATUS_IDLE
} HtmlStatus;

typedef enum HtmlEventKind {
    HTML_EV_SENT, HTML_EV_LINK_COLLISION, HTML_EV_BUFFER_FULL, HTML_EV_QUEUED,
    HTML_EV_DELIVERED, HTML_EV_READ, HTML_EV_SPLIT, HTML_EV_PORT_WAIT, HTML_EV_BUFFER_OWNED
} HtmlEventKind;

typedef struct HtmlRecorder HtmlRecorder;

/* A recorder for machine m (after machine_init), or NULL with a one-line
 * message in err: too many processors, or no memory. */
HtmlRecorder *html_new(const Machine *m, const char *program, char *err, size_t size);
void html_free(HtmlRecorder *rec);

/* Every packet event of the run (chained from the machine's observer). */
void html_event(HtmlRecorder *rec, const NetEvent *ev);

/* A PRINT of the run (chained from the machine's observer). */
void html_print(HtmlRecorder *rec, uint64_t t, uint32_t proc, int32_t value);

/* The machine at the end of timestep m->t (0: before the first). */
void html_timestep(HtmlRecorder *rec, Machine *m);

/* Writes the page; 0, or -1 if memory ran out while recording. */
int html_write(HtmlRecorder *rec, Machine *m, FILE *out);

#endif
