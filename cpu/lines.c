/* Source lines of an image (lines.h). */
#include "cpu/lines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Grows a malloc'ed array to hold `need` elements; false when out of memory. */
static bool grow(void **items, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return true;
    size_t n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    void *p = realloc(*items, n * size);
    if (!p)
        return false;
    *items = p;
    *cap = n;
    return true;
}

LineTable *lines_new(const char *file, const char *text, size_t len, uint32_t nprocs)
{
    LineTable *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->file = strdup(file);
    t->text = malloc(len + 1);
    t->procs = calloc(nprocs ? nprocs : 1, sizeof *t->procs);
    t->nprocs = nprocs;
    uint32_t lines = 1;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    t->line_starts = malloc(lines * sizeof *t->line_starts);
    t->list_start = malloc(sizeof *t->list_start);
    if (!t->file || !t->text || !t->procs || !t->line_starts || !t->list_start) {
        lines_free(t);
        return NULL;
    }
    memcpy(t->text, text, len);
    t->text[len] = '\0';
    t->len = len;
    t->line_starts[t->nlines++] = 0;
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\n' && t->nlines < lines)
            t->line_starts[t->nlines++] = i + 1;
    t->list_start[0] = 0;
    return t;
}

void lines_free(LineTable *t)
{
    if (!t)
        return;
    for (uint32_t i = 0; i < t->nprocs; i++)
        free(t->procs[i]);
    free(t->procs);
    free(t->file);
    free(t->text);
    free(t->line_starts);
    free(t->entries);
    free(t->list_start);
    free(t->list_of);
    free(t);
}

void lines_set_proc(LineTable *t, uint32_t index, const char *kind, const char *name,
                    size_t len)
{
    if (index >= t->nprocs)
        return;
    /* A long name is cut as the compiler's messages cut names, so that
     * every message that shows it stays readable. */
    size_t shown = len > LINES_NAME_SHOWN ? LINES_NAME_SHOWN : len;
    size_t n = strlen(kind) + 1 + shown + 4;
    free(t->procs[index]);
    t->procs[index] = malloc(n);
    if (t->procs[index])
        snprintf(t->procs[index], n, "%s %.*s%s", kind, (int)shown, name,
                 shown < len ? "..." : "");
    else
        t->failed = true;
}

void lines_add(LineTable *t, uint32_t addr, uint32_t line, uint32_t col, uint32_t proc)
{
    if (t->nentries > t->open) {
        const LineEntry *last = &t->entries[t->nentries - 1];
        if (last->line == line && last->col == col && last->proc == proc)
            return;
    }
    if (!grow((void **)&t->entries, &t->cap, t->nentries + 1, sizeof *t->entries)) {
        t->failed = true;
        return;
    }
    t->entries[t->nentries++] = (LineEntry){ addr, line, col, proc };
}

/* Whether list i holds the n entries at `e`. */
static bool list_equals(const LineTable *t, uint32_t i, const LineEntry *e, size_t n)
{
    size_t from = t->list_start[i];
    return t->list_start[i + 1] - from == n &&
           memcmp(&t->entries[from], e, n * sizeof *e) == 0;
}

void lines_end_record(LineTable *t, uint32_t end)
{
    lines_add(t, end, 0, 0, LINES_NO_CODE);
    size_t n = t->nentries - t->open, lists_cap = t->lists_cap, count_cap = t->count_cap;
    if (!grow((void **)&t->list_of, &count_cap, (size_t)t->count + 1, sizeof *t->list_of) ||
        !grow((void **)&t->list_start, &lists_cap, (size_t)t->nlists + 2,
              sizeof *t->list_start)) {
        t->failed = true;
        return;
    }
    t->count_cap = (uint32_t)count_cap;
    t->lists_cap = (uint32_t)lists_cap;
    if (t->nlists > 0 && list_equals(t, t->nlists - 1, &t->entries[t->open], n)) {
        t->nentries = t->open;              /* the same as the last list: share it */
    } else {
        t->nlists++;
        t->list_start[t->nlists] = t->nentries;
    }
    t->list_of[t->count++] = t->nlists - 1;
    t->open = t->nentries;
}

bool lines_find(const LineTable *t, uint32_t rec, uint32_t addr, LineEntry *out)
{
    if (!t || t->failed || rec >= t->count)
        return false;
    uint32_t list = t->list_of[rec];
    size_t lo = t->list_start[list], hi = t->list_start[list + 1];
    if (lo == hi || addr < t->entries[lo].addr)
        return false;
    while (hi - lo > 1) {               /* the last entry with addr <= `addr` */
        size_t mid = lo + (hi - lo) / 2;
        if (t->entries[mid].addr <= addr)
            lo = mid;
        else
            hi = mid;
    }
    if (t->entries[lo].proc == LINES_NO_CODE)
        return false;
    *out = t->entries[lo];
    return true;
}

bool lines_describe(const LineTable *t, uint32_t rec, uint32_t addr, char *buf, size_t size)
{
    LineEntry e;
    if (size)
        buf[0] = '\0';
    if (!lines_find(t, rec, addr, &e))
        return false;
    if (e.line == 0)
        snprintf(buf, size, "start-up code");
    else
        snprintf(buf, size, "%s:%u:%u, in %s", t->file, e.line, e.col,
                 e.proc < t->nprocs && t->procs[e.proc] ? t->procs[e.proc] : "?");
    return true;
}

const char *lines_text(const LineTable *t, uint32_t n, size_t *len)
{
    if (!t || n == 0 || n > t->nlines)
        return NULL;
    const char *start = t->text + t->line_starts[n - 1];
    size_t end = n < t->nlines ? t->line_starts[n] - 1 : t->len;
    *len = (size_t)(t->text + end - start);
    if (*len > 0 && start[*len - 1] == '\r')
        (*len)--;
    return start;
}
