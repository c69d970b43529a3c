/* What the network tells an observer (--trace, --routes): every event of a
 * packet as it happens, the packet described as its record says, and the
 * names of places that reports and traces print. With an observer the
 * stage keeps every packet's record current (no packet sleeps), so
 * describing one needs nothing settled. */
#include <stdio.h>
#include <stdlib.h>

#include "net/events.h"
#include "net/layout.h"
#include "net/message.h"
#include "net/multicast.h"

/* ---- names ----------------------------------------------------------------- */

/* "p0.l2.s5" for switch s. */
static void switch_name(const Net *net, uint32_t s, char *buf, size_t size)
{
    uint32_t row = s >> (net->lay.cfg.k - 1);
    snprintf(buf, size, "p%u.l%u.s%u", row / net->lay.cfg.k, row % net->lay.cfg.k + 1, sw_j(&net->lay, s));
}

static const char *const port_names[4] = { "d0", "d1", "u0", "u1" };

/* A link is named by its lower end: "p0.cpu3" (processor 3's plane-0 link)
 * or "p0.l1.s1.u0" (the link above up port u0 of switch p0.l1.s1). */
void net_link_name(const Net *net, uint32_t link, char *buf, size_t size)
{
    uint32_t s = link >> 1, row = s >> (net->lay.cfg.k - 1);
    unsigned layer = row % net->lay.cfg.k + 1, plane = row / net->lay.cfg.k;
    if (layer == 1) {
        snprintf(buf, size, "p%u.cpu%u", plane, topo_down_proc(sw_j(&net->lay, s), link & 1));
    } else {
        unsigned q;
        char sw[48];
        uint32_t lower = down_target(&net->lay, link, layer, &q);
        switch_name(net, lower, sw, sizeof sw);
        snprintf(buf, size, "%s.%s", sw, port_names[q]);
    }
}

/* With V > 1, " vc1" after a channel buffer's or a lane's name. */
static const char *vc_suffix(const Net *net, uint32_t index, char *buf, size_t size)
{
    if (net->lay.cfg.vcs <= 1)
        return "";
    snprintf(buf, size, " vc%u", index % net->lay.cfg.vcs);
    return buf;
}

void net_buffer_name(const Net *net, uint32_t b, char *buf, size_t size)
{
    char sw[48], vc[16];
    unsigned V = net->lay.cfg.vcs;
    switch_name(net, b / V >> 2, sw, sizeof sw);
    snprintf(buf, size, "%s.%s%s", sw, port_names[b / V & 3], vc_suffix(net, b, vc, sizeof vc));
}

void net_place_name(const Net *net, const NetPacket *pk, char *buf, size_t size)
{
    char name[64], vc[16];
    switch (pk->place) {
    case PLACE_SLOT:
        snprintf(buf, size, "output slot of p%u", pk->src);
        return;
    case PLACE_LINK:
        net_link_name(net, wire_link(&net->lay, pk->at / net->lay.cfg.vcs), name, sizeof name);
        snprintf(buf, size, "link %s %s%s", name, pk->dir == DIR_UP ? "up" : "down",
                 vc_suffix(net, pk->at, vc, sizeof vc));
        return;
    case PLACE_BUFFER:
        net_buffer_name(net, pk->at, name, sizeof name);
        snprintf(buf, size, "buffer %s place %u of %u", name, pk->position, pk->queued);
        return;
    case PLACE_PORT:
        snprintf(buf, size, "input port %u of p%u", pk->port, pk->dst);
        return;
    case PLACE_FREE:
        snprintf(buf, size, "(free)");
        return;
    }
}

void net_event_place(const Net *net, const NetEvent *ev, char *buf, size_t size)
{
    char name[64], vc[16];
    if (ev->kind == EV_SPLIT) {
        switch_name(net, ev->place, name, sizeof name);
        snprintf(buf, size, "switch %s", name);
        return;
    }
    switch ((PacketPlace)ev->place_kind) {
    case PLACE_SLOT:
        snprintf(buf, size, "output slot of p%u", ev->place);
        return;
    case PLACE_LINK:
        net_link_name(net, wire_link(&net->lay, ev->place / net->lay.cfg.vcs), name, sizeof name);
        snprintf(buf, size, "link %s %s%s", name, ev->packet->dir == DIR_UP ? "up" : "down",
                 vc_suffix(net, ev->place, vc, sizeof vc));
        return;
    case PLACE_BUFFER:
        net_buffer_name(net, ev->place, name, sizeof name);
        snprintf(buf, size, "buffer %s", name);
        return;
    case PLACE_PORT:
        snprintf(buf, size, "input port %u of p%u", ev->packet->port, ev->place);
        return;
    case PLACE_FREE:
        snprintf(buf, size, "-");
        return;
    }
}

/* Where packet x is in a FIFO of `count` places whose i-th packet is
 * at(i): 1 at the head, `count` if it is not found. */
static unsigned position_in(const Net *net, uint32_t x, uint32_t where, uint32_t count,
                            bool buffer)
{
    unsigned place = 1;
    if (buffer) {
        while (place < count && buffer_packet_at(&net->lay, channel_of_public(&net->lay, where), place - 1) != x)
            place++;
    } else {
        for (uint32_t y = net->lay.ports[where].head; place < count && y != x; y = net->lay.pool[y].next)
            place++;
    }
    return place;
}

/* What packet x is and where, but for its position in a FIFO. */
void net_describe_fields(const Net *net, uint32_t x, NetPacket *pk)
{
    const Packet *p = &net->lay.pool[x];
    const PacketInfo *in = &net->lay.pool[x].info;
    *pk = (NetPacket){
        .id = in->id, .created = in->created, .src = in->src, .dst = in->dst,
        .data = p->data, .flit = flit_index(&net->lay, x), .length = flit_length(&net->lay, x),
        .port = p->port,
        .route = { p->plane, p->count, p->routing, p->addressing },
        .place = (PacketPlace)p->place, .at = p->at, .dir = p->dir, .layer = p->layer,
        .links = p->links,
    };
    uint32_t m = flit_message(&net->lay, x);
    if (m != 0 && net->lay.cfg.adaptive)      /* (a flit's route is its message's) */
        pk->route.routing = net->lay.message[m].routing;
    pk->multicast = mc_describe(net, x, &pk->set);
}

void net_describe(const Net *net, uint32_t x, NetPacket *pk)
{
    const Packet *p = &net->lay.pool[x];
    net_describe_fields(net, x, pk);
    if (p->place == PLACE_BUFFER) {
        pk->queued = buffer_count(&net->lay, channel_of_public(&net->lay, p->at));
        pk->position = position_in(net, x, p->at, pk->queued, true);
    } else if (p->place == PLACE_PORT) {
        pk->queued = net->lay.ports[p->at].count;
        pk->position = position_in(net, x, p->at, pk->queued, false);
    }
}

void net_emit(Net *net, uint32_t x, NetEvent ev)
{
    if (net->event) {
        NetPacket pk;
        net_describe(net, x, &pk);
        ev.timestep = net->timestep;
        ev.packet = &pk;
        net->event(net->event_ctx, &ev);
    }
}

void net_emit_split(Net *net, const Split *split)
{
    NetPacket pk, copy;
    net_describe(net, split->packet, &pk);
    net_describe(net, split->copy, &copy);
    unsigned layer = sw_layer(&net->lay, split->sw);
    NetEvent ev = { EV_SPLIT, net->timestep, &pk, split->sw, PLACE_FREE, layer, 0, &copy, 0 };
    net->event(net->event_ctx, &ev);
    net_emit(net, split->copy, (NetEvent){ .kind = EV_ENTERED, .place = split->buffer,
                                          .place_kind = PLACE_BUFFER, .layer = layer });
}

/* ---- what the network stage tells (step.c) ------------------------------- */

/* For an observer: records where that packet is, for its events, and
 * returns it. */
uint32_t settle_claimant(Net *net, uint32_t h, unsigned v)
{
    uint32_t x = claimant_packet(&net->lay, h, v);
    if (is_adapter(&net->lay, h)) {
        net->lay.pool[x].place = PLACE_SLOT;
        net->lay.pool[x].at = adapter_proc(&net->lay, h);
        net->lay.pool[x].dir = DIR_UP;
    } else {
        settle_in_buffer(net, x, channel_of(&net->lay, h, v), NET_NIL, AWAKE);
    }
    return x;
}

/* For an observer: packet x entered channel c's buffer in this stage d. */
void report_entered(Net *net, NetShare *sh, uint32_t x, uint32_t c)
{
    if (net->entered[c]++ == 0)
        list_push(&sh->touched, c);          /* for report_queued */
    settle_in_buffer(net, x, c, NET_NIL, AWAKE);
    net_emit(net, x, (NetEvent){ .kind = EV_ENTERED, .place = channel_public(&net->lay, c),
                                 .place_kind = PLACE_BUFFER,
                                 .layer = sw_layer(&net->lay, channel_sender(&net->lay, c) >> 2) });
}

/* For an observer: channel v of sender h sent packet x onto its link. */
void report_claimed(Net *net, uint32_t h, unsigned v, uint32_t x)
{
    unsigned link_layer, dir;
    uint32_t heading = claim_heading(&net->lay, h, &link_layer, &dir);
    uint32_t link = claim_link(&net->lay, h, heading, dir);
    settle_on_link(net, x, link, dir, v, AWAKE);
    net_emit(net, x, (NetEvent){ .kind = EV_CLAIMED,
                                 .place = link_wire(&net->lay, link, dir) * net->lay.cfg.vcs + v,
                                 .place_kind = PLACE_LINK, .layer = link_layer });
}

/* For an observer, after stage e: an EV_QUEUED event for every packet that
 * entered channel c's buffer in this timestep and is not at its head (the
 * buffer collisions of the timestep, counted in stages d and e). */
static void report_queued(Net *net, uint32_t c)
{
    uint32_t count = buffer_count(&net->lay, c), queued = net->entered[c];
    unsigned l = sw_layer(&net->lay, channel_sender(&net->lay, c) >> 2);
    if (count == net->entered[c])
        queued--;                         /* the head itself entered now */
    for (uint32_t i = count - queued; i < count; i++) {
        uint32_t x = buffer_packet_at(&net->lay, c, i);
        settle_in_buffer(net, x, c, NET_NIL, AWAKE);
        if (flit_index(&net->lay, x) != 0)
            continue;                     /* (the queueing rule counts heads only) */
        net_emit(net, x, (NetEvent){ .kind = EV_QUEUED, .place = channel_public(&net->lay, c),
                                     .place_kind = PLACE_BUFFER, .layer = l });
    }
}

/* For an observer, after the shares: the packets that queued in this
 * timestep -- those that entered and are not at the head, the last
 * `entered` of the FIFO but the head. The entry counts are cleared for
 * the next timestep. (One share: an observer's network has no others.) */
void report_queued_all(Net *net)
{
    NetShare *sh = &net->share[0];
    for (size_t i = 0; i < sh->touched.n; i++) {
        report_queued(net, sh->touched.items[i]);
        net->entered[sh->touched.items[i]] = 0;
    }
    sh->touched.n = 0;
}
