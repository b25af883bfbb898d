/* cli.h - the sigil-match command line: cutechess-cli's and fastchess's
 * spellings, parsed from one table that also prints -help.
 *
 * Anything unknown or malformed is an error (exit status 2) before any
 * engine starts or any game is played; so is an opening book entry that is
 * not a position of the variant, or a finished one.
 */
#ifndef SIGIL_MATCH_CLI_H
#define SIGIL_MATCH_CLI_H

#include <stdio.h>

#include "match.h"

/* Fill cfg from argv (cfg must hold the defaults).  Returns -1 when the
 * run should go on (cfg->mode says what to do), else the exit status:
 * 0 after -help, -version, -variants; 2 after a usage error (the message
 * is on stderr). */
int cli_parse(int argc, char **argv, MatchConfig *cfg);

/* The -help text, from the option tables. */
void cli_help(FILE *f);

#endif
