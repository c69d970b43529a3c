/* bin/emu: the emulator's command line (spec/cli.md). For now it offers the
 * disassembler; running programs arrives with the machine. */
#include <stdio.h>
#include <string.h>

#include "cpu/disasm.h"
#include "cpu/hex.h"

int main(int argc, char **argv)
{
    char err[512];
    HexImage img;
    if (argc == 3 && strcmp(argv[1], "--disasm") == 0) {
        if (hex_read_file(argv[2], 200000, &img, err, sizeof err) != 0) {
            fprintf(stderr, "emu: %s\n", err);
            return 1;
        }
        disasm_image(stdout, &img);
        hex_free(&img);
        return 0;
    }
    fprintf(stderr, "usage: emu --disasm FILE.hex\n");
    return 1;
}
