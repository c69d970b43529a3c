/* Tests of the whole machine (emu/machine.c) on real programs: the timing
 * law of a lone packet, the thesis's Appendix C under dmodk, benes and
 * benes-full worked out by hand, and how runs end (normal, fault, program
 * and network deadlock, limit). */
#include "emu/machine.h"
#include "emu/report.h"
#include "tests/check.h"
#include "tests/image.h"

static MachineConfig config(RoutingAlgorithm routing)
{
    MachineConfig c = MACHINE_CONFIG_DEFAULT;
    c.routing = routing;
    c.mem_words = 256;
    c.check_invariants = true;
    return c;
}

/* A lone packet from p to q (turning at layer c = cmin under dmodk) sent by
 * an OUT at timestep t is read by an IN waiting for it at timestep t + 4c
 * (machine.md), for every c, at N = 2 .. 1024. The other programmed
 * processors halt at once. */
static void lone_packet_timing(void)
{
    for (unsigned k = 1; k <= 10; k++)
        for (unsigned c = 1; c <= k; c++)
            for (int self = 0; self <= (c == 1); self++) {
                uint32_t src = 0, dst = self ? 0 : 1u << (c - 1);
                uint32_t count = (src > dst ? src : dst) + 1;
                Program *progs = calloc(count, sizeof *progs);
                for (uint32_t p = 0; p < count; p++) {
                    asm_op(&progs[p], OP_LDC, 0);
                    asm_opr(&progs[p], OPR_HALT);
                }
                progs[src].n = progs[dst].n = 0;
                Program *s = &progs[src];
                asm_op(s, OP_LDC, 77);
                asm_op(s, OP_LDC, dst);
                uint32_t out_at = asm_opr(s, OPR_OUT);
                if (self)
                    out_at += 0;          /* the same program then reads */
                else {
                    asm_op(s, OP_LDC, 0);
                    asm_opr(s, OPR_HALT);
                }
                Program *d = &progs[dst];
                asm_op(d, OP_LDC, 0);
                uint32_t in_at = asm_opr(d, OPR_IN);
                asm_opr(d, OPR_HALT);
                HexImage img;
                image_build(&img, progs, count);
                MachineConfig cfg = config(ROUTING_DMODK);
                cfg.procs = 1u << k;
                Machine m;
                char err[256];
                CHECK_EQ(machine_init(&m, &cfg, &img, NULL, err, sizeof err), 0);
                uint64_t t_out = 0, t_in = 0;
                while (machine_step(&m) == END_RUNNING || m.end == END_NORMAL) {
                    if (!t_out && net_stats(m.net)->sent)
                        t_out = m.t;
                    if (!t_in && m.cpus[dst].pc > in_at + 1)
                        t_in = m.t;
                    if (m.end != END_RUNNING)
                        break;
                }
                (void)out_at;
                CHECK_EQ(m.end, END_NORMAL);
                if (t_in != t_out + 4 * c)
                    printf("  N=%u c=%u %u->%u: OUT at %llu, IN done at %llu\n", 1u << k, c,
                           src, dst, (unsigned long long)t_out, (unsigned long long)t_in);
                CHECK_EQ(t_in, t_out + 4 * c);
                CHECK_EQ(net_stats(m.net)->latency_max, 4 * c - 1);
                CHECK_EQ(net_stats(m.net)->links_crossed, 2 * c);
                CHECK_EQ(m.cpus[dst].status, 77);
                machine_free(&m);
                hex_free(&img);
                free(progs);
            }
}

/* The thesis's Appendix C (all eight processors, `p ! v; 0 ? in`) under
 * dmodk, worked out by hand from the spec:
 *   every processor executes its OUT at t = 18 (9 bytes of start-up code,
 *   then LDWSP 1; NFIX; ADJ; STWSP 1; PFIX; LDC v; LDC d; PFIX; OUT), and the
 *   eight requests are 0->2 (c 2), 1->4 (3), 2->6 (3), 3->1 (2), 4->7 (2),
 *   5->0 (3), 6->5 (2), 7->3 (3), all on plane 0 (each source's first).
 *   dmodk's up port at layer 1 is bit 0 of the destination, so at t = 19
 *   0->2 and 1->4 both enter switch (1,0)'s buffer u0, and 6->5 and 7->3 both
 *   enter (1,3).u1: two buffer collisions, layer 1, up; 1->4 and 7->3 lose
 *   one timestep. Nothing else ever meets (each later hop uses a different
 *   link or buffer, or one freed in the same timestep). So the count-2
 *   packets arrive at t = 25 (latency 7), 2->6 and 5->0 at 29 (11), 1->4 and
 *   7->3 at 30 (12); their INs complete at 26, 30 and 31, and p3 and p4,
 *   last, finish STWSP, ADJ, RET, LDC 0, HALT at t = 36.
 *   Instructions: 26 bytes each (9 + 15 + 2), 208 in all; IN stalls from
 *   t = 21: 5 + 5 + 5 + 5 + 9 + 9 + 10 + 10 = 58; links crossed 4*4 + 4*6. */
static void appendix_c_under_dmodk(void)
{
    HexImage img;
    char err[256];
    CHECK_EQ(hex_read_file("tests/data/appendix_c.hex", 200000, &img, err, sizeof err), 0);
    MachineConfig cfg = config(ROUTING_DMODK);
    cfg.mem_words = 200000;
    Machine m;
    CHECK_EQ(machine_init(&m, &cfg, &img, NULL, err, sizeof err), 0);
    while (machine_step(&m) == END_RUNNING)
        ;
    const NetStats *st = net_stats(m.net);
    CHECK_EQ(m.end, END_NORMAL);
    CHECK_EQ(m.t, 36);
    CHECK_EQ(st->link_total + st->buffer_total, 2);
    CHECK_EQ(st->link_total, 0);
    CHECK_EQ(st->buffer_collisions[DIR_UP][1], 2);
    CHECK_EQ(m.instructions, 208);
    CHECK_EQ(m.stalls_in, 58);
    CHECK_EQ(m.stalls_out, 0);
    CHECK_EQ(st->links_crossed, 40);
    CHECK_EQ(st->latency_min, 7);
    CHECK_EQ(st->latency_max, 12);
    CHECK_EQ(st->latency_sum, 4 * 7 + 2 * 11 + 2 * 12);
    CHECK_EQ(st->latency_hist[7], 4);
    CHECK_EQ(st->max_buffer, 2);
    for (uint32_t p = 0; p < 8; p++)
        CHECK_EQ(m.cpus[p].state, CPU_HALTED);
    machine_free(&m);
    hex_free(&img);
}

/* Appendix C under benes and benes-full, worked out by hand. The batch of
 * t = 18 (see appendix_c_under_dmodk) is a full permutation, all on plane 0,
 * so the routing.md property holds: no collision, and every packet arrives
 * 4c - 1 timesteps after its OUT. benes turns at cmin, as dmodk does: the
 * four count-2 packets arrive at t = 25 (latency 7), the four count-3 ones
 * at t = 29 (11); their INs complete at 26 and 30, so IN stalls are
 * 4 * 5 + 4 * 9 = 56, and the last processors halt five bytes later, at
 * t = 35. benes-full sends all eight up to layer 3: all arrive at t = 29
 * (latency 11), 8 * 9 = 72 stalls, 48 links, and the run still ends at
 * t = 35. The looping algorithm's up ports (bit 0 = layer 1) are p0 00,
 * p1 01, p2 10, p3 11, p4 11, p5 10, p6 00, p7 01 (docs/routing.md works
 * them out); the figures hold in both duplex modes and on one plane. */
static void appendix_c_under_benes(void)
{
    HexImage img;
    char err[256];
    CHECK_EQ(hex_read_file("tests/data/appendix_c.hex", 200000, &img, err, sizeof err), 0);
    for (int a = ROUTING_BENES; a <= ROUTING_BENES_FULL; a++)
        for (int variant = 0; variant < 3; variant++) {
            bool full = a == ROUTING_BENES_FULL;
            MachineConfig cfg = config((RoutingAlgorithm)a);
            cfg.mem_words = 200000;
            cfg.full_duplex = variant == 1;
            cfg.planes = variant == 2 ? 1 : 2;
            Machine m;
            CHECK_EQ(machine_init(&m, &cfg, &img, NULL, err, sizeof err), 0);
            while (machine_step(&m) == END_RUNNING)
                ;
            const NetStats *st = net_stats(m.net);
            CHECK_EQ(m.end, END_NORMAL);
            CHECK_EQ(m.t, 35);
            CHECK_EQ(st->link_total + st->buffer_total, 0);
            CHECK_EQ(st->port_waits, 0);
            CHECK_EQ(m.instructions, 208);
            CHECK_EQ(m.stalls_in, full ? 72 : 56);
            CHECK_EQ(st->links_crossed, full ? 48 : 40);
            CHECK_EQ(st->latency_min, full ? 11 : 7);
            CHECK_EQ(st->latency_max, 11);
            CHECK_EQ(st->latency_sum, full ? 8 * 11 : 4 * 7 + 4 * 11);
            CHECK_EQ(st->max_buffer, 1);
            machine_free(&m);
        }
    hex_free(&img);
}

/* Runs a one-record-per-program image to its end; returns the end. */
static MachineEnd run(Program *progs, uint32_t count, MachineConfig cfg, Machine *m)
{
    HexImage img;
    char err[256];
    image_build(&img, progs, count);
    if (machine_init(m, &cfg, &img, NULL, err, sizeof err) != 0) {
        printf("  %s\n", err);
        hex_free(&img);
        return END_INTERNAL;
    }
    hex_free(&img);
    while (machine_step(m) == END_RUNNING)
        ;
    return m->end;
}

static char *report_text(Machine *m)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ReportOptions opt = { 0 };
    report_write(f, m, &opt);
    fclose(f);
    return text;
}

/* A processor waits for a packet no one sends: after LDC 0 (t1) and the
 * IN's prefix (t2), the IN stalls at t3 and nothing else moves: a program
 * deadlock at t3, reported with the wait. */
static void program_deadlock(void)
{
    Program p[2] = { 0 };
    asm_op(&p[0], OP_LDC, 0);
    asm_opr(&p[0], OPR_IN);
    asm_op(&p[1], OP_LDC, 0);
    asm_opr(&p[1], OPR_HALT);
    Machine m;
    CHECK_EQ(run(p, 2, config(ROUTING_DMODK), &m), END_DEADLOCK);
    CHECK_EQ(m.t, 3);
    CHECK_EQ(machine_exit_status(m.end), 3);
    char *text = report_text(&m);
    CHECK_CONTAINS(text, "end: deadlock\n");
    CHECK_CONTAINS(text, "deadlock: a program deadlock: the processors wait for packets "
                         "that no one has sent, and none is in the network\n");
    CHECK_CONTAINS(text, "waiting: p0 at 0001 waits for IN on port 0: no packet in the "
                         "network is headed for it\n");
    CHECK_CONTAINS(text, "collisions: 0\ntimesteps: 3\n");
    free(text);
    machine_free(&m);
}

/* An OUT stalls while its output slot is full. N = 2, one plane, one place
 * per buffer; p0 sends six packets to p1, which halts without reading.
 * #0 fills p1's port 0; #1 waits on p1's link for it; #2 fills buffer
 * (1,0).d1; #3 waits on p0's link for that buffer; #4 sits in p0's output
 * slot, its claims failing; so the sixth OUT stalls for ever. Nothing moves:
 * a program deadlock (if p1 read its port, everything would flow), and the
 * report follows that chain from p0's slot to p1's port. */
static void out_stalls_and_unread_packets(void)
{
    Program p[2] = { 0 };
    for (uint32_t i = 0; i < 6; i++) {
        asm_op(&p[0], OP_LDC, 10 + i);
        asm_op(&p[0], OP_LDC, 1);
        asm_opr(&p[0], OPR_OUT);
    }
    asm_op(&p[0], OP_LDC, 0);
    asm_opr(&p[0], OPR_HALT);
    asm_op(&p[1], OP_LDC, 5);
    asm_opr(&p[1], OPR_HALT);
    MachineConfig cfg = config(ROUTING_DMODK);
    cfg.planes = 1;
    cfg.buffer = 1;
    Machine m;
    CHECK_EQ(run(p, 2, cfg, &m), END_DEADLOCK);
    CHECK(m.stalls_out > 0);
    CHECK_EQ(net_stats(m.net)->sent, 5);
    char *text = report_text(&m);
    CHECK_CONTAINS(text, "waiting: p0 at 0016 waits for OUT: its output slot holds #4 for "
                         "p1, held up by #3 from p0 (link p0.cpu0 up), which is held up by #2 "
                         "from p0 (buffer p0.l1.s0.d1 place 1 of 1), which is held up by #1 "
                         "from p0 (link p0.cpu1 down), which waits for input port 0 of p1 (p1 "
                         "has halted), full with #0 from p0\n");
    CHECK_CONTAINS(text, "in the network: 4 packets\n"
                         "  packet #4 p0->p1 port 0 data 14 (sent at t=20): output slot of p0\n");
    CHECK_CONTAINS(text, "(sent at t=16): link p0.cpu0 up\n");
    CHECK_CONTAINS(text, "(sent at t=8): link p0.cpu1 down\n");
    CHECK_CONTAINS(text, "(sent at t=12): buffer p0.l1.s0.d1 place 1 of 1\n");
    CHECK_CONTAINS(text, "unread: 1 packet left in input ports\n"
                         "  packet #0 p0->p1 port 0 data 10 (sent at t=4): input port 0 of p1\n");
    CHECK_CONTAINS(text, "deadlock: a program deadlock: packets that will never be read hold "
                         "up the others: input port 0 of p1 (p1 has halted), full with #0 "
                         "from p0\n");
    free(text);
    machine_free(&m);
}

static void fault_ends_the_run(void)
{
    Program p[2] = { 0 };
    asm_op(&p[0], OP_LDC, 5);
    asm_op(&p[0], OP_LDC, 0);
    asm_opr(&p[0], OPR_DIV);
    asm_op(&p[1], OP_LDC, 0);
    asm_opr(&p[1], OPR_HALT);
    Machine m;
    CHECK_EQ(run(p, 2, config(ROUTING_DMODK), &m), END_FAULT);
    CHECK_EQ(m.t, 4);
    CHECK_EQ(machine_exit_status(m.end), 2);
    CHECK_EQ(m.instructions, 3 + 2);           /* the faulting byte is not counted */
    char *text = report_text(&m);
    CHECK_CONTAINS(text, "fault: p0: division by zero at 0003 (prefixes from 0002): DIV\n");
    free(text);
    machine_free(&m);
}

static void limit_ends_the_run(void)
{
    Program p[1] = { 0 };
    asm_op(&p[0], OP_BR, (uint32_t)-2);        /* a tight loop: NFIX F; BR E */
    MachineConfig cfg = config(ROUTING_DMODK);
    cfg.max_steps = 1001;
    Machine m;
    CHECK_EQ(run(p, 1, cfg, &m), END_LIMIT);
    CHECK_EQ(m.t, 1001);
    CHECK_EQ(m.instructions, 1001);
    /* 1001 bytes: 500 loops and the NFIX: the processor, which runs ahead
     * when it can, must not have run past the limit. */
    CHECK_EQ(m.cpus[0].pc, 1);
    CHECK_EQ(m.nprocs, 2);                     /* at least two processors */
    CHECK_EQ(machine_exit_status(m.end), 4);
    machine_free(&m);
}

static void too_few_procs(void)
{
    Program p[3] = { 0 };
    for (int i = 0; i < 3; i++) {
        asm_op(&p[i], OP_LDC, 0);
        asm_opr(&p[i], OPR_HALT);
    }
    HexImage img;
    image_build(&img, p, 3);
    MachineConfig cfg = config(ROUTING_DMODK);
    cfg.procs = 2;
    Machine m;
    char err[256];
    CHECK_EQ(machine_init(&m, &cfg, &img, NULL, err, sizeof err), -1);
    CHECK_STR(err, "--procs 2 is fewer than the program's 3 processors");
    cfg.procs = 3;
    CHECK_EQ(machine_init(&m, &cfg, &img, NULL, err, sizeof err), 0);
    CHECK_EQ(m.nprocs, 4);
    CHECK_EQ(m.cpus[3].state, CPU_IDLE);
    machine_free(&m);
    hex_free(&img);
}

/* Blanks the value of "key" in a JSON text. */
static void blank(char *json, const char *key)
{
    char *at = strstr(json, key);
    CHECK(at != NULL);
    if (at)
        memset(at, ' ', strcspn(at, ","));
}

/* The routes of a run as --routes prints them, but for their timestep. */
static void route_line(void *ctx, uint64_t t, uint64_t id, const RouteRequest *req,
                       const Route *route)
{
    char line[200];
    (void)t;
    route_format(line, sizeof line, id, req, route, 0);
    fprintf(ctx, " %s\n", line);
}

/* The JSON report of a run of `img` under `routing` and its routes, but
 * for what depends on the length of the programs (timesteps, stalls,
 * instructions) and the count of multicasts. */
static char *json_run(const HexImage *img, RoutingAlgorithm routing, bool full)
{
    MachineConfig cfg = config(routing);
    cfg.full_duplex = full;
    Machine m;
    char err[256], *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    MachineObserver obs = { f, NULL, route_line, NULL };
    CHECK_EQ(machine_init(&m, &cfg, img, &obs, err, sizeof err), 0);
    while (machine_step(&m) == END_RUNNING)
        ;
    CHECK_EQ(m.end, END_NORMAL);
    ReportOptions json = { .json = true };
    report_write(f, &m, &json);
    fclose(f);
    static const char *const keys[] = { "\"multicasts\": ", "\"timesteps\": ",
                                        "\"instructions\": ", "\"stalls_in\": " };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        blank(text, keys[i]);
    machine_free(&m);
    return text;
}

/* A multicast to a set of one is OUT's send in every respect but the
 * count of multicasts (multicast.md): p0 sends 5, 6, 7 to port 1 of p3,
 * by OUT or by MOUT to the list [3] at word 200; p3 reads and prints
 * them. The two runs' reports are the same but for that count. */
static void one_member_multicast_is_out(void)
{
    for (int a = 0; a < ROUTING_COUNT; a++)
        for (int full = 0; full <= 1; full++) {
            char *report[2];
            for (int mout = 0; mout <= 1; mout++) {
                Program progs[4];
                memset(progs, 0, sizeof progs);
                Program *s = &progs[0];
                if (mout) {
                    asm_op(s, OP_LDC, 1 | 1u << 24);
                    asm_op(s, OP_LDC, 200);
                    asm_op(s, OP_STWI, 0);
                    asm_op(s, OP_LDC, 3);
                    asm_op(s, OP_LDC, 200);
                    asm_op(s, OP_STWI, 1);
                }
                for (uint32_t v = 5; v <= 7; v++) {
                    asm_op(s, OP_LDC, v);
                    asm_op(s, OP_LDC, mout ? 200 : 3 | 1u << 24);
                    asm_opr(s, mout ? OPR_MOUT : OPR_OUT);
                }
                asm_op(s, OP_LDC, 0);
                asm_opr(s, OPR_HALT);
                for (uint32_t p = 1; p < 3; p++) {
                    asm_op(&progs[p], OP_LDC, 0);
                    asm_opr(&progs[p], OPR_HALT);
                }
                for (int i = 0; i < 3; i++) {
                    asm_op(&progs[3], OP_LDC, 1);
                    asm_opr(&progs[3], OPR_IN);
                    asm_opr(&progs[3], OPR_PRINT);
                }
                asm_op(&progs[3], OP_LDC, 0);
                asm_opr(&progs[3], OPR_HALT);
                HexImage img;
                image_build(&img, progs, 4);
                report[mout] = json_run(&img, (RoutingAlgorithm)a, full);
                hex_free(&img);
            }
            CHECK_STR(report[1], report[0]);
            free(report[0]);
            free(report[1]);
        }
}

/* A machine of 1,024 with two threads, all but p0 waiting on IN from
 * timestep 3 while p0 runs 200 instructions and halts: the threads share
 * the processors only while more than parallel_min (1,024) of them do not
 * wait, so at the first three timesteps alone, not at every one of the
 * 200, and the run ends as with one thread. */
static void waiting_processors_are_not_shared(void)
{
    enum { N = 1024 };
    Program *p = calloc(N, sizeof *p);
    for (uint32_t i = 0; i < 200; i++)
        asm_op(&p[0], OP_LDC, 1);     /* (one byte each) */
    asm_op(&p[0], OP_LDC, 0);
    asm_opr(&p[0], OPR_HALT);
    for (uint32_t i = 1; i < N; i++) {
        asm_op(&p[i], OP_LDC, 0);
        asm_opr(&p[i], OPR_IN);
    }
    Machine m[2];
    for (unsigned threads = 1; threads <= 2; threads++) {
        MachineConfig cfg = config(ROUTING_DMODK);
        cfg.threads = threads;
        CHECK_EQ(run(p, N, cfg, &m[threads - 1]), END_DEADLOCK);
    }
    CHECK_EQ(m[1].split_steps, 3);
    CHECK_EQ(m[1].t, m[0].t);
    CHECK(m[1].t > 200);
    CHECK_EQ(m[1].stalls_in, m[0].stalls_in);
    CHECK_EQ(m[1].stalls_in, (uint64_t)(N - 1) * (m[1].t - 2));
    CHECK_EQ(m[1].instructions, m[0].instructions);
    machine_free(&m[0]);
    machine_free(&m[1]);
    free(p);
}

int main(void)
{
    RUN(lone_packet_timing);
    RUN(appendix_c_under_dmodk);
    RUN(appendix_c_under_benes);
    RUN(program_deadlock);
    RUN(out_stalls_and_unread_packets);
    RUN(fault_ends_the_run);
    RUN(limit_ends_the_run);
    RUN(too_few_procs);
    RUN(one_member_multicast_is_out);
    RUN(waiting_processors_are_not_shared);
    return CHECK_EXIT();
}
