/* Stage 4 of the timestep: the five network sub-stages of spec/machine.md
 * (thesis 5.5), the part of the emulation that users count.
 *
 *   a. adapters send: each output-slot packet claims the temp slot of its
 *      first link;
 *   b. switches send: each non-empty output buffer's head claims the temp
 *      slot of that port's link;
 *   c. delivery: packets coming down processor links enter input ports,
 *      oldest first, if there is room;
 *   d. forwarding: every other packet on a link enters the output buffer its
 *      route names in the switch ahead, if there is room (credit-based flow
 *      control: a refusal is a buffer collision);
 *   e. collisions: each claimed temp slot becomes the link's packet if the
 *      main slot is empty, else the claimant stays where it was (a link
 *      collision); then every packet that entered a buffer behind another
 *      packet is a buffer collision.
 *
 * The spec fixes loop orders; this code visits only active packets, in an
 * order of its own, and gets the same result because the spec's order
 * matters in exactly three places, each handled locally:
 *   - two claims on one temp slot happen only with --duplex half, from the
 *     two ends of one link; in the spec's order (adapters, then switches by
 *     layer) the upward claimant always comes first, so it wins;
 *   - packets entering one switch in stage d (where they may compete for one
 *     buffer, or for adaptive's choice of up buffer) go in port order d0, d1,
 *     u0, u1, the order of their links in the spec's link loop. The packets
 *     on links are listed by the port they arrive on, and stage d takes the
 *     lists in turn: every packet arriving on a d0 port, then on a d1 port,
 *     and so on. One port receives at most one packet, so inside every
 *     switch this is the spec's order;
 *   - packets coming down one processor's two links go oldest first.
 * Everything else -- counting, and moves into different buffers -- does not
 * depend on order. Stage c (delivery) touches only input ports and last
 * links, and stage d only buffers and the other links, so stage c is run
 * after stage d.
 *
 * Waiting packets sleep. Under load most packets in flight are waiting, and
 * handling each of them every timestep only to see it fail again would make
 * a timestep cost in proportion to the packets in flight rather than to the
 * packets that move. But a waiting packet's next attempt can succeed only
 * after a particular event, so it sleeps until that event:
 *   - a packet refused by a full buffer (ASLEEP_BUFFER) is refused again
 *     until that buffer's head leaves, which happens in stage e: it is woken
 *     then, for the next timestep's stage d;
 *   - a packet waiting on its last link for a full input port (ASLEEP_PORT)
 *     waits until the port is read, in stage 1: it is woken then, for this
 *     timestep's stage c;
 *   - a claimant whose link holds a sleeping packet (ASLEEP_CLAIM) fails
 *     again until that packet wakes: it is woken with it.
 * Each timestep, every sleeper would have failed once more: its collision
 * (or port wait) is added from counters kept by kind, direction and layer.
 * Sleepers are skipped where the spec's order looks at other packets, which
 * is exact because a sleeper can take no room. Adaptive packets never sleep
 * (which buffer they want changes), and nothing sleeps while an observer
 * (--trace) wants every event; a test checks that both ways give the same
 * statistics.
 *
 * Planes in parallel. The two planes share nothing between injection and
 * delivery: no packet changes plane, and each switch, buffer and link
 * belongs to one. So with --threads 2 or more (and no observer), each plane
 * is a lane of its own -- its own active lists and its own counters, added
 * to the network's after the timestep -- and the lanes run stages a, b and
 * d, then stage e, on two threads. Deliveries (stage c) put packets of both
 * planes into one processor's ports, oldest first, so they are made between
 * d and e by one thread. The lanes' lists come out in another order than
 * one lane's would, which, as above, changes nothing; tests compare every
 * statistic. */
#include <stdlib.h>
#include <string.h>

#include "net/net_internal.h"

/* Makes room for n entries of `size` bytes in the array *items of capacity
 * *cap. In a timestep each packet enters each of the step's lists at most
 * once, so room for the packets in flight at its start is enough, and a push
 * needs no check. */
static void reserve(void **items, size_t *cap, size_t n, size_t size)
{
    if (n <= *cap)
        return;
    size_t grown = *cap ? 2 * *cap : 256;
    while (grown < n)
        grown *= 2;
    void *p = realloc(*items, grown * size);
    if (!p)
        abort();        /* a few bytes per packet in flight: cannot fail in practice */
    *items = p;
    *cap = grown;
}

void net_list_reserve(IndexList *l, size_t n)
{
    void *items = l->items;
    reserve(&items, &l->cap, n, sizeof *l->items);
    l->items = items;
}

void net_links_reserve(OnLinkList *l, size_t n)
{
    void *items = l->items;
    reserve(&items, &l->cap, n, sizeof *l->items);
    l->items = items;
}

static void behind_reserve(BehindList *l, size_t n)
{
    void *items = l->items;
    reserve(&items, &l->cap, n, sizeof *l->items);
    l->items = items;
}

static inline void list_push(IndexList *l, uint32_t x)
{
    l->items[l->n++] = x;
}

static inline void links_push(OnLinkList *l, uint32_t x, uint32_t heading)
{
    l->items[l->n++] = (OnLink){ x, heading };
}

/* Ordering the active lists by packet index. When many packets move, the
 * ones a stage visits do not fit in the cache, and a list in the order its
 * packets happened to be pushed sends every access to a random line of the
 * pool. Ordered, the stage sweeps the pool from low indices to high, which
 * the memory system streams. That paid most before the stages' prefetches
 * worked (docs/performance.md, items 26 and 32). Now it pays only for the
 * longest lists, such as flood's at 65,536 processors (about 1.05 times as
 * fast), and costs for shorter ones (at N = 4,096 under the heaviest load,
 * a quarter of net_bench's speed): lists shorter than net->sort_min are
 * left as they are. The order changes nothing else (see the head of this
 * file), so it need not be total: packets whose indices differ only in the
 * low RUN_BITS bits share 1 KiB of the pool and are left in the order they
 * came. The rest of the index is radix sorted, least significant digit
 * first, in as few passes of at most RADIX_BITS bits as the pool's size
 * needs (one up to 131,072 packets): linear in the list, stable, with no
 * comparison. */
enum { RADIX_BITS = 12, RUN_BITS = 5 };

/* How a radix sort of keys below `limit` goes: the lowest bit sorted on,
 * the number of passes and the bits of each. */
static void radix_plan(uint32_t limit, unsigned *low, unsigned *passes, unsigned *bits)
{
    unsigned width = 1;
    while (width < 32 && (limit >> width) != 0)
        width++;
    *low = width > RUN_BITS ? RUN_BITS : 0;
    *passes = (width - *low + RADIX_BITS - 1) / RADIX_BITS;
    *bits = (width - *low + *passes - 1) / *passes;
}

/* Defines name(items, n, scratch, limit): orders n items of type T by the
 * packet index KEY(item) (below limit) but its low RUN_BITS bits, stably,
 * using scratch (room for n items); the result is back in items. */
#define DEFINE_SORT_BY_PACKET(name, T, KEY)                                       \
    static void name(T *items, size_t n, T *scratch, uint32_t limit)              \
    {                                                                              \
        unsigned low, passes, bits;                                                \
        radix_plan(limit, &low, &passes, &bits);                                   \
        uint32_t count[1u << RADIX_BITS], mask = (1u << bits) - 1;                 \
        T *from = items, *to = scratch;                                            \
        for (unsigned pass = 0; pass < passes; pass++) {                           \
            unsigned shift = low + pass * bits;                                    \
            memset(count, 0, (mask + 1) * sizeof count[0]);                        \
            for (size_t i = 0; i < n; i++)                                         \
                count[(KEY(from[i]) >> shift) & mask]++;                           \
            uint32_t sum = 0;                                                      \
            for (uint32_t d = 0; d <= mask; d++) {                                 \
                uint32_t c = count[d];                                             \
                count[d] = sum;                                                    \
                sum += c;                                                          \
            }                                                                      \
            for (size_t i = 0; i < n; i++)                                         \
                to[count[(KEY(from[i]) >> shift) & mask]++] = from[i];             \
            T *swap = from;                                                        \
            from = to;                                                             \
            to = swap;                                                             \
        }                                                                          \
        if (from != items)                                                         \
            memcpy(items, from, n * sizeof *items);                                \
    }

#define INDEX_KEY(x) (x)
#define ON_LINK_KEY(e) ((e).packet)
DEFINE_SORT_BY_PACKET(sort_indices, uint32_t, INDEX_KEY)
DEFINE_SORT_BY_PACKET(sort_on_links, OnLink, ON_LINK_KEY)

/* The packets on a lane's links, in all its lists. */
static size_t on_links_count(const NetLane *ln)
{
    size_t n = 0;
    for (unsigned c = 0; c < ARRIVAL_CLASSES; c++)
        n += ln->on_links[c].n;
    return n;
}

/* Sorts a lane's lists of this timestep (see above): the claimants, and the
 * packets on links when there are as many of them, class by class. */
static void sort_lane(const Net *net, NetLane *ln)
{
    if (ln->claimers.n >= net->sort_min)
        sort_indices(ln->claimers.items, ln->claimers.n, (uint32_t *)ln->scratch.items,
                     net->pool_cap);
    if (on_links_count(ln) >= net->sort_min)
        for (unsigned c = 0; c < ARRIVAL_CLASSES; c++)
            sort_on_links(ln->on_links[c].items, ln->on_links[c].n, ln->scratch.items,
                          net->pool_cap);
}

/* Asks for memory that will be needed soon (a hint; nothing if the compiler
 * has no way to say it). The stages visit packets in no order that the
 * memory system could guess, so each packet and switch is a cache miss;
 * asking AHEAD packets ahead overlaps them (a miss costs 125-200 ns on the
 * machine of docs/performance.md: more than eight iterations). */
#define INLINE NET_HOT
#if defined(__GNUC__)
#define PREFETCH(address) __builtin_prefetch(address)
#define PREFETCH_WRITE(address) __builtin_prefetch(address, 1)
#else
#define PREFETCH(address) ((void)(address))
#define PREFETCH_WRITE(address) ((void)(address))
#endif
enum { AHEAD = 16 };

/* The prefetch helpers must be inlined where they are used (NET_HOT): GCC
 * takes a separate function that only prefetches for one without effect
 * and drops every call to it, as it long did for stage d unnoticed
 * (docs/performance.md, item 26). */

/* The loops look ahead without a bound: before a loop, the entries after
 * its list's end are zeroed -- packet 0, which is never a packet, heading
 * for switch 0 -- so what they prefetch there is harmless. */
static void pad_claimers(IndexList *l)
{
    net_list_reserve(l, l->n + 2 * AHEAD);
    memset(l->items + l->n, 0, 2 * AHEAD * sizeof *l->items);
}

static void pad_on_links(OnLinkList *l)
{
    net_links_reserve(l, l->n + AHEAD);
    memset(l->items + l->n, 0, AHEAD * sizeof *l->items);
}

/* Two steps ahead of use: the packet 2 * AHEAD on, and a line that the
 * packet AHEAD on (whose own line has arrived) is about to touch: in stage
 * b (--duplex half) the temp slot of the channel it claims; in stage e the
 * buffer it leaves (with --duplex full also its link's slot), or for an
 * adapter's packet the slot of its first link. */
NET_HOT void prefetch_claim(const Net *net, const NetLane *ln, size_t i, bool stage_b)
{
    const uint32_t *ahead = &ln->claimers.items[i];
    PREFETCH(&net->pool[ahead[2 * AHEAD]]);
    uint32_t x = ahead[AHEAD];
    const Packet *pk = &net->pool[x];
    unsigned layer;
    if (stage_b) {
        if (x != NET_NIL)
            PREFETCH(&net->channels[wanted_channel(net, pk, &layer)]);
    } else if (pk->place == PLACE_BUFFER) {
        PREFETCH(&net->buffers[pk->at]);
    } else if (x != NET_NIL) {
        PREFETCH(channel_main(net, wanted_channel(net, pk, &layer)));
    }
}

/* Before a loop over the claimants: the first AHEAD of them. */
static void prefetch_first_claims(const Net *net, const NetLane *ln)
{
    for (size_t i = 0; i < AHEAD && i < ln->claimers.n; i++)
        PREFETCH(&net->pool[ln->claimers.items[i]]);
}

/* The packet on a link AHEAD on in a list of stage d, and the switch it
 * enters: both known from the list. */
NET_HOT void prefetch_link(const Net *net, const OnLink *e)
{
    PREFETCH(&net->pool[e->packet]);
    PREFETCH(&net->buffers[(e->heading >> 1) & ~3u]);
}

/* Before stage c: sets the arrival bit of every awake packet on a last
 * link -- bit `plane` of the processor it comes down to -- so that the
 * older of two packets arriving at one processor can be delivered first
 * without looking at the other plane's link when it has none. Delivering a
 * packet clears its bit, so all are clear again when stage c ends. */
static void mark_deliveries(Net *net)
{
    for (unsigned i = 0; i < net->nlanes; i++) {
        const OnLinkList *l = &net->lane[i].on_links[ARRIVE_DELIVERY];
        for (size_t j = 0; j < l->n; j++) {
            uint32_t h = l->items[j].heading;
            net->arrivals_down[h >> 2] |= (uint8_t)(1u << ((h >> 1) & 1));
        }
    }
}

/* ---- sleeping and waking ---------------------------------------------------- */

/* Whether packets may sleep: not when every event must be reported. */
static bool may_sleep(const Net *net)
{
    return net->event == NULL;
}

/* The counter a sleeper adds to every timestep, among the counters st. */
static uint64_t *sleep_counter(NetStats *st, const Packet *pk)
{
    switch ((PacketSleep)pk->asleep) {
    case ASLEEP_BUFFER: return &st->asleep_buffer[pk->sleep_dir][pk->sleep_layer];
    case ASLEEP_CLAIM:  return &st->asleep_link[pk->sleep_dir][pk->sleep_layer];
    case ASLEEP_PORT:   return &st->asleep_port;
    case AWAKE:         break;
    }
    return NULL;
}

/* Puts packet x to sleep on list *head, charged to (dir, layer). */
static void fall_asleep(Net *net, NetStats *st, uint32_t x, PacketSleep why, uint32_t *head,
                        unsigned dir, unsigned layer)
{
    Packet *pk = &net->pool[x];
    pk->asleep = (uint8_t)why;
    pk->sleep_dir = (uint8_t)dir;
    pk->sleep_layer = (uint8_t)layer;
    pk->wait_next = *head;
    *head = x;
    (*sleep_counter(st, pk))++;
    st->asleep++;
}

static void wake(Net *net, NetStats *st, uint32_t x)
{
    Packet *pk = &net->pool[x];
    (*sleep_counter(st, pk))--;
    st->asleep--;
    pk->asleep = AWAKE;
}

/* Wakes the packets on list *head: link packets onto a lane's list of
 * packets on links, and with each the claimants asleep on its channel onto
 * its list of claimants -- this timestep's lists or (`next`) the next
 * timestep's -- of lane ln, or with ln NULL of each packet's own lane.
 * Pushes are checked: waking from stage 1 happens outside net_step's
 * reserved lists. */
static void wake_list(Net *net, NetLane *ln, NetStats *st, uint32_t *head, bool next)
{
    for (uint32_t x = *head, nx; x != NET_NIL; x = nx) {
        nx = net->pool[x].wait_next;
        wake(net, st, x);
        /* Not taken for handled already in the stage c or d it wakes for,
         * however long it slept (marks keep 32 bits of a timestep). */
        net->pool[x].mark = (uint32_t)net->timestep - (next ? 0 : 1);
        NetLane *own = ln ? ln : lane_of(net, &net->pool[x]);
        uint32_t heading = heading_of(net, &net->pool[x]);
        unsigned class = arrival_class(heading);
        OnLinkList *links = next ? &own->next_on_links[class] : &own->on_links[class];
        IndexList *claims = next ? &own->next_claimers : &own->claimers;
        net_links_reserve(links, links->n + 1);
        links_push(links, x, heading);
        Channel *ch = &net->channels[net->pool[x].at];
        for (uint32_t y = ch->sleepers, ynext; y != NET_NIL; y = ynext) {
            ynext = net->pool[y].wait_next;
            wake(net, st, y);
            net_list_reserve(claims, claims->n + 1);
            list_push(claims, y);
        }
        ch->sleepers = NET_NIL;
    }
    *head = NET_NIL;
}

void net_wake_port(Net *net, uint32_t port)
{
    /* Stage 1 of this timestep: they try again in this timestep's stage c,
     * and their claimants in its stage b. */
    wake_list(net, NULL, &net->stats, &net->ports[port].sleepers, false);
}

/* Each timestep, every sleeper fails once more: its collision or wait. */
static void count_sleepers(Net *net)
{
    NetStats *st = &net->stats;
    if (st->asleep == 0)
        return;
    for (int d = 0; d < 2; d++)
        for (unsigned l = 1; l <= net->cfg.k; l++) {
            st->link_collisions[d][l] += st->asleep_link[d][l];
            st->link_total += st->asleep_link[d][l];
            st->buffer_collisions[d][l] += st->asleep_buffer[d][l];
            st->buffer_total += st->asleep_buffer[d][l];
        }
    st->port_waits += st->asleep_port;
}

static void emit(Net *net, NetEventKind kind, const Packet *pk, uint32_t place,
                 PacketPlace place_kind, unsigned layer, unsigned value)
{
    if (net->event) {
        NetEvent ev = { kind, net->timestep, pk, net_info(net, pk), place, (uint8_t)place_kind,
                        (uint8_t)layer, (uint8_t)value };
        net->event(net->event_ctx, &ev);
    }
}

/* ---- stages a and b: claims ---------------------------------------------- */

/* A failed claim: one link collision, charged to the claimant's direction
 * and the link's layer; the claimant stays and tries again next timestep. */
static void claim_failed(Net *net, NetLane *ln, Packet *pk, uint32_t c, unsigned layer)
{
    ln->stats->link_collisions[pk->dir][layer]++;
    ln->stats->link_total++;
    emit(net, EV_LINK_COLLISION, pk, c, PLACE_LINK, layer, 0);
    list_push(&ln->next_claimers, (uint32_t)(pk - net->pool));
}

static void stage_claims(Net *net, NetLane *ln)
{
    prefetch_first_claims(net, ln);
    for (size_t i = 0; i < ln->claimers.n; i++) {
        prefetch_claim(net, ln, i, true);
        uint32_t x = ln->claimers.items[i];
        Packet *pk = &net->pool[x];
        unsigned layer;
        uint32_t c = wanted_channel(net, pk, &layer);
        Channel *ch = &net->channels[c];
        if (ch->temp == NET_NIL) {
            ch->temp = x;
        } else if (pk->dir == DIR_UP) {
            /* Half duplex: the downward claimant came second in the spec's
             * order and failed at once. */
            Packet *loser = &net->pool[ch->temp];
            ch->temp = x;
            claim_failed(net, ln, loser, c, layer);
        } else {
            claim_failed(net, ln, pk, c, layer);
        }
    }
}

/* ---- stages c and d: delivery and forwarding ----------------------------- */

/* Appends packet x to the FIFO (head, tail) that held `count` packets: it
 * is linked behind the last packet, or made the head, by one store to a
 * chosen address, since under load whether a buffer is empty is as good as
 * random (docs/performance.md, item 37). */
NET_HOT void fifo_push(Net *net, uint32_t *head, uint32_t *tail, uint32_t count, uint32_t x)
{
    net->pool[x].next = NET_NIL;
    *(count ? &net->pool[*tail].next : head) = x;
    *tail = x;
}

/* Packet pk, on a link, was refused: its slot is marked (net_internal.h,
 * SLOT_BLOCKED), once, so that stage e sees the link is taken. */
NET_HOT void link_refused(Net *net, Packet *pk, uint32_t x)
{
    if (!(pk->next & SLOT_BLOCKED)) {
        *holder_slot(net, pk->next) = x | SLOT_BLOCKED;
        pk->next |= SLOT_BLOCKED;
    }
}

/* Packet pk gets off its link: its slot is emptied if it was marked. */
NET_HOT void link_left(Net *net, const Packet *pk)
{
    if (pk->next & SLOT_BLOCKED)
        *holder_slot(net, pk->next & ~SLOT_BLOCKED) = NET_NIL;
}

static void record_latency(NetStats *st, uint64_t latency)
{
    if (st->delivered == 1 || latency < st->latency_min)
        st->latency_min = latency;
    if (latency > st->latency_max)
        st->latency_max = latency;
    st->latency_sum += latency;
    if (latency >= st->latency_hist_len) {
        size_t len = st->latency_hist_len ? st->latency_hist_len : 64;
        while (len <= latency)
            len *= 2;
        uint64_t *h = realloc(st->latency_hist, len * sizeof *h);
        if (!h)
            abort();
        for (size_t i = st->latency_hist_len; i < len; i++)
            h[i] = 0;
        st->latency_hist = h;
        st->latency_hist_len = len;
    }
    st->latency_hist[latency]++;
}

/* Stage c for one packet on the last link down to processor p. */
static void deliver(Net *net, uint32_t x, uint32_t p, uint32_t heading)
{
    Packet *pk = &net->pool[x];
    uint32_t slot = p * net->cfg.ports + pk->port;
    Fifo *port = &net->ports[slot];
    if (port->count >= net->cfg.port_depth) {
        net->stats.port_waits++;
        emit(net, EV_PORT_WAIT, pk, p, PLACE_PORT, 1, 0);
        link_refused(net, pk, x);
        if (may_sleep(net))
            fall_asleep(net, &net->stats, x, ASLEEP_PORT, &port->sleepers, 0, 0);
        else
            links_push(&lane_of(net, pk)->next_on_links[ARRIVE_DELIVERY], x, heading);
        return;
    }
    link_left(net, pk);
    pk->place = PLACE_PORT;
    pk->at = slot;
    fifo_push(net, &port->head, &port->tail, port->count++, x);
    net->in_flight--;
    list_push(&net->woken, p);
    net->stats.delivered++;
    record_latency(&net->stats, net->timestep - net->info[x].created);
    net->moved = true;
    emit(net, EV_DELIVERED, pk, p, PLACE_PORT, 0, 0);
}

/* Stage d for packet x on a link, heading (4s + q) << 1: it enters an
 * output buffer of switch s, arriving on port q, if there is room.
 * `observed` is a constant in each copy of the loop that calls it (an
 * observer wants every event), so that the copy run without one has no
 * check for events left in it. Returns whether it entered (forward_all
 * counts what every packet would otherwise write to the lane). */
INLINE bool forward_on_link(Net *net, NetLane *ln, uint32_t x, uint32_t heading, bool observed)
{
    Packet *pk = &net->pool[x];
    uint32_t s = heading >> 3;
    /* The switch's layer: its link's going up, the one below coming down. */
    unsigned l = pk->layer - (pk->dir == DIR_DOWN);
    unsigned out, dir = DIR_DOWN, bit = l - 1;
    bool choice = false;
    if (pk->dir == DIR_UP && l < pk->count) {
        dir = DIR_UP;
        if (net->cfg.adaptive) {
            uint32_t c0 = net->buffers[4 * s + 2].count, c1 = net->buffers[4 * s + 3].count;
            /* (ties: bit `bit` of the destination, which is in addressing) */
            out = 2 + (c0 == c1 ? (pk->addressing >> bit) & 1 : c1 < c0);
            choice = true;
        } else {
            out = 2 + ((pk->routing >> bit) & 1);
        }
    } else {
        out = (pk->addressing >> bit) & 1;   /* the turn, or on the way down */
    }
    uint32_t b = 4 * s + out;
    Buffer *buf = &net->buffers[b];
    if (buf->count >= net->cfg.buffer) {
        ln->stats->buffer_collisions[dir][l]++;
        ln->stats->buffer_total++;
        if (observed)
            emit(net, EV_BUFFER_FULL, pk, b, PLACE_BUFFER, l, 0);
        link_refused(net, pk, x);
        if (!observed && !choice) {
            fall_asleep(net, ln->stats, x, ASLEEP_BUFFER, &net->buffer_sleepers[b], dir, l);
            buf->sleepy = 1;
        } else
            links_push(&ln->next_on_links[arrival_class(heading)], x, heading);
        return false;
    }
    link_left(net, pk);
    if (choice) {
        pk->routing |= (uint32_t)(out - 2) << bit;
        if (observed)
            emit(net, EV_ADAPTIVE_CHOICE, pk, b, PLACE_BUFFER, l, out - 2);
    }
    pk->dir = (uint8_t)dir;
    pk->place = PLACE_BUFFER;
    pk->at = b;
    pk->layer = (uint8_t)l;
    /* Behind another packet, a packet is a buffer collision, unless that
     * packet leaves in this stage e and this one is then at the head. That
     * can happen only to the one right behind the head, which is listed
     * for take_back_collisions to look at after stage e. At the head, it
     * claims in the next timestep. */
    uint32_t count = buf->count;
    if (count != 0) {
        ln->stats->buffer_collisions[dir][l]++;
        ln->stats->buffer_total++;
        if (count == 1)
            ln->behind.items[ln->behind.n++] = (Behind){ x, b };
    } else {
        list_push(&ln->next_claimers, x);
    }
    if (count + 1u > ln->stats->max_buffer)
        ln->stats->max_buffer = count + 1u;
    fifo_push(net, &buf->head, &buf->tail, count, x);
    buf->count = (uint16_t)(count + 1);
    if (observed && buf->entered++ == 0)
        list_push(&ln->touched, b);          /* for report_queued */
    if (observed)
        emit(net, EV_ENTERED, pk, b, PLACE_BUFFER, l, 0);
    return true;
}

/* Stage c for packet x, marked as handled, on the last link down to
 * processor heading >> 2: delivered, but the older of the processor's two
 * arriving packets (one per plane) first. */
static void deliver_on_link(Net *net, uint32_t x, uint32_t heading)
{
    Packet *pk = &net->pool[x];
    uint32_t p = heading >> 2;
    net->arrivals_down[p] &= (uint8_t)~(1u << pk->plane);
    if (net->arrivals_down[p]) {
        uint32_t other = link_channel(net, proc_link(net, p, 1u - pk->plane), DIR_DOWN);
        /* (The bit says the other link's slot holds its packet, marked
         * or not: see SLOT_BLOCKED.) */
        uint32_t y = *channel_main(net, other) & ~SLOT_BLOCKED;
        if (y != NET_NIL && net->pool[y].place == PLACE_LINK && net->pool[y].dir == DIR_DOWN &&
            net->info[y].id < net->info[x].id && net->pool[y].asleep == AWAKE &&
            net->pool[y].mark != (uint32_t)net->timestep) {
            net->pool[y].mark = (uint32_t)net->timestep;
            deliver_on_link(net, y, p << 2 | (1u - pk->plane) << 1 | 1);
        }
    }
    deliver(net, x, p, heading);
}

/* Stage c: the packets on the lanes' last links, delivered by one thread
 * after stage d (for one lane as for two), oldest first at each processor. */
static void stage_deliveries(Net *net)
{
    mark_deliveries(net);
    for (unsigned i = 0; i < net->nlanes; i++) {
        const OnLinkList *l = &net->lane[i].on_links[ARRIVE_DELIVERY];
        for (size_t j = 0; j < l->n; j++) {
            if (j + 2 * AHEAD < l->n)
                PREFETCH(&net->pool[l->items[j + 2 * AHEAD].packet]);
            if (j + AHEAD < l->n) {   /* the input port it enters, the slot it
                                         leaves if it must empty it, and the
                                         rest of it (its age) */
                const OnLink *e = &l->items[j + AHEAD];
                const Packet *ahead = &net->pool[e->packet];
                uint32_t p = e->heading >> 2;
                PREFETCH(&net->ports[p * net->cfg.ports + ahead->port]);
                if (ahead->place == PLACE_LINK && (ahead->next & SLOT_BLOCKED))
                    PREFETCH_WRITE(holder_slot(net, ahead->next & ~SLOT_BLOCKED));
                PREFETCH(&net->info[e->packet]);
            }
            Packet *pk = &net->pool[l->items[j].packet];
            /* (Not delivered first already, nor put to sleep then.) */
            if (pk->asleep == AWAKE && pk->mark != (uint32_t)net->timestep) {
                pk->mark = (uint32_t)net->timestep;
                deliver_on_link(net, l->items[j].packet, l->items[j].heading);
            }
        }
    }
}

/* ---- stage e: claims made final, and buffer collisions ------------------- */

/* Makes claimant x's claim final if the main slot of the link it claims is
 * empty; else a link collision. With --duplex half, only if it holds the
 * channel's temp slot, which it empties (else it lost in stage b, and that
 * collision is counted). `observed` as for forward_on_link. Returns
 * whether it is now on the link (commit_claims counts them). */
INLINE bool commit_claim(Net *net, NetLane *ln, uint32_t x, bool observed)
{
    Packet *pk = &net->pool[x];
    unsigned layer;
    uint32_t heading, c = claim_target(net, pk, &layer, &heading);
    if (!net->cfg.full_duplex) {
        Channel *ch = &net->channels[c];
        if (ch->temp != x)
            return false;                /* it lost the temp slot in stage b */
        ch->temp = NET_NIL;
    }
    uint32_t holder, *link;
    if (pk->place == PLACE_BUFFER && net->cfg.full_duplex) {
        holder = pk->at;                /* the slot it sends into */
        link = &net->buffers[holder].link;
    } else {
        holder = channel_holder(net, c);
        link = holder_slot(net, holder);
    }
    if (*link & SLOT_BLOCKED) {         /* (else empty, or its packet has left) */
        if (!observed && net->pool[*link & ~SLOT_BLOCKED].asleep != AWAKE) {
            /* The link's packet sleeps: so does the claimant, counting
             * this timestep's collision now and the next ones by counter. */
            ln->stats->link_collisions[pk->dir][layer]++;
            ln->stats->link_total++;
            fall_asleep(net, ln->stats, x, ASLEEP_CLAIM, &net->channels[c].sleepers, pk->dir,
                        layer);
        } else {
            claim_failed(net, ln, pk, c, layer);
        }
        return false;
    }
    if (pk->place == PLACE_SLOT) {
        net->out_slot[pk->at] = NET_NIL;       /* (at: its source) */
        list_push(&ln->woken, pk->at);
    } else {
        /* The next packet, if any, is the head and claims next timestep.
         * Whether there is one is as good as random under load, so the
         * entry is written without a branch and counted only if it is a
         * packet (the list has room for one more: lane_first_half). An
         * empty buffer's tail is not looked at. */
        Buffer *buf = &net->buffers[pk->at];
        buf->head = pk->next;
        buf->count--;
        ln->next_claimers.items[ln->next_claimers.n] = pk->next;
        ln->next_claimers.n += pk->next != NET_NIL;
        if (buf->sleepy) {              /* room: they try next timestep */
            buf->sleepy = 0;
            wake_list(net, ln, ln->stats, &net->buffer_sleepers[pk->at], true);
        }
    }
    *link = x;
    pk->next = holder;
    pk->place = PLACE_LINK;
    pk->at = c;
    pk->layer = (uint8_t)layer;
    pk->links++;
    pk->mark = (uint32_t)net->timestep;  /* a fresh mark: stage d is over */
    links_push(&ln->next_on_links[arrival_class(heading)], x, heading);
    if (observed)
        emit(net, EV_CLAIMED, pk, c, PLACE_LINK, pk->layer, 0);
    return true;
}

/* After stage e: a packet that entered right behind a head in this stage d
 * was counted as a buffer collision then; if the head has left and it is at
 * the head itself, it is not one. This reads the listed buffers, in order
 * and prefetched ahead: switch lines, which the stages use every timestep.
 * Reading instead, in stage e, whether each new head had just entered took
 * a line of the packet pool per hop (docs/performance.md, item 35). */
static void take_back_collisions(Net *net, NetLane *ln)
{
    const Behind *e = ln->behind.items;
    size_t n = ln->behind.n;
    for (size_t i = 0; i < n; i++) {
        if (i + AHEAD < n)
            PREFETCH(&net->buffers[e[i + AHEAD].buffer]);
        uint32_t b = e[i].buffer;
        if (net->buffers[b].head == e[i].packet) {
            unsigned dir = (b & 3) < 2 ? DIR_DOWN : DIR_UP;
            ln->stats->buffer_collisions[dir][sw_layer(net, b >> 2)]--;
            ln->stats->buffer_total--;
        }
    }
    ln->behind.n = 0;
}

/* For an observer, after stage e: an EV_QUEUED event for every packet that
 * entered buffer b in this timestep and is not at its head (the buffer
 * collisions of the timestep, counted in stages d and e). */
static void report_queued(Net *net, uint32_t b)
{
    const Buffer *buf = &net->buffers[b];
    uint32_t queued = buf->entered;
    if (buf->count == buf->entered)
        queued--;                         /* the head itself entered now */
    uint32_t skip = buf->count - queued, y = buf->head;
    for (uint32_t n = 0; y != NET_NIL; y = net->pool[y].next, n++)
        if (n >= skip)
            emit(net, EV_QUEUED, &net->pool[y], b, PLACE_BUFFER, sw_layer(net, b >> 2), 0);
}

/* The claims of stages a and b made final, in the claimants' order. With
 * --duplex full every channel has one sender (the buffer or adapter at its
 * tail end), so stage b had nothing to decide and every claim is made final
 * here; with --duplex half, those that hold their channel's temp slot
 * (commit_claim passes over the others, which lost in stage b). */
NET_HOT void commit_claims(Net *net, NetLane *ln, bool observed)
{
    uint64_t crossed = 0;
    prefetch_first_claims(net, ln);
    for (size_t i = 0; i < ln->claimers.n; i++) {
        prefetch_claim(net, ln, i, false);
        crossed += commit_claim(net, ln, ln->claimers.items[i], observed);
    }
    ln->stats->links_crossed += crossed;
    if (crossed)
        ln->moved = true;
}

static void stage_commit(Net *net, NetLane *ln)
{
    if (!net->event)
        commit_claims(net, ln, false);
    else
        commit_claims(net, ln, true);
    take_back_collisions(net, ln);
    if (!net->event)
        return;
    /* The observer is told which packets queued: those that entered this
     * timestep and are not at the head, the last `entered` of the FIFO but
     * the head. The entry counts are cleared for the next timestep. */
    for (size_t i = 0; i < ln->touched.n; i++) {
        report_queued(net, ln->touched.items[i]);
        net->buffers[ln->touched.items[i]].entered = 0;
    }
    ln->touched.n = 0;
}

/* Stage d, round by round: first every packet arriving on a d0 port, then
 * d1, u0 and u1 (see the head of this file). */
NET_HOT void forward_all(Net *net, NetLane *ln, bool observed)
{
    size_t entered = 0;
    for (unsigned q = 0; q < 4; q++) {
        const OnLinkList *l = &ln->on_links[q];
        for (size_t i = 0; i < AHEAD && i < l->n; i++)
            prefetch_link(net, &l->items[i]);
        for (size_t i = 0; i < l->n; i++) {
            prefetch_link(net, &l->items[i + AHEAD]);
            const OnLink *e = &l->items[i];
            entered += forward_on_link(net, ln, e->packet, e->heading, observed);
        }
    }
    if (entered)
        ln->moved = true;
}

/* Stages a, b and d of one lane. */
static void lane_first_half(Net *net, NetLane *ln)
{
    ln->next_claimers.n = 0;
    for (unsigned c = 0; c < ARRIVAL_CLASSES; c++)
        ln->next_on_links[c].n = 0;
    ln->woken.n = 0;
    ln->moved = false;
    if (ln->claimers.n == 0 && on_links_count(ln) == 0)
        return;
    IndexList *lists[] = { &ln->next_claimers, &ln->touched, &ln->woken };
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++)
        net_list_reserve(lists[i], net->in_flight + 1);   /* (+ 1: commit_claim) */
    for (unsigned c = 0; c < ARRIVAL_CLASSES; c++)
        net_links_reserve(&ln->next_on_links[c], net->in_flight);
    net_links_reserve(&ln->scratch, net->in_flight);
    behind_reserve(&ln->behind, net->in_flight);
    sort_lane(net, ln);
    pad_claimers(&ln->claimers);
    for (unsigned q = 0; q < 4; q++)
        pad_on_links(&ln->on_links[q]);

    if (!net->cfg.full_duplex)
        stage_claims(net, ln);                          /* a, b */
    if (net->event)                                     /* d */
        forward_all(net, ln, true);
    else
        forward_all(net, ln, false);
}

/* Stage e of one lane, and its lists made the next timestep's. */
static void lane_second_half(Net *net, NetLane *ln)
{
    if (ln->claimers.n == 0 && on_links_count(ln) == 0)
        return;
    stage_commit(net, ln);                              /* e */
    IndexList swap = ln->claimers;
    ln->claimers = ln->next_claimers;
    ln->next_claimers = swap;
    for (unsigned c = 0; c < ARRIVAL_CLASSES; c++) {
        OnLinkList links = ln->on_links[c];
        ln->on_links[c] = ln->next_on_links[c];
        ln->next_on_links[c] = links;
    }
}

static void run_first_halves(void *arg, unsigned lane)
{
    Net *net = arg;
    if (lane < net->nlanes)
        lane_first_half(net, &net->lane[lane]);
}

static void run_second_halves(void *arg, unsigned lane)
{
    Net *net = arg;
    if (lane < net->nlanes)
        lane_second_half(net, &net->lane[lane]);
}

/* Runs fn for every lane: on the runner's threads, or one after another. */
static void run_lanes(Net *net, bool parallel, NetLaneFn *fn)
{
    if (parallel)
        net->runner(net->runner_ctx, fn, net);
    else
        for (unsigned i = 0; i < net->nlanes; i++)
            fn(net, i);
}

/* Adds a lane's counters to the network's, and clears them. Sums of
 * unsigned differences are exact modulo 2^64, so counters that went down in
 * a lane (sleepers woken) are added the same way. */
static void merge_lane(Net *net, NetLane *ln)
{
    NetStats *st = &net->stats, *d = &ln->delta;
    for (int dir = 0; dir < 2; dir++)
        for (unsigned l = 1; l <= net->cfg.k; l++) {
            st->link_collisions[dir][l] += d->link_collisions[dir][l];
            st->buffer_collisions[dir][l] += d->buffer_collisions[dir][l];
            st->asleep_link[dir][l] += d->asleep_link[dir][l];
            st->asleep_buffer[dir][l] += d->asleep_buffer[dir][l];
            d->link_collisions[dir][l] = d->buffer_collisions[dir][l] = 0;
            d->asleep_link[dir][l] = d->asleep_buffer[dir][l] = 0;
        }
    st->link_total += d->link_total;
    st->buffer_total += d->buffer_total;
    st->links_crossed += d->links_crossed;
    st->asleep += d->asleep;
    if (d->max_buffer > st->max_buffer)
        st->max_buffer = d->max_buffer;
    d->link_total = d->buffer_total = d->links_crossed = d->asleep = 0;
    d->max_buffer = 0;
}

void net_step(Net *net, uint64_t t)
{
    net->timestep = t;
    net->moved = false;
    net->woken.n = 0;
    count_sleepers(net);
    size_t work = 0;
    for (unsigned i = 0; i < net->nlanes; i++)
        work += net->lane[i].claimers.n + on_links_count(&net->lane[i]);
    if (work == 0)
        return;                 /* nothing awake in slots, on links or in buffers */
    net_list_reserve(&net->woken, net->in_flight);
    bool parallel = net->nlanes > 1 && net->runner && work >= net->parallel_min;
    run_lanes(net, parallel, run_first_halves);         /* a, b, d */
    stage_deliveries(net);                              /* c */
    run_lanes(net, parallel, run_second_halves);        /* e */
    for (unsigned i = 0; i < net->nlanes; i++) {
        NetLane *ln = &net->lane[i];
        if (ln->stats != &net->stats)
            merge_lane(net, ln);
        if (ln->woken.n) {              /* (a lane with no work has no list yet) */
            memcpy(net->woken.items + net->woken.n, ln->woken.items,
                   ln->woken.n * sizeof *ln->woken.items);
            net->woken.n += ln->woken.n;
        }
        net->moved |= ln->moved;
    }
}
