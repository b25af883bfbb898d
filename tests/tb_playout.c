/* tb_playout.c - the engine against perfect play inside the endgame tables.
 *
 *   tests/tb_playout DIR VARIANT PIECES WINS DRAWS [SEED] [NODES]
 *
 * samples positions uniformly from the tables of up to PIECES pieces in DIR,
 * and plays each out with the engine (SIGIL_BIN, `go nodes NODES`, default
 * 2000) against a perfect opponent chosen from the tables: WINS won positions
 * against the slowest defence, each of which must be won in exactly the
 * table's distance, and DRAWS drawn positions against an attacker that keeps
 * its winning chances (every move keeping the draw, the one that leaves the
 * engine most ways to lose), 60 plies each, that must never be lost.  Every
 * engine move must keep the value exactly.  Prints counts and exits 1 on the
 * first failure.  Used by `make tablebase-playout`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/solomon_tb.h"
#include "pipe_engine.h"
#include "util.h"
#include "variants.h"

static PipeEngine engine;
static const Variant *variant;
static SolomonTables *tables;
static unsigned long nodes = 2000;

static void fail(const char *fmt, const char *a, const char *b)
{
    printf("FAIL: ");
    printf(fmt, a, b);
    printf("\n");
    exit(1);
}

static void wait_ready(void)
{
    pipe_engine_send(&engine, "isready");
    if (!pipe_engine_expect(&engine, "readyok", 60000, NULL, 0))
        fail("no readyok%s%s", "", "");
}

static bool probe(const Position *p, TbValue *v) { return solomon_tb_probe(tables, p, v); }

/* The value of a move for its mover. */
static TbValue move_value(const Position *p, Move m)
{
    Position c;
    TbValue cv;
    variant->make(p, m, &c);
    if (!probe(&c, &cv))
        fail("child outside the tables%s%s", "", "");
    return (TbValue){(TbWdl)-cv.wdl, cv.wdl == TB_DRAW ? 0 : cv.plies + 1};
}

/* Replies of the mover's opponent after m that lose for that opponent. */
static int losing_replies(const Position *p, Move m)
{
    Position c;
    variant->make(p, m, &c);
    Move moves[MAX_MOVES];
    int n = variant->generate(&c, moves), losing = 0;
    for (int i = 0; i < n; i++)
        losing += move_value(&c, moves[i]).wdl == TB_LOSS;
    return losing;
}

static Move perfect_move(const Position *p)
{
    Move moves[MAX_MOVES], best = MOVE_NONE;
    TbValue best_value = {TB_LOSS, -1};
    int best_losing = -1;
    int n = variant->generate(p, moves);
    for (int i = 0; i < n; i++) {
        TbValue v = move_value(p, moves[i]);
        int losing = v.wdl == TB_DRAW ? losing_replies(p, moves[i]) : 0;
        if (best == MOVE_NONE || tablebase_better(v, best_value) ||
            (v.wdl == TB_DRAW && best_value.wdl == TB_DRAW && losing > best_losing)) {
            best = moves[i];
            best_value = v;
            best_losing = losing;
        }
    }
    return best;
}

/* Play fen out; returns the plies played (the game's end or max_plies). */
static int play_out(const char *fen, int max_plies)
{
    Position p;
    char err[128], moves[8192] = "", cmd[9000], text[MOVE_STR_MAX];
    GameConfig cfg = {DEFAULT_MOVE_LIMIT};
    if (!variant->from_fen(&p, fen, &cfg, err, sizeof err))
        fail("bad FEN %s: %s", fen, err);
    uint64_t keys[1024];
    int ply = 0;
    for (; ply < max_plies && variant->result(&p, NULL, NULL) == RESULT_NONE; ply++) {
        int repeats = 0;
        keys[ply] = variant->key(&p);
        for (int i = 0; i < ply; i++)
            repeats += keys[i] == keys[ply];
        if (repeats >= 2)
            break; /* threefold repetition: drawn */
        TbValue before, after;
        probe(&p, &before);
        Move m;
        if (ply % 2 == 0) {
            snprintf(cmd, sizeof cmd, "position fen %s%s%s", fen, *moves ? " moves" : "", moves);
            pipe_engine_send(&engine, cmd);
            snprintf(cmd, sizeof cmd, "go nodes %lu", nodes);
            pipe_engine_send(&engine, cmd);
            const char *r = pipe_engine_expect(&engine, "bestmove ", 60000, NULL, 0);
            if (!r || sscanf(r, "bestmove %63s", text) != 1)
                fail("no bestmove for %s%s", fen, moves);
            m = variant->parse_move(&p, text);
            if (m == MOVE_NONE)
                fail("illegal engine move %s in %s", text, fen);
        } else {
            m = perfect_move(&p);
            variant->move_str(&p, m, text);
        }
        Position c;
        variant->make(&p, m, &c);
        probe(&c, &after);
        if (after.wdl != (TbWdl)-before.wdl ||
            (before.wdl != TB_DRAW && after.plies != before.plies - 1)) {
            snprintf(cmd, sizeof cmd, "%s moves%s then %s", fen, moves, text);
            fail("the value changed: %s%s", cmd, "");
        }
        size_t len = strlen(moves);
        snprintf(moves + len, sizeof moves - len, " %s", text);
        p = c;
    }
    return ply;
}

int main(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr, "usage: tb_playout DIR VARIANT PIECES WINS DRAWS [SEED] [NODES]\n");
        return 2;
    }
    const char *dir = argv[1];
    int pieces = atoi(argv[3]), want_wins = atoi(argv[4]), want_draws = atoi(argv[5]);
    uint64_t rng = argc > 6 ? strtoull(argv[6], NULL, 10) : 1;
    if (argc > 7)
        nodes = strtoul(argv[7], NULL, 10);
    variants_init();
    variant = variants_find(argv[2]);
    char err[4200];
    if (!variant || !(tables = solomon_tb_new(variant)) ||
        solomon_tb_load(tables, dir, pieces, err, sizeof err) <= 0) {
        fprintf(stderr, "tb_playout: no tables for %s in %s\n", argv[2], dir);
        return 2;
    }
    if (!pipe_engine_start(&engine, pipe_engine_sigil()))
        return 2;
    char cmd[4400];
    snprintf(cmd, sizeof cmd, "variant %s", variant->name);
    pipe_engine_send(&engine, cmd);
    snprintf(cmd, sizeof cmd, "setoption name TablebasePath value %s", dir);
    pipe_engine_send(&engine, cmd);
    snprintf(cmd, sizeof cmd, "setoption name TablebasePieces value %d", pieces);
    pipe_engine_send(&engine, cmd);
    wait_ready();
    /* sample an index uniformly over every table of up to `pieces` pieces */
    uint64_t total = 0;
    SolomonMaterial m = {-1, -1, -1, -1};
    while (solomon_tb_material_next(&m, pieces))
        total += solomon_tb_material_size(m);
    int wins = 0, draws = 0, longest = 0;
    long plies = 0;
    while (wins < want_wins || draws < want_draws) {
        uint64_t r = util_random_below(&rng, total);
        m = (SolomonMaterial){-1, -1, -1, -1};
        while (solomon_tb_material_next(&m, pieces) && r >= solomon_tb_material_size(m))
            r -= solomon_tb_material_size(m);
        Position p;
        TbValue v;
        if (!solomon_tb_position_at(tables, m, r, &p) || !solomon_tb_value_at(tables, m, r, &v) ||
            variant->result(&p, NULL, NULL) != RESULT_NONE)
            continue;
        char fen[FEN_MAX];
        variant->to_fen(&p, fen);
        if (v.wdl == TB_WIN && wins < want_wins) {
            int n = play_out(fen, 1000);
            if (n != v.plies) {
                snprintf(cmd, sizeof cmd, "won in %d plies, the table says %d", n, v.plies);
                fail("%s: %s", fen, cmd);
            }
            wins++;
            plies += n;
            longest = v.plies > longest ? v.plies : longest;
        } else if (v.wdl == TB_DRAW && draws < want_draws) {
            plies += play_out(fen, 60);
            draws++;
        }
    }
    printf("%s up to %d pieces, go nodes %lu: %d won positions won in exactly the table's "
           "distance (longest %d plies), %d drawn positions held, %ld plies played\n",
           variant->name, pieces, nodes, wins, longest, draws, plies);
    pipe_engine_send(&engine, "quit");
    pipe_engine_close(&engine);
    solomon_tb_free(tables);
    return 0;
}
