/* Listings of hex images (disasm.h). */
#include "cpu/disasm.h"

#include "common/plural.h"
#include "cpu/isa.h"

uint32_t disasm_line(const uint8_t *bytes, size_t n, size_t pos, char *buf, size_t size)
{
    IsaInsn insn;
    char hex[3 * 16 + 1] = "", text[64];
    uint32_t len = isa_decode(bytes, n, pos, &insn);
    size_t used = 0;
    for (uint32_t i = 0; i < len && used + 4 < sizeof hex; i++)
        used += (size_t)snprintf(hex + used, sizeof hex - used, i ? " %02x" : "%02x",
                                 bytes[pos + i]);
    isa_format(&insn, text, sizeof text);
    snprintf(buf, size, "%04x: %-8s %s", (unsigned)pos, hex, text);
    return len;
}

/* The source line of the instruction at pos, if it starts another line
 * than the last one shown (*shown). */
static void source_line(FILE *out, const LineTable *lines, uint32_t proc, uint32_t pos,
                        uint32_t *shown)
{
    LineEntry e;
    size_t len;
    if (!lines_find(lines, proc, pos, &e) || e.line == *shown)
        return;
    *shown = e.line;
    const char *text = lines_text(lines, e.line, &len);
    if (e.line == 0)
        fprintf(out, "; start-up code\n");
    else if (text)
        fprintf(out, "; %s:%u: %.*s\n", lines->file, e.line, (int)len, text);
}

void disasm_record(FILE *out, uint32_t proc, const HexRecord *rec, const LineTable *lines)
{
    char line[160];
    uint32_t shown = UINT32_MAX;
    fprintf(out, "processor %u: %u %s, entry word %u\n", proc, rec->length,
            plural(rec->length, "byte", "bytes"), rec->entry);
    for (uint32_t w = 0; w < rec->entry; w++) {
        const uint8_t *b = rec->image + 4 * w;
        uint32_t value = (uint32_t)b[0] | (uint32_t)b[1] << 8 |
                         (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
        fprintf(out, "%04x: %02x %02x %02x %02x  .word %u\n",
                4 * w, b[0], b[1], b[2], b[3], value);
    }
    for (size_t pos = 4 * (size_t)rec->entry; pos < rec->length;) {
        source_line(out, lines, proc, (uint32_t)pos, &shown);
        pos += disasm_line(rec->image, rec->length, pos, line, sizeof line);
        fprintf(out, "%s\n", line);
    }
}

void disasm_image(FILE *out, const HexImage *img)
{
    for (uint32_t p = 0; p < img->count; p++) {
        if (p)
            fputc('\n', out);
        disasm_record(out, p, &img->records[p], img->lines);
    }
}
