/* A count and its noun agree: "1 packet", "2 packets", "0 copies". Every
 * message that puts a number before a noun takes the noun from here, so
 * that none says "1 packets". */
#ifndef COMMON_PLURAL_H
#define COMMON_PLURAL_H

/* The noun for n things: `one` when n is 1, else `many`. */
static inline const char *plural(unsigned long long n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

#endif
