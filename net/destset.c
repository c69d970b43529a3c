/* Sets of destinations (route.h, multicast.md): a broadcast's range, a
 * list's members, which layer a set is reached from, and a set as reports
 * show it. Below the router and the network, which both use them. */
#include <inttypes.h>
#include <stdio.h>

#include "net/route.h"
#include "net/topology.h"

DestSet dest_set_broadcast(uint32_t src, uint32_t bound, bool all)
{
    return (DestSet){ NULL, bound - (src < bound), 0, bound, src < bound ? src : DEST_NONE, all };
}

bool dest_set_has(const DestSet *set, uint32_t d)
{
    if (!set->members)
        return d >= set->lo && d < set->hi && d != set->except;
    size_t a = 0, b = set->n;              /* (binary search) */
    while (a < b) {
        size_t m = a + (b - a) / 2;
        if (set->members[m] < d)
            a = m + 1;
        else
            b = m;
    }
    return a < set->n && set->members[a] == d;
}

/* The largest cmin(src, d) is at the lowest or highest member: members
 * that agree above a bit agree with everything between them there. */
unsigned dest_set_count(const DestSet *set, uint32_t src)
{
    unsigned a = topo_cmin(src, dest_set_min(set)), b = topo_cmin(src, dest_set_max(set));
    return a > b ? a : b;
}

void dest_set_format(char *buf, size_t size, const DestSet *set)
{
    if (set->all) {
        snprintf(buf, size, "all");
        return;
    }
    size_t used = (size_t)snprintf(buf, size, "{");
    uint32_t shown = 0;
    for (; shown < set->n && shown < 8 && used < size; shown++)
        used += (size_t)snprintf(buf + used, size - used, "%s%u", shown ? "," : "",
                                 dest_set_member(set, shown));
    if (used < size)
        snprintf(buf + used, size - used, set->n > shown ? ",...+%u}" : "}", set->n - shown);
}

void dest_name(char *buf, size_t size, const DestSet *set, uint32_t dst)
{
    if (set)
        dest_set_format(buf, size, set);
    else
        snprintf(buf, size, "p%" PRIu32, dst);
}

