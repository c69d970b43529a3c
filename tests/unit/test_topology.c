/* Unit tests of the wiring (net/topology.h) and of the network's numbering
 * of switches, links and wires (net/layout.h): reachability for
 * every count >= cmin, the wiring a bijection, the top layer without up
 * links, and the way down fixed by the destination. */
#include "net/layout.h"
#include "tests/check.h"

/* Follows a route from p: up through `count - 1` layers with the given up
 * ports, then down with the given down ports; returns the processor reached. */
static uint32_t follow(uint32_t p, unsigned count, uint32_t routing, uint32_t addressing)
{
    uint32_t j = topo_proc_switch(p);
    for (unsigned l = 1; l < count; l++)
        j = topo_up_switch(l, j, (routing >> (l - 1)) & 1);
    for (unsigned l = count; l > 1; l--)
        j = topo_down_switch(l, j, (addressing >> (l - 1)) & 1);
    return topo_down_proc(j, addressing & 1);
}

static void cmin_values(void)
{
    CHECK_EQ(topo_cmin(0, 0), 1);
    CHECK_EQ(topo_cmin(0, 1), 1);
    CHECK_EQ(topo_cmin(0, 2), 2);
    CHECK_EQ(topo_cmin(5, 0), 3);
    CHECK_EQ(topo_cmin(7, 3), 3);
    CHECK_EQ(topo_cmin(1023, 1022), 1);
    CHECK_EQ(topo_cmin(0, 512), 10);
}

/* Every processor reaches every processor for every count >= cmin and every
 * choice of up ports (all of them up to N = 64; a sample beyond), and a
 * count below cmin reaches some other processor. */
static void every_processor_reaches_every_processor(void)
{
    for (unsigned k = 1; k <= 10; k++) {
        uint32_t n = 1u << k, step = k <= 6 ? 1 : 37;
        for (uint32_t p = 0; p < n; p += step)
            for (uint32_t q = 0; q < n; q++) {
                unsigned cmin = topo_cmin(p, q);
                for (unsigned c = 1; c <= k; c++) {
                    uint32_t ups = 1u << (c - 1), addr = q & ((1u << c) - 1);
                    for (uint32_t r = 0; r < ups; r += (k <= 6 ? 1 : ups / 4 + 1)) {
                        uint32_t reached = follow(p, c, r, addr);
                        if (c >= cmin)
                            CHECK_EQ(reached, q);
                        else
                            CHECK(reached != q);
                    }
                }
            }
    }
}

/* For every layer below the top, (j, b) -> (j', d) is a bijection of
 * [0, H) x {0, 1}, and going down undoes going up. */
static void wiring_is_a_bijection(void)
{
    for (unsigned k = 2; k <= 10; k++) {
        uint32_t h = 1u << (k - 1);
        for (unsigned l = 1; l < k; l++) {
            static uint8_t hit[1 << 10];
            memset(hit, 0, 2 * h);
            for (uint32_t j = 0; j < h; j++)
                for (unsigned b = 0; b < 2; b++) {
                    uint32_t up = topo_up_switch(l, j, b);
                    unsigned d = topo_up_arrival_port(l, j);
                    CHECK(up < h);
                    CHECK_EQ(hit[2 * up + d]++, 0);
                    CHECK_EQ(topo_down_switch(l + 1, up, d), j);
                    CHECK_EQ(topo_down_arrival_port(l + 1, up), b);
                }
        }
    }
}

/* Going down, the down port at layer l is bit l-1 of the destination: from
 * any switch at layer c, the processor reached is determined by the down
 * ports alone, and equals q exactly when they are q's low c bits. */
static void down_is_fixed_by_destination(void)
{
    for (unsigned k = 1; k <= 8; k++) {
        uint32_t n = 1u << k, h = n / 2;
        for (unsigned c = 1; c <= k; c++)
            for (uint32_t j = 0; j < h; j++)
                for (uint32_t addr = 0; addr < (1u << c); addr++) {
                    uint32_t s = j;
                    for (unsigned l = c; l > 1; l--)
                        s = topo_down_switch(l, s, (addr >> (l - 1)) & 1);
                    uint32_t q = topo_down_proc(s, addr & 1);
                    CHECK_EQ(q & ((1u << c) - 1), addr);
                    CHECK_EQ(q >> c, j >> (c - 1));
                }
    }
}

/* The network's numbering: each link 2S + x has exactly two ends -- down
 * port x of switch S, and a processor (layer 1) or one up port of one switch
 * of the layer below -- so the map from (switch, port) to link covers every
 * link of a layer above 1 exactly twice, the top layer has no up links, and
 * link indices stay within planes * k * N. */
static void link_numbering(void)
{
    for (unsigned k = 1; k <= 8; k++)
        for (unsigned planes = 1; planes <= 2; planes++) {
            Layout lay = { .cfg = { .k = k, .planes = planes } };
            lay.nprocs = 1u << k;
            lay.half = lay.nprocs / 2;
            uint32_t links = planes * k * lay.nprocs;
            static uint8_t ends[2 * 8 * 256];
            memset(ends, 0, links);
            for (unsigned plane = 0; plane < planes; plane++)
                for (unsigned l = 1; l <= k; l++)
                    for (uint32_t j = 0; j < lay.half; j++) {
                        uint32_t s = sw_index(&lay, plane, l, j);
                        for (unsigned q = 0; q < (l < k ? 4u : 2u); q++) {
                            uint32_t link = port_link(&lay, s, l, q);
                            CHECK(link < links);
                            ends[link]++;
                        }
                    }
            for (uint32_t p = 0; p < lay.nprocs; p++)
                for (unsigned plane = 0; plane < planes; plane++)
                    ends[proc_link(&lay, p, plane)]++;
            for (uint32_t link = 0; link < links; link++)
                CHECK_EQ(ends[link], 2);
        }
}

int main(void)
{
    RUN(cmin_values);
    RUN(every_processor_reaches_every_processor);
    RUN(wiring_is_a_bijection);
    RUN(down_is_fixed_by_destination);
    RUN(link_numbering);
    return CHECK_EXIT();
}
