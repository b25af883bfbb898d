/* main.c - `sigil` runs the protocol loop on stdin/stdout; with arguments it
 * runs each argument as one command (waiting for each search to end), then
 * exits: `sigil bench`, `sigil "variant salto" "perft 4"`. */
#include <stdio.h>

#include "protocol.h"
#include "variants.h"

int main(int argc, char **argv)
{
    variants_init();
    if (argc > 1) {
        protocol_init(stdout);
        for (int i = 1; i < argc; i++)
            if (!protocol_command(argv[i]))
                break;
        protocol_shutdown();
        return 0;
    }
    return protocol_run(stdin, stdout);
}
