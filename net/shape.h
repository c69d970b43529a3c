/* The shape of a network, as the sweep of stages d and e sees it: the
 * options it tests for every packet (channels, duplex, multicast,
 * messages, deep buffers, routes in words, adaptive routing).
 *
 * net/sweep.c is compiled for any network (with messages of several
 * words and without) and once for each common shape (the Makefile's
 * SHAPES, -DSHAPE_name), and step.c runs the copy that fits (sweep_for).
 * In a shaped copy the options are the constants below, so that the
 * compiler drops every test of them. Code that a copy inlines reads them
 * through shape_vcs() and its kin (layout.h), never from the Layout's
 * fields directly; in the copies for any network, and outside the sweep,
 * those read the fields. */
#ifndef NET_SHAPE_H
#define NET_SHAPE_H

/* SHAPE_ANY is 1 where the options are read from the layout: in the two
 * copies for any network, and outside the sweep. A shaped copy (0) has
 * SHAPE_VCS channels (V), SHAPE_FULL_DUPLEX and SHAPE_MULTICAST, routes in
 * words, buffers of at most INLINE_PLACES places, no adaptive routing and
 * wormhole switching (which only messages of several words see). Every
 * copy knows SHAPE_MESSAGES, whether a message of several words was made
 * (Layout.messages): the copies for any network are one without messages
 * and one with; outside the sweep it is -1, read from the layout. */
#if defined(SHAPE_any_network)
#define SHAPE_SWEEP sweep_any_network
#define SHAPE_ANY 1
#define SHAPE_MESSAGES 0
#elif defined(SHAPE_any_messages)
#define SHAPE_SWEEP sweep_any_messages
#define SHAPE_ANY 1
#define SHAPE_MESSAGES 1
#elif defined(SHAPE_common_full)
#define SHAPE_SWEEP sweep_common_full
#define SHAPE_ANY 0
#define SHAPE_VCS 1
#define SHAPE_FULL_DUPLEX 1
#define SHAPE_MULTICAST 0
#define SHAPE_MESSAGES 0
#elif defined(SHAPE_common_half)
#define SHAPE_SWEEP sweep_common_half
#define SHAPE_ANY 0
#define SHAPE_VCS 1
#define SHAPE_FULL_DUPLEX 0
#define SHAPE_MULTICAST 0
#define SHAPE_MESSAGES 0
#elif defined(SHAPE_multicast_full)
#define SHAPE_SWEEP sweep_multicast_full
#define SHAPE_ANY 0
#define SHAPE_VCS 1
#define SHAPE_FULL_DUPLEX 1
#define SHAPE_MULTICAST 1
#define SHAPE_MESSAGES 0
#elif defined(SHAPE_messages_full)
#define SHAPE_SWEEP sweep_messages_full
#define SHAPE_ANY 0
#define SHAPE_VCS 1
#define SHAPE_FULL_DUPLEX 1
#define SHAPE_MULTICAST 0
#define SHAPE_MESSAGES 1
#elif defined(SHAPE_four_channels_full)
#define SHAPE_SWEEP sweep_four_channels_full
#define SHAPE_ANY 0
#define SHAPE_VCS 4
#define SHAPE_FULL_DUPLEX 1
#define SHAPE_MULTICAST 0
#define SHAPE_MESSAGES 0
#else
#define SHAPE_ANY 1
#define SHAPE_MESSAGES (-1)
#endif

#if SHAPE_ANY                     /* (not read) */
#define SHAPE_VCS 0
#define SHAPE_FULL_DUPLEX 0
#define SHAPE_MULTICAST 0
#endif

#endif
