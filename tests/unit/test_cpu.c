/* Unit tests of the processor (cpu/): every operation, prefix arithmetic,
 * stalls, faults and boot, on one processor with a test double for the
 * network adapter. */
#include <limits.h>
#include <stdlib.h>

#include "cpu/cpu.h"
#include "cpu/exec.h"
#include "cpu/isa.h"
#include "tests/check.h"

enum { WORDS = 4096 };

/* A test double of the adapter: one queue of words per port, an output slot
 * that can be set full, and a record of the last OUT, MOUT, SEND and PRINT. */
typedef struct Double {
    uint32_t port_words[4][4];
    int port_count[4];
    int slot_full;
    int outs;
    uint32_t out_dest, out_port, out_word;
    int prints;
    int32_t printed;
    int mouts;
    uint32_t mout_list, mout_word;
    int sends;
    uint32_t send_dest, send_port, send_first, send_length;
} Double;

static bool dbl_in(void *ctx, uint32_t proc, uint32_t port, uint32_t *word)
{
    Double *d = ctx;
    (void)proc;
    if (d->port_count[port] == 0)
        return false;
    *word = d->port_words[port][0];
    for (int i = 1; i < d->port_count[port]; i++)
        d->port_words[port][i - 1] = d->port_words[port][i];
    d->port_count[port]--;
    return true;
}

static bool dbl_out(void *ctx, uint32_t proc, uint32_t dest, uint32_t port, uint32_t word)
{
    Double *d = ctx;
    (void)proc;
    if (d->slot_full)
        return false;
    d->outs++;
    d->out_dest = dest;
    d->out_port = port;
    d->out_word = word;
    return true;
}

static bool dbl_mout(void *ctx, uint32_t proc, uint32_t list, uint32_t word)
{
    Double *d = ctx;
    (void)proc;
    if (d->slot_full)
        return false;
    d->mouts++;
    d->mout_list = list;
    d->mout_word = word;
    return true;
}

static bool dbl_send(void *ctx, uint32_t proc, uint32_t dest, uint32_t port, uint32_t first,
                     uint32_t length)
{
    Double *d = ctx;
    (void)proc;
    if (d->slot_full)
        return false;
    d->sends++;
    d->send_dest = dest;
    d->send_port = port;
    d->send_first = first;
    d->send_length = length;
    return true;
}

static void dbl_print(void *ctx, uint32_t proc, int32_t value)
{
    Double *d = ctx;
    (void)proc;
    d->prints++;
    d->printed = value;
}

typedef struct Rig {
    CpuMemory mem;
    Cpu cpu;
    CpuBus bus;
    Double dbl;
} Rig;

/* A processor with `code` at byte address 0, entry word 0, 8 processors
 * (and the memory of 8, as a machine has), 4 ports. */
static Rig *rig_new(const uint8_t *code, size_t n)
{
    Rig *r = calloc(1, sizeof *r);
    if (mem_init(&r->mem, 8, WORDS) != 0)
        abort();
    mem_load(&r->mem, 0, code, (uint32_t)n);
    cpu_boot(&r->cpu, 0, 0, (uint32_t)n);
    r->bus = (CpuBus){ .mem = &r->mem, .timestep = 7, .nprocs = 8, .nports = 4,
                       .ctx = &r->dbl, .in = dbl_in, .out = dbl_out, .mout = dbl_mout,
                       .print = dbl_print, .send = dbl_send,
                       .longest_message = CPU_LONGEST_MESSAGE };
    return r;
}

static void rig_free(Rig *r)
{
    mem_free(&r->mem);
    free(r);
}

/* Runs n steps, all of which must execute. */
static void run(Rig *r, int n)
{
    for (int i = 0; i < n; i++)
        CHECK_EQ(cpu_step(&r->cpu, &r->bus), STEP_EXECUTED);
}

static uint32_t word_at(Rig *r, uint32_t a)
{
    return *mem_word(&r->mem, 0, a);
}

#define RIG(...) \
    static const uint8_t code_[] = { __VA_ARGS__ }; \
    Rig *r = rig_new(code_, sizeof code_)

static void prefix_arithmetic(void)
{
    RIG(0xd1, 0x36,             /* PFIX 1; LDC 6 = LDC 22 */
        0xef, 0xad,             /* NFIX F; ADJ D = ADJ -3 */
        0xd1, 0xf1);            /* PFIX 1; OPR 1 = OUT */
    run(r, 2);
    CHECK_EQ(r->cpu.areg, 22);
    CHECK_EQ(r->cpu.oreg, 0);
    run(r, 1);
    CHECK_EQ(r->cpu.oreg, 0xFFFFFFF0u);    /* NFIX F leaves -16 in oreg */
    run(r, 1);
    CHECK_EQ(r->cpu.sp, (uint32_t)-3);
    CHECK_EQ(r->cpu.pc, 4);
    rig_free(r);
}

/* Every operand from the extremes round-trips through isa_encode and the
 * processor's prefix arithmetic. */
static void extreme_operands(void)
{
    const uint32_t values[] = { 0, 1, 15, 16, 255, 256, 0x7FFFFFFFu, 0x80000000u,
                                0xFFFFFFFFu, 0xFFFFFFF0u, 0xFFFFFFEFu, 0xFFFFFF00u,
                                0xFFFFFEFFu, 200000, (uint32_t)-200000 };
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        uint8_t code[ISA_MAX_LENGTH];
        uint32_t n = isa_encode(OP_LDC, values[i], code);
        Rig *r = rig_new(code, n);
        run(r, (int)n);
        CHECK_EQ(r->cpu.areg, values[i]);
        CHECK_EQ(r->cpu.pc, n);
        rig_free(r);
    }
}

static void loads_and_stores(void)
{
    RIG(0xd4, 0x30, 0xfd,       /* LDC 64; SETSP */
        0xd1, 0x34,             /* LDC 20 */
        0x13,                   /* STWSP 3: mem[67] = 20 */
        0x03,                   /* LDWSP 3 */
        0x25,                   /* LDAWSP 5 -> 69 */
        0x6e,                   /* LDWI 14 -> mem[69 + 14] */
        0x37,                   /* LDC 7 */
        0xd4, 0x30,             /* LDC 64 */
        0x72);                  /* STWI 2: mem[66] = 7 */
    run(r, 3);
    CHECK_EQ(r->cpu.sp, 64);
    run(r, 3);
    CHECK_EQ(word_at(r, 67), 20);
    run(r, 1);
    CHECK_EQ(r->cpu.areg, 20);
    run(r, 1);
    CHECK_EQ(r->cpu.areg, 69);
    CHECK_EQ(r->cpu.breg, 20);
    *mem_word(&r->mem, 0, 83) = 1234;
    run(r, 1);
    CHECK_EQ(r->cpu.areg, 1234);
    run(r, 4);
    CHECK_EQ(word_at(r, 66), 7);
    rig_free(r);
}

static void arithmetic(void)
{
    /* Each pair: LDC b; LDC a; OPR op -> areg */
    struct { int32_t b, a; IsaOpr op; int32_t want; } cases[] = {
        { 5, 3, OPR_ADD, 8 }, { 5, 3, OPR_SUB, 2 }, { 3, 5, OPR_SUB, -2 },
        { 4, 4, OPR_EQ, 1 }, { 4, 5, OPR_EQ, 0 },
        { -1, 0, OPR_LSS, 1 }, { 0, -1, OPR_LSS, 0 }, { 3, 3, OPR_LSS, 0 },
        { 12, 10, OPR_AND, 8 }, { 12, 10, OPR_OR, 14 }, { 12, 10, OPR_XOR, 6 },
        { 1, 31, OPR_SHL, INT32_MIN }, { 1, 32, OPR_SHL, 0 }, { 1, -1, OPR_SHL, 0 },
        { -1, 28, OPR_SHR, 15 }, { -1, 32, OPR_SHR, 0 },
        { 100000, 100000, OPR_MUL, 1410065408 }, { -6, 7, OPR_MUL, -42 },
        { 7, 2, OPR_DIV, 3 }, { -7, 2, OPR_DIV, -3 }, { INT32_MIN, -1, OPR_DIV, INT32_MIN },
        { 7, 2, OPR_REM, 1 }, { -7, 2, OPR_REM, -1 }, { 7, -2, OPR_REM, 1 },
        { INT32_MIN, -1, OPR_REM, 0 },
        { INT32_MAX, 1, OPR_ADD, INT32_MIN },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t code[32];
        uint32_t n = isa_encode(OP_LDC, (uint32_t)cases[i].b, code);
        n += isa_encode(OP_LDC, (uint32_t)cases[i].a, code + n);
        uint32_t steps = n;
        uint32_t m = isa_encode(OP_OPR, cases[i].op, code + n);
        Rig *r = rig_new(code, n + m);
        run(r, (int)(steps + m));
        if ((int32_t)r->cpu.areg != cases[i].want)
            printf("  case %zu: %d %s %d gave %d\n", i, cases[i].b,
                   isa_opr[cases[i].op].name, cases[i].a, (int32_t)r->cpu.areg);
        CHECK_EQ((int32_t)r->cpu.areg, cases[i].want);
        rig_free(r);
    }
}

static void not_addc_eqc(void)
{
    RIG(0x35, 0xf7,             /* LDC 5; NOT -> -6 */
        0x86,                   /* ADDC 6 -> 0 */
        0x90,                   /* EQC 0 -> 1 */
        0x91);                  /* EQC 1 -> 1 */
    run(r, 2);
    CHECK_EQ((int32_t)r->cpu.areg, -6);
    run(r, 1);
    CHECK_EQ(r->cpu.areg, 0);
    run(r, 1);
    CHECK_EQ(r->cpu.areg, 1);
    run(r, 1);
    CHECK_EQ(r->cpu.areg, 1);
    rig_free(r);
}

static void branches(void)
{
    RIG(0xb2,                   /* 0: BR 2 -> 3 */
        0x00, 0x00,
        0x30,                   /* 3: LDC 0 */
        0xc5,                   /* 4: BRT 5 (not taken) */
        0x31,                   /* 5: LDC 1 */
        0xc1,                   /* 6: BRT 1 -> 8 */
        0x00);
    run(r, 1);
    CHECK_EQ(r->cpu.pc, 3);
    run(r, 2);
    CHECK_EQ(r->cpu.pc, 5);
    run(r, 2);
    CHECK_EQ(r->cpu.pc, 8);
    rig_free(r);

    /* LDAP and BRX: LDAP 1 at 0 gives 2; BRX jumps there. */
    static const uint8_t code2[] = { 0x51, 0xfa, 0x37 };
    r = rig_new(code2, sizeof code2);
    run(r, 1);
    CHECK_EQ(r->cpu.areg, 2);
    run(r, 1);
    CHECK_EQ(r->cpu.pc, 2);
    run(r, 1);
    CHECK_EQ(r->cpu.areg, 7);
    rig_free(r);

    /* A backward branch: NFIX F; BR E = BR -2 from 2 -> 0. */
    static const uint8_t code3[] = { 0xef, 0xbe };
    r = rig_new(code3, sizeof code3);
    run(r, 2);
    CHECK_EQ(r->cpu.pc, 0);
    CHECK_EQ(r->cpu.istart, 0);
    rig_free(r);
}

static void call_and_return(void)
{
    RIG(0xd4, 0x30, 0xfd,       /* 0: LDC 64; SETSP */
        0x53,                   /* 3: LDAP 3 -> 7 */
        0xfb,                   /* 4: CALL: mem[64] = 5, pc = 7 */
        0x39,                   /* 5: LDC 9 */
        0xfe,                   /* 6: HALT */
        0x3c,                   /* 7: LDC 12 */
        0xfc);                  /* 8: RET -> 5 */
    run(r, 5);
    CHECK_EQ(r->cpu.pc, 7);
    CHECK_EQ(word_at(r, 64), 5);
    run(r, 2);
    CHECK_EQ(r->cpu.pc, 5);
    run(r, 1);
    CHECK_EQ(cpu_step(&r->cpu, &r->bus), STEP_HALTED);
    CHECK_EQ(r->cpu.state, CPU_HALTED);
    CHECK_EQ(r->cpu.status, 9);
    rig_free(r);
}

static void halt_status_is_signed(void)
{
    RIG(0xef, 0x3f, 0xfe);      /* LDC -1; HALT */
    run(r, 2);
    CHECK_EQ(cpu_step(&r->cpu, &r->bus), STEP_HALTED);
    CHECK_EQ(r->cpu.state, CPU_HALTED);
    CHECK_EQ(r->cpu.status, -1);
    rig_free(r);
}

static void host_operations(void)
{
    RIG(0xd1, 0xf6,             /* TIME */
        0xd1, 0xf7,             /* ID */
        0xd1, 0xf8,             /* NPROC */
        0xd1, 0xf5);            /* PRINT */
    run(r, 2);
    CHECK_EQ(r->cpu.areg, 7);
    run(r, 2);
    CHECK_EQ(r->cpu.areg, 0);
    CHECK_EQ(r->cpu.breg, 7);
    run(r, 2);
    CHECK_EQ(r->cpu.areg, 8);
    run(r, 2);
    CHECK_EQ(r->dbl.prints, 1);
    CHECK_EQ(r->dbl.printed, 8);
    rig_free(r);
}

static void out_and_its_stall(void)
{
    RIG(0xd1, 0x36,             /* LDC 22 */
        0x32,                   /* LDC 2: processor 2, port 0 */
        0xd1, 0xf1);            /* OUT */
    r->dbl.slot_full = 1;
    run(r, 4);
    /* The OUT byte stalls: pc stays on it, oreg keeps the prefix value. */
    CHECK_EQ(cpu_step(&r->cpu, &r->bus), STEP_STALLED);
    CHECK_EQ(r->cpu.pc, 4);
    CHECK_EQ(r->cpu.oreg, 0x10);
    CHECK_EQ(r->cpu.istart, 3);
    CHECK_EQ(r->cpu.wait, WAIT_OUT);
    CHECK_EQ(cpu_step(&r->cpu, &r->bus), STEP_STALLED);
    r->dbl.slot_full = 0;
    CHECK_EQ(cpu_step(&r->cpu, &r->bus), STEP_EXECUTED);
    CHECK_EQ(r->dbl.outs, 1);
    CHECK_EQ(r->dbl.out_dest, 2);
    CHECK_EQ(r->dbl.out_port, 0);
    CHECK_EQ(r->dbl.out_word, 22);
    CHECK_EQ(r->cpu.pc, 5);
    CHECK_EQ(r->cpu.wait, WAIT_NONE);
    rig_free(r);
}

/* The bytes before MOUT's last in mout_rig's code: steps to run to it. */
static int before_mout;

/* LDC word; LDC list; MOUT (multicast.md), on processor `id` of 8 with 4
 * ports, with n words written at word `at`. */
static Rig *mout_rig(uint32_t id, uint32_t word, uint32_t list, uint32_t at,
                     const uint32_t *words, size_t n)
{
    uint8_t code[3 * ISA_MAX_LENGTH], *c = code;
    c += isa_encode(OP_LDC, word, c);
    c += isa_encode(OP_LDC, list, c);
    c += isa_encode(OP_OPR, OPR_MOUT, c);
    before_mout = (int)(c - code) - 1;
    Rig *r = rig_new(code, (size_t)(c - code));
    r->cpu.id = id;
    for (size_t i = 0; i < n; i++)
        if (at + i < WORDS)
            *mem_word(&r->mem, 0, at + (uint32_t)i) = words[i];
    return r;
}

/* MOUT checks its list, then sends as OUT does, or stalls on a full slot
 * and checks the list again when it tries again. */
static void mout_and_its_stall(void)
{
    static const uint32_t list[] = { 3 | 1u << 24, 2, 5, 2 };
    Rig *r = mout_rig(0, 42, 100, 100, list, 4);
    r->dbl.slot_full = 1;
    run(r, before_mout);
    CHECK_EQ(cpu_step(&r->cpu, &r->bus), STEP_STALLED);
    CHECK_EQ(r->cpu.wait, WAIT_OUT);
    CHECK_EQ(r->dbl.mouts, 0);
    *mem_word(&r->mem, 0, 102) = 9;             /* now a bad destination */
    CHECK_EQ(cpu_step(&r->cpu, &r->bus), STEP_FAULTED);
    CHECK_EQ(r->cpu.fault, FAULT_LIST_DESTINATION);
    rig_free(r);
    r = mout_rig(0, 42, 100, 100, list, 4);
    run(r, before_mout + 1);
    CHECK_EQ(r->dbl.mouts, 1);
    CHECK_EQ(r->dbl.mout_list, 100);
    CHECK_EQ(r->dbl.mout_word, 42);
    CHECK_EQ(r->cpu.wait, WAIT_NONE);
    rig_free(r);
    /* The empty set -- a broadcast below 1 from processor 0 -- sends
     * nothing and does not stall, even with the slot full; from processor
     * 3 it is a set of one, processor 0. */
    static const uint32_t none[] = { 0, 1 };
    r = mout_rig(0, 42, 100, 100, none, 2);
    r->dbl.slot_full = 1;
    run(r, before_mout + 1);
    CHECK_EQ(r->dbl.mouts, 0);
    rig_free(r);
    r = mout_rig(3, 42, 100, 100, none, 2);
    run(r, before_mout + 1);
    CHECK_EQ(r->dbl.mouts, 1);
    rig_free(r);
}

/* MOUT's faults, in the order multicast.md checks them, each naming the
 * list and the entry at fault. */
static void mout_faults(void)
{
    static const struct {
        uint32_t list, at;
        uint32_t words[4];
        CpuFault why;
        uint32_t value, entry;
        const char *text;
    } cases[] = {
        { WORDS, WORDS, { 0 }, FAULT_LIST_ADDRESS, WORDS, 0,
          "multicast list at word 4096: word 4096 outside [0, 4096)" },
        { WORDS - 2, WORDS - 2, { 3, 1, 2, 3 }, FAULT_LIST_ADDRESS, WORDS, 2, NULL },
        { UINT32_MAX, UINT32_MAX, { 0 }, FAULT_LIST_ADDRESS, UINT32_MAX, 0, NULL },
        { 10, 10, { 9, 1 }, FAULT_LIST_SIZE, 9, 0,
          "multicast list at word 10: 9 destinations, more than the 8 processors the machine has" },
        { 10, 10, { 0, 9 }, FAULT_LIST_SIZE, 9, 1,
          "multicast list at word 10: a broadcast below processor 9, but the machine has 8 processors" },
        { 10, 10, { 3 | 9u << 24, 1, 8, 2 }, FAULT_LIST_DESTINATION, 8, 2,
          "multicast list at word 10: entry 2 names processor 8, which does not exist" },
        { 10, 10, { 2 | 4u << 24, 1, 2 }, FAULT_LIST_PORT, 4, 4,
          "multicast list at word 10: input port 4 does not exist (a processor has 4 input "
          "ports, 0 to 3)" },
        { 10, 10, { 0 | 4u << 24, 8 }, FAULT_LIST_PORT, 4, 4, NULL },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Rig *r = mout_rig(0, 42, cases[i].list, cases[i].at, cases[i].words, 4);
        run(r, before_mout);
        CHECK_EQ(cpu_step(&r->cpu, &r->bus), STEP_FAULTED);
        CHECK_EQ(r->cpu.fault, cases[i].why);
        CHECK_EQ(r->cpu.fault_value, cases[i].value);
        CHECK_EQ(r->cpu.fault_list, cases[i].list);
        CHECK_EQ(r->cpu.fault_entry, cases[i].entry);
        CHECK_EQ(r->dbl.mouts, 0);
        if (cases[i].text) {
            char buf[256];
            cpu_describe_fault(&r->cpu, &r->mem, NULL, buf, sizeof buf);
            CHECK_CONTAINS(buf, cases[i].text);
        }
        rig_free(r);
    }
}

/* The bytes before SEND's last in send_rig's code: steps to run to it. */
static int before_send;

/* LDC address; LDC desc; SEND (messages.md), on processor 0 of 8 with 4
 * ports, with the descriptor's two words L and w written at `desc` (when
 * inside memory). */
static Rig *send_rig(uint32_t address, uint32_t desc, uint32_t length, uint32_t first)
{
    uint8_t code[3 * ISA_MAX_LENGTH], *c = code;
    c += isa_encode(OP_LDC, address, c);
    c += isa_encode(OP_LDC, desc, c);
    c += isa_encode(OP_OPR, OPR_SEND, c);
    before_send = (int)(c - code) - 1;
    Rig *r = rig_new(code, (size_t)(c - code));
    if (desc < WORDS)
        *mem_word(&r->mem, 0, desc) = length;
    if ((uint64_t)desc + 1 < WORDS)
        *mem_word(&r->mem, 0, desc + 1) = first;
    return r;
}

/* SEND checks its descriptor and message, then sends as OUT does (one
 * request: destination, port, first word, length), or stalls on a full
 * slot, with pc and oreg kept, and reads everything again when it tries
 * again. A message of one word and one as long as the buffer are sent. */
static void send_and_its_stall(void)
{
    Rig *r = send_rig(2 | 3u << 24, 100, 3, 200);
    r->dbl.slot_full = 1;
    run(r, before_send);
    CHECK_EQ(cpu_step(&r->cpu, &r->bus), STEP_STALLED);
    CHECK_EQ(r->cpu.wait, WAIT_OUT);
    CHECK_EQ(r->cpu.pc, (uint32_t)before_send);
    CHECK_EQ(r->cpu.oreg, 0x10);
    CHECK_EQ(r->dbl.sends, 0);
    *mem_word(&r->mem, 0, 100) = 0;             /* now a bad length */
    CHECK_EQ(cpu_step(&r->cpu, &r->bus), STEP_FAULTED);
    CHECK_EQ(r->cpu.fault, FAULT_MESSAGE_LENGTH);
    rig_free(r);
    r = send_rig(2 | 3u << 24, 100, 3, 200);
    r->dbl.slot_full = 1;
    run(r, before_send);
    CHECK_EQ(cpu_step(&r->cpu, &r->bus), STEP_STALLED);
    r->dbl.slot_full = 0;
    CHECK_EQ(cpu_step(&r->cpu, &r->bus), STEP_EXECUTED);
    CHECK_EQ(r->dbl.sends, 1);
    CHECK_EQ(r->dbl.send_dest, 2);
    CHECK_EQ(r->dbl.send_port, 3);
    CHECK_EQ(r->dbl.send_first, 200);
    CHECK_EQ(r->dbl.send_length, 3);
    CHECK_EQ(r->cpu.wait, WAIT_NONE);
    CHECK_EQ(r->cpu.pc, (uint32_t)before_send + 1);
    CHECK_EQ(r->cpu.oreg, 0);
    rig_free(r);
    r = send_rig(7, 100, 1, WORDS - 1);         /* L = 1, the last word of memory */
    run(r, before_send + 1);
    CHECK_EQ(r->dbl.sends, 1);
    CHECK_EQ(r->dbl.send_first, WORDS - 1);
    CHECK_EQ(r->dbl.send_length, 1);
    rig_free(r);
    r = send_rig(7, WORDS - 2, 4, 10);          /* L = B, the descriptor at the top */
    r->bus.longest_message = 4;
    run(r, before_send + 1);
    CHECK_EQ(r->dbl.sends, 1);
    CHECK_EQ(r->dbl.send_length, 4);
    rig_free(r);
}

/* SEND's faults, in the order messages.md checks them: each case is also
 * wrong in every way checked after its own, so that it shows which comes
 * first. Each names the bad value (and the descriptor and the word at
 * fault), and the processor stays on the SEND even with a full slot. */
static void send_faults(void)
{
    static const struct {
        uint32_t address, desc, length, first, longest;
        CpuFault why;
        uint32_t value, entry;
        const char *text;
    } cases[] = {
        { 8, WORDS, 0, WORDS, 4, FAULT_NETWORK_ADDRESS, 8, 0,
          "bad network address 0x00000008: processor 8 does not exist (the machine has 8 "
          "processors)" },
        { 1 | 4u << 24, WORDS, 0, WORDS, 4, FAULT_NETWORK_ADDRESS, 1 | 4u << 24, 0,
          "bad network address 0x04000001: processor 1 has no input port 4 (a processor has "
          "4 input ports, 0 to 3)" },
        { 1, WORDS, 0, WORDS, 4, FAULT_DESCRIPTOR_ADDRESS, WORDS, 0,
          "message descriptor at word 4096: word 4096 outside [0, 4096)" },
        { 1, WORDS - 1, 0, WORDS, 4, FAULT_DESCRIPTOR_ADDRESS, WORDS, 1,
          "message descriptor at word 4095: word 4096 outside [0, 4096)" },
        { 1, UINT32_MAX, 0, WORDS, 4, FAULT_DESCRIPTOR_ADDRESS, UINT32_MAX, 0, NULL },
        { 1, 10, 0, WORDS, 4, FAULT_MESSAGE_LENGTH, 0, 0,
          "message descriptor at word 10: length 0, not from 1 to 65536" },
        { 1, 10, 65537, WORDS, 4, FAULT_MESSAGE_LENGTH, 65537, 0,
          "message descriptor at word 10: length 65537, not from 1 to 65536" },
        { 1, 10, 0xFFFFFFFFu, WORDS, 4, FAULT_MESSAGE_LENGTH, 0xFFFFFFFFu, 0,
          "message descriptor at word 10: length -1, not from 1 to 65536" },
        { 1, 10, 65536, 0, 4, FAULT_MESSAGE_ADDRESS, WORDS, WORDS,
          "message described at word 10: its word 4096 is at 4096, outside [0, 4096)" },
        { 1, 10, 5, WORDS, 4, FAULT_MESSAGE_ADDRESS, WORDS, 0,
          "message described at word 10: its word 0 is at 4096, outside [0, 4096)" },
        { 1, 10, 5, WORDS - 2, 4, FAULT_MESSAGE_ADDRESS, WORDS, 2, NULL },
        /* w + 1 wraps to word 0, inside memory: w itself is the fault. */
        { 1, 10, 5, UINT32_MAX, 4, FAULT_MESSAGE_ADDRESS, UINT32_MAX, 0, NULL },
        { 1, 10, 5, 20, 4, FAULT_MESSAGE_BUFFER, 5, 4,
          "message of 5 words longer than the buffer (--buffer 4), which must hold it whole "
          "under cut-through and store-and-forward switching (--buffer 5 or more, or "
          "--switching wormhole, sends it)" },
        { 1, 10, 9, 20, 8, FAULT_MESSAGE_BUFFER, 9, 8, NULL },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Rig *r = send_rig(cases[i].address, cases[i].desc, cases[i].length, cases[i].first);
        r->bus.longest_message = cases[i].longest;
        r->dbl.slot_full = 1;
        run(r, before_send);
        CHECK_EQ(cpu_step(&r->cpu, &r->bus), STEP_FAULTED);
        CHECK_EQ(r->cpu.fault, cases[i].why);
        CHECK_EQ(r->cpu.fault_value, cases[i].value);
        if (cases[i].why != FAULT_NETWORK_ADDRESS) {
            CHECK_EQ(r->cpu.fault_list, cases[i].desc);
            CHECK_EQ(r->cpu.fault_entry, cases[i].entry);
        }
        CHECK_EQ(r->cpu.pc, (uint32_t)before_send);
        CHECK_EQ(r->dbl.sends, 0);
        if (cases[i].text) {
            char buf[256];
            cpu_describe_fault(&r->cpu, &r->mem, NULL, buf, sizeof buf);
            CHECK_CONTAINS(buf, cases[i].text);
            CHECK_CONTAINS(buf, ": SEND");
        }
        if (cases[i].why != FAULT_NETWORK_ADDRESS)
            CHECK_STR(cpu_fault_name(cases[i].why), cases[i].why == FAULT_DESCRIPTOR_ADDRESS ?
                      "message descriptor outside memory" : cases[i].why ==
                      FAULT_MESSAGE_LENGTH ? "bad message length" : cases[i].why ==
                      FAULT_MESSAGE_ADDRESS ? "message outside memory" :
                      "message longer than the buffer");
        rig_free(r);
    }
}

static void in_and_its_stall(void)
{
    RIG(0x32,                   /* LDC 2 */
        0xd1, 0xf0,             /* IN: port 2 */
        0x33, 0xd1, 0xf0);      /* LDC 3; IN */
    run(r, 2);
    CHECK_EQ(cpu_step(&r->cpu, &r->bus), STEP_STALLED);
    CHECK_EQ(r->cpu.wait, WAIT_IN);
    CHECK_EQ(r->cpu.pc, 2);
    CHECK_EQ(r->cpu.areg, 2);
    r->dbl.port_words[2][0] = 99;
    r->dbl.port_words[2][1] = 100;
    r->dbl.port_count[2] = 2;
    CHECK_EQ(cpu_step(&r->cpu, &r->bus), STEP_EXECUTED);
    CHECK_EQ(r->cpu.areg, 99);           /* the oldest packet */
    CHECK_EQ(r->dbl.port_count[2], 1);
    rig_free(r);
}

/* Memories of several processors are interleaved by chunks (cpu/mem.h):
 * the interpreter's view of a processor's words (mem_word_from, from its
 * first word) is mem_word's, and a program on processor 5 of 8 reads and
 * writes its own words only, across chunk rows. */
static void interleaved_memories(void)
{
    CpuMemory mem;
    CHECK_EQ(mem_init(&mem, 8, 100), 0);
    for (uint32_t p = 0; p < 8; p++)
        for (uint32_t a = 0; a < 100; a++)
            CHECK(mem_word_from(&mem, &mem.words[p << MEM_CHUNK_SHIFT], a) == mem_word(&mem, p, a));
    static const uint8_t code[] = { 0x39,             /* LDC 9 */
                                    0xd1, 0x14,       /* STWSP 20 */
                                    0xd1, 0x04,       /* LDWSP 20 */
                                    0x81,             /* ADDC 1 */
                                    0xd2, 0x11 };     /* STWSP 33 */
    mem_load(&mem, 5, code, sizeof code);
    Cpu cpu;
    cpu_boot(&cpu, 5, 0, sizeof code);
    Double dbl = { 0 };
    CpuBus bus = { .mem = &mem, .nprocs = 8, .nports = 4, .ctx = &dbl,
                   .in = dbl_in, .out = dbl_out, .print = dbl_print };
    for (int i = 0; i < 8; i++)
        CHECK_EQ(cpu_step(&cpu, &bus), STEP_EXECUTED);
    CHECK_EQ(*mem_word(&mem, 5, 20), 9u);
    CHECK_EQ(*mem_word(&mem, 5, 33), 10u);
    for (uint32_t p = 0; p < 8; p++)
        if (p != 5)
            CHECK(*mem_word(&mem, p, 20) == 0 && *mem_word(&mem, p, 33) == 0);
    mem_free(&mem);
}

/* cpu_next_is_in, which the machine uses to ask for an IN's port ahead,
 * says yes exactly at the OPR byte of an IN (its prefix run), with areg as
 * the port; not before the first fetch, nor at a prefix or another OPR. */
static void next_in_is_seen(void)
{
    RIG(0x32,                   /* LDC 2 */
        0xd1, 0xf0,             /* IN: port 2 */
        0x35, 0x37,             /* LDC 5; LDC 7 */
        0xd1, 0xf1,             /* OUT */
        0x33, 0xd1, 0xf0);      /* LDC 3; IN */
    uint32_t port = 99;
    bool expected[] = { false /* nothing fetched yet */, false, true, false, false, false, false, false, false, true };
    for (int i = 0; i < 10; i++) {
        if (i > 0)
            CHECK_EQ(cpu_step(&r->cpu, &r->bus), STEP_EXECUTED);
        CHECK_EQ(cpu_next_is_in(&r->cpu, &port), expected[i]);
        if (expected[i])
            CHECK_EQ(port, i == 2 ? 2u : 3u);
        if (i == 2) {                           /* the IN reads a packet */
            r->dbl.port_words[2][0] = 41;
            r->dbl.port_count[2] = 1;
        }
    }
    rig_free(r);
}

/* A fault leaves the processor FAULTED with the faulting byte's address. */
static void expect_fault(const uint8_t *code, size_t n, int steps, CpuFault why,
                         uint32_t pc, uint32_t istart)
{
    Rig *r = rig_new(code, n);
    for (int i = 0; i < steps; i++)
        CHECK_EQ(cpu_step(&r->cpu, &r->bus), STEP_EXECUTED);
    CHECK_EQ(cpu_step(&r->cpu, &r->bus), STEP_FAULTED);
    CHECK_EQ(r->cpu.state, CPU_FAULTED);
    CHECK_EQ(r->cpu.fault, why);
    CHECK_EQ(r->cpu.pc, pc);
    CHECK_EQ(r->cpu.istart, istart);
    rig_free(r);
}

static void faults(void)
{
    static const uint8_t illegal[] = { 0x30, 0x45 };
    expect_fault(illegal, 2, 1, FAULT_ILLEGAL, 1, 1);
    static const uint8_t illegal_opr[] = { 0xff };          /* OPR 15 */
    expect_fault(illegal_opr, 1, 0, FAULT_ILLEGAL, 0, 0);
    static const uint8_t illegal_opr2[] = { 0xd1, 0xd0, 0xf0 };   /* OPR 0x100 */
    expect_fault(illegal_opr2, 3, 2, FAULT_ILLEGAL, 2, 0);
    static const uint8_t opr_1b[] = { 0xd1, 0xfb };          /* OPR 0x1B */
    expect_fault(opr_1b, 2, 1, FAULT_ILLEGAL, 1, 0);
    /* LDWSP past the end of memory: sp = 0, operand WORDS. */
    uint8_t ld[ISA_MAX_LENGTH];
    uint32_t n = isa_encode(OP_LDWSP, WORDS, ld);
    expect_fault(ld, n, (int)n - 1, FAULT_DATA_ADDRESS, n - 1, 0);
    /* STWSP at sp - 1 wraps to 2^32 - 1, outside memory. */
    static const uint8_t st[] = { 0xef, 0x1f };
    expect_fault(st, 2, 1, FAULT_DATA_ADDRESS, 1, 0);
    /* LDWI and STWI through areg. */
    static const uint8_t ldwi[] = { 0xef, 0x3f, 0x60 };     /* LDC -1; LDWI 0 */
    expect_fault(ldwi, 3, 2, FAULT_DATA_ADDRESS, 2, 2);
    static const uint8_t stwi[] = { 0xef, 0x3f, 0x71 };     /* LDC -1; STWI 1 -> 0 ok */
    Rig *r = rig_new(stwi, 3);
    run(r, 3);
    rig_free(r);
    /* RET with sp outside memory, CALL likewise. */
    static const uint8_t ret[] = { 0xef, 0xaf, 0xfc };      /* ADJ -1; RET */
    expect_fault(ret, 3, 2, FAULT_DATA_ADDRESS, 2, 2);
    static const uint8_t call[] = { 0xef, 0xaf, 0x30, 0xfb };
    expect_fault(call, 4, 3, FAULT_DATA_ADDRESS, 3, 3);
    /* Division and remainder by zero. */
    static const uint8_t div0[] = { 0x35, 0x30, 0xd1, 0xf3 };
    expect_fault(div0, 4, 3, FAULT_DIVIDE_BY_ZERO, 3, 2);
    static const uint8_t rem0[] = { 0x35, 0x30, 0xd1, 0xf4 };
    expect_fault(rem0, 4, 3, FAULT_DIVIDE_BY_ZERO, 3, 2);
    /* OUT to processor 8 of 8, and to port 4 of 4: faults even with a full
     * slot. IN from port 4. */
    static const uint8_t out_proc[] = { 0x31, 0x38, 0xd1, 0xf1 };
    expect_fault(out_proc, 4, 3, FAULT_NETWORK_ADDRESS, 3, 2);
    uint8_t out_port[16];
    n = isa_encode(OP_LDC, 1, out_port);
    n += isa_encode(OP_LDC, 4u << 24, out_port + n);
    uint32_t steps = n;
    n += isa_encode(OP_OPR, OPR_OUT, out_port + n);
    r = rig_new(out_port, n);
    r->dbl.slot_full = 1;
    for (uint32_t i = 0; i < steps + 1; i++)
        cpu_step(&r->cpu, &r->bus);
    CHECK_EQ(cpu_step(&r->cpu, &r->bus), STEP_FAULTED);
    CHECK_EQ(r->cpu.fault, FAULT_NETWORK_ADDRESS);
    CHECK_EQ(r->cpu.fault_value, 4u << 24 | 0);
    rig_free(r);
    static const uint8_t in_port[] = { 0x34, 0xd1, 0xf0 };
    expect_fault(in_port, 3, 2, FAULT_PORT, 2, 1);
    r = rig_new(in_port, sizeof in_port);
    run(r, 2);
    CHECK_EQ(cpu_step(&r->cpu, &r->bus), STEP_FAULTED);
    char text[256];
    cpu_describe_fault(&r->cpu, &r->mem, NULL, text, sizeof text);
    CHECK_STR(text, "bad input port 4 (a processor has 4 input ports, 0 to 3) at 0002 "
                    "(prefixes from 0001): IN");
    rig_free(r);
    /* Fetch outside memory: BRX to 4 * WORDS. */
    uint8_t fetch[16];
    n = isa_encode(OP_LDC, 4 * WORDS, fetch);
    n += isa_encode(OP_OPR, OPR_BRX, fetch + n);
    expect_fault(fetch, n, (int)n, FAULT_FETCH_ADDRESS, 4 * WORDS, 4 * WORDS);
}

static void fault_description(void)
{
    static const uint8_t code[] = { 0x35, 0x30, 0xd1, 0xf3 };   /* 5 / 0 */
    Rig *q = rig_new(code, sizeof code);
    for (int i = 0; i < 4; i++)
        cpu_step(&q->cpu, &q->bus);
    char buf[200];
    cpu_describe_fault(&q->cpu, &q->mem, NULL, buf, sizeof buf);
    CHECK_STR(buf, "division by zero at 0003 (prefixes from 0002): DIV");
    cpu_describe_fault(&q->cpu, &q->mem, "p.x:3:9, in proc main", buf, sizeof buf);
    CHECK_STR(buf, "division by zero at 0003 (prefixes from 0002; p.x:3:9, in proc main): DIV");
    cpu_describe_fault(&q->cpu, &q->mem, "", buf, sizeof buf);
    CHECK_STR(buf, "division by zero at 0003 (prefixes from 0002): DIV");
    rig_free(q);
    static const uint8_t load[] = { 0x30, 0xf7, 0x60 };     /* LDWI 0 at address -1 */
    q = rig_new(load, sizeof load);
    for (int i = 0; i < 3; i++)
        cpu_step(&q->cpu, &q->bus);
    cpu_describe_fault(&q->cpu, &q->mem, "p.x:3:9, in proc main", buf, sizeof buf);
    CHECK_STR(buf, "data address 4294967295 outside [0, 4096) at 0002 (p.x:3:9, in proc main): "
                   "LDWI 0");
    rig_free(q);
    uint8_t ld[ISA_MAX_LENGTH];
    uint32_t n = isa_encode(OP_LDWSP, 5000, ld);
    q = rig_new(ld, n);
    for (uint32_t i = 0; i < n; i++)
        cpu_step(&q->cpu, &q->bus);
    cpu_describe_fault(&q->cpu, &q->mem, NULL, buf, sizeof buf);
    CHECK_STR(buf, "data address 5000 outside [0, 4096) at 0003 (prefixes from 0000): LDWSP 5000");
    rig_free(q);
}

/* The longest reasons, with the largest numbers and a long source, are
 * whole: none is cut by a buffer of the describer's own. */
static void fault_description_is_whole(void)
{
    static const uint8_t code[] = { 0x35, 0x30, 0xd1, 0xf3 };
    Rig *q = rig_new(code, sizeof code);
    for (int i = 0; i < 4; i++)
        cpu_step(&q->cpu, &q->bus);
    q->cpu.fault = FAULT_LIST_SIZE;
    q->cpu.fault_entry = 1;
    q->cpu.fault_list = 4294967295u;
    q->cpu.fault_value = 4294967295u;
    char source[300], buf[1024];
    memset(source, 'x', sizeof source - 1);
    source[sizeof source - 1] = '\0';
    cpu_describe_fault(&q->cpu, &q->mem, source, buf, sizeof buf);
    CHECK(strstr(buf, "multicast list at word 4294967295: a broadcast below processor "
                      "4294967295, but the machine has 8 processors at 0003 (prefixes from "
                      "0002; xxx") == buf);
    CHECK(strstr(buf, "xxx): DIV") != NULL);
    rig_free(q);
}

/* A negative ADJ that leaves sp below the end of the image (6 bytes: words
 * 0 and 1, so the end is word 2) faults, before sp changes; one that leaves
 * sp exactly at the end does not. A run of private instructions stops
 * before the faulting ADJ. */
static void stack_overflow(void)
{
    RIG(0x34, 0xfd,             /* LDC 4; SETSP: sp 4 */
        0xef, 0xae,             /* ADJ -2: sp 2, the image's end */
        0xef, 0xaf);            /* ADJ -1: sp 1, inside the image */
    run(r, 4);
    CHECK_EQ(r->cpu.sp, 2);
    CpuRegs regs;
    cpu_regs_load(&regs, &r->cpu, r->mem);
    CHECK_EQ(cpu_run_private(&r->cpu, &regs, r->mem, &r->bus, 60), 1);   /* NFIX only */
    cpu_regs_store(&r->cpu, &regs);
    CHECK_EQ(r->cpu.state, CPU_RUNNING);
    CHECK_EQ(cpu_step(&r->cpu, &r->bus), STEP_FAULTED);
    CHECK_EQ(r->cpu.fault, FAULT_STACK_OVERFLOW);
    CHECK_EQ(r->cpu.sp, 2);
    CHECK_EQ(r->cpu.pc, 5);
    CHECK_EQ(r->cpu.istart, 4);
    char buf[200];
    cpu_describe_fault(&r->cpu, &r->mem, NULL, buf, sizeof buf);
    CHECK_STR(buf, "stack overflow (sp would be 1, below the end of the program's image "
                   "at word 2) at 0005 (prefixes from 0004): ADJ -1");
    rig_free(r);
}

/* Only a negative ADJ can overflow: a positive one from below the image's
 * end does not fault, nor a negative one that wraps sp from 0 to the top
 * of the address space (sp is compared unsigned). */
static void stack_below_the_image_going_up(void)
{
    RIG(0x85,                   /* ADDC 5, padding: the image is 2 words */
        0xa1,                   /* ADJ 1: sp 1, below the end, going up */
        0xef, 0xae,             /* ADJ -2: sp 0xFFFFFFFF, wrapped */
        0xa2, 0xa1);            /* ADJ 2; ADJ 1: sp 2 */
    run(r, 6);
    CHECK_EQ(r->cpu.sp, 2);
    rig_free(r);
}

/* A store into the code word being executed is seen by the next fetch:
 * the instruction buffer never differs from memory. Word 1 holds
 * 30 30 30 30 (four LDC 0); the program overwrites it with 3c 3c 3c 3c
 * (LDC 12) while executing its first byte, and the next bytes load 12. */
static void self_modifying_code(void)
{
    uint8_t code[32];
    uint32_t n = 0;
    n += isa_encode(OP_LDC, 0x3c3c3c3cu, code + n);     /* 8 bytes: word 0, 1 */
    n += isa_encode(OP_LDC, 2, code + n);               /* word 2 */
    n += isa_encode(OP_STWI, 0, code + n);              /* mem[2] := 0x3c3c3c3c */
    while (n < 12)
        code[n++] = 0x30;                               /* LDC 0 */
    Rig *r = rig_new(code, n);
    run(r, 8 + 1);                                      /* pc 9, in word 2 */
    CHECK_EQ(r->cpu.iaddr, 2);
    run(r, 1);                                          /* STWI: word 2 changes */
    CHECK_EQ(word_at(r, 2), 0x3c3c3c3cu);
    run(r, 1);                                          /* byte 10 is now LDC 12 */
    CHECK_EQ(r->cpu.areg, 12);
    rig_free(r);
    /* The same in a run of private instructions, which takes the bytes of
     * a word from the buffer one by one: the bytes after the store are
     * the new ones. */
    r = rig_new(code, n);
    CpuRegs regs;
    cpu_regs_load(&regs, &r->cpu, r->mem);
    CHECK_EQ(cpu_run_private(&r->cpu, &regs, r->mem, &r->bus, 11), 11);
    cpu_regs_store(&r->cpu, &regs);
    CHECK_EQ(r->cpu.pc, 11);
    CHECK_EQ(r->cpu.areg, 12);
    CHECK_EQ(r->cpu.breg, 2);
    CHECK_EQ(r->cpu.ibuf, 0x3c3c3c3cu);
    rig_free(r);
}

static void boot_state(void)
{
    Cpu c;
    cpu_boot(&c, 5, 3, 16);
    CHECK_EQ(c.pc, 12);
    CHECK_EQ(c.sp, 0);
    CHECK_EQ(c.areg, 0);
    CHECK_EQ(c.breg, 0);
    CHECK_EQ(c.oreg, 0);
    CHECK_EQ(c.id, 5);
    CHECK_EQ(c.state, CPU_RUNNING);
    cpu_idle(&c, 6);
    CHECK_EQ(c.state, CPU_IDLE);
}

/* The operations that run in lockstep, never ahead (cpu_run_private):
 * those that reach outside the processor, and every operand that is not
 * an operation (it faults), however large. */
static void lockstep_operations(void)
{
    for (uint32_t n = 0; n < 64; n++) {
        bool outside = n == OPR_IN || n == OPR_OUT || n == OPR_PRINT || n == OPR_HALT ||
                       n == OPR_TIME || n == OPR_MOUT || n == OPR_SEND;
        CHECK_EQ(cpu_opr_is_external(n), outside || !isa_opr_defined(n));
    }
    CHECK(!cpu_opr_is_external(OPR_ADD));
    CHECK(!cpu_opr_is_external(OPR_NPROC));
    CHECK(cpu_opr_is_external(0x0F));
    CHECK(cpu_opr_is_external(1u << 31));
    CHECK(cpu_opr_is_external(UINT32_MAX));
}

/* A run of private instructions (the machine's run-ahead) stops before an
 * external operation, prefix bytes included, without executing it, and
 * before a byte that would fault, leaving the processor running; it runs
 * no more than its limit. */
static void private_runs(void)
{
    RIG(0x35,                   /* LDC 5 */
        0x82,                   /* ADDC 2 */
        0xd1, 0xf1,             /* PFIX 1; OPR 1 = OUT */
        0x40);                  /* ILLEGAL */
    CpuRegs regs;
    cpu_regs_load(&regs, &r->cpu, r->mem);
    CHECK_EQ(cpu_run_private(&r->cpu, &regs, r->mem, &r->bus, 1), 1);
    CHECK_EQ(regs.areg, 5);
    CHECK_EQ(cpu_run_private(&r->cpu, &regs, r->mem, &r->bus, 60), 2);   /* ADDC, PFIX */
    cpu_regs_store(&r->cpu, &regs);
    CHECK_EQ(r->cpu.areg, 7);
    CHECK_EQ(r->cpu.pc, 3);     /* at the OPR byte of OUT, not executed */
    CHECK_EQ(r->cpu.oreg, 0x10);
    CHECK_EQ(r->dbl.outs, 0);
    CHECK_EQ(r->cpu.state, CPU_RUNNING);
    CHECK_EQ(cpu_step(&r->cpu, &r->bus), STEP_EXECUTED);   /* OUT, in lockstep */
    CHECK_EQ(r->dbl.outs, 1);
    cpu_regs_load(&regs, &r->cpu, r->mem);
    CHECK_EQ(cpu_run_private(&r->cpu, &regs, r->mem, &r->bus, 60), 0);   /* ILLEGAL */
    CHECK_EQ(r->cpu.state, CPU_RUNNING);
    CHECK_EQ(r->cpu.fault, FAULT_NONE);
    CHECK_EQ(cpu_step(&r->cpu, &r->bus), STEP_FAULTED);    /* it faults in lockstep */
    rig_free(r);
}

int main(void)
{
    RUN(prefix_arithmetic);
    RUN(extreme_operands);
    RUN(loads_and_stores);
    RUN(arithmetic);
    RUN(not_addc_eqc);
    RUN(branches);
    RUN(call_and_return);
    RUN(halt_status_is_signed);
    RUN(host_operations);
    RUN(out_and_its_stall);
    RUN(mout_and_its_stall);
    RUN(mout_faults);
    RUN(send_and_its_stall);
    RUN(send_faults);
    RUN(in_and_its_stall);
    RUN(next_in_is_seen);
    RUN(interleaved_memories);
    RUN(faults);
    RUN(fault_description);
    RUN(fault_description_is_whole);
    RUN(stack_overflow);
    RUN(stack_below_the_image_going_up);
    RUN(self_modifying_code);
    RUN(boot_state);
    RUN(lockstep_operations);
    RUN(private_runs);
    return CHECK_EXIT();
}
