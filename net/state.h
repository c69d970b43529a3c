/* The network's state, private to net/: a packet's record in the pool, a
 * processor's input ports, a switch output port's buffer with the state of
 * the wire it keeps (a Sender), and the whole network (Net, with its
 * Layout: shape, options and arrays). How a timestep moves them is
 * step.c's; layout.h has the numbering of their components.
 *
 * Words used throughout (net.h has the glossary): a *sender* is what
 * claims links: the output port q of switch S with its buffer (index
 * 4S + q), or processor p's adapter on a plane (from index 4 * switches
 * on). The state of a wire's slots is kept by one sender, its *keeper*
 * (slot_keeper). A packet is named by its *pool index* (1, 2, ...; NET_NIL
 * is 0). In the code, x is a pool index, h a sender, b a buffer, s a
 * switch, ki the keeper of a slot and ks its Sender record.
 *
 * Channels. With V virtual channels every sender has a Sender record for
 * each channel v, numbered h << vshift | v (channel_of, layout.h; V
 * rounded up to a power of two): channel v's buffer of an output port,
 * and the state of lane v of the wire it keeps. With V = 1 that is the
 * sender's number and its one record. In the code, c names such a
 * record: a *channel* of a sender. */
#ifndef NET_STATE_H
#define NET_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "net/counters.h"
#include "net/lists.h"
#include "net/net.h"
#include "net/reference.h"

/* Waiting packets sleep (sleep.c explains): what on. */
typedef enum PacketSleep {
    AWAKE,                 /* handled every timestep */
    ASLEEP_BUFFER,         /* on a link, refused by a full buffer */
    ASLEEP_PORT,           /* on its last link, waiting for a full input port */
    ASLEEP_CLAIM           /* claiming a link whose packet sleeps */
} PacketSleep;

/* What a packet is, from the OUT that makes it on (Packet.info): what
 * the network stage reads only where the spec's order depends on age, and
 * a copy takes from its original. */
typedef struct PacketInfo {
    uint64_t id;           /* creation order, from 0 */
    uint64_t created;      /* timestep of its OUT */
    uint32_t src, dst;
} PacketInfo;

/* A multicast packet's destinations (multicast.md; multicast.c): a slice
 * of a list of members that it shares with its copies, or a range of
 * processors but its source. A packet whose set has one member is a
 * unicast (hi is 0, and info.dst its destination). */
typedef struct PacketSet {
    uint32_t list;          /* the list (Net.lists) it shares, or 0 for a range */
    uint32_t lo, hi;        /* the list's members [lo, hi), or processors [lo, hi);
                               hi is 0 for a unicast */
} PacketSet;

/* A packet's record in the pool: one cache line, so that whoever reads or
 * writes a packet whole -- injection, delivery, an IN, a multicast's split
 * -- reads or writes one line. While it is in flight, the network stage
 * does not touch it but to split a multicast: the packet travels as its
 * index through the buffers' places and the links' lists, and where it is
 * -- place, at, dir, layer, links, asleep, and next for a buffer's order
 * -- is written here only when somebody asks (net_settle), and at every
 * event when an observer watches. In an input port, `next` threads the
 * port's FIFO. */
typedef struct Packet {
    uint32_t next;         /* next packet in the same input port (or buffer,
                              once settled), or NET_NIL */
    uint32_t at;           /* place index: processor (its source, in the
                              output slot), wire, buffer or input port */
    uint32_t routing;      /* route: up ports (adaptive: filled in as it climbs) */
    uint32_t addressing;   /* route: down ports = low `count` bits of dst */
    uint32_t data;         /* the word it carries */
    uint8_t dir;           /* DIR_UP or DIR_DOWN */
    uint8_t place;         /* PacketPlace */
    uint8_t layer;         /* layer of its link or buffer's switch */
    uint8_t count, plane;  /* route */
    uint8_t port;          /* destination input port */
    uint8_t links;         /* links crossed so far (at most 2k) */
    uint8_t asleep;        /* PacketSleep: what it sleeps on, if anything */
    PacketSet set;         /* its destinations, if more than one */
    PacketInfo info;
} Packet;

_Static_assert(sizeof(Packet) == 64, "a packet is a cache line");

/* A packet asleep on an input port (Layout.port_waits, by pool index):
 * the keeper of the slot of its last link, and the next packet asleep on
 * that port. */
typedef struct PortWait {
    uint32_t keeper, next;
} PortWait;

/* An input port: a FIFO of packets threaded through Packet.next. */
typedef struct InputPort {
    uint32_t head, tail;   /* pool indices, NET_NIL when empty */
    uint16_t count;        /* packets in it (at most 1024) */
    uint16_t unused;
    uint32_t waiting;      /* the first packet asleep until it has room
                              (the others: their PortWait.next) */
} InputPort;

/* How many places a buffer keeps itself: buffers of up to this many places
 * (the default is 5) need nothing else; deeper ones keep their places in a
 * ring of their own, grown as they fill (Layout.rings). */
enum { INLINE_PLACES = 5 };

/* A sender's channel (with V = 1, the sender): the output port q of
 * switch S (index 4S + q), or from index 4 * switches on a processor's
 * adapter in one plane. Half a cache line,
 * which holds the port's output buffer -- a FIFO of packets in its places,
 * head first (a packet that leaves moves the others up), or for deeper
 * buffers a cyclic ring -- and the state of the slot of the link it keeps
 * (slot_keeper), so that a packet leaving a buffer touches this Sender
 * only, and a packet entering one the Sender it enters and its route
 * word. */
typedef struct Sender {
    uint16_t count;        /* packets in its buffer */
    uint8_t waiting;       /* bit a: the packet arriving on port a of this
                              switch sleeps until this buffer has room;
                              bit 4 + a: a message's head sleeps until the
                              message that owns it lets it go (WAIT_*) */
    uint8_t slot;          /* SLOT_* (encode.h): the state of the slot (lane) it keeps */
    uint32_t hop;          /* where the packets it sends go: a hop word
                              (encode.h), or 0 until it first sends */
    uint32_t slot_packet;  /* the packet in the slot it keeps, while that
                              packet is refused there (SLOT_BLOCKED); for
                              every packet on a link after net_settle */
    union {
        uint32_t place[INLINE_PLACES];  /* its packets: place words (encode.h) */
        struct {                        /* or, deeper buffers (Layout.rings): */
            uint16_t head;              /* the place of its head in its ring */
            uint8_t size;               /* its ring has min(8 << size, B) places */
        } ring;
    };
} Sender;

enum { WAIT_ROOM = 0x0f, WAIT_OWNER = 0xf0 };     /* Sender.waiting's halves */

_Static_assert(sizeof(Sender) == 32, "two senders share a cache line");

/* What a half-duplex link has besides its main slot: its temp slot, the
 * sender that claims it in this timestep (a temp word, encode.h). */
typedef struct TempSlot {
    uint32_t temp;         /* the number of the stage (Layout.now) in which a
                              sender last claimed it */
} TempSlot;

/* With V > 1, a channel buffer: a FIFO of place words (encode.h)
 * threaded through Layout.next_place by pool index, since few buffers
 * hold more than one packet: places of their own would be mostly empty
 * memory, and would make a port's record V times as large. Two packets
 * need no thread (the head and the tail), so it is laid from three on:
 * with three or more, next_place leads from the head to the tail. */
typedef struct __attribute__((packed)) ChannelQueue {
    uint32_t head, tail;   /* place words, meaningful while count > 0 */
    uint16_t count;
} ChannelQueue;

/* With V > 1 virtual channels, a sender's record of what its claims need
 * (channels.md, stage b) and what its channel buffers hold, by sender:
 * for an output port, its hop word, its round-robin pointer, which of its
 * channel buffers hold a packet, and which of those took their first one
 * in the stage d of the stage numbered `stamp` -- stage b, which comes
 * before d in the spec, does not see those -- and its V buffers; for the
 * keeper of a wire's slots, which lanes hold a packet refused there
 * (their records' SLOT_BLOCKED, together). A port's record for four
 * channels is one cache line, all that stages d and e read of the port
 * (Layout.turn_size; turn_of, layout.h). */
typedef struct PortTurn {
    uint32_t stamp;        /* the stage whose stage d `fresh` is of */
    uint32_t hop;          /* the port's hop word (with one channel, Sender.hop) */
    uint8_t pointer;       /* the channel whose turn it is (an adapter's: its
                              packet's) */
    uint8_t nonempty;      /* bit v: channel v's buffer holds a packet */
    uint8_t fresh;         /* bit v: ...since stage d of stage `stamp` only */
    uint8_t blocked;       /* bit v: lane v holds a refused packet */
    uint32_t unused;
    ChannelQueue queue[];  /* V of them (an adapter's are never used) */
} PortTurn;

/* The bytes of a sender's PortTurn with V channels: a multiple of 16, so
 * that four channels take a cache line. */
#define PORT_TURN_SIZE(V) ((sizeof(PortTurn) + (V) * sizeof(ChannelQueue) + 15) & ~(size_t)15)

_Static_assert(PORT_TURN_SIZE(4) == 64, "a port of four channels is a cache line");

/* Stage d visits the packets on links in four rounds, by the port they
 * arrive on (d0, d1, u0, u1), and stage c delivers those coming down last
 * links: so the packets on links are kept by arrival class. And stages d
 * and e go through the network a layer at a time (step.c explains), so
 * the lists are kept by the layer of the switch concerned as well: the
 * one a packet on a link arrives at (deliveries: layer 1), the one a
 * claimant's buffer belongs to (adapters: layer 1). Layers are 1..k, k <=
 * 24; index 0 is unused. */
enum { ARRIVE_DELIVERY = 4, ARRIVAL_CLASSES = 5, LIST_LAYERS = 32 };

/* A message of several words (messages.md) from its request until an IN
 * reads its tail: its flits are packets of the pool, made one at a time as
 * the output slot offers them (message.c), so that a message costs its
 * words and the records of the flits on their way, not L records. */
typedef struct Message {
    uint64_t id;           /* its flits' */
    uint32_t length;       /* L >= 2 */
    uint32_t made;         /* flits made so far: the last is in the slot */
    uint32_t routing;      /* the up ports its head chose (adaptive) */
    uint32_t tail_buffer;  /* under store-and-forward, the channel its tail
                              last entered ... */
    uint32_t tail_stamp;   /* ...in the stage numbered this (Layout.now) */
    uint32_t *words;       /* its L words, read at the request */
} Message;

/* Which message and flit a packet is (Layout.flits, by pool index):
 * message 0 for a one-word packet; whether it is its message's tail is
 * kept here too, so that a hop reads one line, not the message's. */
typedef struct FlitOf {
    uint32_t message;
    unsigned index : 31, tail : 1;
} FlitOf;

/* A part of a multicast's set (mc_split): its members below one down port
 * of a switch, how many (0: none) and the lowest. */
typedef struct McPart {
    PacketSet set;
    uint32_t n, lowest;
} McPart;

/* A list of members, ascending, shared by a multicast and its copies. */
typedef struct MemberList {
    uint32_t *members;
    uint32_t n, refs;       /* how many members; packets that hold it */
} MemberList;

/* A split in a stage d (multicast.md): the copy gets its id after the
 * stage, in the spec's loop order of the links the packets came on. */
typedef struct Split {
    uint64_t key;           /* the place of that link in the loop */
    uint32_t packet, copy;  /* pool indices */
    uint32_t sw;            /* the switch */
    uint32_t buffer;        /* the buffer the copy entered */
} Split;

typedef struct SplitList {
    Split *items;
    size_t n, cap;
    uint64_t *order;        /* room for 2 * cap words: mc_give_ids sorts here */
} SplitList;


/* A thread's share of the network stage (step.c): the active lists of the
 * packets it handles and the counters it adds to. Without shares there is
 * one, for both planes, counting straight into the network's statistics;
 * with shares each plane has its own, and its counters are added after
 * each timestep. */
typedef struct NetShare {
    /* Senders whose packet claims a link this timestep (buffers and
     * adapters), and awake packets on links, by [class][layer] (above);
     * and the next timestep's. */
    IndexList claimants[LIST_LAYERS], next_claimants[LIST_LAYERS];   /* [0]: adapters */
    OnLinkList on_links[ARRIVAL_CLASSES][LIST_LAYERS];
    OnLinkList next_on_links[ARRIVAL_CLASSES][LIST_LAYERS];
    IndexList touched;              /* with an observer: buffers entered in this stage d */
    BehindList behind;              /* packets that entered right behind a head in it */
    IndexList woken;                /* processors whose output slot emptied */
    IndexList continuing;           /* processors whose slot sent a flit that
                                       is not its message's tail */
    SplitList splits;               /* multicasts split in this stage d */
    Counters *counts;               /* where it counts: the network's, or delta */
    Counters delta;                 /* with shares: this timestep's counts */
    bool moved;
    bool roomy;                     /* its lists have all the room they can need */
} NetShare;


/* Where everything is: the network's shape and options, and its arrays.
 * The network stage reads these for every packet and never changes them
 * during a timestep (the pool's arrays move only when injection grows
 * them), so its sweep (sweep.c) reads them through a restrict pointer:
 * the compiler keeps them in registers across the loops' stores. */
typedef struct Layout {
    NetConfig cfg;
    uint32_t nprocs, half;          /* N and H = N/2 */
    uint32_t nswitches;             /* planes * k * H */
    uint32_t nbuffers;              /* 4 * nswitches: the first adapter's sender */
    uint8_t row_layer[64];          /* the layer of the switches of row s >> (k - 1) */
    bool compact;                   /* routes are words of routes[] (k <= 16) */
    Packet *pool;                   /* packet storage */
    uint32_t *routes;               /* each packet's route as it travels, by pool
                                       index (route_word) */
    Sender *senders;                /* 4 per switch, 4S + q; then the adapters,
                                       4 * nswitches + (plane << k | p); with
                                       V > 1, a record for each channel of
                                       each (channel_of) */
    unsigned vshift;                /* log2 of V rounded up to a power of two */
    unsigned turn_size;             /* with V > 1: PORT_TURN_SIZE(V) */
    unsigned char *turns;           /* ...the senders' PortTurns (turn_of) */
    uint32_t *next_place;           /* ...by pool index: the place word behind
                                       that packet in its channel buffer */
    uint32_t now;                   /* the number of this network stage, from 1
                                       (stamps: TempSlot, PortTurn) */
    uint32_t **rings;               /* buffers of more than INLINE_PLACES places:
                                       each one's ring, or NULL until used */
    TempSlot *temp_slots;           /* --duplex half: per link */
    PortWait *port_waits;           /* by pool index */
    bool multicast;                 /* a multicast was made: sets to look at */
    bool messages;                  /* a message of several words was made: */
    FlitOf *flits;                  /* ...what each packet is, by pool index */
    uint32_t *owner;                /* ...per channel record: the message that
                                       owns its buffer, or 0 */
    uint32_t *port_owner;           /* ...per input port: the same */
    uint32_t *temp_packet;          /* ...--duplex half, per link: the packet
                                       whose claim took its temp slot last (what
                                       holds up one from the other end) */
    Message *message;               /* ...the messages, from index 1 */
    InputPort *ports;               /* P per processor */
    uint32_t *out_slot;             /* per processor: packet, NET_NIL or NET_RESERVED */
} Layout;

struct Net {
    Layout lay;
    bool settled;                   /* the pool says where every packet is (net_settle) */
    uint32_t pool_cap, outstanding;
    uint32_t *free_stack, nfree;    /* the free pool indices, the next on top */
    uint64_t next_id;               /* id of the next packet made */
    uint32_t nmessages, messages_cap;  /* Layout.message: used, allocated */
    uint32_t messages_flits_cap;    /* Layout.flits: allocated */
    uint32_t *free_messages, nfree_messages;   /* indices no message holds */
    MemberList *lists;              /* multicasts' lists of members, from index 1 */
    uint32_t nlists, lists_cap;
    uint32_t *free_lists, nfree_lists;   /* indices of lists no packet holds */
    uint8_t *entered;               /* per buffer, with an observer: packets
                                       that entered it in this timestep's
                                       stage d (<= 4), else 0 */
    uint64_t *requests_made;        /* per processor: send requests so far */
    uint64_t in_flight;             /* packets in slots, links and buffers */
    uint64_t flits_waiting;         /* flits of messages in output slots, not
                                       made yet (message.c) */
    uint64_t flits_read;            /* words read by IN */
    NetShare *share;                /* the active lists: one share, or one per plane (2) */
    unsigned nshares;
    Runner *runner;                 /* with shares: runs them at once */
    void *runner_ctx;
    size_t parallel_min;            /* ...when a timestep has this many packets to handle */
    uint16_t *arrivals_down;        /* per processor: bit plane << vshift | v, a
                                       packet arrives down lane v of that
                                       plane's link */
    uint32_t *arriving;             /* ...and which, by that lane (a delivery
                                       target, OnLink) */
    IndexList woken;                /* processors whose input port received a
                                       packet or whose output slot emptied in
                                       this timestep's network stage (the
                                       machine wakes the ones that wait) */
    Counters counts;
    NetEventFn *event;              /* optional observer (trace, routes) */
    void *event_ctx;
    Reference *reference;           /* run beside this one, if asked for */
    char *reference_error;          /* ...its first difference, or NULL */
    uint64_t timestep;              /* the timestep being run */
    bool moved;                     /* something changed place this timestep */
    NetStepResult result;           /* ...and the rest of net_step's answer */
};

#define NET_RESERVED UINT32_MAX   /* an output slot promised to a request */
#define NET_NO_CHANNEL UINT32_MAX /* Message.tail_buffer: not in a buffer yet */


#endif
