/* Unit tests of messages of several words (spec/messages.md) in the fast
 * network stage, through net.h: a lone message's timing under the three
 * switchings (every turn layer, both duplex modes, L up to 64, N up to
 * 1,024), its words read in order, the counts of messages and flits, and
 * random messages; the reference stage runs beside and must agree after
 * every timestep. Routes are of the test's choosing (no router). */
#include <stdlib.h>
#include <string.h>

#include "net/net.h"
#include "tests/check.h"
#include "tests/unit/net_send.h"

static Net *make(unsigned k, bool full, unsigned buffer, unsigned depth, NetSwitching sw)
{
    NetConfig cfg = { k, 1, full, buffer, 4, depth, false, 1, sw };
    Net *net = net_new(&cfg);
    CHECK(net != NULL);
    CHECK_EQ(net_compare_with_reference(net), 0);
    return net;
}

static void step(Net *net, uint64_t t) { step_checked(net, t, true); }

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
 * t + 4c - 1 + 2c(L - 1) (store-and-forward), with no collision. From 8
 * sources (each processor of a smaller network); at N = 1,024, where the
 * reference stage beside takes seconds, make test runs 2 of them, p0 and
 * p512, and make check all 8 (TEST_FULL). */
static void lone_message(unsigned k, bool full, NetSwitching sw, unsigned buffer, uint32_t length)
{
    uint32_t n = 1u << k, stride = n / 8 ? n / 8 : 1;
    if (n >= 1024 && !test_full())
        stride = n / 2;
    for (uint32_t src = 0; src < n; src += stride) {
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

/* A half-duplex message to its own processor crosses its link twice and
 * meets its own body coming back (messages.md, "Timing"): with --buffer
 * at least L, its tail arrives L - 2 timesteps late under wormhole and
 * cut-through, on time under store-and-forward, with no collision; a
 * wormhole message longer than the buffer deadlocks by itself. */
static void to_itself_half_duplex(void)
{
    static const uint32_t lengths[] = { 2, 3, 5, 16 };
    for (size_t i = 0; i < sizeof lengths / sizeof *lengths; i++) {
        uint32_t L = lengths[i];
        for (unsigned s = 0; s < SWITCHING_COUNT; s++) {
            Net *net = make(3, false, L, L, (NetSwitching)s);
            send_message(net, 5, 5, 1, 0, L, 1);
            uint64_t expected = s == SWITCHING_STORE_FORWARD ? 1 + 3 + 2 * (L - 1)
                                                             : 1 + 3 + (L - 1) + (L - 2);
            uint64_t got = tail_arrives(net, 1000);
            if (got != expected) {
                printf("  L %u %s: tail at %llu, expected %llu\n", L,
                       switching_name((NetSwitching)s), (unsigned long long)got,
                       (unsigned long long)expected);
                CHECK(!"a message to itself arrives as messages.md says");
            }
            CHECK_EQ(net_stats(net)->link_total + net_stats(net)->buffer_total, 0);
            net_free(net);
        }
        Net *net = make(3, false, L - 1, L, SWITCHING_WORMHOLE);
        send_message(net, 5, 5, 1, 0, L, 1);
        CHECK_EQ(tail_arrives(net, 200), 0);
        CHECK(!net_moved(net));
        CHECK(net_is_stuck(net));
        net_free(net);
    }
}

/* With --buffer 1 a buffer frees its place only at the next timestep, so
 * the flits of a wormhole message move every other timestep: its tail
 * comes 2(L - 1) timesteps after its head (which is on time). */
static void buffer_of_one(void)
{
    for (unsigned f = 0; f < 2; f++) {
        Net *net = make(4, f, 1, 8, SWITCHING_WORMHOLE);
        send_message(net, 3, 12, 4, 0x5, 8, 1);
        uint64_t head = 0, tail = 0;
        for (uint64_t t = 1; t < 200 && tail == 0; t++) {
            step(net, t);
            if (head == 0 && net_port_count(net, 12, 0) == 1)
                head = t;
            if (net_stats(net)->delivered == 1)
                tail = t;
        }
        CHECK_EQ(head, 1 + 4 * 4 - 1);
        CHECK_EQ(tail, head + 2 * 7);
        net_free(net);
    }
}

static uint64_t rnd_state = 1;

static uint32_t rnd(uint32_t n)
{
    rnd_state = rnd_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rnd_state >> 33) % n;
}

/* Random messages of 1..8 words (at most --buffer under cut-through and
 * store-and-forward) on random routes, the ports read at random: every
 * timestep the invariants hold (a message's flits consecutive and in
 * order in every buffer and port, owners as the flits say, nothing lost),
 * and once the senders stop and the ports are read, every word arrives
 * -- or a half-duplex network is stuck. */
static void random_messages(unsigned k, bool full, unsigned vcs, NetSwitching sw,
                            unsigned buffer)
{
    NetConfig cfg = { k, 2, full, buffer, 4, 1 + rnd(4), false, vcs, sw };
    Net *net = net_new(&cfg);
    CHECK_EQ(net_compare_with_reference(net), 0);
    uint32_t n = 1u << k, longest = sw == SWITCHING_WORMHOLE || buffer > 8 ? 8 : buffer;
    uint64_t t = 1, quiet = 0;
    for (; t < 4000 && quiet < 50; t++) {
        net_begin_timestep(net, t);
        uint32_t word;
        for (uint32_t p = 0; p < n; p++)
            for (unsigned port = 0; port < 4; port++)
                if (rnd(3) == 0)
                    net_in_take(net, p, port, &word);
        for (uint32_t p = 0; t < 300 && p < n; p++) {
            if (!net_out_free(net, p) || rnd(4) != 0)
                continue;
            uint32_t dst = rnd(n), c = meet(p, dst) + rnd(k - meet(p, dst) + 1), words[8];
            uint32_t length = 1 + rnd(longest);
            for (uint32_t i = 0; i < length; i++)
                words[i] = p << 16 | i;
            RouteRequest req = { p, dst, rnd(4), 0, NULL, length };
            Route r = { (uint8_t)rnd(2), (uint8_t)c, rnd(1u << (c - 1)), dst & ((1u << c) - 1) };
            net_reserve_out(net, p);
            net_inject(net, &req, &r, words, t);
        }
        step(net, t);
        quiet = net_moved(net) || t < 300 ? 0 : quiet + 1;
    }
    const NetStats *st = net_stats(net);
    bool stuck = net_busy(net) && net_is_stuck(net);
    if (stuck && full) {
        printf("  k %u V %u %s B %u: stuck at t=%llu\n", k, vcs, switching_name(sw), buffer,
               (unsigned long long)t);
        CHECK(!"a full-duplex network never deadlocks (its routes go up, then down)");
    }
    if (!stuck && st->flits_delivered != st->flits_sent) {
        printf("  k %u %s V %u %s B %u: %llu words sent, %llu delivered\n", k,
               full ? "full" : "half", vcs, switching_name(sw), buffer,
               (unsigned long long)st->flits_sent, (unsigned long long)st->flits_delivered);
        CHECK(!"every word arrives");
    }
    CHECK(st->messages > 0 && st->flits_sent > st->sent);
    net_free(net);
}

/* The same random one-word traffic, made once by OUT (length 0) and once
 * by SEND of one word: everything is the same but the count of messages
 * (messages.md, "SEND with L = 1 is OUT in every respect except the
 * messages statistic"). */
static void send_of_one_is_out(void)
{
    NetStats got[2];
    uint64_t moved[2][400];
    for (unsigned as_send = 0; as_send < 2; as_send++) {
        rnd_state = 7;
        NetConfig cfg = { 5, 2, false, 2, 4, 1, false, 2, SWITCHING_STORE_FORWARD };
        Net *net = net_new(&cfg);
        CHECK_EQ(net_compare_with_reference(net), 0);
        for (uint64_t t = 1; t <= 400; t++) {
            net_begin_timestep(net, t);
            uint32_t word;
            for (uint32_t p = 0; p < 32; p++)
                if (rnd(2) == 0)
                    net_in_take(net, p, rnd(4), &word);
            for (uint32_t p = 0; t < 300 && p < 32; p++) {
                if (!net_out_free(net, p) || rnd(3) != 0)
                    continue;
                uint32_t dst = rnd(32), c = meet(p, dst) + rnd(5 - meet(p, dst) + 1);
                RouteRequest req = { p, dst, rnd(4), 0, NULL, as_send };
                Route r = { (uint8_t)rnd(2), (uint8_t)c, rnd(1u << (c - 1)), dst & ((1u << c) - 1) };
                net_reserve_out(net, p);
                net_inject(net, &req, &r, &p, t);
            }
            step(net, t);
            moved[as_send][t - 1] = net_stats(net)->links_crossed;
        }
        got[as_send] = *net_stats(net);
        net_free(net);
    }
    CHECK_EQ(got[0].messages, 0);
    CHECK_EQ(got[1].messages, got[1].sent);
    CHECK(got[1].sent > 100);
    CHECK(memcmp(moved[0], moved[1], sizeof moved[0]) == 0);
    CHECK_EQ(got[0].sent, got[1].sent);
    CHECK_EQ(got[0].delivered, got[1].delivered);
    CHECK_EQ(got[0].flits_sent, got[1].flits_sent);
    CHECK_EQ(got[0].flits_delivered, got[1].flits_delivered);
    CHECK_EQ(got[0].link_total, got[1].link_total);
    CHECK_EQ(got[0].buffer_total, got[1].buffer_total);
    CHECK_EQ(got[0].port_waits, got[1].port_waits);
    CHECK_EQ(got[0].latency_sum, got[1].latency_sum);
    CHECK_EQ(got[0].max_buffer, got[1].max_buffer);
}

/* make test runs every switching and duplex mode with V = 1 or 3, in turn;
 * make check (TEST_FULL) V = 1 to 4, and two networks of 1,024. */
static void random_traffic(void)
{
    for (unsigned s = 0; s < SWITCHING_COUNT; s++)
        for (unsigned f = 0; f < 2; f++)
            for (unsigned v = 1; v <= 4; v++)
                if (test_full() || v == 1 + 2 * ((s + f) % 2))
                    random_messages(6, f, v, (NetSwitching)s, 8);
    if (!test_full())
        return;
    random_messages(10, true, 1, SWITCHING_WORMHOLE, 2);
    random_messages(10, false, 2, SWITCHING_CUT_THROUGH, 8);
}

int main(void)
{
    RUN(lone_wormhole);
    RUN(lone_cut_through);
    RUN(lone_store_forward);
    RUN(to_itself_half_duplex);
    RUN(buffer_of_one);
    RUN(random_traffic);
    RUN(send_of_one_is_out);
    return CHECK_EXIT();
}
