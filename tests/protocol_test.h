/* protocol_test.h - helpers for the suites that drive engine/sigil through
 * pipes (SIGIL_BIN, set by `make check`): start it, exchange lines, count
 * replies, read the FEN and the legal moves. */
#ifndef SIGIL_PROTOCOL_TEST_H
#define SIGIL_PROTOCOL_TEST_H

#include <stdbool.h>
#include <stddef.h>

#include "pipe_engine.h"

/* Generous bounds (ms) for replies: a loaded machine must not fail a test. */
#define T_SHORT 5000
#define T_LONG 30000

#define PT_SEEN_SIZE (1 << 18)

/* The engine under test and what the last exchange read. */
extern PipeEngine pt_engine;
extern char pt_seen[PT_SEEN_SIZE];

/* Start the engine without arguments (the protocol loop). */
void pt_start(void);
/* Start it with arguments (argv[0] is set to the binary); memory_limit as in
 * pipe_engine_start_argv. */
void pt_start_args(const char *const *args, size_t memory_limit);
/* Close the pipes and reap the engine. */
void pt_finish(void);
/* Send one line. */
void pt_send(const char *line);
/* Send line (if not NULL), then isready; return everything printed before
 * readyok. */
const char *pt_exchange(const char *line);
/* Lines of text that start with prefix. */
int pt_count_lines(const char *text, const char *prefix);
/* The first line of text that starts with prefix, copied without its '\n'
 * into a static buffer, or NULL. */
const char *pt_find_line(const char *text, const char *prefix);
/* Send `query <what>`: exactly one response line must come, and nothing
 * else but a running search's info lines (no info string before the
 * response); returns the text after "response ". */
const char *pt_query(const char *what);
/* The FEN (query fen). */
void pt_current_fen(char *fen, size_t size);
/* The legal moves listed by `d`, as " m1 m2 ... " (spaces around each). */
void pt_legal_moves(char *list, size_t size);
/* True when the " m1 m2 " list holds move. */
bool pt_list_has(const char *list, const char *move);
/* Exactly one error line, the engine still answers, and the position is the
 * same. */
void pt_assert_rejected(const char *bad_line);
/* Milliseconds from a monotonic clock. */
long long pt_now_ms(void);

#endif
