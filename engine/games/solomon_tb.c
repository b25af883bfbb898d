/* solomon_tb.c - exact endgame tables for Solomon (see solomon_tb.h and
 * doc/tablebases.md).
 *
 * Every table is stored with the side to move as White ("us"): a position
 * with Black to move is turned half round (point p -> 20-p) with the colours
 * swapped first.  The index of a placement places four groups one after the
 * other - our men, our kings, their men, their kings - each as a subset of
 * the points the groups before it left free (combinatorial number system),
 * so a table has exactly 19!/(a! b! c! d! (19-n)!) entries.
 *
 * An entry is one byte: 0 a draw, otherwise 1 + the plies to the end of the
 * game with best play (even plies: the side to move loses; odd: it wins).
 *
 * Building (retrograde analysis): the only moves that keep the material are
 * steps that do not crown, so a material M and its colour swap M' form a
 * closed pair; everything else (captures, crowning) leads to tables already
 * built.  First every position is generated forward with the engine's own
 * generate/make/result: terminal positions get their value, moves that leave
 * the pair are probed, the moves that stay are counted.  Then level by level
 * (distance 0, 1, 2, ...) the positions of that distance are walked
 * backwards by one step of the side that moved: a predecessor of a loss is a
 * win one ply longer; a predecessor all of whose moves are now known to be
 * wins of the opponent is a loss one ply longer than its longest move.  What
 * is left at the end can avoid losing forever: a draw (repetition).
 */
#include "solomon_tb.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../util.h"
#include "../variant.h"
#include "solomon.h"

enum {
    NPOINTS = SOLOMON_POINTS,
    SIDE_MAX = SOLOMON_TB_SIDE_MAX,
    MATERIALS = (SIDE_MAX + 1) * (SIDE_MAX + 1) * (SIDE_MAX + 1) * (SIDE_MAX + 1),
    CODE_MAX = 254,   /* largest stored code: 253 plies */
    FROZEN = 255,     /* build only: a terminal draw, never updated */
    EXIT_DRAW = 255,  /* build only: a move out of the pair draws */
    CHUNK = 4096      /* indices handed to a thread at a time */
};
#define ALL_POINTS ((1u << NPOINTS) - 1)
#define BIT(i) (1u << (i))

static const char FILE_MAGIC[8] = {'S', 'I', 'G', 'I', 'L', 'T', 'B', '1'};
enum { FILE_VERSION = 1, HEADER_BYTES = 48 };

struct SolomonTables {
    const Variant *variant;
    bool chain;
    uint8_t *data[MATERIALS]; /* NULL: not loaded */
    uint64_t size[MATERIALS];
};

/* ---- tables built once ---------------------------------------------------- */

static uint64_t binom[NPOINTS + 1][NPOINTS + 1];
static uint32_t reverse10[1024];
/* unstep[side][kind][t]: the points from which a step of that piece reaches t */
static uint32_t unstep[2][2][NPOINTS];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void build_static_tables(void)
{
    for (int n = 0; n <= NPOINTS; n++) {
        binom[n][0] = 1;
        for (int k = 1; k <= n; k++)
            binom[n][k] = binom[n - 1][k - 1] + (k <= n - 1 ? binom[n - 1][k] : 0);
    }
    for (uint32_t x = 0; x < 1024; x++) {
        uint32_t r = 0;
        for (int i = 0; i < 10; i++)
            if (x & BIT(i))
                r |= BIT(9 - i);
        reverse10[x] = r;
    }
    for (int side = 0; side < 2; side++)
        for (int kind = 0; kind < 2; kind++)
            for (int f = 0; f < NPOINTS; f++)
                for (uint32_t t = solomon_step_targets(side, kind, f); t; t &= t - 1)
                    unstep[side][kind][util_lsb64(t)] |= BIT(f);
}

static void static_init(void) { pthread_once(&tables_once, build_static_tables); }

/* Point p -> 18-p (the half turn) on a 19-bit set. */
static inline uint32_t turn_half(uint32_t x)
{
    return reverse10[x & 1023] << 9 | reverse10[x >> 10] >> 1;
}


/* ---- materials ------------------------------------------------------------ */

static inline int material_id(SolomonMaterial m)
{
    return ((m.our_men * (SIDE_MAX + 1) + m.our_kings) * (SIDE_MAX + 1) + m.their_men) *
               (SIDE_MAX + 1) +
           m.their_kings;
}

static SolomonMaterial material_of_id(int id)
{
    SolomonMaterial m;
    m.their_kings = id % (SIDE_MAX + 1);
    id /= SIDE_MAX + 1;
    m.their_men = id % (SIDE_MAX + 1);
    id /= SIDE_MAX + 1;
    m.our_kings = id % (SIDE_MAX + 1);
    m.our_men = id / (SIDE_MAX + 1);
    return m;
}

static SolomonMaterial material_swap(SolomonMaterial m)
{
    return (SolomonMaterial){m.their_men, m.their_kings, m.our_men, m.our_kings};
}

static int material_pieces(SolomonMaterial m)
{
    return m.our_men + m.our_kings + m.their_men + m.their_kings;
}

/* A material that has a table: both sides have a piece, none more than 6. */
static bool material_valid(SolomonMaterial m)
{
    int ours = m.our_men + m.our_kings, theirs = m.their_men + m.their_kings;
    return m.our_men >= 0 && m.our_kings >= 0 && m.their_men >= 0 && m.their_kings >= 0 &&
           ours >= 1 && theirs >= 1 && ours <= SIDE_MAX && theirs <= SIDE_MAX;
}

uint64_t solomon_tb_material_size(SolomonMaterial m)
{
    static_init();
    int k[4] = {m.our_men, m.our_kings, m.their_men, m.their_kings};
    int free_points = NPOINTS;
    uint64_t size = 1;
    for (int g = 0; g < 4; g++) {
        if (k[g] > free_points)
            return 0;
        size *= binom[free_points][k[g]];
        free_points -= k[g];
    }
    return size;
}

void solomon_tb_material_name(SolomonMaterial m, char *buf)
{
    int w = 0;
    for (int i = 0; i < m.our_kings; i++)
        buf[w++] = 'K';
    for (int i = 0; i < m.our_men; i++)
        buf[w++] = 'M';
    buf[w++] = 'v';
    for (int i = 0; i < m.their_kings; i++)
        buf[w++] = 'K';
    for (int i = 0; i < m.their_men; i++)
        buf[w++] = 'M';
    buf[w] = '\0';
}

void solomon_tb_file_name(const Variant *v, SolomonMaterial m, char *buf, size_t size)
{
    char name[20];
    solomon_tb_material_name(m, name);
    snprintf(buf, size, "%s_%s.stb", v->name, name);
}

/* ---- positions and indices ------------------------------------------------ */

/* A position with the side to move as White: "us" are White's pieces. */
typedef SolomonBoard Board;

/* The position as stored: Black to move is turned half round with the
 * colours swapped. */
static void normalise(const Board *in, Board *out)
{
    if (in->stm == WHITE) {
        *out = *in;
        return;
    }
    out->men[WHITE] = turn_half(in->men[BLACK]);
    out->kings[WHITE] = turn_half(in->kings[BLACK]);
    out->men[BLACK] = turn_half(in->men[WHITE]);
    out->kings[BLACK] = turn_half(in->kings[WHITE]);
    out->stm = WHITE;
}

static SolomonMaterial board_material(const Board *b)
{
    return (SolomonMaterial){util_popcount32(b->men[WHITE]), util_popcount32(b->kings[WHITE]),
                             util_popcount32(b->men[BLACK]), util_popcount32(b->kings[BLACK])};
}

/* Index of a stored (White to move) position within its material's table. */
static uint64_t board_index(const Board *b)
{
    const uint32_t groups[4] = {b->men[WHITE], b->kings[WHITE], b->men[BLACK],
                                b->kings[BLACK]};
    uint32_t occupied = 0;
    int free_points = NPOINTS;
    uint64_t index = 0;
    for (int g = 0; g < 4; g++) {
        uint64_t rank = 0;
        int j = 1;
        for (uint32_t s = groups[g]; s; s &= s - 1, j++) {
            int p = util_lsb64(s);
            int rel = p - util_popcount32(occupied & (BIT(p) - 1));
            rank += binom[rel][j];
        }
        int k = j - 1;
        index = index * binom[free_points][k] + rank;
        occupied |= groups[g];
        free_points -= k;
    }
    return index;
}

/* The stored position at index of material m (inverse of board_index). */
static void board_at(SolomonMaterial m, uint64_t index, Board *b)
{
    const int k[4] = {m.our_men, m.our_kings, m.their_men, m.their_kings};
    uint64_t count[4], rank[4];
    int free_points = NPOINTS;
    for (int g = 0; g < 4; g++) {
        count[g] = binom[free_points][k[g]];
        free_points -= k[g];
    }
    for (int g = 3; g >= 0; g--) {
        rank[g] = index % count[g];
        index /= count[g];
    }
    uint32_t occupied = 0, set[4];
    free_points = NPOINTS;
    for (int g = 0; g < 4; g++) {
        int rel[SIDE_MAX];
        uint64_t r = rank[g];
        int x = free_points - 1;
        for (int j = k[g]; j >= 1; j--) {
            while (binom[x][j] > r)
                x--;
            rel[j - 1] = x;
            r -= binom[x][j];
            x--;
        }
        /* the rel-th free point, for each rel in increasing order */
        uint32_t s = 0;
        int seen = 0, next = 0;
        for (int p = 0; p < NPOINTS && next < k[g]; p++) {
            if (occupied & BIT(p))
                continue;
            if (seen == rel[next]) {
                s |= BIT(p);
                next++;
            }
            seen++;
        }
        set[g] = s;
        occupied |= s;
        free_points -= k[g];
    }
    b->men[WHITE] = set[0];
    b->kings[WHITE] = set[1];
    b->men[BLACK] = set[2];
    b->kings[BLACK] = set[3];
    b->stm = WHITE;
}

/* A man on the point where it would have been crowned cannot stand there. */
static inline bool board_legal(const Board *b)
{
    return !(b->men[WHITE] & BIT(0)) && !(b->men[BLACK] & BIT(NPOINTS - 1));
}

/* ---- codes ----------------------------------------------------------------- */

static inline TbValue value_of_code(int code)
{
    if (code == 0 || code == FROZEN)
        return (TbValue){TB_DRAW, 0};
    int plies = code - 1;
    return (TbValue){plies % 2 ? TB_WIN : TB_LOSS, plies};
}

static inline bool code_is_win(int code) { return code != 0 && code != FROZEN && code % 2 == 0; }

/* ---- the set of tables ------------------------------------------------------ */

SolomonTables *solomon_tb_new(const Variant *v)
{
    static_init();
    if (v != &variant_solomon && v != &variant_solomon_chain)
        return NULL;
    SolomonTables *tb = util_xcalloc(1, sizeof *tb);
    tb->variant = v;
    tb->chain = v == &variant_solomon_chain;
    return tb;
}

void solomon_tb_free(SolomonTables *tb)
{
    if (!tb)
        return;
    for (int i = 0; i < MATERIALS; i++)
        free(tb->data[i]);
    free(tb);
}

/* The stored code of a stored (White to move) position, or -1 if its table
 * is absent. */
static inline int probe_code(const SolomonTables *tb, const Board *b)
{
    int id = material_id(board_material(b));
    if (!tb->data[id])
        return -1;
    return tb->data[id][board_index(b)];
}

bool solomon_tb_probe(const SolomonTables *tb, const Position *pos, TbValue *value)
{
    Board raw, b;
    solomon_board_get(pos, &raw);
    normalise(&raw, &b);
    if (!(b.men[WHITE] | b.kings[WHITE])) {
        *value = (TbValue){TB_LOSS, 0};
        return true;
    }
    SolomonMaterial m = board_material(&b);
    if (!material_valid(m) || !board_legal(&b))
        return false;
    int code = probe_code(tb, &b);
    if (code < 0)
        return false;
    *value = value_of_code(code);
    return true;
}

int solomon_tb_complete_pieces(const SolomonTables *tb)
{
    int complete = 0;
    for (int n = 2; n <= SOLOMON_TB_PIECES_MAX; n++) {
        for (int id = 0; id < MATERIALS; id++) {
            SolomonMaterial m = material_of_id(id);
            if (material_valid(m) && material_pieces(m) == n && !tb->data[id])
                return complete;
        }
        complete = n;
    }
    return complete;
}

bool solomon_tb_position_at(const SolomonTables *tb, SolomonMaterial m, uint64_t index,
                            Position *pos)
{
    if (!material_valid(m) || index >= solomon_tb_material_size(m))
        return false;
    Board b;
    board_at(m, index, &b);
    if (!board_legal(&b))
        return false;
    solomon_board_set(pos, &b, tb->chain);
    return true;
}

bool solomon_tb_value_at(const SolomonTables *tb, SolomonMaterial m, uint64_t index,
                         TbValue *value)
{
    if (!material_valid(m))
        return false;
    int id = material_id(m);
    if (!tb->data[id] || index >= tb->size[id])
        return false;
    *value = value_of_code(tb->data[id][index]);
    return true;
}

/* ---- files ------------------------------------------------------------------- */

/* 64-bit checksum of the entries: a multiply-rotate mix over 8-byte words
 * (little-endian), the tail byte by byte, then the length. */
static uint64_t checksum(const uint8_t *data, uint64_t n)
{
    uint64_t h = 0x243F6A8885A308D3ULL;
    uint64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w = 0;
        for (int j = 7; j >= 0; j--)
            w = w << 8 | data[i + (uint64_t)j];
        h ^= w * 0x9E3779B97F4A7C15ULL;
        h = (h << 31 | h >> 33) * 0xBF58476D1CE4E5B9ULL;
    }
    for (; i < n; i++) {
        h ^= data[i];
        h *= 0x100000001B3ULL;
    }
    h ^= n;
    h ^= h >> 31;
    h *= 0x94D049BB133111EBULL;
    return h ^ (h >> 29);
}

static void put_u32(uint8_t *p, uint32_t x)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(x >> (8 * i));
}
static void put_u64(uint8_t *p, uint64_t x)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(x >> (8 * i));
}
/* Header: magic, version, rule set (0 single jumps, 1 chains), the four
 * counts of the material, the number of entries, the checksum of the
 * entries, then 12 reserved zero bytes. */
static void make_header(const SolomonTables *tb, SolomonMaterial m, uint64_t n, uint64_t sum,
                        uint8_t *h)
{
    memset(h, 0, HEADER_BYTES);
    memcpy(h, FILE_MAGIC, sizeof FILE_MAGIC);
    put_u32(h + 8, FILE_VERSION);
    put_u32(h + 12, tb->chain ? 1 : 0);
    h[16] = (uint8_t)m.our_men;
    h[17] = (uint8_t)m.our_kings;
    h[18] = (uint8_t)m.their_men;
    h[19] = (uint8_t)m.their_kings;
    put_u64(h + 20, n);
    put_u64(h + 28, sum);
}

static void path_join(char *buf, size_t size, const char *dir, const char *name)
{
    size_t len = strlen(dir);
    snprintf(buf, size, "%s%s%s", dir, len && dir[len - 1] == '/' ? "" : "/", name);
}

/* Open path for reading without blocking (a FIFO named like a table must
 * not hang the reader) and only if it is a regular file.  The descriptor,
 * or -1 with errno set (ENOENT: no such file) or with *not_regular set and
 * the kind of file in kind. */
static int open_regular(const char *path, struct stat *st, bool *not_regular,
                        const char **kind)
{
    *not_regular = false;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return -1;
    if (fstat(fd, st) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    if (!S_ISREG(st->st_mode)) {
        *not_regular = true;
        *kind = S_ISDIR(st->st_mode)    ? "a folder"
                : S_ISFIFO(st->st_mode) ? "a FIFO"
                : S_ISCHR(st->st_mode)  ? "a character device"
                : S_ISBLK(st->st_mode)  ? "a block device"
                : S_ISSOCK(st->st_mode) ? "a socket"
                                        : "not a regular file";
        close(fd);
        return -1;
    }
    /* A regular file: reads never block; back to blocking mode anyway. */
    int flags = fcntl(fd, F_GETFL);
    if (flags >= 0)
        fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    return fd;
}

static uint32_t get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t get_u64(const uint8_t *p)
{
    return (uint64_t)get_u32(p) | (uint64_t)get_u32(p + 4) << 32;
}

/* Read exactly n bytes; false at an error or the end of the file. */
static bool read_all(int fd, uint8_t *buf, uint64_t n)
{
    while (n > 0) {
        size_t want = n > (1u << 30) ? (1u << 30) : (size_t)n;
        ssize_t got = read(fd, buf, want);
        if (got < 0 && errno == EINTR)
            continue;
        if (got == 0)
            errno = 0; /* the end of the file: it shrank while being read */
        if (got <= 0)
            return false;
        buf += got;
        n -= (uint64_t)got;
    }
    return true;
}

/* Write the table of m to dir: into a temporary file of the folder, then
 * renamed over the table's name, so a reader (another node of a cluster, a
 * killed build) never sees half a table.  A name taken by something that is
 * not a regular file is refused. */
static bool write_table(const SolomonTables *tb, SolomonMaterial m, const char *dir,
                        char *err, size_t errlen)
{
    int id = material_id(m);
    char name[96], path[4096], tmp[4200];
    solomon_tb_file_name(tb->variant, m, name, sizeof name);
    path_join(path, sizeof path, dir, name);
    struct stat st;
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "cannot write %s: not a regular file", path);
        return false;
    }
    snprintf(tmp, sizeof tmp, "%s.XXXXXX", path);
    uint8_t header[HEADER_BYTES];
    make_header(tb, m, tb->size[id], checksum(tb->data[id], tb->size[id]), header);
    int fd = mkstemp(tmp);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    bool ok = f && fchmod(fd, 0644) == 0 &&
              fwrite(header, 1, sizeof header, f) == sizeof header &&
              fwrite(tb->data[id], 1, tb->size[id], f) == tb->size[id] && fflush(f) == 0 &&
              fsync(fd) == 0;
    int e = errno;
    if (f) {
        if (fclose(f) != 0 && ok) {
            ok = false;
            e = errno;
        }
    } else if (fd >= 0) {
        close(fd);
    }
    if (ok && rename(tmp, path) != 0) {
        ok = false;
        e = errno;
    }
    if (!ok) {
        if (fd >= 0)
            unlink(tmp);
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(e));
    }
    return ok;
}

enum { TABLE_LOADED = 1, TABLE_ABSENT = 0, TABLE_BAD = -1, TABLE_NOT_REGULAR = -2 };

/* Load one table: TABLE_LOADED; TABLE_ABSENT (no such file); TABLE_BAD, a
 * file that cannot be read or is not a valid table of this material and
 * rule set; TABLE_NOT_REGULAR, a FIFO, device or folder by that name (never
 * opened for reading).  The path and the reason in err. */
static int read_table(SolomonTables *tb, SolomonMaterial m, const char *dir, char *err,
                      size_t errlen)
{
    int id = material_id(m);
    char name[96], path[4096];
    solomon_tb_file_name(tb->variant, m, name, sizeof name);
    path_join(path, sizeof path, dir, name);
    struct stat st;
    bool not_regular;
    const char *kind = "";
    int fd = open_regular(path, &st, &not_regular, &kind);
    if (fd < 0) {
        if (not_regular) {
            snprintf(err, errlen, "%s: not a regular file (%s): skipped", path, kind);
            return TABLE_NOT_REGULAR;
        }
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return errno == ENOENT ? TABLE_ABSENT : TABLE_BAD;
    }
    uint64_t n = solomon_tb_material_size(m);
    uint64_t want = HEADER_BYTES + n, have = (uint64_t)st.st_size;
    uint8_t header[HEADER_BYTES], expect[HEADER_BYTES];
    uint8_t *data = NULL;
    char why[200] = "";
    int e = 0;
    if (have < HEADER_BYTES)
        snprintf(why, sizeof why, "truncated: %llu bytes, expected %llu",
                 (unsigned long long)have, (unsigned long long)want);
    else if (!read_all(fd, header, HEADER_BYTES))
        e = errno ? errno : -1;
    else {
        make_header(tb, m, n, 0, expect);
        uint32_t version = get_u32(header + 8), rules = get_u32(header + 12);
        int reserved = -1;
        for (int i = 36; i < HEADER_BYTES && reserved < 0; i++)
            if (header[i])
                reserved = i;
        if (memcmp(header, FILE_MAGIC, sizeof FILE_MAGIC) != 0)
            snprintf(why, sizeof why, "bad magic (not a Sigil table)");
        else if (version != FILE_VERSION)
            snprintf(why, sizeof why, "format version %lu, expected %d", (unsigned long)version,
                     FILE_VERSION);
        else if (rules != get_u32(expect + 12))
            snprintf(why, sizeof why, "rule set %lu (%s), expected %lu", (unsigned long)rules,
                     rules == 0 ? "solomon" : rules == 1 ? "solomon-chain" : "unknown",
                     (unsigned long)get_u32(expect + 12));
        else if (memcmp(header + 16, expect + 16, 4) != 0)
            snprintf(why, sizeof why, "material %u %u %u %u (men, kings, their men, kings), "
                     "expected %d %d %d %d", header[16], header[17], header[18], header[19],
                     m.our_men, m.our_kings, m.their_men, m.their_kings);
        else if (get_u64(header + 20) != n)
            snprintf(why, sizeof why, "%llu entries, expected %llu",
                     (unsigned long long)get_u64(header + 20), (unsigned long long)n);
        else if (reserved >= 0)
            snprintf(why, sizeof why, "reserved header byte %d is %d, must be 0", reserved,
                     header[reserved]);
        else if (have != want)
            snprintf(why, sizeof why, "%s: %llu bytes, expected %llu",
                     have < want ? "truncated" : "longer than its table",
                     (unsigned long long)have, (unsigned long long)want);
        else if (!(data = malloc(n ? n : 1)))
            snprintf(why, sizeof why, "out of memory (%llu bytes)", (unsigned long long)n);
        else if (!read_all(fd, data, n))
            e = errno ? errno : -1;
        else if (get_u64(header + 28) != checksum(data, n))
            snprintf(why, sizeof why, "checksum mismatch");
        else
            for (uint64_t i = 0; i < n && !why[0]; i++)
                if (data[i] > CODE_MAX)
                    snprintf(why, sizeof why, "invalid entry %d at index %llu", data[i],
                             (unsigned long long)i);
    }
    close(fd);
    if (e)
        snprintf(why, sizeof why, "%s", e > 0 ? strerror(e) : "truncated while being read");
    if (why[0]) {
        free(data);
        snprintf(err, errlen, "%s: %s", path, why);
        return TABLE_BAD;
    }
    free(tb->data[id]);
    tb->data[id] = data;
    tb->size[id] = n;
    return TABLE_LOADED;
}

/* The problems met while loading a folder: the first few named whole, the
 * rest counted. */
typedef struct Problems {
    char *text;
    size_t size;
    int count;
} Problems;

enum { PROBLEMS_NAMED = 3 };

static void problem(Problems *p, const char *what)
{
    if (p->count < PROBLEMS_NAMED && p->size) {
        size_t len = strlen(p->text);
        snprintf(p->text + len, p->size - len, "%s%s", len ? "; " : "", what);
    }
    p->count++;
}

static void problems_end(Problems *p)
{
    if (p->count > PROBLEMS_NAMED && p->size) {
        size_t len = strlen(p->text);
        snprintf(p->text + len, p->size - len, " (and %d more)", p->count - PROBLEMS_NAMED);
    }
}

/* The folder itself: false with the reason when it cannot be used. */
static bool folder_usable(const char *dir, char *err, size_t errlen)
{
    struct stat st;
    if (stat(dir, &st) != 0) {
        snprintf(err, errlen, "table folder %s: %s", dir, strerror(errno));
        return false;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "table folder %s: %s", dir, strerror(ENOTDIR));
        return false;
    }
    if (access(dir, X_OK) != 0) {
        snprintf(err, errlen, "table folder %s: %s", dir, strerror(errno));
        return false;
    }
    return true;
}

int solomon_tb_load(SolomonTables *tb, const char *dir, int max_pieces, char *err,
                    size_t errlen)
{
    int loaded = 0;
    if (errlen)
        err[0] = '\0';
    if (!folder_usable(dir, err, errlen))
        return -1;
    Problems problems = {err, errlen, 0};
    /* A table absent while one of as many pieces or more is there is a hole
     * in the set: named as missing.  Tables of more pieces than any found
     * are simply not built. */
    int status[MATERIALS], most_found = 0;
    for (int id = 0; id < MATERIALS; id++) {
        SolomonMaterial m = material_of_id(id);
        status[id] = TABLE_ABSENT;
        if (!material_valid(m) || material_pieces(m) > max_pieces)
            continue;
        char why[4200];
        status[id] = read_table(tb, m, dir, why, sizeof why);
        if (status[id] == TABLE_LOADED)
            loaded++;
        else if (status[id] != TABLE_ABSENT)
            problem(&problems, why);
        if (status[id] != TABLE_ABSENT && material_pieces(m) > most_found)
            most_found = material_pieces(m);
    }
    for (int id = 0; id < MATERIALS; id++) {
        SolomonMaterial m = material_of_id(id);
        if (status[id] == TABLE_ABSENT && material_valid(m) && material_pieces(m) <= most_found) {
            char name[96], path[4096], why[4200];
            solomon_tb_file_name(tb->variant, m, name, sizeof name);
            path_join(path, sizeof path, dir, name);
            snprintf(why, sizeof why, "%s: missing (%s; tables of %d pieces are there)", path,
                     strerror(ENOENT), most_found);
            problem(&problems, why);
        }
    }
    problems_end(&problems);
    return problems.count ? -1 : loaded;
}

/* ---- building ------------------------------------------------------------- */

/* One table of the pair being built. */
typedef struct BuildTable {
    SolomonMaterial material;
    int id;
    uint64_t size;
    atomic_uchar *code;  /* 0 unknown, 1..CODE_MAX distance + 1, FROZEN */
    atomic_uchar *moves_left; /* moves inside the pair not yet known to lose */
    uint8_t *exit_loss;  /* 1 + longest move out of the pair that the
                            opponent wins (0: none), or EXIT_DRAW */
    int partner;         /* index of the table its moves lead to (0 or 1) */
} BuildTable;

typedef struct Build {
    const SolomonTables *tb;
    const Variant *variant;
    BuildTable table[2];
    int tables;          /* 1 when the material is its own colour swap */
    atomic_uint_fast64_t next_chunk; /* work handed out: chunk number */
    uint64_t chunks[2];  /* chunks per table */
    int level;           /* the distance being walked backwards */
    atomic_int max_code; /* largest code given so far */
    atomic_bool overflow;
} Build;

static void raise_max_code(Build *b, int code)
{
    int cur = atomic_load_explicit(&b->max_code, memory_order_relaxed);
    while (code > cur &&
           !atomic_compare_exchange_weak_explicit(&b->max_code, &cur, code,
                                                  memory_order_relaxed, memory_order_relaxed))
        ;
}

/* Take the next chunk of work: false when none is left. */
static bool take_chunk(Build *b, int *table, uint64_t *first, uint64_t *last)
{
    uint64_t c = atomic_fetch_add_explicit(&b->next_chunk, 1, memory_order_relaxed);
    for (int t = 0; t < b->tables; t++) {
        if (c < b->chunks[t]) {
            *table = t;
            *first = c * CHUNK;
            *last = *first + CHUNK < b->table[t].size ? *first + CHUNK : b->table[t].size;
            return true;
        }
        c -= b->chunks[t];
    }
    return false;
}

/* Forward pass over one position: terminal value, moves out of the pair
 * probed, moves inside counted. */
static void init_position(Build *b, BuildTable *t, uint64_t i)
{
    const Variant *v = b->variant;
    Board board;
    board_at(t->material, i, &board);
    t->exit_loss[i] = 0;
    atomic_store_explicit(&t->moves_left[i], 0, memory_order_relaxed);
    if (!board_legal(&board)) {
        atomic_store_explicit(&t->code[i], FROZEN, memory_order_relaxed);
        return;
    }
    Position pos, child;
    solomon_board_set(&pos, &board, b->tb->chain);
    Result r = v->result(&pos, NULL, NULL);
    if (r != RESULT_NONE) {
        /* the rules decide: the side to move has lost (0 plies) or it is a
         * draw; a result that the side to move has won cannot happen */
        atomic_store_explicit(&t->code[i], r == RESULT_DRAW ? FROZEN : 1,
                              memory_order_relaxed);
        return;
    }
    Move moves[MAX_MOVES];
    int n = v->generate(&pos, moves);
    SolomonMaterial inside = b->table[t->partner].material;
    int inside_moves = 0, best_win = 0, longest_loss = 0;
    bool draw_exit = false;
    for (int k = 0; k < n; k++) {
        Board raw, cb;
        v->make(&pos, moves[k], &child);
        solomon_board_get(&child, &raw);
        normalise(&raw, &cb);
        SolomonMaterial cm = board_material(&cb);
        if (memcmp(&cm, &inside, sizeof cm) == 0) {
            inside_moves++;
            continue;
        }
        TbValue cv;
        if (!material_valid(cm)) {
            Result cr = v->result(&child, NULL, NULL);
            cv = cr == RESULT_DRAW ? (TbValue){TB_DRAW, 0} : (TbValue){TB_LOSS, 0};
        } else {
            cv = value_of_code(probe_code(b->tb, &cb));
        }
        if (cv.wdl == TB_LOSS) {
            if (!best_win || cv.plies + 1 < best_win)
                best_win = cv.plies + 1;
        } else if (cv.wdl == TB_DRAW) {
            draw_exit = true;
        } else if (cv.plies + 1 > longest_loss) {
            longest_loss = cv.plies + 1;
        }
    }
    atomic_store_explicit(&t->moves_left[i], (unsigned char)inside_moves,
                          memory_order_relaxed);
    int code = 0;
    if (best_win)
        code = best_win + 1; /* may still be beaten by a faster win inside */
    else if (draw_exit)
        t->exit_loss[i] = EXIT_DRAW;
    else if (inside_moves == 0)
        code = longest_loss + 1;
    else
        t->exit_loss[i] = (uint8_t)(longest_loss > CODE_MAX ? CODE_MAX : longest_loss);
    if (code > CODE_MAX) {
        atomic_store(&b->overflow, true);
        code = CODE_MAX;
    }
    atomic_store_explicit(&t->code[i], (unsigned char)code, memory_order_relaxed);
    if (code)
        raise_max_code(b, code);
}

/* Give predecessor j of table q the value that its move into a position of
 * the current level implies. */
static void update_predecessor(Build *b, BuildTable *q, uint64_t j, bool child_lost)
{
    int d = b->level;
    if (atomic_load_explicit(&q->code[j], memory_order_relaxed) == FROZEN)
        return; /* a terminal draw (the step is no move of it) */
    if (child_lost) {
        if (d + 2 > CODE_MAX) {
            atomic_store(&b->overflow, true);
            return;
        }
        /* a win in d+1 plies, unless it is already known to be as fast */
        unsigned char want = (unsigned char)(d + 2);
        unsigned char cur = atomic_load_explicit(&q->code[j], memory_order_relaxed);
        while (cur == 0 || (cur != FROZEN && code_is_win(cur) && cur > want)) {
            if (atomic_compare_exchange_weak_explicit(&q->code[j], &cur, want,
                                                      memory_order_relaxed,
                                                      memory_order_relaxed)) {
                raise_max_code(b, want);
                break;
            }
        }
        return;
    }
    if (atomic_fetch_sub_explicit(&q->moves_left[j], 1, memory_order_relaxed) != 1)
        return;
    if (q->exit_loss[j] == EXIT_DRAW)
        return;
    /* every move now known to lose: lost after the longest of them */
    int plies = d + 1 > q->exit_loss[j] ? d + 1 : q->exit_loss[j];
    int code = plies + 1;
    if (code > CODE_MAX) {
        atomic_store(&b->overflow, true);
        code = CODE_MAX;
    }
    unsigned char zero = 0;
    if (atomic_compare_exchange_strong_explicit(&q->code[j], &zero, (unsigned char)code,
                                                memory_order_relaxed, memory_order_relaxed))
        raise_max_code(b, code);
}

/* Walk one position of the current level backwards: every step of the side
 * that moved last (Black in the stored position) that could have led here. */
static void unmove_position(Build *b, BuildTable *t, uint64_t i)
{
    Board p;
    board_at(t->material, i, &p);
    bool lost = b->level % 2 == 0;
    BuildTable *q = &b->table[t->partner];
    uint32_t occupied = p.men[0] | p.men[1] | p.kings[0] | p.kings[1];
    uint32_t empty = ~occupied & ALL_POINTS;
    for (int kind = 0; kind < 2; kind++) {
        uint32_t pieces = kind ? p.kings[BLACK] : p.men[BLACK];
        for (uint32_t s = pieces; s; s &= s - 1) {
            int to = util_lsb64(s);
            for (uint32_t f = unstep[BLACK][kind][to] & empty; f; f &= f - 1) {
                int from = util_lsb64(f);
                Board before = p, stored;
                uint32_t *set = kind ? &before.kings[BLACK] : &before.men[BLACK];
                *set = (*set & ~BIT(to)) | BIT(from);
                before.stm = BLACK;
                if (solomon_board_must_capture(&before))
                    continue; /* the step was not legal: a capture was due */
                normalise(&before, &stored);
                update_predecessor(b, q, board_index(&stored), lost);
            }
        }
    }
}

typedef enum Phase { PHASE_INIT, PHASE_LEVEL } Phase;

typedef struct Worker {
    Build *build;
    Phase phase;
    pthread_t thread;
} Worker;

static void *work(void *arg)
{
    Worker *w = arg;
    Build *b = w->build;
    int t;
    uint64_t first, last;
    while (take_chunk(b, &t, &first, &last)) {
        BuildTable *table = &b->table[t];
        if (w->phase == PHASE_INIT) {
            for (uint64_t i = first; i < last; i++)
                init_position(b, table, i);
            continue;
        }
        unsigned char code = (unsigned char)(b->level + 1);
        for (uint64_t i = first; i < last; i++)
            if (atomic_load_explicit(&table->code[i], memory_order_relaxed) == code)
                unmove_position(b, table, i);
    }
    return NULL;
}

/* Run one phase over both tables with `threads` threads (the caller is one). */
static void run_phase(Build *b, Phase phase, int threads)
{
    enum { MAX_THREADS = 64 };
    Worker workers[MAX_THREADS];
    if (threads > MAX_THREADS)
        threads = MAX_THREADS;
    atomic_store(&b->next_chunk, 0);
    int started = 0;
    for (int k = 0; k < threads; k++)
        workers[k] = (Worker){b, phase, 0};
    for (int k = 1; k < threads; k++)
        if (pthread_create(&workers[k].thread, NULL, work, &workers[k]) == 0)
            started = k;
        else
            break;
    work(&workers[0]);
    for (int k = 1; k <= started; k++)
        pthread_join(workers[k].thread, NULL);
}

static void free_build(Build *b)
{
    for (int t = 0; t < 2; t++) {
        free(b->table[t].code);
        free(b->table[t].moves_left);
        free(b->table[t].exit_loss);
    }
}

/* Build material m and its colour swap together. */
static bool build_pair(SolomonTables *tb, SolomonMaterial m, int threads, int *max_plies,
                       char *err, size_t errlen)
{
    Build b;
    memset(&b, 0, sizeof b);
    b.tb = tb;
    b.variant = tb->variant;
    SolomonMaterial swapped = material_swap(m);
    b.tables = memcmp(&m, &swapped, sizeof m) == 0 ? 1 : 2;
    for (int t = 0; t < b.tables; t++) {
        BuildTable *bt = &b.table[t];
        bt->material = t == 0 ? m : swapped;
        bt->id = material_id(bt->material);
        bt->size = solomon_tb_material_size(bt->material);
        bt->partner = b.tables == 1 ? 0 : 1 - t;
        bt->code = malloc(bt->size);
        bt->moves_left = malloc(bt->size);
        bt->exit_loss = malloc(bt->size);
        if (!bt->code || !bt->moves_left || !bt->exit_loss) {
            free_build(&b);
            snprintf(err, errlen, "out of memory");
            return false;
        }
        b.chunks[t] = (bt->size + CHUNK - 1) / CHUNK;
    }
    atomic_init(&b.max_code, 0);
    atomic_init(&b.overflow, false);
    atomic_init(&b.next_chunk, 0);
    run_phase(&b, PHASE_INIT, threads);
    for (b.level = 0; b.level + 1 <= atomic_load(&b.max_code); b.level++)
        run_phase(&b, PHASE_LEVEL, threads);
    if (atomic_load(&b.overflow)) {
        free_build(&b);
        snprintf(err, errlen, "a distance exceeds %d plies", CODE_MAX - 1);
        return false;
    }
    *max_plies = atomic_load(&b.max_code) - 1;
    for (int t = 0; t < b.tables; t++) {
        BuildTable *bt = &b.table[t];
        uint8_t *data = malloc(bt->size ? bt->size : 1);
        if (!data) {
            free_build(&b);
            snprintf(err, errlen, "out of memory");
            return false;
        }
        for (uint64_t i = 0; i < bt->size; i++) {
            unsigned char c = atomic_load_explicit(&bt->code[i], memory_order_relaxed);
            data[i] = c == FROZEN ? 0 : c;
        }
        free(tb->data[bt->id]);
        tb->data[bt->id] = data;
        tb->size[bt->id] = bt->size;
    }
    free_build(&b);
    return true;
}

/* Order of building: fewer pieces first, then fewer men (a man that crowns
 * leads to the material with one king more and one man fewer). */
static int build_order(const void *x, const void *y)
{
    SolomonMaterial a = material_of_id(*(const int *)x), b = material_of_id(*(const int *)y);
    int pa = material_pieces(a), pb = material_pieces(b);
    if (pa != pb)
        return pa - pb;
    int ma = a.our_men + a.their_men, mb = b.our_men + b.their_men;
    if (ma != mb)
        return ma - mb;
    return *(const int *)x - *(const int *)y;
}

/* Load the pair of material m from dir, or build it (and write it there).
 * A table by that name that is not a regular file stops the build; a
 * damaged one is rebuilt. */
static bool load_or_build_pair(SolomonTables *tb, SolomonMaterial m, int threads,
                               const char *dir, FILE *log, char *err, size_t errlen)
{
    int id = material_id(m);
    SolomonMaterial swapped = material_swap(m);
    int sid = material_id(swapped);
    if (tb->data[id] && tb->data[sid])
        return true;
    if (dir) {
        char why[4200];
        int r = read_table(tb, m, dir, why, sizeof why);
        int rs = r == TABLE_NOT_REGULAR ? r : read_table(tb, swapped, dir, why, sizeof why);
        if (r == TABLE_NOT_REGULAR || rs == TABLE_NOT_REGULAR) {
            snprintf(err, errlen, "%s", why);
            return false;
        }
        if (r == TABLE_LOADED && rs == TABLE_LOADED) {
            if (log) {
                char name[20];
                solomon_tb_material_name(m, name);
                fprintf(log, "%s %s: loaded from %s\n", tb->variant->name, name, dir);
            }
            return true;
        }
        if (log && (r == TABLE_BAD || rs == TABLE_BAD))
            fprintf(log, "%s; building it again\n", why);
    }
    int64_t start = util_now_ms();
    int max_plies = 0;
    if (!build_pair(tb, m, threads, &max_plies, err, errlen))
        return false;
    if (dir && (!write_table(tb, m, dir, err, errlen) ||
                (sid != id && !write_table(tb, swapped, dir, err, errlen))))
        return false;
    if (log) {
        char name[20], sname[20];
        solomon_tb_material_name(m, name);
        solomon_tb_material_name(swapped, sname);
        uint64_t n = tb->size[id] + (sid != id ? tb->size[sid] : 0);
        fprintf(log, "%s %s%s%s: %llu positions, longest %d plies, %lld ms\n",
                tb->variant->name, name, sid != id ? " + " : "", sid != id ? sname : "",
                (unsigned long long)n, max_plies, (long long)(util_now_ms() - start));
        fflush(log);
    }
    return true;
}

bool solomon_tb_build(SolomonTables *tb, int max_pieces, int threads, const char *dir,
                      FILE *log, char *err, size_t errlen)
{
    static_init();
    if (threads < 1)
        threads = 1;
    if (max_pieces > SOLOMON_TB_PIECES_MAX)
        max_pieces = SOLOMON_TB_PIECES_MAX;
    if (dir && !folder_usable(dir, err, errlen))
        return false;
    int order[MATERIALS], count = 0;
    for (int id = 0; id < MATERIALS; id++) {
        SolomonMaterial m = material_of_id(id);
        if (material_valid(m) && material_pieces(m) <= max_pieces)
            order[count++] = id;
    }
    qsort(order, (size_t)count, sizeof order[0], build_order);
    for (int k = 0; k < count; k++)
        if (!load_or_build_pair(tb, material_of_id(order[k]), threads, dir, log, err, errlen))
            return false;
    return true;
}

/* The name of m's pair: of m and its colour swap, the one built first. */
SolomonMaterial solomon_tb_pair_of(SolomonMaterial m)
{
    SolomonMaterial s = material_swap(m);
    return material_id(s) < material_id(m) ? s : m;
}

int solomon_tb_pair_needs(const Variant *v, SolomonMaterial m, SolomonMaterial *needs, int max)
{
    bool chain = v == &variant_solomon_chain;
    int count = 0;
    m = solomon_tb_pair_of(m);
    for (int side = 0; side < 2; side++) {
        /* the mover's pieces (om, ok) against (tm, tk) */
        SolomonMaterial from = side ? material_swap(m) : m;
        for (int a = 0; a <= from.their_men; a++)
            for (int b = 0; b <= from.their_kings; b++)
                for (int p = 0; p <= (from.our_men > 0); p++) {
                    if ((a + b == 0 && p == 0) || (!chain && a + b > 1))
                        continue;
                    /* the child, stored with the opponent to move */
                    SolomonMaterial c = {from.their_men - a, from.their_kings - b,
                                         from.our_men - p, from.our_kings + p};
                    if (!material_valid(c))
                        continue; /* a side without pieces: the game is over */
                    c = solomon_tb_pair_of(c);
                    bool seen = false;
                    for (int i = 0; i < count && i < max; i++)
                        seen |= material_id(needs[i]) == material_id(c);
                    if (!seen) {
                        if (count < max)
                            needs[count] = c;
                        count++;
                    }
                }
    }
    return count;
}

bool solomon_tb_build_pair(SolomonTables *tb, SolomonMaterial m, int threads, const char *dir,
                           FILE *log, char *err, size_t errlen)
{
    static_init();
    if (!material_valid(m)) {
        snprintf(err, errlen, "not a material with a table");
        return false;
    }
    if (!folder_usable(dir, err, errlen))
        return false;
    SolomonMaterial needs[SOLOMON_TB_NEEDS_MAX];
    int n = solomon_tb_pair_needs(tb->variant, m, needs, SOLOMON_TB_NEEDS_MAX);
    for (int i = 0; i < n && i < SOLOMON_TB_NEEDS_MAX; i++) {
        SolomonMaterial pair[2] = {needs[i], material_swap(needs[i])};
        for (int k = 0; k < 2; k++) {
            if (tb->data[material_id(pair[k])])
                continue;
            char why[4200];
            if (read_table(tb, pair[k], dir, why, sizeof why) != TABLE_LOADED) {
                char name[20];
                solomon_tb_material_name(needs[i], name);
                snprintf(err, errlen, "needs the tables of %s first: %s", name, why);
                return false;
            }
        }
    }
    return load_or_build_pair(tb, solomon_tb_pair_of(m), threads < 1 ? 1 : threads, dir, log,
                              err, errlen);
}

int solomon_tb_pairs(int max_pieces, SolomonMaterial *pairs, int max)
{
    int order[MATERIALS], count = 0;
    for (int id = 0; id < MATERIALS; id++) {
        SolomonMaterial m = material_of_id(id);
        if (material_valid(m) && material_pieces(m) <= max_pieces &&
            material_id(solomon_tb_pair_of(m)) == id)
            order[count++] = id;
    }
    qsort(order, (size_t)count, sizeof order[0], build_order);
    for (int k = 0; k < count && k < max; k++)
        pairs[k] = material_of_id(order[k]);
    return count;
}

bool solomon_tb_material_parse(const char *name, SolomonMaterial *m)
{
    int count[2][2] = {{0, 0}, {0, 0}}, side = 0;
    bool men_seen = false;
    for (const char *c = name; *c; c++) {
        if (*c == 'v' && side == 0) {
            side = 1;
            men_seen = false;
        } else if (*c == 'K' && !men_seen)
            count[side][1]++;
        else if (*c == 'M')
            count[side][0]++, men_seen = true;
        else
            return false;
        if (count[side][0] > SIDE_MAX || count[side][1] > SIDE_MAX)
            return false;
    }
    SolomonMaterial r = {count[0][0], count[0][1], count[1][0], count[1][1]};
    if (side != 1 || !material_valid(r))
        return false;
    *m = r;
    return true;
}

/* ---- verification ------------------------------------------------------------ */

/* The value that the rules and the values of the children give pos. */
static bool expected_value(const SolomonTables *tb, const Position *pos, TbValue *out)
{
    const Variant *v = tb->variant;
    Result r = v->result(pos, NULL, NULL);
    if (r != RESULT_NONE) {
        int stm = v->side_to_move(pos);
        Result stm_wins = stm == WHITE ? RESULT_WHITE_WINS : RESULT_BLACK_WINS;
        *out = r == RESULT_DRAW   ? (TbValue){TB_DRAW, 0}
               : r == stm_wins    ? (TbValue){TB_WIN, 0}
                                  : (TbValue){TB_LOSS, 0};
        return true;
    }
    Move moves[MAX_MOVES];
    int n = v->generate(pos, moves);
    int best_win = -1, longest_loss = -1;
    bool draw = false;
    for (int k = 0; k < n; k++) {
        Position child;
        TbValue cv;
        v->make(pos, moves[k], &child);
        if (!solomon_tb_probe(tb, &child, &cv))
            return false;
        if (v->side_to_move(&child) == v->side_to_move(pos))
            cv.wdl = (TbWdl)-cv.wdl; /* never in Solomon; kept exact anyway */
        if (cv.wdl == TB_LOSS && (best_win < 0 || cv.plies + 1 < best_win))
            best_win = cv.plies + 1;
        else if (cv.wdl == TB_DRAW)
            draw = true;
        else if (cv.wdl == TB_WIN && cv.plies + 1 > longest_loss)
            longest_loss = cv.plies + 1;
    }
    if (best_win >= 0)
        *out = (TbValue){TB_WIN, best_win};
    else if (draw)
        *out = (TbValue){TB_DRAW, 0};
    else
        *out = (TbValue){TB_LOSS, longest_loss < 0 ? 0 : longest_loss};
    return true;
}

typedef struct VerifyJob {
    const SolomonTables *tb;
    SolomonMaterial material;
    uint64_t size;
    atomic_uint_fast64_t next_chunk;
    atomic_uint_fast64_t checked;
    atomic_uint_fast64_t wrong;
    atomic_uint_fast64_t first_wrong; /* index + 1 of a wrong entry, 0: none */
} VerifyJob;

/* The half turn with colours swapped: the same position, Black to move. */
static void board_turned(const Board *b, Board *out)
{
    out->men[BLACK] = turn_half(b->men[WHITE]);
    out->kings[BLACK] = turn_half(b->kings[WHITE]);
    out->men[WHITE] = turn_half(b->men[BLACK]);
    out->kings[WHITE] = turn_half(b->kings[BLACK]);
    out->stm = BLACK;
}

static void *verify_work(void *arg)
{
    VerifyJob *job = arg;
    const SolomonTables *tb = job->tb;
    int id = material_id(job->material);
    for (;;) {
        uint64_t c = atomic_fetch_add_explicit(&job->next_chunk, 1, memory_order_relaxed);
        uint64_t first = c * CHUNK;
        if (first >= job->size)
            break;
        uint64_t last = first + CHUNK < job->size ? first + CHUNK : job->size;
        uint64_t checked = 0, wrong = 0;
        for (uint64_t i = first; i < last; i++) {
            Board b, turned;
            board_at(job->material, i, &b);
            if (!board_legal(&b))
                continue;
            TbValue stored = value_of_code(tb->data[id][i]);
            /* as stored (White to move) and turned half round with the
             * colours swapped (Black to move): the engine generates both */
            board_turned(&b, &turned);
            const Board *views[2] = {&b, &turned};
            for (int view = 0; view < 2; view++) {
                Position pos;
                TbValue want;
                solomon_board_set(&pos, views[view], tb->chain);
                checked++;
                if (!expected_value(tb, &pos, &want) || want.wdl != stored.wdl ||
                    want.plies != stored.plies) {
                    wrong++;
                    uint64_t zero = 0;
                    atomic_compare_exchange_strong(&job->first_wrong, &zero, i + 1);
                }
            }
        }
        atomic_fetch_add(&job->checked, checked);
        atomic_fetch_add(&job->wrong, wrong);
    }
    return NULL;
}

uint64_t solomon_tb_verify(const SolomonTables *tb, SolomonMaterial m, int threads,
                           uint64_t *checked, char *fen_of_wrong, size_t fenlen)
{
    enum { MAX_THREADS = 64 };
    if (checked)
        *checked = 0;
    if (fen_of_wrong && fenlen)
        fen_of_wrong[0] = '\0';
    if (!material_valid(m) || !tb->data[material_id(m)])
        return 0;
    VerifyJob job;
    job.tb = tb;
    job.material = m;
    job.size = tb->size[material_id(m)];
    atomic_init(&job.next_chunk, 0);
    atomic_init(&job.checked, 0);
    atomic_init(&job.wrong, 0);
    atomic_init(&job.first_wrong, 0);
    pthread_t thread[MAX_THREADS];
    int started = 0;
    if (threads > MAX_THREADS)
        threads = MAX_THREADS;
    for (int k = 1; k < threads; k++)
        if (pthread_create(&thread[started], NULL, verify_work, &job) == 0)
            started++;
    verify_work(&job);
    for (int k = 0; k < started; k++)
        pthread_join(thread[k], NULL);
    if (checked)
        *checked = atomic_load(&job.checked);
    uint64_t first = atomic_load(&job.first_wrong);
    if (first && fen_of_wrong && fenlen >= FEN_MAX) {
        Position pos;
        if (solomon_tb_position_at(tb, m, first - 1, &pos))
            tb->variant->to_fen(&pos, fen_of_wrong);
    }
    return atomic_load(&job.wrong);
}

bool solomon_tb_material_next(SolomonMaterial *m, int max_pieces)
{
    int id = material_valid(*m) ? material_id(*m) + 1 : 0;
    for (; id < MATERIALS; id++) {
        SolomonMaterial c = material_of_id(id);
        if (material_valid(c) && material_pieces(c) <= max_pieces) {
            *m = c;
            return true;
        }
    }
    return false;
}

bool solomon_tb_stats(const SolomonTables *tb, SolomonMaterial m, SolomonTbStats *stats)
{
    memset(stats, 0, sizeof *stats);
    if (!material_valid(m) || !tb->data[material_id(m)])
        return false;
    int id = material_id(m);
    for (uint64_t i = 0; i < tb->size[id]; i++) {
        Board b;
        board_at(m, i, &b);
        if (!board_legal(&b))
            continue;
        TbValue value = value_of_code(tb->data[id][i]);
        stats->positions++;
        if (value.wdl == TB_WIN) {
            stats->wins++;
            if (value.plies > stats->longest_win)
                stats->longest_win = value.plies;
        } else if (value.wdl == TB_LOSS) {
            stats->losses++;
            if (value.plies > stats->longest_loss)
                stats->longest_loss = value.plies;
        } else {
            stats->draws++;
        }
    }
    return true;
}

/* ---- the game-independent interface (tablebase.h) ---------------------------- */

struct Tablebase {
    SolomonTables *tables;
    int count;
};

static Tablebase *ops_open(const Variant *v, const char *dir, int max_pieces, char *err,
                           size_t errlen)
{
    Tablebase *tb = util_xcalloc(1, sizeof *tb);
    if (!(tb->tables = solomon_tb_new(v))) {
        free(tb);
        snprintf(err, errlen, "no tables for %s", v->name);
        return NULL;
    }
    int loaded = solomon_tb_load(tb->tables, dir, max_pieces, err, errlen);
    if (loaded < 0) { /* a damaged file: the others still count */
        SolomonMaterial m = {-1, -1, -1, -1};
        loaded = 0;
        while (solomon_tb_material_next(&m, max_pieces))
            loaded += tb->tables->data[material_id(m)] != NULL;
    } else if (loaded == 0) {
        snprintf(err, errlen, "no %s tables of up to %d pieces in %s", v->name, max_pieces,
                 dir);
    }
    if (loaded == 0) {
        solomon_tb_free(tb->tables);
        free(tb);
        return NULL;
    }
    tb->count = loaded;
    return tb;
}

static void ops_close(Tablebase *tb)
{
    if (tb)
        solomon_tb_free(tb->tables);
    free(tb);
}

static bool ops_probe(const Tablebase *tb, const Position *pos, TbValue *value)
{
    return solomon_tb_probe(tb->tables, pos, value);
}

static int ops_count(const Tablebase *tb) { return tb->count; }

static int ops_complete(const Tablebase *tb) { return solomon_tb_complete_pieces(tb->tables); }

const TablebaseOps solomon_tablebase_ops = {ops_open, ops_close, ops_probe, ops_count,
                                            ops_complete};
