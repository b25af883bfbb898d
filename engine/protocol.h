/* protocol.h - the UCI/UGI-style command loop. */
#ifndef SIGIL_PROTOCOL_H
#define SIGIL_PROTOCOL_H

#include <stdbool.h>
#include <stdio.h>

#include "game.h"

#define SIGIL_NAME "Sigil"
#define SIGIL_VERSION "0.1.0"
#define SIGIL_AUTHOR "the Sigil developers"

/* Read commands from in until `quit` or end of input; replies go to out.
 * Returns the process exit status. */
int protocol_run(FILE *in, FILE *out);

/* Run one command line as if read from input, then wait for any search it
 * started to finish (used for command-line arguments: `sigil bench`).
 * Returns false when the command was `quit`. */
bool protocol_command(const char *line);

/* Run one line (without its newline) as protocol_run runs each line it reads:
 * a search it starts goes on until `stop` or the next command that ends it.
 * Returns false when the line was `quit`.  tests/fuzz drives it line by line. */
bool protocol_line(const char *line);

/* The game being played (NULL before protocol_init): for tests/fuzz's checks. */
const Game *protocol_game(void);

/* Prepare the protocol state with replies going to out (idempotent). */
void protocol_init(FILE *out);

/* Stop any search, release resources. */
void protocol_shutdown(void);

#endif
