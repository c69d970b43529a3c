/* Unit tests of messages of several words (spec/messages.md) in the fast
 * network stage, through net.h: a lone message's timing under the three
 * switchings (every turn layer, both duplex modes, L up to 64, N up to
 * 1,024), its words read in order, and the counts of messages and flits.
 * Routes are of the test's choosing (no router). */
#include <stdlib.h>

#include "net/net.h"
#include "tests/check.h"

static Net *make(unsigned k, bool full, unsigned buffer, unsigned depth, NetSwitching sw)
{
    NetConfig cfg = { k, 1, full, buffer, 4, depth, false, 1, sw };
    Net *net = net_new(&cfg);
    CHECK(net != NULL);
    return net;
}

static void step(Net *net, uint64_t t)
{
    char err[256];
    net_step(net, t);
    if (net_check(net, err, sizeof err) != 0) {
        printf("  t=%llu: %s\n", (unsigned long long)t, err);
        CHECK(!"network invariants hold");
    }
}

/* Injects a message of `length` words src->dst at timestep t, turning at
 * layer `count` by up ports `routing`; word i is 100 * src + i. */
static uint64_t send_message(Net *net, uint32_t src, uint32_t dst, unsigned count,
                             uint32_t routing, uint32_t length, uint64_t t)
{
    uint32_t words[64];
    for (uint32_t i = 0; i < length; i++)
        words[i] = 100 * src + i;
    RouteRequest req = { src, dst, 0, 0, NULL, length };
    Route r = { 0, (uint8_t)count, routing, dst & ((1u << count) - 1) };
    net_reserve_out(net, src);
    return net_inject(net, &req, &r, words, t);
}

/* The lowest layer at which src and dst meet. */
static unsigned meet(uint32_t src, uint32_t dst)
{
    unsigned c = 1;
    while ((src ^ dst) >> c)
        c++;
    return c;
}

/* Runs a lone message to its tail's arrival; returns that timestep (0 if
 * it never came within `limit`). */
static uint64_t tail_arrives(Net *net, uint64_t limit)
{
    for (uint64_t t = 1; t <= limit; t++) {
        step(net, t);
        if (net_stats(net)->delivered == 1)
            return t;
    }
    return 0;
}

/* messages.md, "Timing": sent at t = 1, turning at layer c, the tail is in
 * the port at the end of t + 4c - 1 + (L - 1) (wormhole, cut-through) or
 * t + 4c - 1 + 2c(L - 1) (store-and-forward), with no collision. */
static void lone_message(unsigned k, bool full, NetSwitching sw, unsigned buffer, uint32_t length)
{
    uint32_t n = 1u << k;
    for (uint32_t src = 0; src < n; src += n / 8 ? n / 8 : 1) {
        uint32_t dst = (src * 5 + 3 + length) % n;
        if (dst == src)
            dst = (dst + 1) % n;
        unsigned c = meet(src, dst);
        Net *net = make(k, full, buffer, length, sw);
        send_message(net, src, dst, c, (src * 7u) & ((1u << (c - 1)) - 1), length, 1);
        uint64_t expected = sw == SWITCHING_STORE_FORWARD ? 1 + 4 * c - 1 + 2 * c * (length - 1)
                                                          : 1 + 4 * c - 1 + (length - 1);
        uint64_t got = tail_arrives(net, 10000);
        const NetStats *st = net_stats(net);
        if (got != expected || st->link_total + st->buffer_total != 0 ||
            st->flits_delivered != length) {
            printf("  k %u %s %s B %u L %u: p%u->p%u c %u: tail at %llu, expected %llu; "
                   "collisions %llu, flits %llu\n", k, full ? "full" : "half",
                   switching_name(sw), buffer, length, src, dst, c, (unsigned long long)got,
                   (unsigned long long)expected,
                   (unsigned long long)(st->link_total + st->buffer_total),
                   (unsigned long long)st->flits_delivered);
            CHECK(!"a lone message arrives on time, with no collision");
        }
        uint32_t word;
        for (uint32_t i = 0; i < length; i++) {
            CHECK(net_in_take(net, dst, 0, &word));
            CHECK_EQ(word, 100 * src + i);
        }
        CHECK_EQ(net_stats(net)->read, 1);
        CHECK_EQ(net_stats(net)->flits_sent, length);
        CHECK_EQ(net_stats(net)->messages, 1);
        CHECK(!net_busy(net));
        net_free(net);
    }
}

static void lone_wormhole(void)
{
    static const uint32_t lengths[] = { 1, 2, 3, 5, 8, 17, 64 };
    for (unsigned f = 0; f < 2; f++)
        for (size_t i = 0; i < sizeof lengths / sizeof *lengths; i++) {
            lone_message(4, f, SWITCHING_WORMHOLE, 2, lengths[i]);
            lone_message(6, f, SWITCHING_WORMHOLE, 5, lengths[i]);
        }
    lone_message(10, true, SWITCHING_WORMHOLE, 2, 64);
    lone_message(10, false, SWITCHING_WORMHOLE, 3, 33);
}

static void lone_cut_through(void)
{
    static const uint32_t lengths[] = { 1, 2, 7, 64 };
    for (unsigned f = 0; f < 2; f++)
        for (size_t i = 0; i < sizeof lengths / sizeof *lengths; i++)
            lone_message(5, f, SWITCHING_CUT_THROUGH, 64, lengths[i]);
    lone_message(10, true, SWITCHING_CUT_THROUGH, 64, 40);
}

static void lone_store_forward(void)
{
    static const uint32_t lengths[] = { 1, 2, 7, 64 };
    for (unsigned f = 0; f < 2; f++)
        for (size_t i = 0; i < sizeof lengths / sizeof *lengths; i++)
            lone_message(5, f, SWITCHING_STORE_FORWARD, 64, lengths[i]);
    lone_message(10, false, SWITCHING_STORE_FORWARD, 64, 40);
}

int main(void)
{
    RUN(lone_wormhole);
    RUN(lone_cut_through);
    RUN(lone_store_forward);
    return CHECK_EXIT();
}
