/* fuzz_move.c - libFuzzer target: every game's move parser, through the Game
 * API the protocol and sigil-match use.
 *
 * Input: byte 0 picks the game, byte 1 a number of plies (0..63) to play from
 * the start, one byte each choosing the move (modulo the legal count); the
 * rest is move text, tried whole and token by token.
 *   - parse_move gives MOVE_NONE or one of generate()'s moves, whose own
 *     text parses back to it, and never writes to the position;
 *   - game_play_text either plays exactly that move (one ply more, the
 *     key history extended) or refuses with a reason and leaves the game
 *     exactly as it was;
 *   - game_undo of what was played restores the FEN and key. */
#include "fuzz.h"
#include "game.h"
#include "invariants.h"
#include "util.h"
#include "variants.h"

static bool is_generated(const Variant *v, const Position *pos, Move m)
{
    Move moves[MAX_MOVES];
    int n = v->generate(pos, moves);
    for (int i = 0; i < n; i++)
        if (moves[i] == m)
            return true;
    return false;
}

static void try_text(Game *g, const char *text)
{
    const Variant *v = g->variant;
    Position before = g->pos;
    Move m = v->parse_move(&g->pos, text);
    FUZZ_CHECK(memcmp(&before, &g->pos, sizeof before) == 0, "%s: parse_move wrote to the position",
               v->name);
    if (m != MOVE_NONE) {
        FUZZ_CHECK(is_generated(v, &g->pos, m), "%s: '%.80s' parsed to a move generate() lacks",
                   v->name, text);
        char name[MOVE_STR_MAX];
        v->move_str(&g->pos, m, name);
        FUZZ_CHECK(v->parse_move(&g->pos, name) == m, "%s: '%s' (from '%.80s') parses elsewhere",
                   v->name, name, text);
    }

    char fen_before[FEN_MAX], fen_after[FEN_MAX], err[256];
    v->to_fen(&g->pos, fen_before);
    uint64_t key_before = v->key(&g->pos);
    int ply_before = g->ply;
    memset(err, 'x', sizeof err);
    bool played = game_play_text(g, text, err, sizeof err);
    v->to_fen(&g->pos, fen_after);
    if (!played) {
        /* The reason may quote the text raw: the protocol makes it printable. */
        FUZZ_CHECK(err[0] && memchr(err, '\0', sizeof err), "%s: refused '%.80s' without a reason",
                   v->name, text);
        FUZZ_CHECK(g->ply == ply_before && strcmp(fen_before, fen_after) == 0 &&
                       v->key(&g->pos) == key_before,
                   "%s: a refused move '%.80s' changed the game", v->name, text);
        return;
    }
    FUZZ_CHECK(m != MOVE_NONE, "%s: game_play_text played '%.80s', parse_move refused it",
               v->name, text);
    FUZZ_CHECK(g->ply == ply_before + 1 && g->moves[ply_before] == m &&
                   g->keys[ply_before] == key_before && g->keys[g->ply] == v->key(&g->pos),
               "%s: '%.80s' was not recorded as one ply", v->name, text);
    game_undo(g, 1);
    v->to_fen(&g->pos, fen_after);
    FUZZ_CHECK(g->ply == ply_before && strcmp(fen_before, fen_after) == 0 &&
                   v->key(&g->pos) == key_before,
               "%s: undo after '%.80s' did not restore '%s'", v->name, text, fen_before);
}

FUZZ_DEFAULTS("fen.dict", NULL)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    variants_init();
    if (size < 2)
        return 0;
    const Variant *v = variants_get(data[0] % variants_count());
    GameConfig cfg = {.move_limit = DEFAULT_MOVE_LIMIT};
    Game g;
    memset(&g, 0, sizeof g);
    game_init(&g, v, &cfg);
    size_t plies = data[1] % 64, at = 2;
    for (size_t i = 0; i < plies && at < size; i++, at++) {
        Move moves[MAX_MOVES];
        int n = v->generate(&g.pos, moves);
        if (n == 0 || game_result(&g, NULL, NULL) != RESULT_NONE)
            break;
        game_play(&g, moves[data[at] % n]);
    }
    fuzz_check_position(v, &g.pos, &cfg, 0);

    char *text = fuzz_strndup(data + at, size - at);
    try_text(&g, text);
    char tok[MOVE_STR_MAX * 2];
    const char *cur = text;
    while (util_next_token(&cur, tok, sizeof tok) > 0)
        try_text(&g, tok);
    free(text);
    game_free(&g);
    return 0;
}
