/* fuzz_protocol.c - libFuzzer target: the protocol's line handler.
 *
 * Input: protocol text, split into lines as protocol_run splits what it reads
 * (a line ends at '\n'; its command text at the first '\r' or NUL).  Every
 * input starts from a fresh protocol state and an empty hash table.  The fuzz
 * build bounds every job (SIGIL_FUZZ in session.c: searches of 16 nodes on one
 * thread, run before protocol_line returns; perft depth 2 at most); `bench`
 * lines are skipped (a fixed workload of seconds, no input to parse).
 *
 * After every line:
 *   - every reply is a complete line of printable ASCII;
 *   - a line answered with an error changed nothing: same game, position,
 *     history and key (one error line per command; `go` has one per bad
 *     parameter);
 *   - a `go` answered exactly one bestmove, the last line, naming a legal move
 *     or roll of the position (or 0000 when there is none);
 *   - a `perft N` or `go perft N` printed per-move counts summing to its
 *     "Nodes searched" total, which equals perft_count at the bounded depth;
 *   - `query fen`, after each line that changed the game, answers a FEN that
 *     parses back to the position played (same key) and to the same FEN.
 * A `quit` line ends the input, as it ends the real loop. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>

#include "fuzz.h"
#include "game.h"
#include "perft.h"
#include "protocol.h"
#include "search.h"
#include "util.h"
#include "variants.h"

/* Must match session.c's FUZZ_MAX_PERFT_DEPTH. */
#define FUZZ_PERFT_DEPTH 2
/* Longer tokens are never command words. */
#define TOKEN_CHECK 32

/* What a refused line must leave as it was: the game, its position and its
 * history (the keys of every position played through). */
typedef struct Snapshot {
    const Variant *variant;
    GameConfig config;
    Position pos; /* for the messages: its FEN is written only on failure */
    uint64_t key;
    int ply;
    uint64_t history_hash;
} Snapshot;

static void snapshot(Snapshot *s)
{
    const Game *g = protocol_game();
    s->variant = g->variant;
    s->config = g->config;
    s->pos = g->pos;
    s->key = g->variant->key(&g->pos);
    s->ply = g->ply;
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i <= g->ply; i++)
        h = (h ^ g->keys[i]) * 0x100000001b3ULL;
    s->history_hash = h;
}

static bool same_snapshot(const Snapshot *a, const Snapshot *b)
{
    return a->variant == b->variant && a->config.move_limit == b->config.move_limit &&
           a->key == b->key && a->ply == b->ply && a->history_hash == b->history_hash;
}

/* The FEN of a snapshot's position (for messages). */
static const char *fen_of(const Snapshot *s)
{
    static char fen[2][FEN_MAX];
    static int which;
    which ^= 1;
    s->variant->to_fen(&s->pos, fen[which]);
    return fen[which];
}

/* The protocol writes into out_buf through out; each line's replies are
 * checked and then forgotten (the stream is rewound before every line), so
 * one buffer, allocated once, serves every input. */
#define OUT_SIZE (8u << 20)
static char *out_buf;
static size_t out_len;
static FILE *out;

/* Forget what the stream holds. */
static void out_rewind(void)
{
    fflush(out);
    rewind(out);
    out_len = 0;
}

/* Bring out_len up to date with what was written since out_rewind(). */
static void out_sync(void)
{
    fflush(out);
    long at = ftell(out);
    FUZZ_CHECK(at >= 0 && (size_t)at < OUT_SIZE - 1, "the replies to one line overflow %u bytes",
               OUT_SIZE);
    out_len = (size_t)at;
    out_buf[out_len] = '\0';
}

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The first token of line (at most size-1 bytes) into word. */
static void first_word(const char *line, char *word, size_t size)
{
    const char *cur = line;
    word[0] = '\0';
    util_next_token(&cur, word, size);
}

static int count_tokens(const char *line)
{
    char tok[8];
    const char *cur = line;
    int n = 0;
    while (util_next_token(&cur, tok, sizeof tok) > 0)
        n++;
    return n;
}

/* True when one of line's tokens is word. */
static bool has_word(const char *line, const char *word)
{
    char tok[TOKEN_CHECK];
    const char *cur = line;
    size_t len;
    while ((len = util_next_token(&cur, tok, sizeof tok)) > 0)
        if (len < sizeof tok && strcmp(tok, word) == 0)
            return true;
    return false;
}

/* The depth of `perft N` or of `go ... perft N ...` (the first perft word),
 * -1 when the line names none. */
static int perft_depth_asked(const char *line)
{
    /* The protocol's own token size (TOKEN_MAX): a shorter buffer read
     * "perft 000...0002" (36 bytes) as perft 0. */
    char tok[256], num[256];
    const char *cur = line;
    util_next_token(&cur, tok, sizeof tok);
    bool go = strcmp(tok, "go") == 0;
    if (!go && strcmp(tok, "perft") != 0)
        return -1;
    if (go)
        while (util_next_token(&cur, tok, sizeof tok) > 0 && strcmp(tok, "perft") != 0)
            ;
    size_t len = util_next_token(&cur, num, sizeof num);
    if (len == 0 || len >= sizeof num)
        return -1;
    return atoi(num);
}

/* True when move is a legal move (or roll) of the current position, or
 * "0000" where there is none. */
static bool is_answer(const char *move)
{
    const Game *g = protocol_game();
    const Variant *v = g->variant;
    Move moves[MAX_MOVES];
    int n = game_result(g, NULL, NULL) == RESULT_NONE ? v->generate(&g->pos, moves) : 0;
    if (strcmp(move, "0000") == 0)
        return n == 0; /* a finished game, or nothing to play */
    for (int i = 0; i < n; i++) {
        char text[MOVE_STR_MAX];
        v->move_str(&g->pos, moves[i], text);
        if (strcmp(text, move) == 0)
            return true;
    }
    return false;
}

/* Check the replies of one command (text, len bytes); true when the command
 * changed the game. */
static bool check_replies(const char *line, char *text, size_t len, const Snapshot *before)
{
    FUZZ_CHECK(len == 0 || text[len - 1] == '\n', "a reply to '%.80s' is not a whole line", line);
    char word[16];
    first_word(line, word, sizeof word);
    bool is_go = strcmp(word, "go") == 0, is_perft = strcmp(word, "perft") == 0;
    int errors = 0, bestmoves = 0;
    uint64_t perft_sum = 0, perft_total = 0;
    bool perft_done = false;
    const char *last = NULL;
    for (char *p = text; p < text + len;) {
        char *nl = memchr(p, '\n', (size_t)(text + len - p));
        *nl = '\0';
        FUZZ_CHECK(fuzz_is_one_printable_line(p, 1 << 20),
                   "reply '%.120s' to '%.80s' is not printable", p, line);
        last = p;
        if (starts_with(p, "info string error: "))
            errors++;
        else if (starts_with(p, "bestmove ")) {
            bestmoves++;
            char move[MOVE_STR_MAX + 1];
            size_t n = strcspn(p + 9, " ");
            FUZZ_CHECK(n < sizeof move, "bestmove '%.120s' too long", p);
            memcpy(move, p + 9, n);
            move[n] = '\0';
            FUZZ_CHECK(is_answer(move), "'%s' answers '%.80s' in '%s'", p, line, fen_of(before));
        } else if (starts_with(p, "Nodes searched: ")) {
            perft_total = strtoull(p + 16, NULL, 10);
            perft_done = true;
        } else if (!perft_done && (is_perft || is_go) && !starts_with(p, "info") && *p) {
            const char *colon = strstr(p, ": ");
            if (colon)
                perft_sum += strtoull(colon + 2, NULL, 10);
        }
        p = nl + 1;
    }
    Snapshot after;
    snapshot(&after);
    if (errors > 0)
        FUZZ_CHECK(same_snapshot(before, &after),
                   "'%.80s' was refused but changed the game: '%s' became '%s'", line,
                   fen_of(before), fen_of(&after));
    FUZZ_CHECK(errors <= (is_go ? count_tokens(line) : 1), "%d error lines for '%.80s'", errors,
               line);
    if (perft_done) {
        const Game *g = protocol_game();
        int depth = perft_depth_asked(line);
        FUZZ_CHECK(depth >= 0, "'%.80s' printed a perft total", line);
        if (depth > FUZZ_PERFT_DEPTH)
            depth = FUZZ_PERFT_DEPTH;
        uint64_t want = perft_count(g->variant, &g->pos, depth);
        FUZZ_CHECK(perft_total == (depth == 0 ? 1 : perft_sum),
                   "perft total %" PRIu64 " but moves sum to %" PRIu64 " for '%.80s'",
                   perft_total, perft_sum, line);
        FUZZ_CHECK(perft_total == want, "perft %d of '%s' says %" PRIu64 ", not %" PRIu64
                   " for '%.80s'", depth, fen_of(&after), perft_total, want, line);
    }
    if (is_go && perft_depth_asked(line) < 0 && !has_word(line, "perft"))
        FUZZ_CHECK(bestmoves == 1 && last && starts_with(last, "bestmove "),
                   "'%.80s' answered %d bestmoves", line, bestmoves);
    else
        FUZZ_CHECK(bestmoves == 0, "'%.80s' answered a bestmove", line);
    return !same_snapshot(before, &after);
}

/* query fen through the protocol: the current FEN, and it parses back. */
static void check_query_fen(void)
{
    out_rewind();
    size_t start = 0;
    protocol_line("query fen");
    out_sync();
    FUZZ_CHECK(out_len > start, "query fen gave no reply");
    char *reply = out_buf + start;
    FUZZ_CHECK(starts_with(reply, "response ") && out_buf[out_len - 1] == '\n' &&
                   memchr(reply, '\n', out_len - start) == out_buf + out_len - 1,
               "query fen answered '%.200s'", reply);
    out_buf[out_len - 1] = '\0';
    const char *fen = reply + 9;
    const Game *g = protocol_game();
    char again[FEN_MAX], err[256];
    Position p;
    FUZZ_CHECK(g->variant->from_fen(&p, fen, &g->config, err, sizeof err),
               "query fen '%s' does not parse: %s", fen, err);
    FUZZ_CHECK(g->variant->key(&p) == g->variant->key(&g->pos),
               "query fen '%s' is not the position played", fen);
    g->variant->to_fen(&p, again);
    FUZZ_CHECK(strcmp(again, fen) == 0, "query fen '%s' parses to '%s'", fen, again);
    out_buf[out_len - 1] = '\n';
}

/* Inputs of 128 bytes at most in the fuzzing loop: a handful of commands,
 * so that an hour's run keeps its speed (longer inputs mostly repeat lines).
 * Replaying named files, -merge, or an explicit -max_len see inputs whole. */
FUZZ_DEFAULTS("protocol.dict", "-max_len=128")

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool searched; /* the last input may have filled the hash table */
    if (searched)
        search_clear();
    searched = false;
    if (!out) {
        out_buf = malloc(OUT_SIZE);
        out = out_buf ? fmemopen(out_buf, OUT_SIZE, "w") : NULL;
        FUZZ_CHECK(out != NULL, "cannot open the output stream");
    }
    out_rewind();
    protocol_init(out);

    char *text = fuzz_strndup(data, size);
    bool go_on = true;
    for (size_t at = 0; go_on && at < size;) {
        char *line = text + at;
        char *nl = memchr(line, '\n', size - at);
        size_t line_len = nl ? (size_t)(nl - line) : size - at;
        line[line_len] = '\0';
        at += line_len + 1;
        line[strcspn(line, "\r")] = '\0'; /* and a NUL ends it, as in protocol_run */

        char word[16];
        first_word(line, word, sizeof word);
        if (strcmp(word, "bench") == 0)
            continue;
        searched |= strcmp(word, "go") == 0 || strcmp(word, "perft") == 0;
        Snapshot before;
        snapshot(&before);
        out_rewind();
        go_on = protocol_line(line);
        out_sync();
        if (check_replies(line, out_buf, out_len, &before) && go_on)
            check_query_fen();
    }
    free(text);
    protocol_shutdown();
    return 0;
}
