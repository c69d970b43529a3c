/* The hex image format (spec/isa.md): the compiler's output and the
 * emulator's input. Text of hex digit pairs, white space anywhere, '#'
 * comments to the end of the line; the bytes are a sequence of processor
 * records, each a 4-byte little-endian length, a 4-byte little-endian entry
 * word address, and `length` image bytes. Figure 8 of the thesis is two such
 * records.
 *
 * hex_parse rejects every malformed file before anything runs, with one
 * message naming the file, the record (from 0) and the byte offset -- the
 * position in the file's sequence of bytes, counting from 0 -- and, for a
 * bad character or an unpaired digit, its line and column.
 *
 * The comments before the first byte are the file's header. bin/xc writes
 * there the --mem it compiled for ("# compiled from prog.x with --mem
 * 200000: ..."); the first "--mem N" of the header is kept as built_mem, so
 * that a run with less memory can say why its stack lies outside it. */
#ifndef CPU_HEX_H
#define CPU_HEX_H

#include <stddef.h>
#include <stdint.h>

typedef struct HexRecord {
    uint32_t length;        /* image bytes */
    uint32_t entry;         /* initial pc, a word address */
    const uint8_t *image;   /* the bytes, inside HexImage.bytes */
} HexRecord;

struct LineTable;

typedef struct HexImage {
    uint8_t *bytes;         /* every byte of the file, decoded */
    size_t nbytes;
    HexRecord *records;     /* one per programmed processor */
    uint32_t count;
    uint32_t built_mem;     /* the --mem its header names, or 0 (below) */
    struct LineTable *lines;  /* the source lines of each record (cpu/lines.h)
                                 when compiled in this run, else NULL */
} HexImage;

enum { HEX_MAX_RECORDS = 1 << 24 };  /* processor numbers OUT can address */

/* Parses `text` (len bytes) read from `filename` for processors of
 * `mem_words` words. Returns 0, or -1 with a message in err. */
int hex_parse(const char *text, size_t len, const char *filename,
              uint32_t mem_words, HexImage *out, char *err, size_t errsize);

/* Reads and parses a file ("-" is not special). Returns 0 or -1 with err. */
int hex_read_file(const char *path, uint32_t mem_words, HexImage *out,
                  char *err, size_t errsize);

/* Frees the image and its source lines. */
void hex_free(HexImage *img);

/* A kind of input and the most of it that is read, beyond which reading
 * stops with a message that names the kind: a program's source (256 MiB),
 * and a hex image (8 GiB: that of a small program on 2^24 processors is
 * about 5 GiB). */
typedef struct InputKind {
    size_t most;            /* bytes */
    const char *what;       /* "a program" */
} InputKind;

extern const InputKind source_input, hex_input;

/* Reads a whole text file of at most kind->most bytes into a
 * NUL-terminated buffer; reading stops after the first NUL byte, which no
 * text holds (the parser then names it). Returns the buffer (free it), or
 * NULL with a message naming the file in err. Shared with the compiler. */
char *read_whole_file(const char *path, const InputKind *kind, size_t *len, char *err,
                      size_t errsize);

#endif
