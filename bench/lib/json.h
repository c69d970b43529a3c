/* A reader of the one JSON object that `bin/emu --json` writes at the end of
 * its output (emu/report.c), for the tools that gather many runs' reports
 * (bench/collect). It checks the whole object and looks up its top-level
 * members by name; nested objects and lists are checked and skipped, since
 * the statistics a table needs are all scalars at the top level. */
#ifndef BENCH_JSON_H
#define BENCH_JSON_H

#include <stdbool.h>
#include <stddef.h>

typedef enum JsonType {
    JSON_NONE,        /* no such member, or the text is not one JSON value */
    JSON_NUMBER,
    JSON_STRING,
    JSON_TRUE,
    JSON_FALSE,
    JSON_NULL,
    JSON_OBJECT,
    JSON_ARRAY
} JsonType;

/* Whether text is exactly one JSON value, with white space around it. */
bool json_valid(const char *text);

/* The type of member `key` of the object that text holds. A scalar's text
 * goes into value (a string without its quotes and with its escapes
 * decoded, a number as written, true, false or null), cut to size - 1
 * bytes; an object or a list leaves value empty. */
JsonType json_member(const char *text, const char *key, char *value, size_t size);

/* The last line of text that starts with '{': emu prints the program's
 * output (`pN: value` lines) before the report. NULL if there is none. */
const char *json_last_object(const char *text);

#endif
