/* The processor outside its hot loop: boot, the out-of-line cpu_step, and
 * descriptions of faults and instructions for reports. The interpreter
 * itself is cpu_exec, in exec.h. */
#include "cpu/cpu.h"

#include <stdio.h>

#include "common/plural.h"
#include "cpu/exec.h"
#include "cpu/isa.h"

void cpu_boot(Cpu *cpu, uint32_t id, uint32_t entry, uint32_t length)
{
    *cpu = (Cpu){ .pc = 4 * entry, .iaddr = CPU_NO_WORD, .istart = 4 * entry, .id = id,
                  .membase = id << MEM_CHUNK_SHIFT, .state = CPU_RUNNING,
                  .image_end = (uint32_t)(((uint64_t)length + 3) / 4) };
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

/* A fault of MOUT's list, or of SEND's descriptor, at word `list`, at its
 * entry `entry`. */
static CpuStep list_fault(Cpu *cpu, CpuFault why, uint32_t value, uint32_t list, uint32_t entry)
{
    cpu->fault_list = list;
    cpu->fault_entry = entry;
    return cpu_fault(cpu, why, value);
}

CpuStep cpu_mout(Cpu *cpu, CpuMemory memory, const CpuBus *bus, uint32_t list,
                 uint32_t word)
{
    const CpuMemory *mem = &memory;
    if (list >= mem->size)
        return list_fault(cpu, FAULT_LIST_ADDRESS, list, list, 0);
    uint32_t head = *mem_word(mem, cpu->id, list);
    uint32_t n = head & 0xFFFFFFu, port = head >> 24, words = n ? n : 1;
    for (uint32_t i = 1; i <= words; i++)          /* (addresses wrap at 32 bits) */
        if (list + i >= mem->size)
            return list_fault(cpu, FAULT_LIST_ADDRESS, list + i, list, i);
    uint32_t bound = n ? 0 : *mem_word(mem, cpu->id, list + 1);
    if (n > bus->nprocs || bound > bus->nprocs)
        return list_fault(cpu, FAULT_LIST_SIZE, n ? n : bound, list, n ? 0 : 1);
    for (uint32_t i = 1; i <= n; i++) {
        uint32_t d = *mem_word(mem, cpu->id, list + i);
        if (d >= bus->nprocs)
            return list_fault(cpu, FAULT_LIST_DESTINATION, d, list, i);
    }
    if (port >= bus->nports)
        return list_fault(cpu, FAULT_LIST_PORT, port, list, bus->nports);
    if (n == 0 && bound == 1 && cpu->id == 0)
        return STEP_EXECUTED;                       /* the empty set */
    if (!bus->mout(bus->ctx, cpu->id, list, word)) {
        cpu->wait = WAIT_OUT;
        return STEP_STALLED;
    }
    return STEP_EXECUTED;
}

CpuStep cpu_send(Cpu *cpu, CpuMemory memory, const CpuBus *bus, uint32_t desc,
                 uint32_t address)
{
    const CpuMemory *mem = &memory;
    uint32_t dest = address & 0xFFFFFFu, port = address >> 24;
    if (dest >= bus->nprocs || port >= bus->nports)
        return cpu_port_fault(cpu, FAULT_NETWORK_ADDRESS, address, bus->nports);
    for (uint32_t i = 0; i < 2; i++)                /* (addresses wrap at 32 bits) */
        if (desc + i >= mem->size)
            return list_fault(cpu, FAULT_DESCRIPTOR_ADDRESS, desc + i, desc, i);
    uint32_t length = *mem_word(mem, cpu->id, desc);
    uint32_t first = *mem_word(mem, cpu->id, desc + 1);
    if (length == 0 || length > CPU_LONGEST_MESSAGE)
        return list_fault(cpu, FAULT_MESSAGE_LENGTH, length, desc, 0);
    /* The first of the words first + i (0 <= i < length, wrapping at 32 bits)
     * outside [0, M): first itself if it is; otherwise they climb from
     * inside memory, and the first to leave it is i = M - first, at word M
     * (M < 2^32, so before any wrap), if the message is that long. */
    if (first >= mem->size)
        return list_fault(cpu, FAULT_MESSAGE_ADDRESS, first, desc, 0);
    if (length > mem->size - first)
        return list_fault(cpu, FAULT_MESSAGE_ADDRESS, mem->size, desc, mem->size - first);
    if (length > bus->longest_message)
        return list_fault(cpu, FAULT_MESSAGE_BUFFER, length, desc, bus->longest_message);
    if (!bus->send(bus->ctx, cpu->id, dest, port, first, length)) {
        cpu->wait = WAIT_OUT;
        return STEP_STALLED;
    }
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
    case FAULT_LIST_ADDRESS:    return "multicast list outside memory";
    case FAULT_LIST_SIZE:       return "multicast list too long";
    case FAULT_LIST_DESTINATION: return "bad multicast destination";
    case FAULT_LIST_PORT:       return "bad multicast port";
    case FAULT_STACK_OVERFLOW:  return "stack overflow";
    case FAULT_DESCRIPTOR_ADDRESS: return "message descriptor outside memory";
    case FAULT_MESSAGE_LENGTH:  return "bad message length";
    case FAULT_MESSAGE_ADDRESS: return "message outside memory";
    case FAULT_MESSAGE_BUFFER:  return "message longer than the buffer";
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

void cpu_describe_fault(const Cpu *cpu, const CpuMemory *mem, const char *source,
                        char *buf, size_t size)
{
    char what[256], insn[64], where[640];
    bool has_source = source && source[0];
    uint32_t v = cpu->fault_value;
    char ports[64] = "";      /* how many ports there are, for a port's fault */
    if (cpu->fault_entry > 0)
        snprintf(ports, sizeof ports, " (a processor has %u input %s, 0 to %u)",
                 cpu->fault_entry, plural(cpu->fault_entry, "port", "ports"),
                 cpu->fault_entry - 1);
    switch ((CpuFault)cpu->fault) {
    case FAULT_DATA_ADDRESS:
        snprintf(what, sizeof what, "data address %u outside [0, %u)", v, mem->size);
        break;
    case FAULT_FETCH_ADDRESS:
        snprintf(what, sizeof what, "instruction fetch at byte %u outside [0, %llu)",
                 v, 4ull * mem->size);
        break;
    case FAULT_NETWORK_ADDRESS:
        if ((v & 0xFFFFFFu) >= mem->procs)
            snprintf(what, sizeof what, "bad network address 0x%08x: processor %u does not "
                     "exist (the machine has %u %s)", v, v & 0xFFFFFFu, mem->procs,
                     plural(mem->procs, "processor", "processors"));
        else
            snprintf(what, sizeof what, "bad network address 0x%08x: processor %u has no "
                     "input port %u%s", v, v & 0xFFFFFFu, v >> 24, ports);
        break;
    case FAULT_PORT:
        snprintf(what, sizeof what, "bad input port %u%s", v, ports);
        break;
    case FAULT_LIST_ADDRESS:
        snprintf(what, sizeof what, "multicast list at word %u: word %u outside [0, %u)",
                 cpu->fault_list, v, mem->size);
        break;
    case FAULT_LIST_SIZE:       /* (the memory is the machine's: one per processor) */
        if (cpu->fault_entry)
            snprintf(what, sizeof what, "multicast list at word %u: a broadcast below "
                     "processor %u, but the machine has %u %s", cpu->fault_list, v,
                     mem->procs, plural(mem->procs, "processor", "processors"));
        else
            snprintf(what, sizeof what, "multicast list at word %u: %u %s, more than the "
                     "%u %s the machine has", cpu->fault_list, v,
                     plural(v, "destination", "destinations"), mem->procs,
                     plural(mem->procs, "processor", "processors"));
        break;
    case FAULT_LIST_DESTINATION:
        snprintf(what, sizeof what, "multicast list at word %u: entry %u names processor %u, "
                 "which does not exist", cpu->fault_list, cpu->fault_entry, v);
        break;
    case FAULT_LIST_PORT:
        snprintf(what, sizeof what, "multicast list at word %u: input port %u does not "
                 "exist%s", cpu->fault_list, v, ports);
        break;
    case FAULT_STACK_OVERFLOW:
        snprintf(what, sizeof what, "stack overflow (sp would be %u, below the end of "
                 "the program's image at word %u)", v, cpu->image_end);
        break;
    case FAULT_DESCRIPTOR_ADDRESS:
        snprintf(what, sizeof what, "message descriptor at word %u: word %u outside [0, %u)",
                 cpu->fault_list, v, mem->size);
        break;
    case FAULT_MESSAGE_LENGTH:
        snprintf(what, sizeof what, "message descriptor at word %u: length %d, not from 1 "
                 "to %u", cpu->fault_list, cpu_signed(v), (unsigned)CPU_LONGEST_MESSAGE);
        break;
    case FAULT_MESSAGE_ADDRESS:
        snprintf(what, sizeof what, "message described at word %u: its word %u is at %u, "
                 "outside [0, %u)", cpu->fault_list, cpu->fault_entry, v, mem->size);
        break;
    case FAULT_MESSAGE_BUFFER:
        snprintf(what, sizeof what, "message of %u words longer than the buffer (--buffer "
                 "%u), which must hold it whole under cut-through and store-and-forward "
                 "switching (--buffer %u or more, or --switching wormhole, sends it)", v,
                 cpu->fault_entry, v);
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
        snprintf(where, sizeof where, "%04x (prefixes from %04x%s%s)", cpu->pc, cpu->istart,
                 has_source ? "; " : "", has_source ? source : "");
    else if (has_source)
        snprintf(where, sizeof where, "%04x (%s)", cpu->pc, source);
    else
        snprintf(where, sizeof where, "%04x", cpu->pc);
    snprintf(buf, size, "%s at %s: %s", what, where, insn);
}
