/* play.h - `sigil play`: a game against the engine for a person at a plain
 * terminal (or a script on a pipe). */
#ifndef SIGIL_PLAY_H
#define SIGIL_PLAY_H

#include <stdio.h>

/* Run the interactive mode with the arguments after `play` (variant name,
 * --side, --time, --seed); lines are read from in, everything is written to
 * out.  Returns the process exit status. */
int play_main(int argc, char **argv, FILE *in, FILE *out);

#endif
