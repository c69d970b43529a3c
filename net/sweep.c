/* Stages d and e of the fast network stage (step.c has the stages, and
 * why visiting only the packets that move gives the spec's result), and
 * with stage e stages a and b: forwarding, claims made final, and buffer
 * collisions, swept a layer at a time (sweep_layers).
 *
 * This file is compiled for any network, with messages of several words
 * and without, and once for each common shape, with that shape's options
 * as constants (shape.h); SHAPE_SWEEP is the name of this compile's entry.
 *
 * What moves is a packet's pool index (net.h): the claimants are senders
 * (ports and adapters) listed by index, and the packets on links are
 * listed with the channel buffer they go to and the keeper of their
 * link's lanes. A hop is a buffer's head copied to a list in stage e,
 * which finds the buffer it goes to from the port's hop word (the switch
 * ahead, worked out from the topology when the port first sends) and the
 * port kept in its place word, and from the list to the places of that
 * buffer in stage d, which reads the packet's route word for the port it
 * will take after that; the packet's record in the pool is not read
 * (encode.h has the slot, place, target and hop words).
 *
 * Waiting packets sleep (sleep.c), with one channel: a packet that would
 * only fail again is not looked at until the event that can let it move,
 * and its collisions or port waits are counted meanwhile by kind,
 * direction and layer. */
#include "net/channel.h"
#include "net/events.h"
#include "net/message.h"
#include "net/multicast.h"
#include "net/sleep.h"
#include "net/sweep.h"
#include "net/wake.h"

#ifndef SHAPE_SWEEP
#error "net/sweep.c is compiled with -DSHAPE_name, a shape of shape.h (the Makefile's SHAPES)"
#endif

/* ---- claims: what a sender sends, and its failures ----------------------- */

/* A failed claim of channel v of sender h: one link collision, charged to
 * the claimant's direction, the link's layer and the channel; the claimant
 * stays and tries again next timestep (the caller lists it). */
static void claim_failed(Net *net, NetShare *sh, uint32_t h, unsigned v)
{
    unsigned layer, dir;
    uint32_t heading = claim_heading(&net->lay, h, &layer, &dir);
    count_link_collision(&net->lay, sh->counts, dir, layer, v);
    if (net->event) {
        uint32_t wire = link_wire(&net->lay, claim_link(&net->lay, h, heading, dir), dir);
        net_emit(net, settle_claimant(net, h, v),
                 (NetEvent){ .kind = EV_LINK_COLLISION, .place = wire * shape_vcs(&net->lay) + v,
                             .place_kind = PLACE_LINK, .layer = layer });
    }
}

/* ---- stages c and d: delivery and forwarding ----------------------------- */

/* Adaptive routing, stage d: the up buffer that the packet of entry e
 * (going to u0 of its switch) enters: of its channel's buffers of the two
 * up ports, the less full (ties: bit l - 1 of the destination, which is
 * in addressing). Returns that channel. */
HOT uint32_t choose_up_buffer(const Layout *lay, const OnLink *e)
{
    unsigned vs = shape_vshift(lay), v = target_channel(e->target, vs);
    uint32_t s = target_of(e->target, vs) >> 2;
    uint32_t m = flit_message(lay, e->packet);
    if (m != 0 && lay->flits[e->packet].index != 0) {     /* a body flit: its head's choice */
        unsigned up = (lay->message[m].routing >> (sw_layer(lay, s) - 1)) & 1;
        return channel_of(lay, 4 * s + 2 + up, v);
    }
    uint32_t c0 = buffer_count(lay, channel_of(lay, 4 * s + 2, v));
    uint32_t c1 = buffer_count(lay, channel_of(lay, 4 * s + 3, v));
    uint32_t tie = (lay->pool[e->packet].addressing >> (sw_layer(lay, s) - 1)) & 1;
    return channel_of(lay, 4 * s + 2 + (c0 == c1 ? tie : c1 < c0), v);
}

/* ...and its choice, recorded in its route once it entered channel c. */
static void record_choice(Net *net, const Layout *lay, uint32_t x, uint32_t c, bool observed)
{
    uint32_t b = channel_sender(lay, c);
    unsigned l = sw_layer(lay, b >> 2);
    uint32_t bit = (uint32_t)((b & 3) - 2) << (l - 1);
    lay->pool[x].routing |= bit;
    if (shape_compact(lay))
        lay->routes[x] |= bit;
    uint32_t m = flit_message(lay, x);
    if (m != 0) {
        if (lay->flits[x].index != 0)
            return;                     /* (its head made the choice, and told it) */
        lay->message[m].routing |= bit;
    }
    if (observed)
        net_emit(net, x, (NetEvent){ .kind = EV_ADAPTIVE_CHOICE, .place = channel_public(lay, c),
                                     .place_kind = PLACE_BUFFER, .layer = l, .value = (b & 3) - 2 });
}

/* Stage d: the packet of entry e of the run (arriving on port q = kind of
 * a switch of its layer) is refused by the full buffer of channel c: a
 * buffer collision. It stays on its link, in its lane, and sleeps until
 * the buffer has room (sleep.c) if it may; else it tries again next
 * timestep. */
HOT void refused_by_buffer(Sweep *sw, const OnLink *e, uint32_t c, bool sleeps, bool observed)
{
    const Layout *lay = sw->lay;
    Counters *counts = sw->sh->counts;
    unsigned q = sw->run->kind;
    uint32_t b = channel_sender(lay, c);
    unsigned l = sw_layer(lay, b >> 2), dir = (b & 3) >= 2 ? DIR_UP : DIR_DOWN;
    /* A body flit (it enters a buffer its message owns) refused by a full
     * one is held up by another message only if that one holds a flit of
     * another: the first, if any (messages.md). */
    bool head = !(keeper_flit(e->keeper) & FLIT_LATER);
    bool quiet = !head && same_message(lay, e->packet, place_packet(buffer_head_word(lay, c)));
    bool owned = head && shape_messages(lay) && lay->owner[c] != 0;
    if (!quiet)
        count_buffer_collisions(lay, counts, b, channel_v(lay, c), 1);
    if (observed) {
        settle_listed(sw->net, e, q);
        if (!quiet)
            net_emit(sw->net, e->packet, (NetEvent){
                     .kind = owned ? EV_BUFFER_OWNED : EV_BUFFER_FULL,
                     .place = channel_public(lay, c), .place_kind = PLACE_BUFFER, .layer = l,
                     .owner = owned ? lay->message[lay->owner[c]].id : 0 });
    }
    Sender *keeper = refuse(lay, e, q < 2);
    if (sleeps) {
        /* A head refused by a buffer another message owns waits for that
         * message's tail to enter it (wake_owned); any other, for room
         * (wake_buffer). While it sleeps the buffer's head stays, so
         * whether it counts a collision does too. */
        keeper->slot |= (uint8_t)(SLOT_ASLEEP | (quiet ? SLOT_QUIET : 0));
        lay->senders[c].waiting |= (uint8_t)(1u << (owned ? 4 + q : q));
        if (!quiet)
            counts->asleep_buffer[dir][l]++;
        counts->asleep++;
    } else {
        *sw->out.on_link[q * LIST_LAYERS + sw->run->layer]++ =
            (OnLink){ e->packet, e->target, e->keeper | KEEPER_REFUSED };
    }
}

/* Stage d, with V > 1: channel v's buffer of port b took its first
 * packet. A port that held none is listed to claim in the next timestep;
 * one that held some claims in this one, but stage b, which comes before
 * stage d in the spec, must not see this buffer (PortTurn.fresh). */
HOT void turn_entered(const Layout *lay, uint32_t **claim_end, uint32_t b, unsigned v)
{
    PortTurn *turn = turn_of(lay, b);
    if (turn->nonempty == 0) {
        *(*claim_end)++ = b;
    } else {
        if (turn->stamp != lay->now) {
            turn->stamp = lay->now;
            turn->fresh = 0;
        }
        turn->fresh |= (uint8_t)(1u << v);
    }
    turn->nonempty |= (uint8_t)(1u << v);
}

/* Stage d: packet x, of kind `flit` (encode.h), enters channel c's
 * buffer, which has room, to take port `port` in the switch ahead
 * (next_port): behind another packet
 * it is a buffer collision, unless that packet leaves in this stage e and
 * this one is then at the head. That can happen only to the one right
 * behind the head, which is listed for take_back_collisions to look at
 * after stage e. At the head, it claims in the next timestep. */
HOT void enter_buffer(Sweep *sw, uint32_t x, unsigned flit, unsigned port, uint32_t c,
                      bool observed)
{
    const Layout *lay = sw->lay;
    uint32_t count = buffer_push(sw->net, lay, c, place_word(x, flit, port));
    if (shape_messages(lay) && (flit & FLIT_OWNS)) {     /* (a head or a tail: one test for */
        entered_as_flit(lay, x, flit, c);               /* the body flits, most of them) */
        if (flit == FLIT_TAIL && (lay->senders[c].waiting & WAIT_OWNER))
            wake_owned(sw, c, sw->run->kind);
    }
    if (count != 0) {
        if (!(flit & FLIT_LATER)) {      /* (the queueing rule counts heads only) */
            count_buffer_collisions(lay, sw->sh->counts, channel_sender(lay, c),
                                    channel_v(lay, c), 1);
            if (count == 1)
                *sw->out.behind++ = (Behind){ c, x };
        }
        if (count + 1u > sw->max_count)  /* (1, for an empty buffer: forward_run) */
            sw->max_count = count + 1u;
    } else if (shape_vcs(lay) == 1) {
        *sw->claim_end++ = c;
    } else {
        turn_entered(lay, &sw->claim_end, channel_sender(lay, c), channel_v(lay, c));
    }
    if (observed)
        report_entered(sw->net, sw->sh, x, c);
}

/* The port that packet x, entering a down buffer of a switch of layer l
 * in a run with multicasts, takes in the switch below: that of its
 * route's addressing, read from its record, which stage d reads for its
 * set anyway (the route word of a multicast going down is not kept:
 * encode.h). A multicast takes any: it splits by its set there, whatever
 * the port. */
static inline unsigned down_port(const Layout *lay, uint32_t x, unsigned l)
{
    const Packet *pk = &lay->pool[x];
    return pk->set.hi != 0 ? 0 : ((pk->addressing << 1) >> (l - 1)) & 1;
}

/* Stage d for a multicast packet (entry e of the run) that goes down from
 * switch s: it needs the down buffers below
 * which its set has members. If every one of them has room it enters them
 * all at once, dividing into two packets when it needs both (the copy's
 * id comes after the stage: multicast.c); else it stays on its link,
 * whole, and that is one buffer collision. Refused, it sleeps on the
 * first full buffer it needs: until that one has room it is refused
 * every timestep, whatever the other (sleep.c). Returns whether it
 * entered. */
HOT bool forward_multicast(Sweep *sw, const OnLink *e, bool observed)
{
    Net *net = sw->net;
    const Layout *lay = sw->lay;
    unsigned vs = shape_vshift(lay), v = target_channel(e->target, vs);
    uint32_t x = e->packet, s = target_of(e->target, vs) >> 2;
    uint32_t down[2] = { channel_of(lay, 4 * s, v), channel_of(lay, 4 * s + 1, v) };
    unsigned l = sw_layer(lay, s);
    McPart part[2];
    mc_split(net, x, l, part);
    for (unsigned p = 0; p < 2; p++)
        if (part[p].n != 0 && !takes_flit(lay, x, FLIT_WORD, down[p], buffer_count(lay, down[p]),
                                          lay->cfg.buffer)) {
            refused_by_buffer(sw, e, down[p], may_sleep(net), observed);
            return false;
        }
    leave_link(lay, e);
    uint32_t y = NET_NIL;
    if (part[0].n != 0 && part[1].n != 0) {
        y = mc_divide(net, x, part);
        net->in_flight++;
        sw->sh->counts->stats.copies++;
        Split *sp = &sw->sh->splits.items[sw->sh->splits.n++];
        *sp = (Split){ mc_link_key(lay, s, sw->run->kind) << vs | v, x, y, s,
                       channel_public(lay, down[1]) };
    }
    if (part[0].n != 0)
        enter_buffer(sw, x, FLIT_WORD, down_port(lay, x, l), down[0], observed);
    if (part[1].n != 0) {
        uint32_t z = y != NET_NIL ? y : x;
        enter_buffer(sw, z, FLIT_WORD, down_port(lay, z, l), down[1], observed && z == x);
        if (observed && z == y) {           /* (its events come with its id: mc_give_ids) */
            if (net->entered[down[1]]++ == 0)
                list_push(&sw->sh->touched, down[1]);
            settle_in_buffer(net, y, down[1], NET_NIL, AWAKE);
        }
    }
    return true;
}

/* Stage d for the packet of entry e on a link, arriving on port q of the
 * switch ahead: it enters the output buffer its route names there
 * (e->target), if there is room. `observed` is a constant in each copy of
 * the loop that calls it (an observer wants every event), so that the copy
 * run without one has no check for events left in it. Returns whether it
 * entered (forward_run counts those that did not, which are rarer than
 * those that did, instead of what every packet would otherwise write to
 * the share). */
HOT bool forward_on_link(Sweep *sw, const OnLink *e, bool observed)
{
    const Layout *lay = sw->lay;
    uint32_t c = e->target, b = target_of(c, shape_vshift(lay));    /* (channel c of port b) */
    if (shape_multicast(lay) && (b & 3) < 2 && lay->pool[e->packet].set.hi != 0)
        return forward_multicast(sw, e, observed);
    bool choice = shape_adaptive(lay) && (b & 3) >= 2;
    if (choice) {
        c = choose_up_buffer(lay, e);
        b = channel_sender(lay, c);
    }
    /* (The layer and direction are worked out where they are used: most
     * packets, entering an empty buffer, need neither.) */
    unsigned flit = shape_messages(lay) ? keeper_flit(e->keeper) : FLIT_WORD;
    bool refused = !takes_flit(lay, e->packet, flit, c, buffer_count(lay, c), lay->cfg.buffer);
    /* (In the copies with messages, the refusal's work -- the layer, the
     * owner, whether it is quiet -- would be started for every flit before
     * the test, and its registers kept; said to be rare, it is not. In the
     * others, the hint would cost one-word packets instead.) */
    if (SHAPE_MESSAGES == 1 ? UNLIKELY(refused) : refused) {
        bool sleeps = !observed && !choice && shape_vcs(lay) == 1;
        refused_by_buffer(sw, e, c, sleeps, observed);
        return false;
    }
    leave_link(lay, e);
    uint32_t x = e->packet;
    if (choice)
        record_choice(sw->net, lay, x, c, observed);
    unsigned port = shape_multicast(lay) && (b & 3) < 2 ? down_port(lay, x, sw_layer(lay, b >> 2))
                                                  : next_port(lay, b, x);
    enter_buffer(sw, x, flit, port, c, observed);
    return true;
}

/* Stage d for the packets of a run arriving on port q of the switches of a
 * layer (the rounds d0, d1, u0, u1 of the head of this file are the runs
 * of a layer, in that order). */
HOT void forward_run(Sweep *sw, const SweepList *run, bool observed)
{
    size_t refused = 0;              /* (refusals, rare, are what is counted) */
    NetShare *sh = sw->sh;
    const OnLink *items = run->items;
    size_t n = run->n;
    sw->run = run;
    sw->max_count = sh->counts->stats.max_buffer;
    sw->claim_end = sw->out.claimant[run->layer];
    prefetch_run_start(sw->lay, run + 1);
    for (size_t i = 0; i < n; i++) {
        prefetch_on_link(sw->lay, &items[i + PREFETCH_DISTANCE]);
        if (!forward_on_link(sw, &items[i], observed))
            refused++;
    }
    sw->out.claimant[run->layer] = sw->claim_end;
    if (n > refused) {               /* some entered */
        sh->moved = true;
        if (sw->max_count == 0)      /* all entered empty buffers */
            sw->max_count = 1;
    }
    sh->counts->stats.max_buffer = sw->max_count;
}

/* ---- stage e: claims made final, and buffer collisions ------------------- */

/* Where the packets that sender h sends go once they are on its link: 4S
 * for the switch S ahead (the buffer 4S + q they enter there adds the
 * port q that their place word keeps), or on the last link down the
 * processor on a plane they come to; with their arrival class and the
 * list they go in, class * LIST_LAYERS + the layer they arrive at. For a
 * port, from its hop word (in its record, or with V > 1 its PortTurn),
 * worked out the first time it sends: no route is read. */
HOT uint32_t sender_ahead(const Layout *lay, uint32_t h, unsigned *class, unsigned *list)
{
    if (is_adapter(lay, h) || !shape_compact(lay)) {
        uint32_t ahead = hop_switch(lay, h, class);
        *list = *class * LIST_LAYERS + link_list_layer(lay, *class, ahead);
        return ahead;
    }
    uint32_t *kept = shape_vcs(lay) == 1 ? &lay->senders[h].hop : &turn_of(lay, h)->hop;
    uint32_t hop = *kept;
    if (hop == 0)                        /* (once in a port's life) */
        hop = *kept = hop_word(lay, h);
    *class = hop_class(hop);
    *list = hop_list(hop);
    return hop_ahead(hop);
}

/* Which lanes of the wire whose slots sender ki keeps hold a packet
 * refused there, so that they will not be free in stage e (bit v: lane
 * v; with --duplex half, of either direction, which share them): with one
 * channel its slot word says, with more its PortTurn. */
HOT unsigned lanes_blocked(const Layout *lay, uint32_t ki)
{
    if (shape_vcs(lay) == 1)
        return lay->senders[ki].slot & SLOT_BLOCKED;
    return turn_of(lay, ki)->blocked;
}

/* A mask of V channels rotated so that bit i is channel from + i (mod V):
 * the order of a port's round robin. */
static inline unsigned rotate_from(unsigned mask, unsigned from, unsigned V)
{
    if (from == 0)
        return mask;
    return ((mask >> from) | (mask << (V - from))) & ((1u << V) - 1);
}

/* Where the packets that a sender sends go (sender_ahead), the keeper of
 * its link's lanes, and the packet that took the link in this stage e
 * (commit_claim). */
typedef struct LinkAhead {
    uint32_t ahead;        /* 4S for the switch S ahead, or the processor's */
    unsigned class, list;  /* their arrival class, the list they go in */
    uint32_t keeper;
    uint32_t holder;       /* what holds up a claim with a free lane: the
                              packet another channel of the sender or the
                              other end sent, or NET_NIL */
} LinkAhead;

/* Stage e: channel v of sender h is held up, by the packet refused in its
 * lane or by the claim that took its link first: a link collision. With
 * one channel, if it is the lane's packet that holds it up (`by_lane`:
 * the lane's record, kept by sender ki, is `keeper`) and that packet
 * sleeps, the claim sleeps too, counting this timestep's collision now
 * and the next ones by counter (sleep.c). Returns whether it sleeps. */
HOT bool held_up(Sweep *sw, uint32_t h, unsigned v, const LinkAhead *to, bool by_lane,
                 bool observed)
{
    Counters *counts = sw->sh->counts;
    uint32_t ki = to->keeper;
    Sender *keeper = &sw->lay->senders[channel_of(sw->lay, ki, v)];
    bool quiet = false;
    if (shape_messages(sw->lay)) {
        /* What holds it up: the flit in its lane, or the one that took the
         * link; a flit of its own message is not a collision. */
        uint32_t by = by_lane ? keeper->slot_packet : to->holder;
        quiet = same_message(sw->lay, claimant_packet(sw->lay, h, v), by);
    }
    if (by_lane && shape_vcs(sw->lay) == 1 && !observed && (keeper->slot & SLOT_ASLEEP)) {
        unsigned link_layer, dir;
        claim_heading(sw->lay, h, &link_layer, &dir);
        keeper->slot |= ki == h ? CLAIM_ASLEEP : CLAIM_UP_ASLEEP;
        if (quiet) {
            keeper->slot |= ki == h ? CLAIM_QUIET : CLAIM_UP_QUIET;
        } else {
            count_link_collision(sw->lay, counts, dir, link_layer, v);
            counts->asleep_link[dir][link_layer]++;
        }
        counts->asleep++;
        return true;
    }
    if (!quiet)
        claim_failed(sw->net, sw->sh, h, v);
    return false;
}

/* Stage e: the packet of channel c of sender h, of kind `flit`, left for
 * its link. An adapter's output slot is free, or offers its message's
 * next flit; a buffer's next packet, if any, is its head, and a port with
 * a packet left claims next timestep (with V > 1 its pointer moves on to
 * the channel after c's); the packets asleep on the buffer's room wake. */
HOT void leave_sender(Sweep *sw, uint32_t h, uint32_t c, unsigned flit)
{
    const Layout *lay = sw->lay;
    if (is_adapter(lay, h)) {
        uint32_t p = adapter_proc(lay, h), x = lay->out_slot[p];
        lay->out_slot[p] = NET_NIL;
        if (flit != FLIT_HEAD && flit != FLIT_BODY)     /* (a tail, or a one-word packet) */
            list_push(&sw->sh->woken, p);
        else                            /* (it offers the next: message_continue) */
            list_push(&sw->sh->continuing, x);
        return;
    }
    bool more = buffer_pop(lay, c) != 0;
    if (shape_vcs(lay) > 1) {
        PortTurn *turn = turn_of(lay, h);
        unsigned v = channel_v(lay, c);
        turn->nonempty &= (uint8_t)~((unsigned)!more << v);
        turn->pointer = (uint8_t)(v + 1 == shape_vcs(lay) ? 0 : v + 1);
        more = turn->nonempty != 0;
    }
    /* Whether there is a next packet is as good as random under load, so
     * the entry is written without a branch and counted only if there is
     * (the list has room for one more: share_prepare). */
    *sw->claim_end = h;
    sw->claim_end += more;
    if (shape_vcs(lay) == 1 && (lay->senders[c].waiting & WAIT_ROOM)) {   /* room: they try next timestep */
        unsigned layer = sw->run->layer;
        sw->out.claimant[layer] = sw->claim_end;       /* (it may list one there) */
        wake_buffer(sw, h);
        sw->claim_end = sw->out.claimant[layer];
    }
}

/* Stage e for channel v of sender h, which claims its lane: its packet
 * leaves it for the link, to go where `to` says. */
HOT uint32_t send(Sweep *sw, uint32_t h, unsigned v, const LinkAhead *to, bool observed)
{
    const Layout *lay = sw->lay;
    uint32_t ahead = to->ahead, c = channel_of(lay, h, v), x, target;
    unsigned flit;                      /* (its kind goes on with it: encode.h) */
    if (is_adapter(lay, h)) {
        uint32_t up, down;
        x = lay->out_slot[adapter_proc(lay, h)];
        packet_route(lay, x, &up, &down);
        target = ahead + route_out(up, down, 1, true);
        flit = flit_kind(lay, x);
    } else {
        uint32_t word = buffer_head_word(lay, c);
        x = place_packet(word);
        target = ahead + place_port(word);
        flit = shape_messages(lay) ? place_flit(word) : FLIT_WORD;
    }
    leave_sender(sw, h, c, flit);
    *sw->out.on_link[to->list]++ =
        (OnLink){ x, target_word(target, v, shape_vshift(lay)), keeper_word(to->keeper, flit) };
    if (observed)
        report_claimed(sw->net, h, v, x);
    return x;
}

/* Under store-and-forward, the channels of port h (bit v: channel v)
 * whose buffer's head is a message's head waiting for its tail: they take
 * no part in stage b (messages.md). */
HOT unsigned gathering(const Layout *lay, uint32_t h)
{
    unsigned mask = 0;
    for (unsigned v = 0; v < shape_vcs(lay); v++) {
        uint32_t c = channel_of(lay, h, v);
        if (buffer_count(lay, c) != 0 &&
            waits_for_tail(lay, c, place_packet(buffer_head_word(lay, c))))
            mask |= 1u << v;
    }
    return mask;
}

/* Stages a, b and e for sender h (an adapter, or an output port), in one:
 * its channels that have a packet to send (one for an adapter; with V > 1
 * a port's non-empty channel buffers but those that took their first
 * packet in this stage d: PortTurn) are taken in round-robin order from
 * its pointer, and the first whose lane is free claims the link (with
 * --duplex half, unless the sender at the link's other end claimed it
 * first: claims are made final in the spec's order there, the lower end
 * first, sweep_layers); every other one is held up, a link collision.
 * With V = 1 this is machine.md's claim that succeeds if its link's main
 * slot is empty at stage e (channels.md). `observed` as for
 * forward_on_link. Returns whether a packet is now on the link
 * (commit_run counts the claims that failed, the rarer kind). */
HOT bool commit_claim(Sweep *sw, uint32_t h, bool observed)
{
    const Layout *lay = sw->lay;
    unsigned V = shape_vcs(lay);
    LinkAhead to;
    to.ahead = sender_ahead(lay, h, &to.class, &to.list);
    /* The keeper of its link's lanes: itself, but with --duplex half for a
     * claimant going up, the down port of the switch above it enters. */
    uint32_t ki = h, link = 0;
    if (!shape_full_duplex(lay)) {
        link = 2 * (h >> 2) + (h & 3);
        if (to.class < 2) {
            ki = to.ahead + to.class;
            link = 2 * (to.ahead >> 2) + to.class;
        }
    }
    to.keeper = ki;
    to.holder = NET_NIL;
    unsigned from = 0, held = 1;         /* (bit i: channel from + i) */
    if (V > 1) {                         /* (an adapter's pointer: its packet's channel) */
        const PortTurn *turn = turn_of(lay, h);
        from = turn->pointer;
        if (!is_adapter(lay, h)) {
            unsigned fresh = turn->stamp == lay->now ? turn->fresh : 0;
            held = rotate_from(turn->nonempty & ~fresh, from, V);
        }
    }
    if (shape_messages(lay) && shape_switching(lay) == SWITCHING_STORE_FORWARD && !is_adapter(lay, h))
        held &= ~rotate_from(gathering(lay, h), from, V);
    unsigned busy = rotate_from(lanes_blocked(lay, ki), from, V), open = held & ~busy;
    unsigned stopped = held;             /* those held up */
    bool sent = false, asleep = false;
    if (open != 0 && (shape_full_duplex(lay) || lay->temp_slots[link].temp != lay->now)) {
        unsigned i = (unsigned)__builtin_ctz(open), v = from + i;
        if (!shape_full_duplex(lay))
            lay->temp_slots[link].temp = lay->now;
        stopped &= ~(1u << i);
        uint32_t x = send(sw, h, v >= V ? v - V : v, &to, observed);
        if (shape_messages(lay)) {
            to.holder = x;
            if (!shape_full_duplex(lay))
                lay->temp_packet[link] = x;
        }
        sent = true;
    } else if (shape_messages(lay) && open != 0) {        /* the other end took the link */
        to.holder = lay->temp_packet[link];
    }
    for (; stopped != 0; stopped &= stopped - 1) {
        unsigned i = (unsigned)__builtin_ctz(stopped), v = from + i;
        v = v >= V ? v - V : v;
        /* (Only one channel's lanes hold sleeping packets: with more,
         * the lane's record is not read.) */
        asleep |= held_up(sw, h, v, &to, (busy >> i) & 1, observed);
    }
    if (!sent && !asleep)
        *sw->claim_end++ = h;
    return sent;
}

/* Stages a, b and e for a run of the claimants of a layer (or of the
 * adapters, layer 0), in their list's order (commit_claim). */
HOT void commit_run(Sweep *sw, const SweepList *run, bool observed)
{
    size_t failed = 0;               /* (failures, rarer, are what is counted) */
    const Layout *lay = sw->lay;
    const uint32_t *claimants = run->items;
    size_t n = run->n;
    sw->run = run;
    sw->claim_end = sw->out.claimant[run->layer];
    prefetch_run_start(lay, run + 1);
    for (size_t i = 0; i < n; i++) {
        prefetch_sender(lay, claimants[i + PREFETCH_DISTANCE]);
        if (!shape_full_duplex(lay) && i + PREFETCH_DISTANCE / 2 < n)    /* (a real read: its own) */
            prefetch_temp_slot(lay, claimants[i + PREFETCH_DISTANCE / 2]);
        if (!commit_claim(sw, claimants[i], observed))
            failed++;
    }
    sw->out.claimant[run->layer] = sw->claim_end;
    sw->sh->counts->stats.links_crossed += n - failed;
    if (n > failed)
        sw->sh->moved = true;
}

/* Stages d and e, a layer at a time. A claim made final in stage e needs
 * stage d done for the packets entering its buffer (whose room counts the
 * packet leaving: machine.md; which of its channels stage b sees:
 * channels.md) and for the packets on the link it claims (refused there,
 * they block their lanes), which enter buffers a layer above or below;
 * nothing else in the two stages depends on the other. So stage d runs
 * for layers 1 and 2, then stage e for the adapters and layer 1, then
 * stage d for layer 3 and stage e for layer 2, and so on: in every order
 * that keeps those two rules the outcome is the spec's (the head of
 * step.c; stage c, delivery, which a claim down a last link needs, ran
 * before). It also makes the claims of the two ends of a --duplex half
 * link in the spec's order, the lower end's (an adapter, or an up port of
 * the layer below) first.
 * This order is for the cache: stage e reads the line of every claimant's
 * buffer, and under load most of those lines had a packet enter in stage
 * d, two layers of work before rather than a whole network's, so they are
 * still in the cache. The lists are taken one after another (SweepList),
 * the empty ones left out. */
HOT void sweep_layers(Net *net, const Layout *lay, NetShare *sh, bool observed)
{
    SweepList runs[5 * LIST_LAYERS + 2];
    size_t nruns = 0;
    unsigned k = lay->cfg.k;
    for (unsigned l = 1; l <= k + 1; l++) {
        for (unsigned q = 0; q < 4 && l <= k; q++)                  /* d */
            if (sh->on_links[q][l].n || shape_messages(lay))      /* (wake_owned may list some) */
                runs[nruns++] = (SweepList){ sh->on_links[q][l].items, sh->on_links[q][l].n, q, l };
#ifndef NET_MUTANT
        unsigned e = l - 1;
#else
        unsigned e = l;     /* a deliberate mistake: e(l) before d(l + 1) (tests/cli/mutant.ki) */
#endif
        if (e == 1 && (sh->claimants[0].n || shape_messages(lay)))         /* e: adapters */
            runs[nruns++] = (SweepList){ sh->claimants[0].items, sh->claimants[0].n, CLAIMANTS, 0 };
        if (e >= 1 && e <= k && (sh->claimants[e].n || shape_messages(lay)))   /* e */
            runs[nruns++] = (SweepList){ sh->claimants[e].items, sh->claimants[e].n, CLAIMANTS, e };
    }
    runs[nruns] = (SweepList){ NULL, 0, CLAIMANTS, 0 };   /* (after the last) */
    prefetch_run_start(lay, &runs[0]);
    Sweep sw = { .net = net, .lay = lay, .sh = sh };
    appends_open(&sw.out, net, sh);
    for (size_t r = 0; r < nruns; r++) {
        if (shape_messages(lay))                  /* (what wake_owned listed since) */
            runs[r].n = runs[r].kind == CLAIMANTS ? sh->claimants[runs[r].layer].n
                                                  : sh->on_links[runs[r].kind][runs[r].layer].n;
        if (runs[r].kind == CLAIMANTS)
            commit_run(&sw, &runs[r], observed);
        else
            forward_run(&sw, &runs[r], observed);
    }
    appends_close(&sw.out, net, sh);
    take_back_collisions(lay, sh);
}

/* The sweep with and without an observer. `lay` is &net->lay, which
 * nothing changes while the sweep runs: as a restrict pointer, it tells
 * the compiler that no store of the sweep's changes it, so that the
 * layout's fields stay in registers across them (NOINLINE, for the
 * compiler keeps what restrict says only inside the function that
 * declares it). */
static NOINLINE void sweep_quiet(Net *net, const Layout *restrict lay, NetShare *sh)
{
    sweep_layers(net, lay, sh, false);
}

static NOINLINE void sweep_observed(Net *net, const Layout *restrict lay, NetShare *sh)
{
    sweep_layers(net, lay, sh, true);
}

/* This compile's copy of the sweep (shape.h): with an observer, only the
 * copies for any network run. */
void SHAPE_SWEEP(Net *net, NetShare *sh, bool observed)
{
    if (SHAPE_ANY && observed)
        sweep_observed(net, &net->lay, sh);
    else
        sweep_quiet(net, &net->lay, sh);
}
