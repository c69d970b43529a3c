/* UTF-8 read one character at a time (RFC 3629), where a text of the
 * user's is shown: the compiler names a letter outside ASCII by its code
 * point, and the JSON report keeps its strings UTF-8 whatever bytes a file
 * name holds. */
#ifndef COMMON_UTF8_H
#define COMMON_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* The length (1 to 4) of the well-formed UTF-8 character that starts s,
 * of which `left` bytes are there, and its code point in *code; 0 when s
 * starts none: a byte that leads no character, a continuation missing, an
 * overlong form, a surrogate or a code point above U+10FFFF. */
static inline size_t utf8_char(const unsigned char *s, size_t left, uint32_t *code)
{
    if (left == 0)
        return 0;
    size_t n = s[0] < 0x80 ? 1 : s[0] >= 0xC2 && s[0] <= 0xDF ? 2
             : s[0] >= 0xE0 && s[0] <= 0xEF ? 3 : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : 0;
    if (n == 0 || n > left)
        return 0;
    if ((n == 3 && ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] >= 0xA0))) ||
        (n == 4 && ((s[0] == 0xF0 && s[1] < 0x90) || (s[0] == 0xF4 && s[1] >= 0x90))))
        return 0;
    uint32_t v = s[0] & (0x7Fu >> n);
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        v = v << 6 | (s[i] & 0x3Fu);
    }
    *code = v;
    return n;
}

#endif
