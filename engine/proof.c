/* proof.c - not-lose certificates: search and check (see proof.h). */
#include "proof.h"

#include <stdlib.h>
#include <string.h>

/* ---- positions by key ------------------------------------------------------- */

/* A set of positions (their game bytes) found by key, open addressing. */
typedef struct PosSet {
    size_t psize;      /* bytes of a position that matter (Variant.position_size) */
    uint32_t *slot;    /* index + 1, 0 empty */
    uint64_t mask;
    unsigned char *bytes;
    uint64_t *keys;
    uint32_t count, cap;
} PosSet;

static bool set_init(PosSet *s, size_t psize, uint32_t cap)
{
    memset(s, 0, sizeof *s);
    s->psize = psize;
    uint64_t slots = 1024;
    while (slots < 2 * (uint64_t)cap)
        slots *= 2;
    s->mask = slots - 1;
    s->cap = cap;
    s->slot = calloc(slots, sizeof *s->slot);
    s->bytes = malloc((size_t)cap * psize);
    s->keys = malloc((size_t)cap * sizeof *s->keys);
    return s->slot && s->bytes && s->keys;
}

static void set_free(PosSet *s)
{
    free(s->slot);
    free(s->bytes);
    free(s->keys);
}

/* Index of pos in the set; -1 when absent.  With add, an absent position is
 * added while there is room (-2 when full). */
static int64_t set_find(PosSet *s, const Variant *v, const Position *pos, bool add)
{
    uint64_t key = v->key(pos);
    for (uint64_t h = key & s->mask;; h = (h + 1) & s->mask) {
        uint32_t e = s->slot[h];
        if (!e) {
            if (!add)
                return -1;
            if (s->count == s->cap)
                return -2;
            uint32_t i = s->count++;
            memcpy(s->bytes + (size_t)i * s->psize, pos->bytes, s->psize);
            s->keys[i] = key;
            s->slot[h] = i + 1;
            return i;
        }
        if (s->keys[e - 1] == key &&
            memcmp(s->bytes + (size_t)(e - 1) * s->psize, pos->bytes, s->psize) == 0)
            return e - 1;
    }
}

static void set_get(const PosSet *s, uint32_t i, Position *pos)
{
    memset(pos, 0, sizeof *pos);
    memcpy(pos->bytes, s->bytes + (size_t)i * s->psize, s->psize);
}

/* ---- leaves ------------------------------------------------------------------- */

typedef enum Leaf { LEAF_NONE, LEAF_SAFE, LEAF_LOST } Leaf;

/* Is pos decided for side without a search: the game is over, or the tables
 * know it?  SAFE: side does not lose from it with best play; LOST: it does. */
static Leaf leaf_of(const Variant *v, const Tablebase *tb, const Position *pos, int side)
{
    Result r = v->result(pos, NULL, NULL);
    if (r != RESULT_NONE) {
        Result side_loses = side == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS;
        return r == side_loses ? LEAF_LOST : LEAF_SAFE;
    }
    TbValue value;
    if (tb && v->tablebase && v->tablebase->probe(tb, pos, &value)) {
        bool side_to_move = v->side_to_move(pos) == side;
        TbWdl for_side = side_to_move ? value.wdl : (TbWdl)-value.wdl;
        return for_side == TB_LOSS ? LEAF_LOST : LEAF_SAFE;
    }
    return LEAF_NONE;
}

/* ---- checking ------------------------------------------------------------------ */

/* A certificate in memory: its side, its positions (side to move in each)
 * and the move of each. */
struct ProofCert {
    int side;
    PosSet set;
    Move *moves;
    uint64_t entries;
};

typedef struct Checker {
    const Variant *v;
    const Tablebase *tb;
    int side;
    const PosSet *set;
    char *err;
    size_t errlen;
} Checker;

/* Does side not lose from pos (with the certificate's moves)?  The opponent's
 * replies are followed (depth bounds games where a side moves twice). */
static bool safe(Checker *c, const Position *pos, int depth)
{
    const Variant *v = c->v;
    Leaf leaf = leaf_of(v, c->tb, pos, c->side);
    if (leaf != LEAF_NONE)
        return leaf == LEAF_SAFE;
    if (v->side_to_move(pos) == c->side)
        return set_find((PosSet *)c->set, v, pos, false) >= 0;
    if (depth > 16)
        return false;
    Move moves[MAX_MOVES];
    int n = v->generate(pos, moves);
    for (int i = 0; i < n; i++) {
        Position child;
        v->make(pos, moves[i], &child);
        if (!safe(c, &child, depth + 1)) {
            if (c->errlen) {
                char fen[FEN_MAX], text[MOVE_STR_MAX];
                v->to_fen(pos, fen);
                v->move_str(pos, moves[i], text);
                snprintf(c->err, c->errlen, "after %s, the reply %s is not covered", fen,
                         text);
            }
            return false;
        }
    }
    return true;
}

static bool fault(char *err, size_t errlen, const char *what, const char *line)
{
    snprintf(err, errlen, "%s: %.200s", what, line);
    return false;
}

static void cert_free(ProofCert *c)
{
    if (!c)
        return;
    set_free(&c->set);
    free(c->moves);
    free(c);
}

/* Is line the first line of a certificate? */
static bool is_header(const char *line) { return strncmp(line, "sigil-proof ", 12) == 0; }

/* Read one certificate from f (its header first; it ends at the end of the
 * file or before the next certificate's header, where f is left) and check
 * it.  The certificate, or NULL with the first fault in err. */
static ProofCert *cert_read(FILE *f, const Variant *v, const Tablebase *tb, uint64_t *entries,
                            char *err, size_t errlen)
{
    char line[FEN_MAX + MOVE_STR_MAX + 16], word[64], fen[FEN_MAX + 1];
    GameConfig cfg = {DEFAULT_MOVE_LIMIT};
    Position root;
    char why[160];
    *entries = 0;
    if (errlen)
        err[0] = '\0';
    /* header */
    if (!fgets(line, sizeof line, f) || strcmp(line, "sigil-proof 1\n") != 0)
        return fault(err, errlen, "not a proof file", ""), NULL;
    if (!fgets(line, sizeof line, f) || sscanf(line, "variant %63s", word) != 1 ||
        strcmp(word, v->name) != 0)
        return fault(err, errlen, "not a proof for this variant", line), NULL;
    if (!fgets(line, sizeof line, f) || sscanf(line, "side %63s", word) != 1 ||
        (strcmp(word, "white") != 0 && strcmp(word, "black") != 0))
        return fault(err, errlen, "bad side line", line), NULL;
    int side = strcmp(word, "white") == 0 ? WHITE : BLACK;
    if (!fgets(line, sizeof line, f) || strncmp(line, "root ", 5) != 0)
        return fault(err, errlen, "no root line", line), NULL;
    line[strcspn(line, "\r\n")] = '\0';
    if (!v->from_fen(&root, line + 5, &cfg, why, sizeof why))
        return fault(err, errlen, why, line), NULL;
    /* entries: count them, read them all, then check the closure */
    fpos_t start, here;
    fgetpos(f, &start);
    long n = 0;
    while (fgets(line, sizeof line, f) && !is_header(line))
        n++;
    if (n >= 0x7fffffffL)
        return fault(err, errlen, "too many entries", ""), NULL;
    ProofCert *c = calloc(1, sizeof *c);
    if (!c || !set_init(&c->set, v->position_size, (uint32_t)(n + 1)) ||
        !(c->moves = malloc((size_t)(n + 1) * sizeof *c->moves))) {
        cert_free(c);
        return fault(err, errlen, "out of memory", ""), NULL;
    }
    c->side = side;
    Checker ck = {v, tb, side, &c->set, err, errlen};
    fsetpos(f, &start);
    bool ok = true;
    for (long k = 0; ok && k < n; k++) {
        if (!fgets(line, sizeof line, f)) {
            ok = fault(err, errlen, "the file changed while it was read", "");
            break;
        }
        if (!strchr(line, '\n') && !feof(f)) {
            ok = fault(err, errlen, "an entry is too long", line);
            break;
        }
        line[strcspn(line, "\r\n")] = '\0';
        char *bar = strchr(line, '|');
        Position p;
        if (!bar || (size_t)(bar - line) > FEN_MAX) {
            ok = fault(err, errlen, "an entry is <FEN>|<move>", line);
            break;
        }
        memcpy(fen, line, (size_t)(bar - line));
        fen[bar - line] = '\0';
        if (!v->from_fen(&p, fen, &cfg, why, sizeof why))
            ok = fault(err, errlen, why, line);
        else if (v->side_to_move(&p) != side || v->result(&p, NULL, NULL) != RESULT_NONE)
            ok = fault(err, errlen, "the side is not to move, or the game is over", line);
        else {
            Move m = v->parse_move(&p, bar + 1);
            int64_t i = set_find(&c->set, v, &p, true);
            if (m == MOVE_NONE)
                ok = fault(err, errlen, "not a legal move", line);
            else if (i < 0 || (uint64_t)i != c->entries)
                ok = fault(err, errlen, "a position given twice", line);
            else {
                c->moves[i] = m;
                c->entries++;
            }
        }
    }
    /* leave f at the next certificate's header, if any */
    fgetpos(f, &here);
    if (ok && fgets(line, sizeof line, f))
        fsetpos(f, &here);
    for (uint64_t i = 0; ok && i < c->entries; i++) {
        Position p, child;
        set_get(&c->set, (uint32_t)i, &p);
        v->make(&p, c->moves[i], &child);
        ok = safe(&ck, &child, 0);
    }
    if (ok && !safe(&ck, &root, 0))
        ok = err[0] ? false : fault(err, errlen, "the root is not covered", "");
    *entries = c->entries;
    if (!ok) {
        cert_free(c);
        return NULL;
    }
    return c;
}

bool proof_check(FILE *f, const Variant *v, const Tablebase *tb, uint64_t *entries, char *err,
                 size_t errlen)
{
    ProofCert *c = cert_read(f, v, tb, entries, err, errlen);
    int side = c ? c->side : -1;
    cert_free(c);
    return side >= 0;
}

bool proof_check_file(FILE *f, const Variant *v, const Tablebase *tb, int *certificates,
                      uint64_t *entries, char *err, size_t errlen)
{
    *certificates = 0;
    *entries = 0;
    for (;;) {
        uint64_t n = 0;
        if (!proof_check(f, v, tb, &n, err, errlen))
            return false;
        ++*certificates;
        *entries += n;
        int ch = fgetc(f);
        if (ch == EOF)
            return true;
        ungetc(ch, f);
    }
}

/* ---- books --------------------------------------------------------------------- */

struct ProofBook {
    const Variant *v;
    ProofCert *cert[2]; /* [WHITE], [BLACK]: the side's certificate or NULL */
};

ProofBook *proof_book_load(const Variant *v, const Tablebase *tb, const char *path, char *err,
                           size_t errlen)
{
    if (errlen)
        err[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL; /* no book: nothing to say */
    ProofBook *b = calloc(1, sizeof *b);
    char why[600] = "";
    bool ok = b != NULL;
    if (!b)
        snprintf(why, sizeof why, "out of memory");
    while (ok) {
        uint64_t n;
        ProofCert *c = cert_read(f, v, tb, &n, why, sizeof why);
        if (!c) {
            ok = false;
            break;
        }
        if (b->cert[c->side]) {
            snprintf(why, sizeof why, "two certificates for %s",
                     c->side == WHITE ? "white" : "black");
            cert_free(c);
            ok = false;
            break;
        }
        b->cert[c->side] = c;
        int ch = fgetc(f);
        if (ch == EOF)
            break;
        ungetc(ch, f);
    }
    if (ok && (!b->cert[WHITE] || !b->cert[BLACK])) {
        snprintf(why, sizeof why, "no certificate for %s (a book has one for each side)",
                 b->cert[WHITE] ? "black" : "white");
        ok = false;
    }
    if (ok && ferror(f)) {
        snprintf(why, sizeof why, "read error");
        ok = false;
    }
    fclose(f);
    if (!ok) {
        snprintf(err, errlen, "book %s not used: %s", path, why);
        proof_book_free(b);
        return NULL;
    }
    b->v = v;
    return b;
}

void proof_book_free(ProofBook *b)
{
    if (!b)
        return;
    cert_free(b->cert[WHITE]);
    cert_free(b->cert[BLACK]);
    free(b);
}

uint64_t proof_book_entries(const ProofBook *b, int side)
{
    return b && b->cert[side] ? b->cert[side]->entries : 0;
}

/* side does not lose from pos by the book: pos is a leaf that side does not
 * lose, a position of side's certificate, or (the opponent to move) every
 * reply leads to one of those. */
static bool book_safe(const ProofBook *b, const Tablebase *tb, const Position *pos, int side)
{
    Checker ck = {b->v, tb, side, &b->cert[side]->set, NULL, 0};
    return safe(&ck, pos, 0);
}

int proof_book_moves(const ProofBook *b, const Tablebase *tb, const Position *pos,
                     Move *moves)
{
    if (!b)
        return 0;
    const Variant *v = b->v;
    int side = v->side_to_move(pos);
    if (v->result(pos, NULL, NULL) != RESULT_NONE || (v->is_chance && v->is_chance(pos)))
        return 0;
    Move all[MAX_MOVES];
    int n = v->generate(pos, all), kept = 0;
    for (int i = 0; i < n; i++) {
        Position child;
        v->make(pos, all[i], &child);
        if (book_safe(b, tb, &child, side))
            moves[kept++] = all[i];
    }
    return kept;
}

bool proof_book_not_lose(const ProofBook *b, const Tablebase *tb, const Position *pos,
                         int side)
{
    if (!b)
        return false;
    const Variant *v = b->v;
    if (v->side_to_move(pos) != side || leaf_of(v, tb, pos, side) != LEAF_NONE)
        return book_safe(b, tb, pos, side);
    if (set_find((PosSet *)&b->cert[side]->set, v, pos, false) >= 0)
        return true;
    Move moves[MAX_MOVES];
    return proof_book_moves(b, tb, pos, moves) > 0;
}

/* ---- searching -------------------------------------------------------------------- */

enum { CHILD_SAFE = -1, CHILD_LOST = -2 };

/* The greatest fixpoint of the expanded graph (node i's moves are
 * edge[first[i] .. first[i+1])): start with every expanded node kept, drop
 * the ones that cannot stay safe, until nothing changes. */
static void keep_safe(const Variant *v, const PosSet *set, int side, const int64_t *edge,
                      const uint64_t *first, uint32_t expanded, unsigned char *good)
{
    for (uint32_t i = 0; i < expanded; i++)
        good[i] = 1;
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t i = 0; i < expanded; i++) {
            if (!good[i])
                continue;
            Position p;
            set_get(set, i, &p);
            bool mine = v->side_to_move(&p) == side, any = false, all = true;
            for (uint64_t e = first[i]; e < first[i + 1]; e++) {
                int64_t j = edge[e];
                bool ok = j == CHILD_SAFE || (j >= 0 && (uint64_t)j < expanded && good[j]);
                any |= ok;
                all &= ok;
            }
            if (mine ? !any : !all) {
                good[i] = 0;
                changed = true;
            }
        }
    }
}

/* Write the proof of a kept root (a leaf itself unless expanded_root): the
 * header, then the kept nodes reachable from the root along the chosen
 * moves.  1, or -1 out of memory. */
static int write_proof(const Variant *v, const PosSet *set, const Position *root, int side,
                       bool expanded_root, const int64_t *edge, const uint64_t *first,
                       uint32_t expanded, unsigned char *good, FILE *out, char *err,
                       size_t errlen)
{
    int status = 1;
    char fen[FEN_MAX], text[MOVE_STR_MAX];
    v->to_fen(root, fen);
    fprintf(out, "sigil-proof 1\nvariant %s\nside %s\nroot %s\n", v->name,
            side == WHITE ? "white" : "black", fen);
    uint32_t *queue = malloc(((size_t)expanded + 1) * sizeof *queue);
    if (expanded_root && !queue) {
        status = -1;
        snprintf(err, errlen, "out of memory");
    }
    uint32_t head = 0, tail = 0;
    if (expanded_root && queue) {
        queue[tail++] = 0;
        good[0] = 2; /* 2: written or queued */
    }
    while (head < tail) {
        uint32_t i = queue[head++];
        Position p;
        set_get(set, i, &p);
        Move moves[MAX_MOVES];
        int n = v->generate(&p, moves);
        bool mine = v->side_to_move(&p) == side;
        for (int k = 0; k < n; k++) {
            int64_t j = edge[first[i] + (uint64_t)k];
            bool ok = j == CHILD_SAFE || (j >= 0 && (uint64_t)j < expanded && good[j]);
            if (!ok)
                continue;
            if (j >= 0 && good[j] == 1) {
                good[j] = 2;
                queue[tail++] = (uint32_t)j;
            }
            if (mine) {
                v->to_fen(&p, fen);
                v->move_str(&p, moves[k], text);
                fprintf(out, "%s|%s\n", fen, text);
                break; /* one move of side: the first that stays safe */
            }
        }
    }
    free(queue);
    return status;
}

/* One round of proof_search with exactly max_nodes positions of room. */
static int search_round(const Variant *v, const Tablebase *tb, const Position *root, int side,
                        uint64_t max_nodes, FILE *out, uint64_t *explored, char *err,
                        size_t errlen)
{
    *explored = 0;
    if (max_nodes > 0x7ffffff0ULL)
        max_nodes = 0x7ffffff0ULL;
    if (max_nodes < 1)
        max_nodes = 1;
    Leaf root_leaf = leaf_of(v, tb, root, side);
    PosSet set;
    uint64_t edge_cap = max_nodes * 8 + 1024, edges = 0;
    int64_t *edge = malloc(edge_cap * sizeof *edge);
    uint64_t *first = malloc((max_nodes + 1) * sizeof *first);
    unsigned char *good = calloc(max_nodes + 1, 1);
    if (!set_init(&set, v->position_size, (uint32_t)max_nodes) || !edge || !first || !good) {
        set_free(&set);
        free(edge);
        free(first);
        free(good);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int status = 0;
    uint32_t expanded = 0;
    if (root_leaf == LEAF_NONE) {
        set_find(&set, v, root, true);
        /* breadth first: node i's moves are edge[first[i] .. first[i+1]) */
        for (; expanded < set.count; expanded++) {
            Position p;
            set_get(&set, expanded, &p);
            Move moves[MAX_MOVES];
            int n = v->generate(&p, moves);
            if (edges + (uint64_t)n > edge_cap) {
                uint64_t cap = edge_cap * 2 + (uint64_t)n;
                int64_t *grown = realloc(edge, cap * sizeof *edge);
                if (!grown) {
                    status = -1;
                    snprintf(err, errlen, "out of memory");
                    break;
                }
                edge = grown;
                edge_cap = cap;
            }
            first[expanded] = edges;
            for (int k = 0; k < n; k++) {
                Position child;
                v->make(&p, moves[k], &child);
                Leaf leaf = leaf_of(v, tb, &child, side);
                int64_t j = leaf == LEAF_SAFE   ? CHILD_SAFE
                            : leaf == LEAF_LOST ? CHILD_LOST
                                                : set_find(&set, v, &child, true);
                edge[edges++] = j == -2 && leaf == LEAF_NONE ? CHILD_LOST : j;
            }
        }
        first[expanded] = edges;
        *explored = expanded;
        if (status == 0)
            keep_safe(v, &set, side, edge, first, expanded, good);
        if (status == 0 && good[0])
            status = 1;
    } else {
        status = root_leaf == LEAF_SAFE ? 1 : 0;
    }
    if (status == 1)
        status = write_proof(v, &set, root, side, root_leaf == LEAF_NONE, edge, first, expanded,
                             good, out, err, errlen);
    set_free(&set);
    free(edge);
    free(first);
    free(good);
    return status;
}

int proof_search(const Variant *v, const Tablebase *tb, const Position *root, int side,
                 uint64_t max_nodes, FILE *out, uint64_t *explored, char *err, size_t errlen)
{
    /* rounds of growing room (x8), so that an easy proof stays small */
    uint64_t room = 4096, total = 0;
    for (;;) {
        if (room > max_nodes)
            room = max_nodes;
        uint64_t n = 0;
        int r = search_round(v, tb, root, side, room, out, &n, err, errlen);
        total += n;
        if (r != 0 || room == max_nodes || n < room) {
            *explored = total;
            return r;
        }
        room *= 8;
    }
}
