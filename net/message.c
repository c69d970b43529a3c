/* Messages of several words (messages.md): a SEND's words, kept from its
 * request until an IN reads its tail, and its flits, made one at a time.
 * The output slot holds the whole message and offers one flit a
 * timestep, in index order: its head is made at injection like any
 * packet, and each next flit once the one before has left the slot
 * (message_continue), so that the records in the pool are those of the
 * flits on their way. What each flit does in the network is sweep.c's and
 * deliver.c's, with the rules of message.h. */
#include <stdlib.h>
#include <string.h>

#include "net/layout.h"
#include "net/message.h"
#include "net/pool.h"
#include "net/step.h"

void messages_grow(Net *net)
{
    Layout *lay = &net->lay;
    if (!lay->messages)
        return;
    FlitOf *flits = realloc(lay->flits, (size_t)net->pool_cap * sizeof *flits);
    if (!flits)
        abort();
    memset(flits + net->messages_flits_cap, 0,
           (size_t)(net->pool_cap - net->messages_flits_cap) * sizeof *flits);
    lay->flits = flits;
    net->messages_flits_cap = net->pool_cap;
}

/* The first message: the tables that say what a packet is and who owns
 * a place (every packet so far is a message of one word). */
static void messages_start(Net *net)
{
    Layout *lay = &net->lay;
    lay->owner = calloc(sender_count(net) << lay->vshift, sizeof *lay->owner);
    lay->port_owner = calloc((size_t)lay->nprocs * lay->cfg.ports, sizeof *lay->port_owner);
    if (!lay->cfg.full_duplex)            /* (2 links per switch) */
        lay->temp_packet = calloc(2 * (size_t)lay->nswitches, sizeof *lay->temp_packet);
    if (!lay->owner || !lay->port_owner || (!lay->cfg.full_duplex && !lay->temp_packet))
        abort();
    lay->messages = true;
    messages_grow(net);
}

static uint32_t message_alloc(Net *net)
{
    if (net->nfree_messages > 0)
        return net->free_messages[--net->nfree_messages];
    if (net->nmessages + 1 >= net->messages_cap) {
        uint32_t cap = net->messages_cap ? 2 * net->messages_cap : 64;
        Message *table = realloc(net->lay.message, (size_t)cap * sizeof *table);
        uint32_t *free_list = realloc(net->free_messages, (size_t)cap * sizeof *free_list);
        if (table)
            net->lay.message = table;
        if (free_list)
            net->free_messages = free_list;
        if (!table || !free_list)
            abort();
        net->messages_cap = cap;
    }
    return ++net->nmessages;
}

void message_make(Net *net, uint32_t x, const uint32_t *words, uint32_t length)
{
    net->counts.stats.messages++;
    if (length < 2)
        return;
    net->counts.stats.flits_sent += length - 1;
    if (!net->lay.messages)
        messages_start(net);
    uint32_t m = message_alloc(net);
    uint32_t *copy = malloc((size_t)length * sizeof *copy);
    if (!copy)
        abort();
    memcpy(copy, words, (size_t)length * sizeof *copy);
    net->lay.message[m] = (Message){ .id = net->lay.pool[x].info.id, .length = length, .made = 1, .routing = 0,
                                     .tail_buffer = NET_NO_CHANNEL, .tail_stamp = 0,
                                     .words = copy };
    net->lay.flits[x] = (FlitOf){ m, 0, false };
    net->flits_waiting += length - 1;
}

void message_continue(Net *net, IndexList *adapters, uint32_t x)
{
    Layout *lay = &net->lay;
    uint32_t m = lay->flits[x].message;
    Message *msg = &lay->message[m];
    uint32_t y = pool_alloc(net);
    Packet *pk = &lay->pool[y];
    *pk = lay->pool[x];
    uint32_t p = pk->info.src;
    pk->data = msg->words[msg->made];
    pk->next = NET_NIL;
    pk->place = PLACE_SLOT;
    pk->at = p;
    pk->dir = DIR_UP;
    pk->layer = 0;
    pk->links = 0;
    pk->asleep = AWAKE;
    lay->routes[y] = packet_route_word(lay, pk);
    lay->flits[y] = (FlitOf){ m, msg->made, msg->made + 1 == msg->length };
    msg->made++;
    lay->out_slot[p] = y;
    net->in_flight++;
    net->flits_waiting--;
    step_offered(net, adapters, adapter_sender(lay, pk->plane, p), p);
}

void message_read(Net *net, uint32_t x)
{
    Layout *lay = &net->lay;
    uint32_t m = flit_message(lay, x);
    if (m == 0 || !flit_is_tail(lay, x))
        return;
    free(lay->message[m].words);
    lay->message[m].words = NULL;
    net->free_messages[net->nfree_messages++] = m;
}

void messages_free(Net *net)
{
    for (uint32_t m = 1; m <= net->nmessages; m++)
        free(net->lay.message[m].words);
    free(net->lay.message);
    free(net->free_messages);
    free(net->lay.flits);
    free(net->lay.owner);
    free(net->lay.port_owner);
    free(net->lay.temp_packet);
}
