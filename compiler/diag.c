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
 * around the column. The messages are kept and written at the end of the
 * compilation sorted by position, since the phases find them in their own
 * order but a reader goes through the file from the top. */
#include "compiler/internal.h"

#include <stdlib.h>
#include <string.h>

enum { WINDOW = 100 };  /* bytes shown on each side of the caret at most */

/* Writes the source line holding `pos` and the caret line under it. */
static void show_line(const Diag *d, FILE *out, SrcPos pos)
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
    int width = snprintf(NULL, 0, "%u", (unsigned)pos.line);
    width = width < 4 ? 4 : width;           /* gcc's gutter: at least 4 wide */
    fprintf(out, " %*u | %s", width, (unsigned)pos.line, cut_left ? "..." : "");
    for (size_t i = start; i < end; i++) {
        unsigned char c = (unsigned char)d->text[i];
        fputc(c < 0x20 && c != '\t' ? '?' : c == 0x7f ? '?' : c, out);
    }
    fprintf(out, "%s\n %*s | %s", cut_right ? "..." : "", width, "", cut_left ? "   " : "");
    for (size_t i = start; i < at; i++) {
        unsigned char c = (unsigned char)d->text[i];
        if (c == '\t')
            fputc('\t', out);
        else if (c < 0x80 || c >= 0xC0)
            fputc(' ', out);
    }
    fputs("^\n", out);
}

/* Keeps one message: `kind` is "error" or "note"; a message about the whole
 * file (`at_file`) has no line, column or source line, and comes first. */
static void add_message(Diag *d, SrcPos pos, int at_file, const char *kind, const char *fmt,
                        va_list ap)
{
    if (!d->out)
        return;
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    DiagMessage *msgs = realloc(d->msgs, (d->nmsgs + 1) * sizeof *msgs);
    if (!f || !msgs) {
        if (f)
            fclose(f);
        free(text);
        if (msgs)
            d->msgs = msgs;
        fprintf(d->out, "%s:%u:%u: %s: (out of memory for the message)\n", d->file,
                (unsigned)pos.line, (unsigned)pos.col, kind);
        return;
    }
    d->msgs = msgs;
    if (at_file)
        fprintf(f, "%s: %s: ", d->file, kind);
    else
        fprintf(f, "%s:%u:%u: %s: ", d->file, (unsigned)pos.line, (unsigned)pos.col, kind);
    vfprintf(f, fmt, ap);
    fputc('\n', f);
    if (!at_file)
        show_line(d, f, pos);
    fclose(f);
    d->msgs[d->nmsgs] = (DiagMessage){ pos, d->nmsgs, text, !strcmp(kind, "note") };
    d->nmsgs++;
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
    va_list ap;
    va_start(ap, fmt);
    add_message(d, pos, 0, "error", fmt, ap);
    va_end(ap);
}

void diag_error_file(Diag *d, const char *fmt, ...)
{
    if (diag_too_many(d))
        return;
    d->errors++;
    va_list ap;
    va_start(ap, fmt);
    add_message(d, (SrcPos){ 0, 0, 0 }, 1, "error", fmt, ap);
    va_end(ap);
}

void diag_note(Diag *d, SrcPos pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_message(d, pos, 0, "note", fmt, ap);
    va_end(ap);
}

/* Source order, the errors before the notes (a note says what a -D set,
 * which may explain an error anywhere, as a compiler's note follows the
 * error it is about); equal positions keep the order they were found in. */
static int by_position(const void *a, const void *b)
{
    const DiagMessage *x = a, *y = b;
    if (x->note != y->note)
        return x->note ? 1 : -1;
    if ((x->pos.line == 0) != (y->pos.line == 0))     /* about the whole file: first */
        return x->pos.line == 0 ? -1 : 1;
    if (x->pos.offset != y->pos.offset)
        return x->pos.offset < y->pos.offset ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void diag_flush(Diag *d)
{
    if (d->nmsgs > 1)
        qsort(d->msgs, d->nmsgs, sizeof *d->msgs, by_position);
    for (size_t i = 0; i < d->nmsgs; i++) {
        if (d->out)
            fputs(d->msgs[i].text, d->out);
        free(d->msgs[i].text);
    }
    if (d->out && diag_too_many(d))
        fprintf(d->out, "%s: note: stopped after %d errors\n", d->file, MAX_ERRORS);
    free(d->msgs);
    d->msgs = NULL;
    d->nmsgs = 0;
}

int diag_too_many(const Diag *d)
{
    return d->errors >= MAX_ERRORS;
}
