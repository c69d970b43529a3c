/* Stage c of the network stage (machine.md, channels.md): the packets
 * coming down processors' links enter their input ports, oldest first at
 * each processor, if there is room; a packet refused there waits in its
 * lane (and, with one channel, sleeps: sleep.c). step.c runs it before
 * the sweep of stages d and e. */
#include "net/deliver.h"

#include "net/adapter.h"
#include "net/channel.h"
#include "net/events.h"
#include "net/message.h"
#include "net/shares.h"
#include "net/sleep.h"

/* Stage c for the packet of entry e, on the last link down to the
 * processor on a plane that e->target names. */
static void deliver(Net *net, const OnLink *e)
{
    uint32_t x = e->packet, p = pop_proc(net->lay.cfg.k, target_of(e->target, net->lay.vshift));
    Packet *pk = &net->lay.pool[x];
    uint32_t slot = p * net->lay.cfg.ports + pk->port;
    InputPort *port = &net->lay.ports[slot];
    if (!takes_flit_port(&net->lay, x, slot, port->count)) {
        net->counts.stats.port_waits++;
        if (net->event) {
            settle_listed(net, e, ARRIVE_DELIVERY);
            net_emit(net, x, (NetEvent){ .kind = EV_PORT_WAIT, .place = p,
                                         .place_kind = PLACE_PORT, .layer = 1 });
        }
        Sender *ks = refuse(&net->lay, e, false);
        uint32_t ki = keeper_of(e->keeper);
        if (may_sleep(net) && !net->lay.messages) {    /* (ownership of ports: messages.md) */
            ks->slot |= SLOT_ASLEEP;
            net->lay.port_waits[x].keeper = ki;
            pk->asleep = ASLEEP_PORT;
            net->lay.port_waits[x].next = port->waiting;
            port->waiting = x;
            net->counts.asleep_port++;
            net->counts.asleep++;
        } else {
            NetShare *sh = &net->share[share_index(net, ki)];
            links_push(&sh->next_on_links[ARRIVE_DELIVERY][1], e->packet, e->target,
                       e->keeper | KEEPER_REFUSED);
        }
        return;
    }
    leave_link(&net->lay, e);
    net_deliver(net, x, p);
}

/* The delivery list of the share that has plane `plane`'s packets. */
static OnLinkList *deliveries_of(Net *net, unsigned plane)
{
    return &net->share[net->nshares > 1 ? plane : 0].on_links[ARRIVE_DELIVERY][1];
}

/* The bit of processor p's arrivals_down for a packet coming down to it
 * (target word t). */
static inline unsigned arrival_bit(const Net *net, uint32_t t, unsigned vs)
{
    return pop_plane(net->lay.cfg.k, target_of(t, vs)) << vs | target_channel(t, vs);
}

/* Of the packets still to be delivered to processor p in this stage c,
 * the oldest that is older than packet x, or NULL. */
static const OnLink *older_arrival(Net *net, uint32_t p, uint32_t x)
{
    const OnLink *oldest = NULL;
    uint64_t age = net->lay.pool[x].info.id;
    unsigned k = net->lay.cfg.k, vs = net->lay.vshift;
    for (unsigned bits = net->arrivals_down[p]; bits != 0; bits &= bits - 1) {
        unsigned bit = (unsigned)__builtin_ctz(bits), plane = bit >> vs;
        uint32_t t = target_word(proc_on_plane(k, p, plane), target_channel(bit, vs), vs);
        const OnLink *e = &deliveries_of(net, plane)->items[net->arriving[t]];
        if (net->lay.pool[e->packet].info.id < age) {
            oldest = e;
            age = net->lay.pool[e->packet].info.id;
        }
    }
    return oldest;
}

/* Stage c: the packets on the shares' last links, delivered by one thread
 * after stage d (for one share as for two), oldest first at each processor.
 * First every arriving packet sets its bit of its processor (its plane
 * and lane: arrival_bit) and says where it is listed, so that the packets
 * older than one arriving at the same processor can be delivered before
 * it; delivering a packet clears its bit. The age of the second of such
 * a pair is read at the first one's turn, before the second loop has
 * asked for it, so the first loop does. */
HOT void deliver_all(Net *net, unsigned vs)
{
    unsigned k = net->lay.cfg.k;
    for (unsigned i = 0; i < net->nshares; i++) {
        const OnLinkList *l = &net->share[i].on_links[ARRIVE_DELIVERY][1];
        for (size_t j = 0; j < l->n; j++) {
            uint32_t t = l->items[j].target, p = pop_proc(k, target_of(t, vs));
            if (net->arrivals_down[p])    /* the second of a pair */
                PREFETCH(&net->lay.pool[l->items[j].packet]);
            net->arrivals_down[p] |= (uint16_t)(1u << arrival_bit(net, t, vs));
            net->arriving[t] = (uint32_t)j;
        }
    }
    for (unsigned i = 0; i < net->nshares; i++) {
        const OnLinkList *l = &net->share[i].on_links[ARRIVE_DELIVERY][1];
        for (size_t j = 0; j < l->n; j++) {
            if (j + 2 * PREFETCH_DISTANCE < l->n) {   /* its record (its port) and age */
                uint32_t x = l->items[j + 2 * PREFETCH_DISTANCE].packet;
                PREFETCH(&net->lay.pool[x]);
            }
            if (j + PREFETCH_DISTANCE < l->n) {       /* ...and then the port it enters */
                const OnLink *ahead = &l->items[j + PREFETCH_DISTANCE];
                uint32_t p = pop_proc(k, target_of(ahead->target, vs));
                PREFETCH(&net->lay.ports[p * net->lay.cfg.ports + net->lay.pool[ahead->packet].port]);
            }
            const OnLink *e = &l->items[j];
            uint32_t p = pop_proc(k, target_of(e->target, vs));
            unsigned bit = arrival_bit(net, e->target, vs);
            if (!((net->arrivals_down[p] >> bit) & 1))
                continue;             /* delivered already, as an older one */
            net->arrivals_down[p] &= (uint16_t)~(1u << bit);
            for (const OnLink *older; net->arrivals_down[p] &&
                                      (older = older_arrival(net, p, e->packet)) != NULL;) {
                net->arrivals_down[p] &= (uint16_t)~(1u << arrival_bit(net, older->target, vs));
                deliver(net, older);
            }
            deliver(net, e);
        }
    }
}

void stage_deliveries(Net *net)
{
    if (net->lay.vshift == 0)            /* (one channel: the shift is a constant) */
        deliver_all(net, 0);
    else
        deliver_all(net, net->lay.vshift);
}
