/* One processor: David May's small stack processor (thesis Appendix B) with
 * network IN and OUT (thesis 5.2.1-5.2.2) and the additions of spec/isa.md.
 *
 * cpu_step executes exactly one instruction byte -- a prefix is a step of its
 * own -- as one timestep of the machine does. IN, OUT, MOUT and SEND talk
 * to the processor's network adapter through a CpuBus, a small interface that net/
 * provides to the machine (and a test double provides to unit tests). When
 * the adapter cannot serve them they stall: the processor does nothing this
 * timestep, and pc and oreg stay so that the same byte is executed again next
 * timestep. A fault stops the processor and records what, where and why. */
#ifndef CPU_CPU_H
#define CPU_CPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpu/mem.h"

typedef enum CpuState {
    CPU_RUNNING,   /* executing its program */
    CPU_HALTED,    /* executed HALT; status holds areg */
    CPU_FAULTED,   /* stopped by a fault; see fault and fault_value (pc stays
                      on the faulting byte, istart on its first prefix) */
    CPU_IDLE       /* a placeholder without a program record: never runs */
} CpuState;

typedef enum CpuFault {
    FAULT_NONE,
    FAULT_ILLEGAL,          /* illegal instruction */
    FAULT_DATA_ADDRESS,     /* a data word address outside [0, M) */
    FAULT_FETCH_ADDRESS,    /* an instruction fetch outside [0, 4M) */
    FAULT_DIVIDE_BY_ZERO,   /* DIV or REM by 0 */
    FAULT_NETWORK_ADDRESS,  /* OUT to a processor or port that does not exist */
    FAULT_PORT,             /* IN from a port that does not exist */
    /* MOUT's destination list (multicast.md), in the order they are checked: */
    FAULT_LIST_ADDRESS,     /* a word of the list outside [0, M) */
    FAULT_LIST_SIZE,        /* more destinations, or a broadcast bound above,
                               than there are processors */
    FAULT_LIST_DESTINATION, /* a destination that is not a processor */
    FAULT_LIST_PORT,        /* a port that does not exist */
    FAULT_STACK_OVERFLOW,   /* ADJ with a negative operand left sp below the
                               end of the image */
    /* SEND's message (messages.md), in the order they are checked, after its
     * network address (FAULT_NETWORK_ADDRESS, as OUT's): */
    FAULT_DESCRIPTOR_ADDRESS, /* a word of the descriptor, a or a + 1, outside [0, M) */
    FAULT_MESSAGE_LENGTH,   /* its length L is 0 or more than CPU_LONGEST_MESSAGE */
    FAULT_MESSAGE_ADDRESS,  /* a word of the message, w + i, outside [0, M) */
    FAULT_MESSAGE_BUFFER    /* L more than the bus's longest_message: a buffer
                               that could never hold the whole message */
} CpuFault;

/* The most words a message may have (messages.md): SEND's L. */
enum { CPU_LONGEST_MESSAGE = 1 << 16 };

/* What one call of cpu_step did. */
typedef enum CpuStep {
    STEP_EXECUTED,   /* executed one byte, and goes on running */
    STEP_HALTED,     /* executed HALT: the processor is now CPU_HALTED */
    STEP_STALLED,    /* an IN, OUT, MOUT or SEND could not complete; try again
                        next timestep */
    STEP_FAULTED,    /* the byte faulted; the processor is now CPU_FAULTED */
    STEP_EXTERNAL    /* (a run of private instructions only, cpu/exec.h: the
                        byte is an external operation, and was not executed) */
} CpuStep;

typedef enum CpuWait { WAIT_NONE, WAIT_IN, WAIT_OUT } CpuWait;

/* One processor's state: one 64-byte cache line, so that the processors of
 * different worker threads never share a line. */
typedef struct Cpu {
    uint32_t pc;          /* byte address of the next byte */
    uint32_t sp;          /* stack pointer, a word address */
    uint32_t oreg;        /* operand register, built by prefixes */
    uint32_t areg, breg;  /* the two-register operand stack */
    uint32_t istart;      /* byte address where this instruction's prefixes start */
    uint32_t iaddr;       /* word address held in ibuf, or CPU_NO_WORD */
    uint32_t membase;     /* id << MEM_CHUNK_SHIFT: its place in every memory row */
    uint32_t ibuf;        /* the instruction buffer: the code word at iaddr */
    uint32_t id;          /* processor number */
    uint8_t state;        /* CpuState */
    uint8_t wait;         /* CpuWait: what the last step stalled on */
    uint8_t fault;        /* CpuFault, when state is CPU_FAULTED */
    uint8_t ready;        /* the machine's: scheduled in a due bitmap (not waiting) */
    int32_t status;       /* exit status, when state is CPU_HALTED */
    uint32_t fault_value; /* the bad address or port of a fault, or SEND's bad length */
    uint32_t fault_list;  /* MOUT's faults: the list's word address; SEND's
                             message faults: the descriptor's, a */
    uint32_t fault_entry; /* ...and the entry at fault (0: the first word); for
                             SEND the word of the descriptor (0, 1) or of the
                             message (i) at fault, or B for FAULT_MESSAGE_BUFFER;
                             for a port that does not exist, the ports there are */
    uint32_t image_end;   /* word address just past its image: the stack may
                             not grow below it */
} Cpu;

_Static_assert(sizeof(Cpu) == 64, "a processor is one cache line");

#define CPU_NO_WORD UINT32_MAX

/* What a processor sees of the machine around it. The calls are made only
 * by IN, OUT, MOUT, SEND and PRINT; ctx is passed back to them unchanged.
 * Members added later come last: the machine initialises a CpuBus in order. */
typedef struct CpuBus {
    CpuMemory *mem;
    uint64_t timestep;    /* what TIME returns (low 32 bits) */
    uint32_t nprocs;      /* what NPROC returns; OUT's processor bound */
    uint32_t nports;      /* input ports per processor: IN's and OUT's bound */
    void *ctx;
    /* IN: if input port `port` of processor `proc` holds a packet, remove the
     * oldest, store its word and return true; else return false (stall). */
    bool (*in)(void *ctx, uint32_t proc, uint32_t port, uint32_t *word);
    /* OUT: if the processor's output slot is empty, make a send request and
     * return true; else return false (stall). Addresses are already checked. */
    bool (*out)(void *ctx, uint32_t proc, uint32_t dest, uint32_t port, uint32_t word);
    /* MOUT: the same for a multicast to the destination list at word `list`
     * of the processor's memory (multicast.md), already checked and not
     * empty. */
    bool (*mout)(void *ctx, uint32_t proc, uint32_t list, uint32_t word);
    /* PRINT: the host prints the value. */
    void (*print)(void *ctx, uint32_t proc, int32_t value);
    /* SEND (messages.md): if the processor's output slot is empty, make one
     * send request for the message of `length` words at word `first` of the
     * processor's memory (already checked), and return true; else false. */
    bool (*send)(void *ctx, uint32_t proc, uint32_t dest, uint32_t port, uint32_t first,
                 uint32_t length);
    /* The longest message SEND may make: 65536 under wormhole, else --buffer. */
    uint32_t longest_message;
} CpuBus;

/* Sets a processor to its boot state (spec/isa.md "Boot"): pc = 4 * entry,
 * everything else 0, running; `length` is its image's length in bytes,
 * whose end (rounded up to a word) is the lowest word its stack may reach.
 * Memory is loaded separately (mem_load). */
void cpu_boot(Cpu *cpu, uint32_t id, uint32_t entry, uint32_t length);

/* Makes a processor an idle placeholder: halted from the start. */
void cpu_idle(Cpu *cpu, uint32_t id);

/* Executes exactly one byte. (The timestep loop uses the inline cpu_exec of
 * cpu/exec.h, which this calls.) */
CpuStep cpu_step(Cpu *cpu, const CpuBus *bus);

/* MOUT (multicast.md): checks the destination list at word `list` of the
 * processor's memory, faulting at the first thing wrong with it, then
 * sends `word` to its destinations as OUT does (bus->mout), or stalls.
 * STEP_EXECUTED also for an empty set, which sends nothing. */
CpuStep cpu_mout(Cpu *cpu, CpuMemory memory, const CpuBus *bus, uint32_t list,
                 uint32_t word);

/* SEND (messages.md): checks the network address `address` (as OUT's),
 * then the descriptor at word `desc` of the processor's memory and the
 * message it describes, faulting at the first thing wrong, then sends the
 * message as OUT sends a word (bus->send), or stalls. */
CpuStep cpu_send(Cpu *cpu, CpuMemory memory, const CpuBus *bus, uint32_t desc,
                 uint32_t address);

/* A short name for a fault, e.g. "data address out of range". */
const char *cpu_fault_name(CpuFault fault);

/* Describes a faulted processor in one line: the fault, the address of the
 * faulting byte (and of its first prefix when elsewhere), where in the
 * program's source it is (`source`, when not NULL or empty) and the
 * instruction disassembled from memory, e.g.
 * "data address 200001 outside [0, 200000) at 0012: LDWSP 5" or
 * "division by zero at 001f (prefixes from 001e; p.x:3:11, in proc main): DIV". */
void cpu_describe_fault(const Cpu *cpu, const CpuMemory *mem, const char *source,
                        char *buf, size_t size);

/* Disassembles the instruction whose first byte is at byte address `addr`
 * of processor `proc`'s memory into buf ("LDC 22"); returns its length. */
uint32_t cpu_disassemble_at(const CpuMemory *mem, uint32_t proc, uint32_t addr,
                            char *buf, size_t size);

#endif
