/* The interpreter: one instruction byte per call (spec/isa.md), inline so
 * that the timestep loop (emu/machine.c) runs it with the memory's geometry
 * in registers.
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

#include "cpu/cpu.h"
#include "cpu/isa.h"

/* Stops the processor with a fault at the byte at cpu->pc. */
static inline CpuStep cpu_fault(Cpu *cpu, CpuFault why, uint32_t value)
{
    cpu->state = CPU_FAULTED;
    cpu->fault = (uint8_t)why;
    cpu->fault_value = value;
    return STEP_FAULTED;
}

static inline int32_t cpu_signed(uint32_t x)
{
    return x <= INT32_MAX ? (int32_t)x : (int32_t)(x - 0x80000000u) + INT32_MIN;
}

/* Reads data word `addr`, or faults. */
#define CPU_LOAD(dst, addr) do { \
        uint32_t a_ = (addr); \
        if (a_ >= mem.size) return cpu_fault(cpu, FAULT_DATA_ADDRESS, a_); \
        (dst) = *mem_word_at(&mem, cpu->membase, a_); \
    } while (0)

/* Writes data word `addr` (and the instruction buffer if it holds it). */
#define CPU_STORE(addr, value) do { \
        uint32_t a_ = (addr), v_ = (value); \
        if (a_ >= mem.size) return cpu_fault(cpu, FAULT_DATA_ADDRESS, a_); \
        *mem_word_at(&mem, cpu->membase, a_) = v_; \
        if (a_ == cpu->iaddr) cpu_fill_buffer(cpu, v_); \
    } while (0)

/* Puts a code word in the instruction buffer, byte 0 (the least
 * significant, little-endian as isa.md says) first. */
static inline void cpu_fill_buffer(Cpu *cpu, uint32_t word)
{
    cpu->ibytes[0] = (uint8_t)word;
    cpu->ibytes[1] = (uint8_t)(word >> 8);
    cpu->ibytes[2] = (uint8_t)(word >> 16);
    cpu->ibytes[3] = (uint8_t)(word >> 24);
}

/* Finishes a non-stalling instruction: the next byte is at `next`. */
static inline CpuStep cpu_done(Cpu *cpu, uint32_t next)
{
    cpu->pc = cpu->istart = next;
    cpu->oreg = 0;
    return STEP_EXECUTED;
}

/* An OPR operation with operand n; `next` is the address of the next byte. */
static inline CpuStep cpu_exec_opr(Cpu *cpu, CpuMemory mem, const CpuBus *bus, uint32_t n,
                                   uint32_t next)
{
    uint32_t a = cpu->areg, b = cpu->breg;
    if (!isa_opr_defined(n))
        return cpu_fault(cpu, FAULT_ILLEGAL, n);
    switch ((IsaOpr)n) {
    case OPR_ADD: { cpu->areg = b + a; break; }
    case OPR_SUB: { cpu->areg = b - a; break; }
    case OPR_EQ:  { cpu->areg = b == a; break; }
    case OPR_LSS: { cpu->areg = cpu_signed(b) < cpu_signed(a); break; }
    case OPR_AND: { cpu->areg = b & a; break; }
    case OPR_OR:  { cpu->areg = b | a; break; }
    case OPR_XOR: { cpu->areg = b ^ a; break; }
    case OPR_NOT: { cpu->areg = ~a; break; }
    case OPR_SHL: { cpu->areg = a >= 32 ? 0 : b << a; break; }
    case OPR_SHR: { cpu->areg = a >= 32 ? 0 : b >> a; break; }
    case OPR_BRX: { cpu->areg = b; return cpu_done(cpu, a); }
    case OPR_CALL: {
        CPU_STORE(cpu->sp, next);
        cpu->areg = b;
        return cpu_done(cpu, a);
    }
    case OPR_RET: {
        uint32_t target;
        CPU_LOAD(target, cpu->sp);
        return cpu_done(cpu, target);
    }
    case OPR_SETSP: { cpu->sp = a; cpu->areg = b; break; }
    case OPR_HALT: {
        cpu->state = CPU_HALTED;
        cpu->status = cpu_signed(a);
        cpu_done(cpu, next);
        return STEP_HALTED;
    }
    case OPR_IN: {
        uint32_t word;
        if (a >= bus->nports)
            return cpu_fault(cpu, FAULT_PORT, a);
        if (!bus->in(bus->ctx, cpu->id, a, &word)) {
            cpu->wait = WAIT_IN;
            return STEP_STALLED;
        }
        cpu->areg = word;
        break;
    }
    case OPR_OUT: {
        uint32_t dest = a & 0xFFFFFFu, port = a >> 24;
        if (dest >= bus->nprocs || port >= bus->nports)
            return cpu_fault(cpu, FAULT_NETWORK_ADDRESS, a);
        if (!bus->out(bus->ctx, cpu->id, dest, port, b)) {
            cpu->wait = WAIT_OUT;
            return STEP_STALLED;
        }
        break;
    }
    case OPR_MUL: { cpu->areg = b * a; break; }
    case OPR_DIV: {
        if (a == 0)
            return cpu_fault(cpu, FAULT_DIVIDE_BY_ZERO, 0);
        /* INT_MIN / -1 overflows in C; the machine gives INT_MIN. */
        cpu->areg = (b == 0x80000000u && a == 0xFFFFFFFFu)
                  ? b : (uint32_t)(cpu_signed(b) / cpu_signed(a));
        break;
    }
    case OPR_REM: {
        if (a == 0)
            return cpu_fault(cpu, FAULT_DIVIDE_BY_ZERO, 0);
        cpu->areg = (a == 0xFFFFFFFFu) ? 0 : (uint32_t)(cpu_signed(b) % cpu_signed(a));
        break;
    }
    case OPR_PRINT: { bus->print(bus->ctx, cpu->id, cpu_signed(a)); break; }
    case OPR_TIME:  { cpu->breg = a; cpu->areg = (uint32_t)bus->timestep; break; }
    case OPR_ID:    { cpu->breg = a; cpu->areg = cpu->id; break; }
    case OPR_NPROC: { cpu->breg = a; cpu->areg = bus->nprocs; break; }
    }
    cpu->wait = WAIT_NONE;
    return cpu_done(cpu, next);
}

/* Executes exactly one byte of processor `cpu`, whose memory is `mem`. */
static inline CpuStep cpu_exec(Cpu *cpu, CpuMemory mem, const CpuBus *bus)
{
    uint32_t pc = cpu->pc, word_addr = pc >> 2;
    if (word_addr != cpu->iaddr) {
        if (word_addr >= mem.size)
            return cpu_fault(cpu, FAULT_FETCH_ADDRESS, pc);
        cpu_fill_buffer(cpu, *mem_word_at(&mem, cpu->membase, word_addr));
        cpu->iaddr = word_addr;
    }
    uint8_t byte = cpu->ibytes[pc & 3];
    uint32_t operand = cpu->oreg | ISA_IMM(byte);
    uint32_t next = pc + 1;

    switch ((IsaOp)ISA_OP(byte)) {
    case OP_PFIX: {
        cpu->oreg = operand << 4;
        cpu->pc = next;
        return STEP_EXECUTED;
    }
    case OP_NFIX: {
        cpu->oreg = ((~0u << 4) | ISA_IMM(byte)) << 4;
        cpu->pc = next;
        return STEP_EXECUTED;
    }
    case OP_LDWSP: {
        uint32_t w;
        CPU_LOAD(w, cpu->sp + operand);
        cpu->breg = cpu->areg;
        cpu->areg = w;
        break;
    }
    case OP_STWSP: {
        CPU_STORE(cpu->sp + operand, cpu->areg);
        cpu->areg = cpu->breg;
        break;
    }
    case OP_LDAWSP: { cpu->breg = cpu->areg; cpu->areg = cpu->sp + operand; break; }
    case OP_LDC:    { cpu->breg = cpu->areg; cpu->areg = operand; break; }
    case OP_ILLEGAL: { return cpu_fault(cpu, FAULT_ILLEGAL, operand); }
    case OP_LDAP:   { cpu->breg = cpu->areg; cpu->areg = next + operand; break; }
    case OP_LDWI:   { CPU_LOAD(cpu->areg, cpu->areg + operand); break; }
    case OP_STWI:   { CPU_STORE(cpu->areg + operand, cpu->breg); break; }
    case OP_ADDC:   { cpu->areg += operand; break; }
    case OP_EQC:    { cpu->areg = cpu->areg == operand; break; }
    case OP_ADJ:    { cpu->sp += operand; break; }
    case OP_BR:     { next += operand; break; }
    case OP_BRT:    { if (cpu->areg != 0) next += operand; break; }
    case OP_OPR:    { return cpu_exec_opr(cpu, mem, bus, operand, next); }
    }
    return cpu_done(cpu, next);
}

#undef CPU_LOAD
#undef CPU_STORE

#endif
