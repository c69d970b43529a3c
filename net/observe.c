/* Where packets are, for whoever asks between timesteps -- --state,
 * --step, the report, the deadlock message, the tests -- and what happens
 * to them, for an observer (--trace, --routes). The fast stage does not
 * keep a packet's place in its record; net_settle writes it there from the
 * stage's own state when somebody asks, and every query below settles
 * first. Also the names of places that reports and traces print. */
#include <stdio.h>
#include <stdlib.h>

#include "net/net_internal.h"


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

/* ---- where packets are ---------------------------------------------------------- */

/* The place word of the i-th packet of buffer b (i < its count). */
uint32_t buffer_place_word(const Layout *lay, uint32_t b, uint32_t i)
{
    Sender *buf = &lay->senders[b];
    unsigned cap = ring_capacity(lay, buf), at = (lay->rings ? buf->ring.head : 0) + i;
    return places_of(lay, buf, b)[at >= cap ? at - cap : at];
}

uint32_t buffer_packet_at(const Layout *lay, uint32_t b, uint32_t i)
{
    if (lay->vc)
        return vc_buffer_packet_at(lay->vc, b, i);
    if (i >= lay->senders[b].count)
        return NET_NIL;
    return place_packet(buffer_place_word(lay, b, i));
}

/* Whether sender h's claim (it has a packet to send) sleeps. */
bool claim_sleeps(const Net *net, uint32_t h)
{
    unsigned layer, dir;
    uint32_t heading = claim_heading(&net->lay, h, &layer, &dir);
    uint32_t ki = slot_keeper(&net->lay, h, heading, dir);
    return net->lay.senders[ki].slot & (ki == h ? CLAIM_ASLEEP : CLAIM_UP_ASLEEP);
}

/* The keeper of wire c's slots. */
uint32_t wire_keeper(const Layout *lay, uint32_t c)
{
    uint32_t link = wire_link(lay, c), s = link >> 1;
    if (!lay->cfg.full_duplex || (c & 1) == DIR_DOWN)
        return 4 * s + (link & 1);
    return up_sender(lay, s, sw_layer(lay, s), link & 1);
}

size_t sender_count(const Net *net)
{
    return net->lay.nbuffers + (size_t)net->lay.cfg.planes * net->lay.nprocs;
}

void net_settle(Net *net)
{
    if (net->settled)
        return;
    net->settled = true;
    if (net->lay.vc) {
        vc_settle(net);
        return;
    }
    if (net->in_flight == 0)
        return;
    /* Slots: those of refused packets are kept; the rest are written from
     * the lists of packets on links, below. */
    size_t senders = sender_count(net);
    for (size_t h = 0; h < senders; h++) {
        Sender *ks = &net->lay.senders[h];
        if (!(ks->slot & SLOT_BLOCKED)) {
            ks->slot_packet = NET_NIL;
        } else if (ks->slot & SLOT_ASLEEP) {
            unsigned dir = ks->slot & SLOT_UP ? DIR_UP : DIR_DOWN;
            uint32_t link = slot_link(&net->lay, (uint32_t)h, dir);
            bool last = dir == DIR_DOWN && sw_layer(&net->lay, link >> 1) == 1;
            settle_on_link(net, ks->slot_packet, link, dir, last ? ASLEEP_PORT : ASLEEP_BUFFER);
        }
    }
    for (unsigned i = 0; i < net->nshares; i++)
        for (unsigned c = 0; c < ARRIVAL_CLASSES; c++)
            for (unsigned layer = 1; layer <= net->lay.cfg.k; layer++) {
                const OnLinkList *l = &net->share[i].on_links[c][layer];
                for (size_t j = 0; j < l->n; j++) {
                    const OnLink *e = &l->items[j];
                    unsigned dir;
                    uint32_t link = listed_link(&net->lay, c, e->target, e->keeper, &dir);
                    settle_on_link(net, e->packet, link, dir, AWAKE);
                    net->lay.senders[keeper_of(e->keeper)].slot_packet = e->packet;
                }
            }
    for (uint32_t b = 0; b < net->lay.nbuffers; b++) {
        uint32_t count = net->lay.senders[b].count;
        for (uint32_t i = 0; i < count; i++)
            settle_in_buffer(net, buffer_packet_at(&net->lay, b, i), b, buffer_packet_at(&net->lay, b, i + 1),
                             i == 0 && claim_sleeps(net, b) ? ASLEEP_CLAIM : AWAKE);
    }
    for (uint32_t p = 0; p < net->lay.nprocs; p++) {
        uint32_t x = net->lay.out_slot[p];
        if (x == NET_NIL || x == NET_RESERVED)
            continue;
        Packet *pk = &net->lay.pool[x];
        pk->place = PLACE_SLOT;
        pk->at = p;
        pk->asleep = claim_sleeps(net, adapter_sender(&net->lay, pk->plane, p)) ? ASLEEP_CLAIM : AWAKE;
    }
}

/* Where packet x is in a FIFO of `count` places whose i-th packet is
 * at(i): 1 at the head, `count` if it is not found. */
static unsigned position_in(const Net *net, uint32_t x, uint32_t where, uint32_t count,
                            bool buffer)
{
    unsigned place = 1;
    if (buffer) {
        while (place < count && buffer_packet_at(&net->lay, where, place - 1) != x)
            place++;
    } else {
        for (uint32_t y = net->lay.ports[where].head; place < count && y != x; y = net->lay.pool[y].next)
            place++;
    }
    return place;
}

/* What packet x is and where, but for its position in a FIFO. */
static void describe_fields(const Net *net, uint32_t x, NetPacket *pk)
{
    const Packet *p = &net->lay.pool[x];
    const PacketInfo *in = &net->lay.pool[x].info;
    *pk = (NetPacket){
        .id = in->id, .created = in->created, .src = in->src, .dst = in->dst,
        .data = p->data, .port = p->port,
        .route = { p->plane, p->count, p->routing, p->addressing },
        .place = (PacketPlace)p->place, .at = p->at, .dir = p->dir, .layer = p->layer,
        .links = p->links,
    };
    pk->multicast = mc_describe(net, x, &pk->set);
}

void net_describe(const Net *net, uint32_t x, NetPacket *pk)
{
    const Packet *p = &net->lay.pool[x];
    describe_fields(net, x, pk);
    if (p->place == PLACE_BUFFER) {
        pk->queued = net_buffer_count(net, p->at);
        pk->position = position_in(net, x, p->at, pk->queued, true);
    } else if (p->place == PLACE_PORT) {
        pk->queued = net->lay.ports[p->at].count;
        pk->position = position_in(net, x, p->at, pk->queued, false);
    }
}

void net_for_each_in_flight(Net *net, void (*fn)(void *ctx, const NetPacket *pk), void *ctx)
{
    NetPacket pk;
    if (net->in_flight == 0)
        return;
    for (uint32_t p = 0; p < net->lay.nprocs; p++)
        if (net_slot_packet(net, p, &pk))
            fn(ctx, &pk);
    unsigned V = net->lay.cfg.vcs;
    size_t lanes = 2 * (size_t)net->lay.nswitches * (net->lay.cfg.full_duplex ? 2 : 1) * V;
    for (size_t c = 0; c < lanes; c++)
        if (net_link_packet(net, (uint32_t)c, &pk))
            fn(ctx, &pk);
    for (uint32_t b = 0; b < net->lay.nbuffers * V; b++)
        for (uint32_t i = 0; net_buffer_packet(net, b, i, &pk); i++)
            fn(ctx, &pk);
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

void net_for_each_unread(Net *net, void (*fn)(void *ctx, const NetPacket *pk), void *ctx)
{
    uint32_t *heads = malloc(((size_t)net->outstanding + 1) * sizeof *heads);
    size_t n = 0;
    if (!heads)
        return;
    for (uint32_t x = 0; x < net->pool_cap; x++)
        if (net->lay.pool[x].place == PLACE_PORT && net->lay.ports[net->lay.pool[x].at].head == x)
            heads[n++] = net->lay.pool[x].at;
    qsort(heads, n, sizeof *heads, compare_u32);
    for (size_t i = 0; i < n; i++)
        for (uint32_t y = net->lay.ports[heads[i]].head; y != NET_NIL; y = net->lay.pool[y].next) {
            NetPacket pk;
            net_describe(net, y, &pk);
            fn(ctx, &pk);
        }
    free(heads);
}

uint32_t link_packet_at(Net *net, uint32_t c)
{
    net_settle(net);
    if (net->lay.vc)
        return vc_lane_packet(net->lay.vc, c);
    uint32_t x = net->lay.senders[wire_keeper(&net->lay, c)].slot_packet;
    if (x != NET_NIL && net->lay.pool[x].place == PLACE_LINK && net->lay.pool[x].at == c)
        return x;
    return NET_NIL;
}

uint32_t net_buffer_count(const Net *net, uint32_t b)
{
    if (net->lay.vc)
        return vc_buffer_count(net->lay.vc, b);
    return net->lay.senders[b].count;
}

bool net_slot_packet(Net *net, uint32_t p, NetPacket *pk)
{
    uint32_t x = net->lay.out_slot[p];
    if (x == NET_NIL || x == NET_RESERVED)
        return false;
    net_settle(net);
    net_describe(net, x, pk);
    return true;
}

bool net_link_packet(Net *net, uint32_t c, NetPacket *pk)
{
    uint32_t x = link_packet_at(net, c);
    if (x == NET_NIL)
        return false;
    net_describe(net, x, pk);
    return true;
}

bool net_buffer_packet(Net *net, uint32_t b, uint32_t i, NetPacket *pk)
{
    uint32_t count = net_buffer_count(net, b);
    if (i >= count)
        return false;
    net_settle(net);
    describe_fields(net, buffer_packet_at(&net->lay, b, i), pk);
    pk->position = i + 1;
    pk->queued = count;
    return true;
}

bool net_port_packet(Net *net, uint32_t p, uint32_t port, uint32_t i, NetPacket *pk)
{
    const InputPort *f = &net->lay.ports[(size_t)p * net->lay.cfg.ports + port];
    if (i >= f->count)
        return false;
    uint32_t x = f->head;
    for (uint32_t n = 0; n < i; n++)
        x = net->lay.pool[x].next;
    describe_fields(net, x, pk);
    pk->position = i + 1;
    pk->queued = f->count;
    return true;
}

bool net_find_packet(Net *net, uint64_t id, NetPacket *pk)
{
    net_settle(net);
    for (uint32_t x = 1; x < net->pool_cap; x++)
        if (net->lay.pool[x].place != PLACE_FREE && net->lay.pool[x].info.id == id) {
            net_describe(net, x, pk);
            return true;
        }
    return false;
}

void net_emit(Net *net, NetEventKind kind, uint32_t x, uint32_t place,
              PacketPlace place_kind, unsigned layer, unsigned value)
{
    if (net->event) {
        NetPacket pk;
        net_describe(net, x, &pk);
        NetEvent ev = { kind, net->timestep, &pk, place, place_kind, layer, value, NULL };
        net->event(net->event_ctx, &ev);
    }
}

void net_emit_split(Net *net, const Split *split)
{
    NetPacket pk, copy;
    net_describe(net, split->packet, &pk);
    net_describe(net, split->copy, &copy);
    unsigned layer = sw_layer(&net->lay, split->sw);
    NetEvent ev = { EV_SPLIT, net->timestep, &pk, split->sw, PLACE_FREE, layer, 0, &copy };
    net->event(net->event_ctx, &ev);
    net_emit(net, EV_ENTERED, split->copy, split->buffer, PLACE_BUFFER, layer, 0);
}
