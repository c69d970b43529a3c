/* Error messages the way gcc writes them:
 *
 *     prog.x:3:14: error: expected ';' before 'x'
 *         3 |   var in x
 *           |          ^
 *
 * The source line is shown under the message with a caret under the column.
 * Tabs are kept in the caret line so that it lines up on a terminal, the
 * continuation bytes of a UTF-8 character take no column, other control
 * characters are shown as '?', and a very long line is shown as a window
 * around the column. */
#include "compiler/internal.h"

#include <string.h>

enum { WINDOW = 100 };  /* bytes shown on each side of the caret at most */

/* Writes the source line holding `pos` and the caret line under it. */
static void show_line(const Diag *d, SrcPos pos)
{
    size_t at = pos.offset <= d->len ? pos.offset : d->len;
    size_t start = at, end = at;
    while (start > 0 && d->text[start - 1] != '\n')
        start--;
    while (end < d->len && d->text[end] != '\n' && d->text[end] != '\r')
        end++;
    int cut_left = at - start > WINDOW, cut_right = end - at > WINDOW;
    if (cut_left)
        start = at - WINDOW;
    if (cut_right)
        end = at + WINDOW;
    fprintf(d->out, " %4u | %s", (unsigned)pos.line, cut_left ? "..." : "");
    for (size_t i = start; i < end; i++) {
        unsigned char c = (unsigned char)d->text[i];
        fputc(c < 0x20 && c != '\t' ? '?' : c == 0x7f ? '?' : c, d->out);
    }
    fprintf(d->out, "%s\n      | %s", cut_right ? "..." : "", cut_left ? "   " : "");
    for (size_t i = start; i < at; i++) {
        unsigned char c = (unsigned char)d->text[i];
        if (c == '\t')
            fputc('\t', d->out);
        else if (c < 0x80 || c >= 0xC0)
            fputc(' ', d->out);
    }
    fputs("^\n", d->out);
}

void diag_error(Diag *d, SrcPos pos, const char *fmt, ...)
{
    if (d->has_last && d->last_pos.offset == pos.offset && d->last_pos.line == pos.line)
        return;
    if (diag_too_many(d))
        return;
    d->has_last = 1;
    d->last_pos = pos;
    d->errors++;
    if (!d->out)
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(d->out, "%s:%u:%u: error: ", d->file, (unsigned)pos.line, (unsigned)pos.col);
    vfprintf(d->out, fmt, ap);
    va_end(ap);
    fputc('\n', d->out);
    show_line(d, pos);
    if (diag_too_many(d))
        fprintf(d->out, "%s:%u:%u: error: too many errors (%d); stopping here\n",
                d->file, (unsigned)pos.line, (unsigned)pos.col, MAX_ERRORS);
}

int diag_too_many(const Diag *d)
{
    return d->errors >= MAX_ERRORS;
}
