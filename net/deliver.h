/* Stage c, delivery (deliver.c). */
#ifndef NET_DELIVER_H
#define NET_DELIVER_H

#include "net/state.h"

/* Stage c: the packets on the shares' last links, delivered by one thread
 * (for one share as for two), oldest first at each processor. */
void stage_deliveries(Net *net);

#endif
