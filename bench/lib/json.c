/* The JSON reader of json.h: a recursive-descent walk over RFC 8259's
 * grammar, one function per rule, that copies out the one value it is asked
 * for. Nesting is bounded so that no input can exhaust the stack. */
#include "bench/lib/json.h"

#include <string.h>

enum { JSON_MAX_DEPTH = 64 };

typedef struct JsonReader {
    const char *p;    /* the next character to read */
    char *out;        /* where a scalar is copied, or NULL */
    size_t size;      /* bytes at out */
    size_t len;       /* bytes copied so far */
} JsonReader;

static void skip_space(JsonReader *r)
{
    while (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r')
        r->p++;
}

static void put(JsonReader *r, char c)
{
    if (r->out && r->len + 1 < r->size)
        r->out[r->len++] = c;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* string = '"' { char | '\' escape } '"'. Escapes of characters beyond
 * ASCII are kept as '?': emu writes none. */
static bool read_string(JsonReader *r)
{
    if (*r->p != '"')
        return false;
    r->p++;
    for (;;) {
        char c = *r->p++;
        if (c == '"')
            return true;
        if ((unsigned char)c < 0x20)
            return false;             /* also the end of the text */
        if (c != '\\') {
            put(r, c);
            continue;
        }
        c = *r->p++;
        const char *plain = strchr("\"\\/bfnrt", c);
        if (c && plain) {
            put(r, "\"\\/\b\f\n\r\t"[plain - "\"\\/bfnrt"]);
        } else if (c == 'u') {
            int code = 0;
            for (int i = 0; i < 4; i++) {
                int d = hex_digit(*r->p++);
                if (d < 0)
                    return false;
                code = code * 16 + d;
            }
            put(r, code < 0x80 ? (char)code : '?');
        } else {
            return false;
        }
    }
}

/* number = [ '-' ] int [ frac ] [ exp ] */
static bool read_number(JsonReader *r)
{
    const char *start = r->p;
    if (*r->p == '-')
        r->p++;
    if (*r->p == '0')
        r->p++;
    else if (*r->p >= '1' && *r->p <= '9')
        while (*r->p >= '0' && *r->p <= '9')
            r->p++;
    else
        return false;
    if (*r->p == '.') {
        r->p++;
        if (!(*r->p >= '0' && *r->p <= '9'))
            return false;
        while (*r->p >= '0' && *r->p <= '9')
            r->p++;
    }
    if (*r->p == 'e' || *r->p == 'E') {
        r->p++;
        if (*r->p == '+' || *r->p == '-')
            r->p++;
        if (!(*r->p >= '0' && *r->p <= '9'))
            return false;
        while (*r->p >= '0' && *r->p <= '9')
            r->p++;
    }
    for (const char *c = start; c < r->p; c++)
        put(r, *c);
    return true;
}

static bool read_word(JsonReader *r, const char *word)
{
    size_t n = strlen(word);
    if (strncmp(r->p, word, n) != 0)
        return false;
    r->p += n;
    for (size_t i = 0; i < n; i++)
        put(r, word[i]);
    return true;
}

static JsonType read_value(JsonReader *r, int depth);

/* object = '{' [ string ':' value { ',' string ':' value } ] '}'
 * array  = '[' [ value { ',' value } ] ']'
 * Members are read but not copied. */
static bool read_container(JsonReader *r, char close, int depth)
{
    JsonReader inner = { r->p + 1, NULL, 0, 0 };
    skip_space(&inner);
    if (*inner.p == close) {
        r->p = inner.p + 1;
        return true;
    }
    for (;;) {
        if (close == '}') {
            if (!read_string(&inner))
                return false;
            skip_space(&inner);
            if (*inner.p++ != ':')
                return false;
        }
        skip_space(&inner);
        if (read_value(&inner, depth + 1) == JSON_NONE)
            return false;
        skip_space(&inner);
        char c = *inner.p++;
        if (c == close)
            break;
        if (c != ',')
            return false;
        skip_space(&inner);
    }
    r->p = inner.p;
    return true;
}

/* value = object | array | string | number | true | false | null */
static JsonType read_value(JsonReader *r, int depth)
{
    if (depth > JSON_MAX_DEPTH)
        return JSON_NONE;
    switch (*r->p) {
    case '{': return read_container(r, '}', depth) ? JSON_OBJECT : JSON_NONE;
    case '[': return read_container(r, ']', depth) ? JSON_ARRAY : JSON_NONE;
    case '"': return read_string(r) ? JSON_STRING : JSON_NONE;
    case 't': return read_word(r, "true") ? JSON_TRUE : JSON_NONE;
    case 'f': return read_word(r, "false") ? JSON_FALSE : JSON_NONE;
    case 'n': return read_word(r, "null") ? JSON_NULL : JSON_NONE;
    default:  return read_number(r) ? JSON_NUMBER : JSON_NONE;
    }
}

bool json_valid(const char *text)
{
    JsonReader r = { text, NULL, 0, 0 };
    skip_space(&r);
    if (read_value(&r, 0) == JSON_NONE)
        return false;
    skip_space(&r);
    return *r.p == '\0';
}

/* The member's name is read into a buffer of the key's length plus one, so
 * that a longer name does not compare equal to a prefix of it. */
JsonType json_member(const char *text, const char *key, char *value, size_t size)
{
    if (size)
        value[0] = '\0';
    if (!json_valid(text))
        return JSON_NONE;
    JsonReader r = { text, NULL, 0, 0 };
    skip_space(&r);
    if (*r.p != '{')
        return JSON_NONE;
    r.p++;
    skip_space(&r);
    size_t keylen = strlen(key);
    char name[256];
    if (keylen + 2 > sizeof name)
        return JSON_NONE;
    while (*r.p == '"') {
        JsonReader n = { r.p, name, keylen + 2, 0 };
        read_string(&n);
        name[n.len] = '\0';
        r.p = n.p;
        skip_space(&r);
        r.p++;                        /* the ':', checked by json_valid */
        skip_space(&r);
        if (strcmp(name, key) == 0) {
            JsonReader v = { r.p, value, size, 0 };
            JsonType t = read_value(&v, 0);
            if (size)
                value[t == JSON_OBJECT || t == JSON_ARRAY ? 0 : v.len] = '\0';
            return t;
        }
        read_value(&r, 0);
        skip_space(&r);
        if (*r.p == ',')
            r.p++;
        skip_space(&r);
    }
    return JSON_NONE;
}

const char *json_last_object(const char *text)
{
    const char *last = NULL;
    for (const char *line = text; *line; ) {
        if (*line == '{')
            last = line;
        const char *nl = strchr(line, '\n');
        if (!nl)
            break;
        line = nl + 1;
    }
    return last;
}
