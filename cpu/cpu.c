/* The processor outside its hot loop: boot, the out-of-line cpu_step, and
 * descriptions of faults and instructions for reports. The interpreter
 * itself is cpu_exec, in exec.h. */
#include "cpu/cpu.h"

#include <stdio.h>

#include "cpu/exec.h"
#include "cpu/isa.h"

void cpu_boot(Cpu *cpu, uint32_t id, uint32_t entry)
{
    *cpu = (Cpu){ .pc = 4 * entry, .iaddr = CPU_NO_WORD, .istart = 4 * entry, .id = id,
                  .membase = id << MEM_CHUNK_SHIFT, .state = CPU_RUNNING };
}

void cpu_idle(Cpu *cpu, uint32_t id)
{
    *cpu = (Cpu){ .iaddr = CPU_NO_WORD, .id = id, .membase = id << MEM_CHUNK_SHIFT,
                  .state = CPU_IDLE };
}

CpuStep cpu_step(Cpu *cpu, const CpuBus *bus)
{
    return cpu_exec(cpu, *bus->mem, bus);
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
