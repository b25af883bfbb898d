/* fuzz_openings.c - libFuzzer target: sigil-match's opening book reader.
 *
 * Input: byte 0 picks the game; byte 1 the format (bits 0-1: auto, FEN, EPD,
 * PGN), the order (bit 2: random) and plies=N for PGN books (bits 3-7:
 * N - 1, 0 meaning all moves); byte 2 start=N (1 + byte mod 4); the rest is
 * the book file.
 *   - a refused book comes with a reason;
 *   - an accepted book has an entry at least, its order is a permutation of
 *     the entries, and every opening number k (the first ones and one past
 *     the end) sets up a game that is not over, from a start position whose
 *     FEN parses back to it, with one recorded move for each ply played and
 *     the variant's own start flagged as such;
 *   - reading the same book twice gives the same fingerprint;
 *   - releasing it frees everything (LeakSanitizer). */
#define _GNU_SOURCE /* memfd_create */
#include <fcntl.h>
#include <unistd.h>

#include "fuzz.h"
#include "memfile.h"
#include "game.h"
#include "openings.h"
#include "variants.h"

/* The book file: one per process, rewritten for every input. */
static FuzzMemFile book = FUZZ_MEMFILE_INIT;

static bool load(Openings *o, const uint8_t *flags, const Variant *v, const GameConfig *gc,
                 char *err, size_t errlen)
{
    openings_init(o);
    snprintf(o->path, sizeof o->path, "%s", book.path);
    o->format = (OpeningFormat)(flags[0] & 3);
    o->order_random = flags[0] & 4;
    o->plies = (flags[0] >> 3) ? (flags[0] >> 3) - 1 : -1;
    o->start = 1 + flags[1] % 4;
    memset(err, 'x', errlen);
    return openings_load(o, v, gc, 12345, err, errlen);
}

FUZZ_DEFAULTS("fen.dict", NULL)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    variants_init();
    if (size < 3)
        return 0;
    const Variant *v = variants_get(data[0] % variants_count());
    GameConfig gc = {.move_limit = DEFAULT_MOVE_LIMIT};
    fuzz_memfile_write(&book, "sigil-fuzz-book", data + 3, size - 3);

    Openings o;
    char err[1400];
    bool ok = load(&o, data + 1, v, &gc, err, sizeof err);
    if (!ok) {
        FUZZ_CHECK(memchr(err, '\0', sizeof err) && err[0], "a book refused without a reason");
        openings_free(&o);
        return 0;
    }
    FUZZ_CHECK(o.count >= 1 && o.start >= 1 && o.start <= o.count, "%d entries, start %d",
               o.count, o.start);
    bool *seen = calloc((size_t)o.count, sizeof *seen);
    FUZZ_CHECK(seen != NULL, "out of memory");
    for (int i = 0; i < o.count; i++) {
        FUZZ_CHECK(o.order[i] >= 0 && o.order[i] < o.count && !seen[o.order[i]],
                   "the order is not a permutation at %d", i);
        seen[o.order[i]] = true;
    }
    free(seen);

    char startpos_fen[FEN_MAX];
    Game fresh;
    memset(&fresh, 0, sizeof fresh);
    game_init(&fresh, v, &gc);
    v->to_fen(&fresh.pos, startpos_fen);
    game_free(&fresh);
    int tries[] = {0, 1, 2, o.count, 1000003};
    for (size_t t = 0; t < sizeof tries / sizeof *tries; t++) {
        Game g;
        memset(&g, 0, sizeof g);
        game_init(&g, v, &gc);
        char start_fen[FEN_MAX], err2[160];
        bool startpos = false;
        RecordMoveList moves = {NULL, 0, 0};
        openings_setup(&o, tries[t], 12345, &g, start_fen, &startpos, &moves);
        FUZZ_CHECK(game_result(&g, NULL, NULL) == RESULT_NONE, "opening %d ends the game",
                   tries[t]);
        FUZZ_CHECK(g.ply == moves.n, "opening %d: %d plies, %d recorded", tries[t], g.ply,
                   moves.n);
        for (int i = 0; i < moves.n; i++)
            FUZZ_CHECK(moves.m[i].text[0], "opening %d: move %d has no text", tries[t], i);
        Position p;
        FUZZ_CHECK(v->from_fen(&p, start_fen, &gc, err2, sizeof err2),
                   "opening %d: start '%s' does not parse: %s", tries[t], start_fen, err2);
        FUZZ_CHECK(!startpos || strcmp(start_fen, startpos_fen) == 0,
                   "opening %d: '%s' flagged as the start position", tries[t], start_fen);
        free(moves.m);
        game_free(&g);
    }
    uint64_t print = openings_fingerprint(&o);
    openings_free(&o);

    FUZZ_CHECK(load(&o, data + 1, v, &gc, err, sizeof err), "the same book refused: %.200s",
               err);
    FUZZ_CHECK(openings_fingerprint(&o) == print, "the same book, another fingerprint");
    openings_free(&o);
    return 0;
}
