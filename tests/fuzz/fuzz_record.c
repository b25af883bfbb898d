/* fuzz_record.c - libFuzzer target: sigil-match's game records (PGN), as
 * -replay and PGN opening books read them.
 *
 * Input: a PGN file.
 *   - record_read_pgn visits records whose fields are NUL-terminated inside
 *     their buffers; record_next_move walks each movetext in fewer steps than
 *     it has bytes, giving non-empty tokens that fit;
 *   - record_replay_file (the -replay command) reports at most as many
 *     failures as records, in one line per record, "#N VARIANT ...";
 *   - every record of a known game replays through the rules as far as its
 *     moves are legal; that game, written with record_write (full and
 *     minimal) and read back, gives the same variant, start FEN, result and
 *     moves. */
#define _GNU_SOURCE /* memfd_create */
#include <unistd.h>

#include "fuzz.h"
#include "memfile.h"
#include "game.h"
#include "record.h"
#include "variants.h"

#define OUT_SIZE (4u << 20)
#define MAX_RECORD_MOVES 4096

/* The record file: one per process, rewritten for every input. */
static FuzzMemFile pgn = FUZZ_MEMFILE_INIT;

static void check_terminated(const char *field, size_t size, const char *what)
{
    FUZZ_CHECK(memchr(field, '\0', size) != NULL, "[%s] is not NUL-terminated", what);
}

/* The moves of a movetext (at most max), as record_next_move gives them. */
static int movetext_moves(const char *movetext, char (*moves)[MOVE_STR_MAX * 4], int max)
{
    const char *c = movetext;
    size_t len = strlen(movetext);
    int n = 0;
    size_t steps = 0;
    char tok[MOVE_STR_MAX * 4];
    while (record_next_move(&c, tok, sizeof tok)) {
        FUZZ_CHECK(++steps <= len, "record_next_move does not advance");
        FUZZ_CHECK(tok[0] && memchr(tok, '\0', sizeof tok), "an empty or unterminated move token");
        if (n < max)
            memcpy(moves[n], tok, sizeof tok);
        n++;
    }
    return n;
}

typedef struct Written {
    const char *variant, *fen, *result;
    int nmoves;
    RecordMove *moves;
    bool checked;
} Written;

static bool check_written(const PgnGame *p, void *ctx)
{
    Written *w = ctx;
    FUZZ_CHECK(!w->checked, "one record written, two read");
    w->checked = true;
    FUZZ_CHECK(!strcmp(p->variant, w->variant) && !strcmp(p->fen, w->fen) &&
                   !strcmp(p->result, w->result),
               "written [Variant %s] [FEN %s] [Result %s], read %s %s %s", w->variant, w->fen,
               w->result, p->variant, p->fen, p->result);
    static char moves[MAX_RECORD_MOVES][MOVE_STR_MAX * 4];
    int n = movetext_moves(p->movetext, moves, MAX_RECORD_MOVES);
    FUZZ_CHECK(n == w->nmoves, "%d moves written, %d read", w->nmoves, n);
    for (int i = 0; i < n; i++)
        FUZZ_CHECK(!strcmp(moves[i], w->moves[i].text), "move %d written '%s', read '%s'", i + 1,
                   w->moves[i].text, moves[i]);
    return true;
}

/* Replay p as far as its moves go, write the game, read it back. */
static void round_trip(const PgnGame *p)
{
    const Variant *v = variants_find(p->variant);
    if (!v)
        return;
    GameConfig cfg = {p->move_limit > 0 ? p->move_limit : DEFAULT_MOVE_LIMIT};
    Game g;
    memset(&g, 0, sizeof g);
    game_init(&g, v, &cfg);
    char err[160];
    if (p->fen[0] && !game_set_fen(&g, p->fen, err, sizeof err)) {
        game_free(&g);
        return;
    }
    static RecordMove moves[MAX_RECORD_MOVES];
    int n = 0;
    const char *c = p->movetext;
    char tok[256];
    while (n < MAX_RECORD_MOVES && record_next_move(&c, tok, sizeof tok)) {
        Move m = v->parse_move(&g.pos, tok);
        if (m == MOVE_NONE || game_result(&g, NULL, NULL) != RESULT_NONE)
            break;
        RecordMove *rm = &moves[n++];
        memset(rm, 0, sizeof *rm);
        rm->side = v->side_to_move(&g.pos);
        rm->is_roll = v->is_chance && v->is_chance(&g.pos);
        v->move_str(&g.pos, m, rm->text);
        game_play(&g, m);
    }
    Record r;
    memset(&r, 0, sizeof r);
    snprintf(r.event, sizeof r.event, "fuzz");
    snprintf(r.round, sizeof r.round, "1.1");
    snprintf(r.white, sizeof r.white, "a");
    snprintf(r.black, sizeof r.black, "b");
    snprintf(r.variant, sizeof r.variant, "%s", v->name);
    v->to_fen(&g.start, r.fen);
    snprintf(r.white_tc, sizeof r.white_tc, "-");
    snprintf(r.black_tc, sizeof r.black_tc, "-");
    snprintf(r.result, sizeof r.result, "%s", record_result_token(game_result(&g, NULL, NULL)));
    r.move_limit = p->move_limit;
    r.nmoves = n;
    r.moves = moves;
    static char buf[OUT_SIZE];
    for (int min = 0; min < 2; min++) {
        FILE *f = fmemopen(buf, sizeof buf, "w");
        FUZZ_CHECK(f != NULL, "fmemopen failed");
        record_write(f, &r, min, false);
        long len = ftell(f);
        fclose(f);
        FUZZ_CHECK(len > 0 && (size_t)len < sizeof buf, "the record does not fit");
        f = fmemopen(buf, (size_t)len, "r");
        Written w = {r.variant, r.fen, r.result, n, moves, false};
        FUZZ_CHECK(record_read_pgn(f, check_written, &w) == 1 && w.checked,
                   "the record written is not read back");
        fclose(f);
    }
    game_free(&g);
}

static bool visit(const PgnGame *p, void *ctx)
{
    int *count = ctx;
    (*count)++;
    check_terminated(p->variant, sizeof p->variant, "Variant");
    check_terminated(p->fen, sizeof p->fen, "FEN");
    check_terminated(p->result, sizeof p->result, "Result");
    check_terminated(p->termination, sizeof p->termination, "Termination");
    FUZZ_CHECK(p->movetext != NULL, "a record without movetext");
    static char moves[8][MOVE_STR_MAX * 4];
    movetext_moves(p->movetext, moves, 8);
    round_trip(p);
    return true;
}

FUZZ_DEFAULTS("record.dict", NULL)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    variants_init();
    FILE *f = fmemopen((void *)data, size, "r");
    if (!f)
        return 0; /* fmemopen refuses an empty buffer */
    int visited = 0;
    int n = record_read_pgn(f, visit, &visited);
    fclose(f);
    FUZZ_CHECK(n == visited, "record_read_pgn says %d records, visited %d", n, visited);

    const char *pgn_path = fuzz_memfile_write(&pgn, "sigil-fuzz-pgn", data, size);
    static char out[OUT_SIZE];
    FILE *o = fmemopen(out, sizeof out, "w");
    FUZZ_CHECK(o != NULL, "fmemopen failed");
    int count = -1;
    int failed = record_replay_file(pgn_path, o, &count);
    long len = ftell(o);
    fclose(o);
    FUZZ_CHECK(failed >= 0 && count == n && failed <= count,
               "replay: %d failed of %d records (%d read)", failed, count, n);
    FUZZ_CHECK(len >= 0 && (size_t)len < sizeof out, "replay output overflows");
    out[len] = '\0';
    int lines = 0;
    for (char *p = out; *p; lines++) {
        char head[32];
        snprintf(head, sizeof head, "#%d ", lines + 1);
        FUZZ_CHECK(strncmp(p, head, strlen(head)) == 0, "replay line %d: '%.80s'", lines + 1, p);
        char *nl = strchr(p, '\n');
        FUZZ_CHECK(nl != NULL, "replay line %d is not whole", lines + 1);
        p = nl + 1;
    }
    FUZZ_CHECK(lines == count, "%d replay lines for %d records", lines, count);
    return 0;
}
