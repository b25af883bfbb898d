/* main.c - `sigil` runs the protocol loop on stdin/stdout; `sigil play
 * <variant>` is the interactive mode for a person at a terminal; `sigil
 * perft-suite FILE` checks a file of perft counts (perftsuite.h); with other
 * arguments each argument is run as one command (waiting for each search to
 * end), then it exits: `sigil bench`, `sigil "variant <name>" "perft 4"`. */
#include <stdio.h>
#include <string.h>

#include "datagen.h"
#include "perftsuite.h"
#include "play.h"
#include "protocol.h"
#include "variants.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: sigil                 the UCI/UGI protocol on stdin/stdout ('help' lists the commands)\n"
            "       sigil play [<variant>] [--side white|black|both|none] [--time <seconds>]\n"
            "                  [--seed <n>] [--level <0-20>] [--clock <min>+<sec>] [--fen <fen>]\n"
            "                             play a game at the terminal ('help' there)\n"
            "       sigil perft-suite [--variant <v>] [--max-nodes <n>] <file>...\n"
            "                             check the perft counts of a suite file\n"
            "       sigil datagen --variant <v> --games <n> --out <file> [--nodes <n>] [--threads <n>]\n"
            "                     [--seed <n>] [--random-plies <n>] [--hash <mb>] [--quiet]\n"
            "                             self-play training positions (doc/tuning.md)\n"
            "       sigil <command> ...   run each argument as one protocol command, then exit\n"
            "                             (sigil bench; sigil \"variant <name>\" \"go depth 6\")\n"
            "       sigil --help | -h     this text\n"
            "       sigil --version | -v  the version\n"
            "variants:");
    for (int i = 0; i < variants_count(); i++)
        fprintf(out, " %s", variants_get(i)->name);
    fprintf(out, "\n");
}

int main(int argc, char **argv)
{
    variants_init();
    if (argc > 1) {
        if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-v") == 0) {
            printf("%s %s\n", SIGIL_NAME, SIGIL_VERSION);
            return 0;
        }
        if (strcmp(argv[1], "play") == 0)
            return play_main(argc - 2, argv + 2, stdin, stdout);
        if (strcmp(argv[1], "datagen") == 0)
            return datagen_main(argc - 2, argv + 2, stderr);
        if (strcmp(argv[1], "perft-suite") == 0)
            return perft_suite_main(argc - 2, argv + 2, stdout, stderr);
        if (argv[1][0] == '-') {
            fprintf(stderr, "sigil: unknown option '%s'\n", argv[1]);
            usage(stderr);
            return 2;
        }
        protocol_init(stdout);
        for (int i = 1; i < argc; i++)
            if (!protocol_command(argv[i]))
                break;
        protocol_shutdown();
        return 0;
    }
    return protocol_run(stdin, stdout);
}
