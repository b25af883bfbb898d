/* solomon_tb.h - exact endgame tables for `solomon` and `solomon-chain`.
 *
 * One table per material (the pieces of the side to move against the other
 * side's, men and kings counted apart) holds, for every placement with that
 * side to move, the distance to the end of the game in plies with best play,
 * from which win/draw/loss follows.  Tables are built by retrograde analysis
 * over the engine's own move generator and result(), written one file per
 * material, and loaded with a checksum check.  See doc/tablebases.md.
 */
#ifndef SIGIL_SOLOMON_TB_H
#define SIGIL_SOLOMON_TB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../tablebase.h"
#include "../variant.h"

/* Most pieces of one side (the rules' limit) and of a table. */
enum { SOLOMON_TB_SIDE_MAX = 6, SOLOMON_TB_PIECES_MAX = 8 };
/* Room enough for every pair one pair's moves can lead to. */
enum { SOLOMON_TB_NEEDS_MAX = 256, SOLOMON_TB_PAIRS_MAX = 2401 };

/* A material: pieces of the side to move ("us") and of the other side. */
typedef struct SolomonMaterial {
    int our_men, our_kings, their_men, their_kings;
} SolomonMaterial;

/* The tables of one rule set held in memory (some materials may be absent). */
typedef struct SolomonTables SolomonTables;

/* The Solomon tables behind the game-independent interface (both variants
 * point Variant.tablebase here). */
extern const TablebaseOps solomon_tablebase_ops;

/* An empty set of tables for the rule set of variant v (solomon or
 * solomon-chain); NULL when v is not a Solomon variant. */
SolomonTables *solomon_tb_new(const Variant *v);
/* Release the tables. */
void solomon_tb_free(SolomonTables *tb);

/* Build every missing table of up to max_pieces pieces (by retrograde
 * analysis), using threads threads.  With dir non-NULL each table is first
 * loaded from dir if its file is there and valid, and each built table is
 * written there.  Progress lines go to log (may be NULL).  Returns false and
 * writes err on failure (out of memory, a file that cannot be written). */
bool solomon_tb_build(SolomonTables *tb, int max_pieces, int threads,
                      const char *dir, FILE *log, char *err, size_t errlen);

/* Build the tables of one pair (material m and its colour swap) into the
 * folder dir, one job of a build spread over many machines: the tables its
 * moves lead to (solomon_tb_pair_needs) are read from dir and must be there;
 * valid tables of the pair already there are kept.  Each table is written
 * to a temporary file and renamed, so readers never see half a table.
 * False with err set otherwise (a table it needs is missing or damaged, a
 * FIFO or device by a table's name, a file that cannot be written). */
bool solomon_tb_build_pair(SolomonTables *tb, SolomonMaterial m, int threads, const char *dir,
                           FILE *log, char *err, size_t errlen);

/* The name of m's pair: of m and its colour swap, the one the builder
 * builds first (both are built and written together). */
SolomonMaterial solomon_tb_pair_of(SolomonMaterial m);

/* The pairs (each by solomon_tb_pair_of) whose tables building m's pair
 * reads: every material a move of either side can lead to, a capture (of
 * one piece with single jumps, of any number of them in solomon-chain) and
 * the crowning of the mover's man, alone or together; a few may not occur.
 * Each has fewer pieces, or as many with fewer men, so the order is a DAG.
 * Writes at most max of them; returns how many there are. */
int solomon_tb_pair_needs(const Variant *v, SolomonMaterial m, SolomonMaterial *needs,
                          int max);

/* The pairs of up to max_pieces pieces (each by solomon_tb_pair_of) in the
 * order the builder builds them (fewer pieces first, then fewer men); at
 * most max are written, the number of pairs is returned. */
int solomon_tb_pairs(int max_pieces, SolomonMaterial *pairs, int max);

/* Parse a material's name (solomon_tb_material_name, e.g. "KMvKK"); false
 * when it is not one with a table. */
bool solomon_tb_material_parse(const char *name, SolomonMaterial *m);

/* Load every table of up to max_pieces pieces found in dir.  Only regular
 * files are read (opened without blocking, so a FIFO or a device by a
 * table's name is skipped and never blocks).  A file that cannot be read, a
 * file whose header (magic, version, rule set, material, size, reserved
 * bytes), length, checksum or entries are wrong, a FIFO or device, and a
 * table missing among those of as many pieces as the largest found, are
 * not loaded and are named with the reason in err (the first three, then
 * "(and N more)"); the others are still loaded.  Returns the number of
 * tables loaded, or -1 when something was named in err (also when the
 * folder itself cannot be used). */
int solomon_tb_load(SolomonTables *tb, const char *dir, int max_pieces, char *err,
                    size_t errlen);

/* The value of pos from the tables: false when its material is not loaded.
 * A position whose side to move has no piece is a loss in 0 plies. */
bool solomon_tb_probe(const SolomonTables *tb, const Position *pos, TbValue *value);

/* Largest number of pieces n such that every material of up to n pieces is
 * loaded (0 when none). */
int solomon_tb_complete_pieces(const SolomonTables *tb);

/* Number of positions (indices) of a material's table. */
uint64_t solomon_tb_material_size(SolomonMaterial m);
/* Name of a material, e.g. "KKvK" (kings first, then men, "v", the other
 * side); buf has room for 20 bytes. */
void solomon_tb_material_name(SolomonMaterial m, char *buf);
/* File name of a table of variant v: "<variant>_<material>.stb". */
void solomon_tb_file_name(const Variant *v, SolomonMaterial m, char *buf,
                          size_t size);

/* Position of a material's table at index i (side to move White, as every
 * table is stored); false when the index holds no legal placement (a man on
 * the point where it would have been crowned). */
bool solomon_tb_position_at(const SolomonTables *tb, SolomonMaterial m,
                            uint64_t index, Position *pos);
/* The stored value at index i of a loaded material (false when absent). */
bool solomon_tb_value_at(const SolomonTables *tb, SolomonMaterial m,
                         uint64_t index, TbValue *value);

/* The induction check of one loaded table: for every position, as stored
 * (White to move) and turned half round with the colours swapped (Black to
 * move), the value that the engine's result(), generate() and make() and the
 * tables' values of the children give must equal the stored one.  Returns
 * the number of mismatches (0 for a correct table, or when absent); *checked
 * (may be NULL) gets the number of positions checked, fen_of_wrong (room for
 * FEN_MAX, may be NULL) the FEN of a wrong one. */
uint64_t solomon_tb_verify(const SolomonTables *tb, SolomonMaterial m, int threads,
                           uint64_t *checked, char *fen_of_wrong, size_t fenlen);

/* What a table holds, over its legal positions. */
typedef struct SolomonTbStats {
    uint64_t positions, wins, draws, losses;
    int longest_win, longest_loss; /* plies */
} SolomonTbStats;

/* Count the values of a loaded table; false when it is absent. */
bool solomon_tb_stats(const SolomonTables *tb, SolomonMaterial m, SolomonTbStats *stats);

/* Step *m to the next material with a table of up to max_pieces pieces;
 * start from {-1,...}; false after the last one. */
bool solomon_tb_material_next(SolomonMaterial *m, int max_pieces);

#endif
