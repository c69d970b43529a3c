/* A channel buffer's ring (channel.h): buffers deeper than a sender's
 * record keep their places in one, grown as they fill. */
#include <stdlib.h>

#include "net/channel.h"

/* Makes room in channel c's deep buffer (buf) for one more packet: its
 * ring, made on first use with 8 places and doubled up to B when full, is
 * copied from its head on. */
void grow_ring(Net *net, Sender *buf, uint32_t c)
{
    uint32_t *old = net->lay.rings[c];
    unsigned cap = old ? ring_capacity(&net->lay, buf) : 0;
    if (old)
        buf->ring.size++;
    unsigned grown = ring_capacity(&net->lay, buf);
    uint32_t *ring = malloc(grown * sizeof *ring);
    if (!ring)
        abort();        /* room for packets in flight: cannot fail in practice */
    for (unsigned i = 0; i < buf->count; i++) {
        unsigned at = buf->ring.head + i;
        ring[i] = old[at >= cap ? at - cap : at];
    }
    free(old);
    net->lay.rings[c] = ring;
    buf->ring.head = 0;
}
