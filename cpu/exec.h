/* The interpreter: one instruction byte per call (spec/isa.md), inline so
 * that the timestep loop (emu/machine.c) runs it with the memory's geometry
 * in registers.
 *
 * It works on CpuRegs, the scalar registers an ordinary instruction reads
 * and writes, and touches the Cpu itself only on the rare paths (faults,
 * HALT, stalls, IN/OUT/PRINT). cpu_exec copies the registers in and out
 * around one step; the timestep loop keeps them in a local copy, which the
 * compiler holds in machine registers, for a whole visit: a run of private
 * instructions (cpu_run_private), or an external one and the private ones
 * after it.
 *
 * The dispatch is a plain switch on the operation, with no default, so the
 * compiler proves that every operation of isa.def is handled; OPR's operand
 * is range-checked first and then switched on the same way. All arithmetic
 * is on uint32_t, so it wraps at 32 bits as the spec says, addresses
 * included, before any range check.
 *
 * Fetching uses the processor's one-word instruction buffer (thesis
 * Appendix B): the code word is read from memory only when pc leaves it,
 * and every store to that word also updates the buffer, so the buffer never
 * differs from memory and the semantics are those of fetching every byte. */
#ifndef CPU_EXEC_H
#define CPU_EXEC_H

#include <limits.h>
#include <stdbool.h>

#include "common/hot.h"
#include "cpu/cpu.h"
#include "cpu/isa.h"

/* The interpreter is HOT (common/hot.h): inlined into its loops, the
 * timestep loop and cpu_run_private. */

/* What an ordinary instruction reads and writes: all scalars, so that a
 * local copy can live in machine registers. */
typedef struct CpuRegs {
    uint32_t pc, sp, oreg, areg, breg, istart;
    uint32_t iaddr, ibuf;     /* the instruction buffer */
    uint32_t *words;          /* its first word: its place in the first memory row */
} CpuRegs;

HOT void cpu_regs_load(CpuRegs *r, const Cpu *c, CpuMemory mem)
{
    *r = (CpuRegs){ c->pc, c->sp, c->oreg, c->areg, c->breg, c->istart,
                    c->iaddr, c->ibuf, mem.words + c->membase };
}

HOT void cpu_regs_store(Cpu *c, const CpuRegs *r)
{
    c->pc = r->pc;
    c->sp = r->sp;
    c->oreg = r->oreg;
    c->areg = r->areg;
    c->breg = r->breg;
    c->istart = r->istart;
    c->iaddr = r->iaddr;
    c->ibuf = r->ibuf;
}

/* Stops the processor with a fault at the byte at pc. The registers are
 * left as they were before the faulting byte. */
static inline CpuStep cpu_fault(Cpu *cpu, CpuFault why, uint32_t value)
{
    cpu->state = CPU_FAULTED;
    cpu->fault = (uint8_t)why;
    cpu->fault_value = value;
    return STEP_FAULTED;
}

/* A fault of a port that does not exist: the processor's ports, `nports`,
 * are kept with it for the message. */
static inline CpuStep cpu_port_fault(Cpu *cpu, CpuFault why, uint32_t value, uint32_t nports)
{
    cpu->fault_entry = nports;
    return cpu_fault(cpu, why, value);
}

static inline int32_t cpu_signed(uint32_t x)
{
    return x <= INT32_MAX ? (int32_t)x : (int32_t)(x - 0x80000000u) + INT32_MIN;
}

/* Reads data word `addr` into *w: true, or false when it lies outside
 * memory, after which the processor has faulted and the instruction
 * returns STEP_FAULTED. */
HOT bool cpu_load(Cpu *cpu, CpuMemory mem, const CpuRegs *r, uint32_t addr, uint32_t *w)
{
    if (addr >= mem.size) {
        cpu_fault(cpu, FAULT_DATA_ADDRESS, addr);
        return false;
    }
    *w = *mem_word_from(&mem, r->words, addr);
    return true;
}

/* Writes data word `addr` (and the instruction buffer if it holds it): true,
 * or false as cpu_load. */
HOT bool cpu_store(Cpu *cpu, CpuMemory mem, CpuRegs *r, uint32_t addr, uint32_t value)
{
    if (addr >= mem.size) {
        cpu_fault(cpu, FAULT_DATA_ADDRESS, addr);
        return false;
    }
    *mem_word_from(&mem, r->words, addr) = value;
    if (addr == r->iaddr)
        r->ibuf = value;
    return true;
}

/* Finishes a non-stalling instruction: the next byte is at `next`. */
HOT CpuStep cpu_done(CpuRegs *r, uint32_t next)
{
    r->pc = r->istart = next;
    r->oreg = 0;
    return STEP_EXECUTED;
}

/* Whether OPR operation n reaches outside the processor -- the network,
 * the host, the clock or the end of the run -- or faults: such operations
 * always run in lockstep, at their own timestep. */
static inline bool cpu_opr_is_external(uint32_t n)
{
    const uint32_t external = 1u << OPR_IN | 1u << OPR_OUT | 1u << OPR_PRINT |
                              1u << OPR_HALT | 1u << OPR_TIME | 1u << OPR_MOUT |
                              1u << OPR_SEND;
    const uint32_t lockstep = external | ~(uint32_t)ISA_OPR_DEFINED_MASK;
    return n >= 32 || ((lockstep >> n) & 1u);   /* (as one test of a bit) */
}

/* The OPR operations executed in the interpreter's switch: all but MOUT and
 * SEND, which are rare and long, and are left out of line with the operands
 * that fault, so that the switch the other operations take stays as it is. */
enum { OPR_SWITCH_MASK = ISA_OPR_DEFINED_MASK & ~(1 << OPR_MOUT) & ~(1 << OPR_SEND) };

/* MOUT or SEND, or an operand that is not an operation (a fault). */
static inline CpuStep cpu_step_opr_aside(Cpu *cpu, CpuRegs *r, CpuMemory mem,
                                         const CpuBus *bus, uint32_t n, uint32_t next)
{
    CpuStep step;
    if (n == OPR_MOUT)
        step = cpu_mout(cpu, mem, bus, r->areg, r->breg);
    else if (n == OPR_SEND)
        step = cpu_send(cpu, mem, bus, r->areg, r->breg);
    else
        return cpu_fault(cpu, FAULT_ILLEGAL, n);
    if (step != STEP_EXECUTED)
        return step;
    cpu->wait = WAIT_NONE;
    return cpu_done(r, next);
}

/* An OPR operation with operand n; `next` is the address of the next byte. */
HOT CpuStep cpu_step_opr(Cpu *cpu, CpuRegs *r, CpuMemory mem, const CpuBus *bus,
                             uint32_t n, uint32_t next)
{
    uint32_t a = r->areg, b = r->breg;
    if (n >= 32 || !((OPR_SWITCH_MASK >> n) & 1))
        return cpu_step_opr_aside(cpu, r, mem, bus, n, next);
    switch ((IsaOpr)n) {
    case OPR_ADD: { r->areg = b + a; break; }
    case OPR_SUB: { r->areg = b - a; break; }
    case OPR_EQ:  { r->areg = b == a; break; }
    case OPR_LSS: { r->areg = cpu_signed(b) < cpu_signed(a); break; }
    case OPR_AND: { r->areg = b & a; break; }
    case OPR_OR:  { r->areg = b | a; break; }
    case OPR_XOR: { r->areg = b ^ a; break; }
    case OPR_NOT: { r->areg = ~a; break; }
    case OPR_SHL: { r->areg = a >= 32 ? 0 : b << a; break; }
    case OPR_SHR: { r->areg = a >= 32 ? 0 : b >> a; break; }
    case OPR_BRX: { r->areg = b; return cpu_done(r, a); }
    case OPR_CALL: {
        if (!cpu_store(cpu, mem, r, r->sp, next))
            return STEP_FAULTED;
        r->areg = b;
        return cpu_done(r, a);
    }
    case OPR_RET: {
        uint32_t target;
        if (!cpu_load(cpu, mem, r, r->sp, &target))
            return STEP_FAULTED;
        return cpu_done(r, target);
    }
    case OPR_SETSP: { r->sp = a; r->areg = b; break; }
    case OPR_HALT: {
        cpu->state = CPU_HALTED;
        cpu->status = cpu_signed(a);
        cpu_done(r, next);
        return STEP_HALTED;
    }
    case OPR_IN: {
        uint32_t word;
        if (a >= bus->nports)
            return cpu_port_fault(cpu, FAULT_PORT, a, bus->nports);
        if (!bus->in(bus->ctx, cpu->id, a, &word)) {
            cpu->wait = WAIT_IN;
            return STEP_STALLED;
        }
        r->areg = word;
        break;
    }
    case OPR_OUT: {
        uint32_t dest = a & 0xFFFFFFu, port = a >> 24;
        if (dest >= bus->nprocs || port >= bus->nports)
            return cpu_port_fault(cpu, FAULT_NETWORK_ADDRESS, a, bus->nports);
        if (!bus->out(bus->ctx, cpu->id, dest, port, b)) {
            cpu->wait = WAIT_OUT;
            return STEP_STALLED;
        }
        break;
    }
    case OPR_MOUT: case OPR_SEND:   /* (never: cpu_step_opr_aside) */
        break;
    case OPR_MUL: { r->areg = b * a; break; }
    case OPR_DIV: {
        if (a == 0)
            return cpu_fault(cpu, FAULT_DIVIDE_BY_ZERO, 0);
        /* INT_MIN / -1 overflows in C; the machine gives INT_MIN. */
        r->areg = (b == 0x80000000u && a == 0xFFFFFFFFu)
                ? b : (uint32_t)(cpu_signed(b) / cpu_signed(a));
        break;
    }
    case OPR_REM: {
        if (a == 0)
            return cpu_fault(cpu, FAULT_DIVIDE_BY_ZERO, 0);
        r->areg = (a == 0xFFFFFFFFu) ? 0 : (uint32_t)(cpu_signed(b) % cpu_signed(a));
        break;
    }
    case OPR_PRINT: { bus->print(bus->ctx, cpu->id, cpu_signed(a)); break; }
    case OPR_TIME:  { r->breg = a; r->areg = (uint32_t)bus->timestep; break; }
    case OPR_ID:    { r->breg = a; r->areg = cpu->id; break; }
    case OPR_NPROC: { r->breg = a; r->areg = bus->nprocs; break; }
    }
    cpu->wait = WAIT_NONE;
    return cpu_done(r, next);
}

/* Makes the instruction buffer hold the word of pc; false on a fetch
 * outside memory (nothing changes then). */
HOT bool cpu_fetch(CpuRegs *r, CpuMemory mem)
{
    uint32_t word_addr = r->pc >> 2;
    if (word_addr != r->iaddr) {
        if (word_addr >= mem.size)
            return false;
        r->ibuf = *mem_word_from(&mem, r->words, word_addr);
        r->iaddr = word_addr;
    }
    return true;
}

/* The byte at pc, once cpu_fetch has succeeded (little-endian in the word). */
HOT uint8_t cpu_byte(const CpuRegs *r)
{
    return (uint8_t)(r->ibuf >> (8 * (r->pc & 3)));
}

/* Whether processor cpu's next byte is an IN whose instruction buffer
 * already holds it (so without a fetch), and then the port it will read,
 * which is areg: for the machine to ask for that port ahead. */
static inline bool cpu_next_is_in(const Cpu *cpu, uint32_t *port)
{
    if (cpu->pc >> 2 != cpu->iaddr)
        return false;
    uint8_t byte = (uint8_t)(cpu->ibuf >> (8 * (cpu->pc & 3)));
    *port = cpu->areg;
    return ISA_OP(byte) == OP_OPR && (cpu->oreg | ISA_IMM(byte)) == OPR_IN;
}

/* Executes `byte`, the byte at pc (fetched), on registers r of processor cpu.
 * In a run of private instructions (`private_run`, a constant where it is
 * inlined), an external operation is not executed: STEP_EXTERNAL. */
HOT CpuStep cpu_step_byte(Cpu *cpu, CpuRegs *r, CpuMemory mem, const CpuBus *bus,
                              uint8_t byte, bool private_run)
{
    uint32_t operand = r->oreg | ISA_IMM(byte);
    uint32_t next = r->pc + 1;

    switch ((IsaOp)ISA_OP(byte)) {
    case OP_PFIX: {
        r->oreg = operand << 4;
        r->pc = next;
        return STEP_EXECUTED;
    }
    case OP_NFIX: {
        r->oreg = ((~0u << 4) | ISA_IMM(byte)) << 4;
        r->pc = next;
        return STEP_EXECUTED;
    }
    case OP_LDWSP: {
        uint32_t w;
        if (!cpu_load(cpu, mem, r, r->sp + operand, &w))
            return STEP_FAULTED;
        r->breg = r->areg;
        r->areg = w;
        break;
    }
    case OP_STWSP: {
        if (!cpu_store(cpu, mem, r, r->sp + operand, r->areg))
            return STEP_FAULTED;
        r->areg = r->breg;
        break;
    }
    case OP_LDAWSP: { r->breg = r->areg; r->areg = r->sp + operand; break; }
    case OP_LDC:    { r->breg = r->areg; r->areg = operand; break; }
    case OP_ILLEGAL: { return cpu_fault(cpu, FAULT_ILLEGAL, operand); }
    case OP_LDAP:   { r->breg = r->areg; r->areg = next + operand; break; }
    case OP_LDWI: {
        uint32_t w;
        if (!cpu_load(cpu, mem, r, r->areg + operand, &w))
            return STEP_FAULTED;
        r->areg = w;
        break;
    }
    case OP_STWI: {
        if (!cpu_store(cpu, mem, r, r->areg + operand, r->breg))
            return STEP_FAULTED;
        break;
    }
    case OP_ADDC:   { r->areg += operand; break; }
    case OP_EQC:    { r->areg = r->areg == operand; break; }
    case OP_ADJ: {
        /* The stack grows down: a negative ADJ makes a frame, and one that
         * reaches into the image would overwrite the program. */
        uint32_t sp = r->sp + operand;
        if (operand >= 0x80000000u && sp < cpu->image_end)
            return cpu_fault(cpu, FAULT_STACK_OVERFLOW, sp);
        r->sp = sp;
        break;
    }
    case OP_BR:     { next += operand; break; }
    case OP_BRT:    { if (r->areg != 0) next += operand; break; }
    case OP_OPR: {
        if (private_run && cpu_opr_is_external(operand))
            return STEP_EXTERNAL;
        return cpu_step_opr(cpu, r, mem, bus, operand, next);
    }
    }
    return cpu_done(r, next);
}

/* Executes exactly one byte on registers r of processor cpu. */
HOT CpuStep cpu_step_regs(Cpu *cpu, CpuRegs *r, CpuMemory mem, const CpuBus *bus)
{
    if (!cpu_fetch(r, mem))
        return cpu_fault(cpu, FAULT_FETCH_ADDRESS, r->pc);
    return cpu_step_byte(cpu, r, mem, bus, cpu_byte(r), false);
}

/* Executes exactly one byte of processor `cpu`, whose memory is `mem`. */
HOT CpuStep cpu_exec(Cpu *cpu, CpuMemory mem, const CpuBus *bus)
{
    CpuRegs r;
    cpu_regs_load(&r, cpu, mem);
    CpuStep step = cpu_step_regs(cpu, &r, mem, bus);
    cpu_regs_store(cpu, &r);
    return step;
}

/* Runs up to `limit` instructions, one per timestep, that touch nothing but
 * the processor and its own memory, on its registers r; stops before an
 * external operation and before an instruction that would fault, and
 * returns how many ran. The machine uses it to let a processor run ahead
 * of the timestep loop, which gives the same result as lockstep because
 * nothing else can observe these instructions (emu/machine.h explains the
 * bookkeeping).
 *
 * Every fault is detected before the faulting instruction changes any
 * register, so undoing the fault fields undoes the instruction, which then
 * faults again in lockstep at its own timestep. */
HOT uint32_t cpu_run_private(Cpu *cpu, CpuRegs *regs, CpuMemory mem, const CpuBus *bus,
                                 uint32_t limit)
{
    CpuRegs r = *regs;   /* (a copy of its own: GCC then keeps iaddr in one
                            register across the loop, which it would not
                            through *regs) */
    uint32_t left = limit;              /* (counting down keeps one register free) */
    for (; left != 0; left--) {
        if (!cpu_fetch(&r, mem))
            break;                      /* a fetch fault: leave it to lockstep */
        CpuStep step = cpu_step_byte(cpu, &r, mem, bus, cpu_byte(&r), true);
        if (step != STEP_EXECUTED) {
            if (step != STEP_EXTERNAL) {
                cpu->state = CPU_RUNNING;   /* undo the fault */
                cpu->fault = FAULT_NONE;
                cpu->fault_value = 0;
            }
            break;
        }
    }
    *regs = r;
    return limit - left;
}

#endif
