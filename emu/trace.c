/* Writing --trace lines (trace.h). */
#include "emu/trace.h"

#include <string.h>

const char trace_header[] = "timestep,event,packet,src,dst,port,place,detail\n";

const char *trace_event_name(NetEventKind kind)
{
    switch (kind) {
    case EV_CREATED:         return "created";
    case EV_CLAIMED:         return "claimed";
    case EV_LINK_COLLISION:  return "link-collision";
    case EV_BUFFER_FULL:     return "buffer-full";
    case EV_ENTERED:         return "entered";
    case EV_QUEUED:          return "queued";
    case EV_PORT_WAIT:       return "port-wait";
    case EV_DELIVERED:       return "delivered";
    case EV_READ:            return "read";
    case EV_ADAPTIVE_CHOICE: return "chose-up";
    case EV_SPLIT:           return "split";
    case EV_BUFFER_OWNED:    return "buffer-owned";
    }
    return "unknown";
}

void trace_write(FILE *f, const Net *net, const NetEvent *ev)
{
    char place[96], dst[160];
    const NetPacket *pk = ev->packet;
    net_event_place(net, ev, place, sizeof place);
    if (pk->multicast) {                /* a set, quoted: it has commas */
        dst[0] = '"';
        dest_set_format(dst + 1, sizeof dst - 2, &pk->set);
        strcat(dst, "\"");
    } else {
        snprintf(dst, sizeof dst, "%u", pk->dst);
    }
    char name[48];                      /* "5", or "5.2" for a flit (messages.md) */
    net_packet_name(pk, name, sizeof name);
    fprintf(f, "%llu,%s,%s,%u,%s,%u,%s,", (unsigned long long)ev->timestep,
            trace_event_name(ev->kind), name + 1, pk->src, dst, pk->port, place);
    if (ev->kind == EV_ADAPTIVE_CHOICE)
        fprintf(f, "layer %u up port %u", ev->layer, ev->value);
    if (ev->kind == EV_SPLIT)
        fprintf(f, "copy #%llu", (unsigned long long)ev->copy->id);
    if (ev->kind == EV_BUFFER_OWNED)
        fprintf(f, "owned by #%llu", (unsigned long long)ev->owner);
    fputc('\n', f);
}
