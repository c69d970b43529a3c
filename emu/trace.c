/* Writing --trace lines (trace.h). */
#include "emu/trace.h"

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
    }
    return "unknown";
}

void trace_write(FILE *f, const Net *net, const NetEvent *ev)
{
    char place[96];
    const NetPacket *pk = ev->packet;
    net_event_place(net, ev, place, sizeof place);
    fprintf(f, "%llu,%s,%llu,%u,%u,%u,%s,", (unsigned long long)ev->timestep,
            trace_event_name(ev->kind), (unsigned long long)pk->id, pk->src, pk->dst,
            pk->port, place);
    if (ev->kind == EV_ADAPTIVE_CHOICE)
        fprintf(f, "layer %u up port %u", ev->layer, ev->value);
    fputc('\n', f);
}
