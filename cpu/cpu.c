/* The interpreter: one instruction byte per call (spec/isa.md).
 *
 * The dispatch is a plain switch on the operation, with no default, so the
 * compiler proves that every operation of isa.def is handled; OPR's operand
 * is range-checked first and then switched on the same way. All arithmetic
 * is on uint32_t, so it wraps at 32 bits as the spec says, addresses
 * included, before any range check. */
#include "cpu/cpu.h"

#include <limits.h>
#include <stdio.h>

#include "cpu/isa.h"

void cpu_boot(Cpu *cpu, uint32_t id, uint32_t entry)
{
    *cpu = (Cpu){ .pc = 4 * entry, .istart = 4 * entry, .id = id, .state = CPU_RUNNING };
}

void cpu_idle(Cpu *cpu, uint32_t id)
{
    *cpu = (Cpu){ .id = id, .state = CPU_IDLE };
}

/* Stops the processor with a fault at the byte at cpu->pc. */
static CpuStep fault(Cpu *cpu, CpuFault why, uint32_t value)
{
    cpu->state = CPU_FAULTED;
    cpu->fault = (uint8_t)why;
    cpu->fault_value = value;
    return STEP_FAULTED;
}

/* Reads data word `addr`, or faults. */
#define LOAD(dst, addr) do { \
        uint32_t a_ = (addr); \
        if (a_ >= mem->size) return fault(cpu, FAULT_DATA_ADDRESS, a_); \
        (dst) = *mem_word(mem, cpu->id, a_); \
    } while (0)

/* Writes data word `addr`, or faults. */
#define STORE(addr, value) do { \
        uint32_t a_ = (addr); \
        if (a_ >= mem->size) return fault(cpu, FAULT_DATA_ADDRESS, a_); \
        *mem_word(mem, cpu->id, a_) = (value); \
    } while (0)

static int32_t as_signed(uint32_t x)
{
    return x <= INT32_MAX ? (int32_t)x : (int32_t)(x - 0x80000000u) + INT32_MIN;
}

/* An OPR operation with operand n; `next` is the address of the next byte.
 * Returns STEP_EXECUTED after setting pc, or a stall or fault. */
static CpuStep step_opr(Cpu *cpu, const CpuBus *bus, uint32_t n, uint32_t next)
{
    CpuMemory *mem = bus->mem;
    uint32_t a = cpu->areg, b = cpu->breg;
    if (!isa_opr_defined(n))
        return fault(cpu, FAULT_ILLEGAL, n);
    switch ((IsaOpr)n) {
    case OPR_ADD: { cpu->areg = b + a; break; }
    case OPR_SUB: { cpu->areg = b - a; break; }
    case OPR_EQ:  { cpu->areg = b == a; break; }
    case OPR_LSS: { cpu->areg = as_signed(b) < as_signed(a); break; }
    case OPR_AND: { cpu->areg = b & a; break; }
    case OPR_OR:  { cpu->areg = b | a; break; }
    case OPR_XOR: { cpu->areg = b ^ a; break; }
    case OPR_NOT: { cpu->areg = ~a; break; }
    case OPR_SHL: { cpu->areg = a >= 32 ? 0 : b << a; break; }
    case OPR_SHR: { cpu->areg = a >= 32 ? 0 : b >> a; break; }
    case OPR_BRX: {
        cpu->areg = b;
        cpu->pc = cpu->istart = a;
        cpu->oreg = 0;
        return STEP_EXECUTED;
    }
    case OPR_CALL: {
        STORE(cpu->sp, next);
        cpu->areg = b;
        cpu->pc = cpu->istart = a;
        cpu->oreg = 0;
        return STEP_EXECUTED;
    }
    case OPR_RET: {
        uint32_t target;
        LOAD(target, cpu->sp);
        cpu->pc = cpu->istart = target;
        cpu->oreg = 0;
        return STEP_EXECUTED;
    }
    case OPR_SETSP: { cpu->sp = a; cpu->areg = b; break; }
    case OPR_HALT: {
        cpu->state = CPU_HALTED;
        cpu->status = as_signed(a);
        break;
    }
    case OPR_IN: {
        uint32_t word;
        if (a >= bus->nports)
            return fault(cpu, FAULT_PORT, a);
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
            return fault(cpu, FAULT_NETWORK_ADDRESS, a);
        if (!bus->out(bus->ctx, cpu->id, dest, port, b)) {
            cpu->wait = WAIT_OUT;
            return STEP_STALLED;
        }
        break;
    }
    case OPR_MUL: { cpu->areg = b * a; break; }
    case OPR_DIV: {
        if (a == 0)
            return fault(cpu, FAULT_DIVIDE_BY_ZERO, 0);
        /* INT_MIN / -1 overflows in C; the machine gives INT_MIN. */
        cpu->areg = (b == 0x80000000u && a == 0xFFFFFFFFu)
                  ? b : (uint32_t)(as_signed(b) / as_signed(a));
        break;
    }
    case OPR_REM: {
        if (a == 0)
            return fault(cpu, FAULT_DIVIDE_BY_ZERO, 0);
        cpu->areg = (a == 0xFFFFFFFFu) ? 0 : (uint32_t)(as_signed(b) % as_signed(a));
        break;
    }
    case OPR_PRINT: { bus->print(bus->ctx, cpu->id, as_signed(a)); break; }
    case OPR_TIME:  { cpu->breg = a; cpu->areg = (uint32_t)bus->timestep; break; }
    case OPR_ID:    { cpu->breg = a; cpu->areg = cpu->id; break; }
    case OPR_NPROC: { cpu->breg = a; cpu->areg = bus->nprocs; break; }
    }
    cpu->wait = WAIT_NONE;
    cpu->pc = cpu->istart = next;
    cpu->oreg = 0;
    return STEP_EXECUTED;
}

CpuStep cpu_step(Cpu *cpu, const CpuBus *bus)
{
    CpuMemory *mem = bus->mem;
    uint32_t pc = cpu->pc;
    if ((pc >> 2) >= mem->size)
        return fault(cpu, FAULT_FETCH_ADDRESS, pc);
    uint8_t byte = mem_byte(mem, cpu->id, pc);
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
        LOAD(w, cpu->sp + operand);
        cpu->breg = cpu->areg;
        cpu->areg = w;
        break;
    }
    case OP_STWSP: {
        STORE(cpu->sp + operand, cpu->areg);
        cpu->areg = cpu->breg;
        break;
    }
    case OP_LDAWSP: { cpu->breg = cpu->areg; cpu->areg = cpu->sp + operand; break; }
    case OP_LDC:    { cpu->breg = cpu->areg; cpu->areg = operand; break; }
    case OP_ILLEGAL: { return fault(cpu, FAULT_ILLEGAL, operand); }
    case OP_LDAP:   { cpu->breg = cpu->areg; cpu->areg = next + operand; break; }
    case OP_LDWI:   { LOAD(cpu->areg, cpu->areg + operand); break; }
    case OP_STWI:   { STORE(cpu->areg + operand, cpu->breg); break; }
    case OP_ADDC:   { cpu->areg += operand; break; }
    case OP_EQC:    { cpu->areg = cpu->areg == operand; break; }
    case OP_ADJ:    { cpu->sp += operand; break; }
    case OP_BR:     { next += operand; break; }
    case OP_BRT:    { if (cpu->areg != 0) next += operand; break; }
    case OP_OPR:    { return step_opr(cpu, bus, operand, next); }
    }
    cpu->pc = cpu->istart = next;
    cpu->oreg = 0;
    return STEP_EXECUTED;
}

const char *cpu_fault_name(CpuFault f)
{
    switch (f) {
    case FAULT_NONE:            return "no fault";
    case FAULT_ILLEGAL:         return "illegal instruction";
    case FAULT_DATA_ADDRESS:    return "data address out of range";
    case FAULT_FETCH_ADDRESS:   return "instruction fetch out of range";
    case FAULT_DIVIDE_BY_ZERO:  return "division by zero";
    case FAULT_NETWORK_ADDRESS: return "bad network address";
    case FAULT_PORT:            return "bad input port";
    }
    return "unknown fault";
}

uint32_t cpu_disassemble_at(const CpuMemory *mem, uint32_t proc, uint32_t addr,
                            char *buf, size_t size)
{
    uint8_t bytes[ISA_MAX_LENGTH + 8];
    size_t n = 0;
    /* Gather the bytes of at most one instruction (prefixes and final byte). */
    while (n < sizeof bytes && (uint32_t)(addr + n) >> 2 < mem->size) {
        bytes[n] = mem_byte(mem, proc, addr + (uint32_t)n);
        uint32_t op = ISA_OP(bytes[n++]);
        if (op != OP_PFIX && op != OP_NFIX)
            break;
    }
    if (n == 0) {
        snprintf(buf, size, "(outside memory)");
        return 0;
    }
    IsaInsn insn;
    isa_decode(bytes, n, 0, &insn);
    insn.addr = addr;
    isa_format(&insn, buf, size);
    return insn.length;
}

void cpu_describe_fault(const Cpu *cpu, const CpuMemory *mem, char *buf, size_t size)
{
    char what[96], insn[64], where[40];
    uint32_t v = cpu->fault_value;
    switch ((CpuFault)cpu->fault) {
    case FAULT_DATA_ADDRESS:
        snprintf(what, sizeof what, "data address %u outside [0, %u)", v, mem->size);
        break;
    case FAULT_FETCH_ADDRESS:
        snprintf(what, sizeof what, "instruction fetch at byte %u outside [0, %llu)",
                 v, 4ull * mem->size);
        break;
    case FAULT_NETWORK_ADDRESS:
        snprintf(what, sizeof what, "bad network address 0x%08x (processor %u, port %u)",
                 v, v & 0xFFFFFFu, v >> 24);
        break;
    case FAULT_PORT:
        snprintf(what, sizeof what, "bad input port %u", v);
        break;
    case FAULT_ILLEGAL:
    case FAULT_DIVIDE_BY_ZERO:
    case FAULT_NONE:
        snprintf(what, sizeof what, "%s", cpu_fault_name((CpuFault)cpu->fault));
        break;
    }
    if (cpu->fault == FAULT_FETCH_ADDRESS) {
        snprintf(buf, size, "%s", what);
        return;
    }
    cpu_disassemble_at(mem, cpu->id, cpu->istart, insn, sizeof insn);
    if (cpu->istart != cpu->pc)
        snprintf(where, sizeof where, "%04x (prefixes from %04x)", cpu->pc, cpu->istart);
    else
        snprintf(where, sizeof where, "%04x", cpu->pc);
    snprintf(buf, size, "%s at %s: %s", what, where, insn);
}
