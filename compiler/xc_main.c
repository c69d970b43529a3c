/* bin/xc: the compiler's command line (spec/cli.md). Placeholder until the
 * compiler lands. */
#include <stdio.h>

int main(void)
{
    fprintf(stderr, "xc: the compiler is not built yet\n");
    return 1;
}
