/* solomon_tbgen.c - `sigil-tbgen`: build (and check) the Solomon endgame tables.
 *
 *   sigil-tbgen [--variant NAME] [--pieces N] [--threads T] [--dir DIR]
 *               [--verify] [--stats] [--quiet]
 *   sigil-tbgen --probe [--variant NAME] [--pieces N] [--dir DIR]
 *   sigil-tbgen --prove FEN --side white|black [--nodes N] [--out FILE]
 *               [--variant NAME] [--pieces N] [--dir DIR]
 *   sigil-tbgen --check-proof FILE [--variant NAME] [--pieces N] [--dir DIR]
 *   sigil-tbgen --list-materials [--variant NAME] [--pieces N]
 *   sigil-tbgen --material NAME [--variant NAME] [--threads T] [--dir DIR]
 *   sigil-tbgen --book [--root FEN] [--nodes N] [build options]
 *
 * builds every table of up to N pieces (default 4) of the variant (solomon,
 * solomon-chain or both, the default) into DIR (default "."), reusing the
 * valid tables already there, and with --verify checks each table by the
 * induction check of solomon_tb_verify; --stats prints, per table, how many
 * positions are won, drawn and lost and the longest distances.  --probe
 * loads the tables of up to N pieces from DIR and answers, for each FEN read
 * from stdin, one line: "win N", "loss N" (plies to the end), "draw",
 * "unknown" (not in the tables) or "error: ..." (a FEN the game rejects).
 * --prove searches (breadth first, at most N positions outside the tables,
 * default 1000000) for a certificate that the side does not lose from FEN
 * and writes it to FILE (default stdout); --check-proof checks one against the
 * rules and the tables (proof.h).  Both load the tables of DIR.
 * --list-materials prints one line per pair of tables (a material and its
 * colour swap, built together) in build order: the variant, the pair's
 * name, then the pairs it needs (doc/tablebases.md); --material builds that
 * one pair into DIR from the tables it needs there (a job of a cluster).
 * and writes it to FILE (default stdout); --check-proof checks every
 * certificate of FILE (a proof or a book) against the rules and the tables
 * (proof.h).  Both load the tables of DIR.  --book, after the tables, writes
 * each variant's proof book DIR/<variant>.book: the certificates that White
 * and that Black do not lose from FEN (default the start position), each
 * searched with at most N positions (default 20000000), rechecked once
 * written; a valid book already there is kept.
 * Exit status 0 when all went well.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../proof.h"
#include "../util.h"
#include "../variants.h"
#include "solomon_tb.h"

static int usage(void)
{
    fprintf(stderr, "usage: sigil-tbgen [--variant solomon|solomon-chain|both] "
                    "[--pieces N] [--threads T] [--dir DIR] [--verify] [--stats] "
                    "[--quiet]\n"
                    "       sigil-tbgen --probe --variant NAME [--pieces N] [--dir DIR] < fens\n"
                    "       sigil-tbgen --prove FEN --side white|black [--nodes N] [--out FILE] "
                    "[--variant NAME] [--pieces N] [--dir DIR]\n"
                    "       sigil-tbgen --check-proof FILE [--variant NAME] [--pieces N] "
                    "[--dir DIR]\n"
                    "       sigil-tbgen --list-materials [--variant NAME] [--pieces N]\n"
                    "       sigil-tbgen --material NAME [--variant NAME] [--threads T] "
                    "[--dir DIR] [--quiet]\n"
                    "       sigil-tbgen --book [--root FEN] [--nodes N] [--variant ...] "
                    "[--pieces N] [--threads T] [--dir DIR]\n");
    return 2;
}

/* The proof book of v in dir (after its tables): both sides' certificates
 * from root_fen (NULL: the start), written to a temporary file, renamed, and
 * checked again as the engine loads it. */
static bool build_book(const Variant *v, int pieces, const char *dir, const char *root_fen,
                       unsigned long long nodes)
{
    char err[4200] = "", path[4096], tmp[4200];
    snprintf(path, sizeof path, "%s/%s.book", dir, v->name);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    Tablebase *tb = v->tablebase->open(v, dir, pieces, err, sizeof err);
    if (!tb) {
        fprintf(stderr, "sigil-tbgen: %s: %s\n", v->name, err);
        return false;
    }
    Position root;
    GameConfig cfg = {DEFAULT_MOVE_LIMIT};
    bool ok = true;
    if (root_fen)
        ok = v->from_fen(&root, root_fen, &cfg, err, sizeof err);
    else
        v->startpos(&root, &cfg);
    char have[FEN_MAX] = "", fen[FEN_MAX], line[FEN_MAX + 16];
    v->to_fen(&root, fen);
    /* a valid book of the same root already there is kept */
    FILE *f = ok ? fopen(path, "r") : NULL;
    if (f) {
        for (int k = 0; k < 4 && fgets(line, sizeof line, f); k++)
            if (strncmp(line, "root ", 5) == 0)
                snprintf(have, sizeof have, "%.*s", (int)strcspn(line + 5, "\r\n"), line + 5);
        fclose(f);
    }
    ProofBook *book = ok && strcmp(have, fen) == 0
                          ? proof_book_load(v, tb, path, err, sizeof err)
                          : NULL;
    if (book) {
        printf("%s: book %s kept (%llu + %llu positions)\n", v->name, path,
               (unsigned long long)proof_book_entries(book, WHITE),
               (unsigned long long)proof_book_entries(book, BLACK));
        proof_book_free(book);
        v->tablebase->close(tb);
        return true;
    }
    FILE *out = ok ? fopen(tmp, "w") : NULL;
    if (ok && !out)
        snprintf(err, sizeof err, "cannot write %.1000s", tmp);
    ok = out != NULL;
    for (int side = WHITE; ok && side <= BLACK; side++) {
        uint64_t explored = 0;
        int64_t start = util_now_ms();
        int r = proof_search(v, tb, &root, side, nodes, out, &explored, err, sizeof err);
        if (r == 0)
            snprintf(err, sizeof err, "%s: not proved within %llu positions", 
                     side == WHITE ? "white" : "black", nodes);
        else if (r == 1)
            printf("%s: %s does not lose: proved after %llu positions, %lld ms\n", v->name,
                   side == WHITE ? "white" : "black", (unsigned long long)explored,
                   (long long)(util_now_ms() - start));
        ok = r == 1;
    }
    if (out && (fclose(out) != 0) && ok) {
        snprintf(err, sizeof err, "cannot write %.1000s", tmp);
        ok = false;
    }
    if (ok && rename(tmp, path) != 0) {
        snprintf(err, sizeof err, "cannot rename %.1000s", tmp);
        ok = false;
    }
    if (!ok)
        remove(tmp);
    int64_t start = util_now_ms();
    book = ok ? proof_book_load(v, tb, path, err, sizeof err) : NULL;
    if (book)
        printf("%s: book %s written and checked (%llu + %llu positions, %lld ms)\n", v->name,
               path, (unsigned long long)proof_book_entries(book, WHITE),
               (unsigned long long)proof_book_entries(book, BLACK),
               (long long)(util_now_ms() - start));
    else
        fprintf(stderr, "sigil-tbgen: %s: book: %s\n", v->name, err);
    proof_book_free(book);
    v->tablebase->close(tb);
    return book != NULL;
}

static bool run_variant(const Variant *v, int pieces, int threads, const char *dir,
                        bool verify, bool stats, bool quiet)
{
    SolomonTables *tb = solomon_tb_new(v);
    if (!tb) {
        fprintf(stderr, "sigil-tbgen: no tables for %s\n", v->name);
        return false;
    }
    char err[600];
    int64_t start = util_now_ms();
    bool ok = solomon_tb_build(tb, pieces, threads, dir, quiet ? NULL : stdout, err,
                               sizeof err);
    if (!ok)
        fprintf(stderr, "sigil-tbgen: %s: %s\n", v->name, err);
    else
        printf("%s: tables of up to %d pieces ready in %lld ms\n", v->name, pieces,
               (long long)(util_now_ms() - start));
    if (ok && stats) {
        SolomonMaterial m = {-1, -1, -1, -1};
        printf("%-16s %-10s %10s %10s %10s %10s %5s %5s\n", "variant", "table",
               "positions", "wins", "draws", "losses", "win", "loss");
        while (solomon_tb_material_next(&m, pieces)) {
            SolomonTbStats s;
            char name[20];
            solomon_tb_material_name(m, name);
            if (solomon_tb_stats(tb, m, &s))
                printf("%-16s %-10s %10llu %10llu %10llu %10llu %5d %5d\n", v->name, name,
                       (unsigned long long)s.positions, (unsigned long long)s.wins,
                       (unsigned long long)s.draws, (unsigned long long)s.losses,
                       s.longest_win, s.longest_loss);
        }
    }
    if (ok && verify) {
        SolomonMaterial m = {-1, -1, -1, -1};
        uint64_t total = 0, wrong = 0;
        start = util_now_ms();
        while (solomon_tb_material_next(&m, pieces)) {
            uint64_t checked;
            char fen[FEN_MAX];
            uint64_t bad = solomon_tb_verify(tb, m, threads, &checked, fen, sizeof fen);
            total += checked;
            wrong += bad;
            if (bad) {
                char name[20];
                solomon_tb_material_name(m, name);
                fprintf(stderr, "sigil-tbgen: %s %s: %llu wrong, e.g. %s\n", v->name, name,
                        (unsigned long long)bad, fen);
            }
        }
        printf("%s: verified %llu positions, %llu wrong, %lld ms\n", v->name,
               (unsigned long long)total, (unsigned long long)wrong,
               (long long)(util_now_ms() - start));
        ok = wrong == 0;
    }
    solomon_tb_free(tb);
    return ok;
}

static int probe_lines(const Variant *v, int pieces, const char *dir)
{
    SolomonTables *tb = solomon_tb_new(v);
    char err[4200];
    /* A file that cannot be used is named and skipped; the others answer
     * (status 1 at the end); no table at all is status 1 at once. */
    int loaded = tb ? solomon_tb_load(tb, dir, pieces, err, sizeof err) : -1;
    int status = loaded < 0 ? 1 : 0;
    if (loaded < 0)
        fprintf(stderr, "sigil-tbgen: %s\n", tb ? err : "no tables for this variant");
    if (loaded < 0 && (!tb || solomon_tb_complete_pieces(tb) == 0)) {
        solomon_tb_free(tb);
        return 1;
    }
    GameConfig cfg = {DEFAULT_MOVE_LIMIT};
    char line[1024];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        Position pos;
        TbValue value;
        if (!v->from_fen(&pos, line, &cfg, err, sizeof err))
            printf("error: %s\n", err);
        else if (!solomon_tb_probe(tb, &pos, &value))
            printf("unknown\n");
        else if (value.wdl == TB_DRAW)
            printf("draw\n");
        else
            printf("%s %d\n", value.wdl == TB_WIN ? "win" : "loss", value.plies);
    }
    solomon_tb_free(tb);
    return status;
}

/* --list-materials: "<variant> <pair> <needed pair>..." in build order. */
static void list_materials(const Variant *v, int pieces)
{
    static SolomonMaterial pairs[SOLOMON_TB_PAIRS_MAX];
    int n = solomon_tb_pairs(pieces, pairs, SOLOMON_TB_PAIRS_MAX);
    for (int i = 0; i < n && i < SOLOMON_TB_PAIRS_MAX; i++) {
        SolomonMaterial needs[SOLOMON_TB_NEEDS_MAX];
        int k = solomon_tb_pair_needs(v, pairs[i], needs, SOLOMON_TB_NEEDS_MAX);
        char name[20];
        solomon_tb_material_name(pairs[i], name);
        printf("%s %s", v->name, name);
        for (int j = 0; j < k && j < SOLOMON_TB_NEEDS_MAX; j++) {
            solomon_tb_material_name(needs[j], name);
            printf(" %s", name);
        }
        printf("\n");
    }
}

/* --material: build one pair into dir. */
static bool build_material(const Variant *v, const char *material, int threads,
                           const char *dir, bool quiet)
{
    SolomonMaterial m;
    char err[4400];
    SolomonTables *tb = solomon_tb_new(v);
    if (!solomon_tb_material_parse(material, &m)) {
        fprintf(stderr, "sigil-tbgen: %s: not a material with a table (e.g. KKvK, KMvKM)\n",
                material);
        solomon_tb_free(tb);
        return false;
    }
    int64_t start = util_now_ms();
    bool ok = tb && solomon_tb_build_pair(tb, m, threads, dir, quiet ? NULL : stdout, err,
                                          sizeof err);
    if (!ok)
        fprintf(stderr, "sigil-tbgen: %s %s: %s\n", v->name, material,
                tb ? err : "no tables for this variant");
    else
        printf("%s %s: ready in %lld ms\n", v->name, material,
               (long long)(util_now_ms() - start));
    solomon_tb_free(tb);
    return ok;
}

/* --prove and --check-proof: the tables of dir through the generic interface. */
static int run_proof(const Variant *v, int pieces, const char *dir, const char *prove_fen,
                     const char *side_name, unsigned long long nodes, const char *out_path,
                     const char *check_path)
{
    char err[4200] = "";
    Tablebase *tb = v->tablebase ? v->tablebase->open(v, dir, pieces, err, sizeof err) : NULL;
    if (err[0])
        fprintf(stderr, "sigil-tbgen: %s\n", err);
    int status = 1;
    if (check_path) {
        FILE *f = fopen(check_path, "r");
        uint64_t entries = 0;
        int certificates = 0;
        if (!f)
            fprintf(stderr, "sigil-tbgen: cannot read %s\n", check_path);
        else if (proof_check_file(f, v, tb, &certificates, &entries, err, sizeof err)) {
            if (certificates == 1)
                printf("proof valid: %llu positions\n", (unsigned long long)entries);
            else
                printf("proof valid: %d certificates, %llu positions\n", certificates,
                       (unsigned long long)entries);
            status = 0;
        } else
            printf("proof invalid: %s\n", err);
        if (f)
            fclose(f);
    } else {
        Position root;
        GameConfig cfg = {DEFAULT_MOVE_LIMIT};
        int side = side_name && strcmp(side_name, "black") == 0 ? BLACK : WHITE;
        FILE *out = out_path ? fopen(out_path, "w") : stdout;
        uint64_t explored = 0;
        if (!v->from_fen(&root, prove_fen, &cfg, err, sizeof err))
            fprintf(stderr, "sigil-tbgen: %s\n", err);
        else if (!out)
            fprintf(stderr, "sigil-tbgen: cannot write %s\n", out_path);
        else {
            int64_t start = util_now_ms();
            int r = proof_search(v, tb, &root, side, nodes, out, &explored, err, sizeof err);
            fprintf(out_path ? stdout : stderr, "%s: %s after %llu positions, %lld ms\n",
                    r == 1 ? "proved" : r == 0 ? "not proved" : "error",
                    r < 0 ? err : side == WHITE ? "white does not lose" : "black does not lose",
                    (unsigned long long)explored, (long long)(util_now_ms() - start));
            status = r == 1 ? 0 : r == 0 ? 3 : 1;
        }
        if (out && out != stdout)
            fclose(out);
    }
    if (tb)
        v->tablebase->close(tb);
    return status;
}

/* The command line. */
typedef struct Args {
    const char *variant, *dir;
    int pieces, threads;
    bool verify, stats, quiet, probe, book, nodes_given, list;
    const char *root_fen, *prove_fen, *side_name, *out_path, *check_path, *material;
    unsigned long long nodes;
} Args;

/* Reads argv into o; false on anything unknown or malformed. */
static bool parse_args(int argc, char **argv, Args *o)
{
    *o = (Args){.variant = "both", .dir = ".", .pieces = 4, .threads = 1, .nodes = 1000000};
    long long number;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        if (strcmp(a, "--variant") == 0 && has_value)
            o->variant = argv[++i];
        else if (strcmp(a, "--pieces") == 0 && has_value) {
            if (!util_parse_number(argv[++i], 2, SOLOMON_TB_PIECES_MAX, &number))
                return false;
            o->pieces = (int)number;
        } else if (strcmp(a, "--threads") == 0 && has_value) {
            if (!util_parse_number(argv[++i], 1, 64, &number))
                return false;
            o->threads = (int)number;
        } else if (strcmp(a, "--dir") == 0 && has_value)
            o->dir = argv[++i];
        else if (strcmp(a, "--verify") == 0)
            o->verify = true;
        else if (strcmp(a, "--prove") == 0 && has_value)
            o->prove_fen = argv[++i];
        else if (strcmp(a, "--side") == 0 && has_value)
            o->side_name = argv[++i];
        else if (strcmp(a, "--out") == 0 && has_value)
            o->out_path = argv[++i];
        else if (strcmp(a, "--check-proof") == 0 && has_value)
            o->check_path = argv[++i];
        else if (strcmp(a, "--nodes") == 0 && has_value) {
            if (!util_parse_number(argv[++i], 1, LLONG_MAX, &number))
                return false;
            o->nodes = (unsigned long long)number;
            o->nodes_given = true;
        } else if (strcmp(a, "--book") == 0)
            o->book = true;
        else if (strcmp(a, "--root") == 0 && has_value)
            o->root_fen = argv[++i];
        else if (strcmp(a, "--probe") == 0)
            o->probe = true;
        else if (strcmp(a, "--material") == 0 && has_value)
            o->material = argv[++i];
        else if (strcmp(a, "--list-materials") == 0)
            o->list = true;
        else if (strcmp(a, "--stats") == 0)
            o->stats = true;
        else if (strcmp(a, "--quiet") == 0)
            o->quiet = true;
        else
            return false;
    }
    return true;
}

/* --list-materials or --material: one pair per job. */
static int run_materials(const Args *o)
{
    bool both = strcmp(o->variant, "both") == 0;
    const Variant *vs[2] = {variants_find(both ? "solomon" : o->variant),
                            both ? variants_find("solomon-chain") : NULL};
    if (!vs[0] || !vs[0]->tablebase || (o->list && o->material))
        return usage();
    bool ok = true;
    for (int k = 0; k < 2 && ok; k++)
        if (vs[k]) {
            if (o->list)
                list_materials(vs[k], o->pieces);
            else
                ok = build_material(vs[k], o->material, o->threads, o->dir, o->quiet);
        }
    return ok ? 0 : 1;
}

/* Every table of up to o->pieces of the rule sets named, then their books. */
static int run_build(const Args *o)
{
    unsigned long long nodes = o->book && !o->nodes_given ? 20000000 : o->nodes;
    const char *names[2] = {o->variant, NULL};
    if (strcmp(o->variant, "both") == 0) {
        names[0] = "solomon";
        names[1] = "solomon-chain";
    }
    for (int k = 0; k < 2 && names[k]; k++)
        if (!variants_find(names[k]) || !variants_find(names[k])->tablebase)
            return usage();
    bool ok = true;
    for (int k = 0; ok && k < 2 && names[k]; k++) {
        const Variant *v = variants_find(names[k]);
        ok = run_variant(v, o->pieces, o->threads, o->dir, o->verify, o->stats, o->quiet) &&
             (!o->book || build_book(v, o->pieces, o->dir, o->root_fen, nodes));
    }
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    Args o;
    if (!parse_args(argc, argv, &o))
        return usage();
    variants_init();
    if (o.prove_fen || o.check_path) {
        const Variant *v = variants_find(strcmp(o.variant, "both") == 0 ? "solomon" : o.variant);
        if (!v || (o.side_name && strcmp(o.side_name, "white") && strcmp(o.side_name, "black")))
            return usage();
        return run_proof(v, o.pieces, o.dir, o.prove_fen, o.side_name, o.nodes, o.out_path,
                         o.check_path);
    }
    if (o.probe) {
        const Variant *v = variants_find(o.variant);
        if (!v)
            return usage();
        return probe_lines(v, o.pieces, o.dir);
    }
    if (o.list || o.material)
        return run_materials(&o);
    return run_build(&o);
}
