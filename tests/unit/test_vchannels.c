/* Unit tests of virtual channels (spec/channels.md) through net.h, on
 * crafted traffic with chosen routes; the reference stage runs beside the
 * channel stage and the invariants are checked after every timestep.
 *
 * N = 4, one plane: switches (1,0) above processors 0 and 1, (1,1) above 2
 * and 3, and (2,0), (2,1) on top. A route of count 2 with up port 0 climbs
 * from (1,0) through its u0 to (2,0) and comes down into (1,1); a packet
 * alone takes 4c - 1 = 7 timesteps from its OUT to its input port. */
#include <stdlib.h>

#include "net/net.h"
#include "net/layout.h"
#include "net/places.h"
#include "tests/check.h"
#include "tests/unit/net_send.h"

static Net *make(bool full, unsigned vcs, unsigned buffer, NetEventFn *observe, void *ctx)
{
    NetConfig cfg = { 2, 1, full, buffer, 4, 1, false, vcs, SWITCHING_WORMHOLE };
    Net *net = net_new(&cfg);
    CHECK(net != NULL);
    if (observe)
        net_observe(net, observe, ctx);
    CHECK_EQ(net_compare_with_reference(net), 0);
    return net;
}

static void step(Net *net, uint64_t t) { step_checked(net, t, true); }

/* Sends from src to dst's port `port` along up port 0, if src's slot is
 * free; returns whether it sent. */
static bool send_routed(Net *net, uint32_t src, uint32_t dst, uint32_t port, uint64_t t)
{
    if (!net_out_free(net, src))
        return false;
    net_reserve_out(net, src);
    RouteRequest req = { src, dst, port, net_count_request(net, src), NULL, 0 };
    Route route = { 0, 2, 0, dst & 3 };
    net_inject(net, &req, &route, &(uint32_t){ (uint32_t)t }, t);
    return true;
}

/* ---- head-of-line blocking --------------------------------------------------------- */

typedef struct Latencies {
    uint64_t worst, delivered;
} Latencies;

static void note_port1(void *ctx, const NetEvent *ev)
{
    Latencies *l = ctx;
    if (ev->kind != EV_DELIVERED || ev->packet->port != 1)
        return;
    uint64_t latency = ev->timestep - ev->packet->created;
    if (latency > l->worst)
        l->worst = latency;
    l->delivered++;
}

/* Processor 0 sends to port 0 of processor 2, which reads it from
 * timestep 300 on;
 * processor 1 sends a packet every 20 timesteps to port 1 of processor 3,
 * which reads at once. Both come down the link from (2,0) into (1,1). With
 * one channel the stream to port 0 fills (1,1)'s buffer towards 2 and its
 * next packet waits on that link: from then on the packets to 3 wait too.
 * With two, each packet to port 1 arrives 7 timesteps after its OUT, as
 * if alone. */
static unsigned worst_port1_latency(unsigned vcs, bool full)
{
    Latencies l = { 0, 0 };
    Net *net = make(full, vcs, 2, note_port1, &l);
    for (uint64_t t = 1; t <= 600; t++) {
        net_begin_timestep(net, t);
        uint32_t w;
        net_in_take(net, 3, 1, &w);
        if (t >= 300)
            net_in_take(net, 2, 0, &w);
        if (t < 250)
            send_routed(net, 0, 2, 0, t);
        /* (With one channel its slot is soon stuck behind the blocked link.) */
        if (t >= 40 && t < 250 && t % 20 == 0 && !send_routed(net, 1, 3, 1, t))
            CHECK(vcs == 1);
        step(net, t);
    }
    CHECK(l.delivered > 0 && (vcs == 1 || l.delivered == 11));   /* (t = 40, 60, ..., 240) */
    net_free(net);
    return (unsigned)l.worst;
}

static void head_of_line_blocking_ends_with_two_channels(void)
{
    for (int full = 0; full <= 1; full++) {
        CHECK_EQ(worst_port1_latency(2, full), 7);
        CHECK_EQ(worst_port1_latency(4, full), 7);
        CHECK(worst_port1_latency(1, full) > 100);
    }
}

/* ---- round robin ---------------------------------------------------------------------- */

typedef struct Turns {
    uint32_t lane0, lanes;       /* the lanes of processor 2's link */
    uint64_t from, to;           /* the timesteps counted */
    uint64_t claims[2];          /* claims of each lane */
    int last;                    /* the channel of the last claim, or -1 */
    uint64_t repeats;            /* claims by the channel that claimed before */
} Turns;

static void note_claim(void *ctx, const NetEvent *ev)
{
    Turns *tu = ctx;
    if (ev->kind != EV_CLAIMED || ev->place < tu->lane0 || ev->place >= tu->lane0 + tu->lanes ||
        ev->timestep < tu->from || ev->timestep >= tu->to)
        return;
    int v = (int)(ev->place - tu->lane0);
    tu->claims[v]++;
    tu->repeats += v == tu->last;
    tu->last = v;
}

/* Processors 0 and 1 send to processor 2 as fast as they can, on ports 0
 * and 1 (channels 0 and 1), and processor 2 reads both at once: the two
 * streams share every link from (1,0) up, and (1,1)'s port d0 has both
 * channels' buffers full. Over 1,000 timesteps the link down to processor
 * 2 carries a packet of each channel in turn. */
static void two_saturating_channels_share_a_link_in_turn(void)
{
    for (int full = 0; full <= 1; full++) {
        /* Processor 2's link is link 2 * (layer-1 switch 1) + 0 = 2; its
         * down direction is channel 2 (half duplex) or 2 * 2 + 1 (full). */
        uint32_t c = full ? 5 : 2;
        Turns tu = { 2 * c, 2, 100, 1100, { 0, 0 }, -1, 0 };
        Net *net = make(full, 2, 5, note_claim, &tu);
        for (uint64_t t = 1; t <= 1100; t++) {
            net_begin_timestep(net, t);
            uint32_t w;
            net_in_take(net, 2, 0, &w);
            net_in_take(net, 2, 1, &w);
            send_routed(net, 0, 2, 0, t);
            send_routed(net, 1, 2, 1, t);
            step(net, t);
        }
        CHECK(tu.claims[0] >= 499 && tu.claims[0] <= 501);
        CHECK(tu.claims[1] >= 499 && tu.claims[1] <= 501);
        CHECK_EQ(tu.repeats, 0);
        CHECK(net_stats(net)->vc_link[0] > 0 && net_stats(net)->vc_link[1] > 0);
        net_free(net);
    }
}

/* ---- the check of the debug build ------------------------------------------------ */

/* The invariant check catches a packet listed in another channel's lane,
 * a port whose mask of busy buffers or pointer is wrong, and a buffer
 * holding a packet of another channel, and names the place. */
static void check_names_the_broken_channel_state(void)
{
    char err[256];
    Net *net = make(true, 2, 2, NULL, NULL);
    CHECK(send_routed(net, 0, 2, 1, 0));                   /* channel 1 */
    step(net, 1);                                   /* on link p0.cpu0, going up */
    OnLinkList *l = &net->share[0].on_links[0][1];  /* (arriving on d0 at layer 1) */
    CHECK_EQ(l->n, 1);
    CHECK_EQ(net_check(net, err, sizeof err), 0);
    l->items[0].target ^= 1;                        /* in lane 0 */
    CHECK_EQ(net_check(net, err, sizeof err), -1);
    CHECK_STR(err, "net: packet #0 is listed in lane 0, not its channel's");
    l->items[0].target ^= 1;
    step(net, 2);                                   /* in buffer (1,0).u0, channel 1 */
    CHECK_EQ(net_check(net, err, sizeof err), 0);
    uint32_t b = 2;
    CHECK_EQ(net_buffer_count(net, b * 2 + 1), 1);
    PortTurn *turn = turn_of(&net->lay, b);
    turn->nonempty ^= 2;                            /* stage b would not send it */
    CHECK_EQ(net_check(net, err, sizeof err), -1);
    CHECK_STR(err, "net/p0.l1.s0.u0 vc0: its port's mask of busy buffers, pointer or stamp "
                   "is wrong");
    turn->nonempty ^= 2;
    turn->pointer = 2;                              /* no such channel */
    CHECK_EQ(net_check(net, err, sizeof err), -1);
    turn->pointer = 0;
    ChannelQueue tmp = turn->queue[1];              /* in the other channel's buffer */
    turn->queue[1] = turn->queue[0];
    turn->queue[0] = tmp;
    turn->nonempty = 1;
    CHECK_EQ(net_check(net, err, sizeof err), -1);
    CHECK_STR(err, "net/p0.l1.s0.u0 vc0: place 1 holds a packet that is not there (lost or "
                   "duplicated)");
    turn->queue[0] = turn->queue[1];
    turn->queue[1] = tmp;
    turn->nonempty = 2;
    CHECK_EQ(net_check(net, err, sizeof err), 0);
    net_free(net);
}

int main(void)
{
    RUN(head_of_line_blocking_ends_with_two_channels);
    RUN(two_saturating_channels_share_a_link_in_turn);
    RUN(check_names_the_broken_channel_state);
    return CHECK_EXIT();
}
