/* fuzz_fen.c - libFuzzer target: every game's FEN parser.
 *
 * Input: byte 0 picks the game (modulo the number of games), byte 1 the rules
 * setting MoveLimit (1..256), the rest is the FEN text (up to a NUL byte).
 * A rejected FEN must come with a one-line printable reason; an accepted one
 * must satisfy the whole Variant contract (invariants.c), its first children
 * included. */
#include "fuzz.h"
#include "invariants.h"
#include "variants.h"

FUZZ_DEFAULTS("fen.dict", NULL)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    variants_init();
    if (size < 2)
        return 0;
    const Variant *v = variants_get(data[0] % variants_count());
    GameConfig cfg = {.move_limit = 1 + data[1]};
    char *fen = fuzz_strndup(data + 2, size - 2);

    Position pos;
    char err[256];
    memset(&pos, 0xa5, sizeof pos);
    memset(err, 'x', sizeof err);
    if (v->from_fen(&pos, fen, &cfg, err, sizeof err)) {
        fuzz_check_position(v, &pos, &cfg, 4);
    } else {
        FUZZ_CHECK(memchr(err, '\0', sizeof err) != NULL, "%s: error text not terminated",
                   v->name);
        FUZZ_CHECK(err[0] && fuzz_is_one_printable_line(err, sizeof err - 1),
                   "%s: rejected FEN with reason '%.200s'", v->name, err);
    }
    free(fen);
    return 0;
}
