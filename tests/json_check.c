/* json_check.c - the strict JSON parser of the tests (see json_check.h). */
#include "json_check.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_DEPTH = 64 };

typedef struct Parser {
    const unsigned char *s;
    size_t pos;
    char *err;
    size_t errlen;
    bool failed;
} Parser;

static void fail(Parser *p, const char *what)
{
    if (!p->failed && p->err && p->errlen)
        snprintf(p->err, p->errlen, "%s at byte %zu", what, p->pos);
    p->failed = true;
}

static void *xcalloc(size_t n, size_t size)
{
    void *m = calloc(n ? n : 1, size);
    if (!m) {
        fprintf(stderr, "json_check: out of memory\n");
        abort();
    }
    return m;
}

static void skip_space(Parser *p)
{
    while (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' || p->s[p->pos] == '\n' ||
           p->s[p->pos] == '\r')
        p->pos++;
}

static JsonValue *parse_value(Parser *p, int depth);

static bool literal(Parser *p, const char *word)
{
    size_t n = strlen(word);
    if (strncmp((const char *)p->s + p->pos, word, n) != 0)
        return false;
    p->pos += n;
    return true;
}

static bool digit(unsigned char c) { return c >= '0' && c <= '9'; }

static JsonValue *parse_number(Parser *p)
{
    size_t start = p->pos;
    if (p->s[p->pos] == '-')
        p->pos++;
    if (p->s[p->pos] == '0') {
        p->pos++;
        if (digit(p->s[p->pos])) {
            fail(p, "leading zero in a number");
            return NULL;
        }
    } else if (digit(p->s[p->pos]) && p->s[p->pos] != '0') {
        while (digit(p->s[p->pos]))
            p->pos++;
    } else {
        fail(p, "bad number");
        return NULL;
    }
    if (p->s[p->pos] == '.') {
        p->pos++;
        if (!digit(p->s[p->pos])) {
            fail(p, "no digit after the decimal point");
            return NULL;
        }
        while (digit(p->s[p->pos]))
            p->pos++;
    }
    if (p->s[p->pos] == 'e' || p->s[p->pos] == 'E') {
        p->pos++;
        if (p->s[p->pos] == '+' || p->s[p->pos] == '-')
            p->pos++;
        if (!digit(p->s[p->pos])) {
            fail(p, "no digit in the exponent");
            return NULL;
        }
        while (digit(p->s[p->pos]))
            p->pos++;
    }
    char tmp[64];
    size_t n = p->pos - start;
    if (n >= sizeof tmp) {
        fail(p, "number too long for the tests");
        return NULL;
    }
    memcpy(tmp, p->s + start, n);
    tmp[n] = '\0';
    JsonValue *v = xcalloc(1, sizeof *v);
    v->type = JSON_NUMBER;
    v->number = strtod(tmp, NULL);
    return v;
}

static int hex4(Parser *p)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        unsigned char c = p->s[p->pos + (size_t)i];
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    p->pos += 4;
    return v;
}

static void put_utf8(char *out, size_t *n, uint32_t cp)
{
    if (cp < 0x80) {
        out[(*n)++] = (char)cp;
    } else if (cp < 0x800) {
        out[(*n)++] = (char)(0xC0 | cp >> 6);
        out[(*n)++] = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out[(*n)++] = (char)(0xE0 | cp >> 12);
        out[(*n)++] = (char)(0x80 | (cp >> 6 & 0x3F));
        out[(*n)++] = (char)(0x80 | (cp & 0x3F));
    } else {
        out[(*n)++] = (char)(0xF0 | cp >> 18);
        out[(*n)++] = (char)(0x80 | (cp >> 12 & 0x3F));
        out[(*n)++] = (char)(0x80 | (cp >> 6 & 0x3F));
        out[(*n)++] = (char)(0x80 | (cp & 0x3F));
    }
}

/* Length of the valid UTF-8 sequence at s, 0 if invalid. */
static int utf8_length(const unsigned char *s)
{
    unsigned c = s[0];
    int n;
    uint32_t min;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4, min = 0x10000;
    else
        return 0;
    uint32_t v = c & (0x7Fu >> n);
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        v = v << 6 | (s[i] & 0x3Fu);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    return n;
}

/* A string at p->pos (the opening quote); the decoded bytes in *out. */
static bool parse_string_raw(Parser *p, char **out, size_t *outlen)
{
    p->pos++; /* the quote */
    /* The decoded text is never longer than the source up to the closing
     * quote (an escape shrinks or keeps its size), found skipping escapes. */
    size_t end = p->pos, cap = 1;
    while (p->s[end] && p->s[end] != '"') {
        if (p->s[end] == '\\' && p->s[end + 1])
            end++, cap++;
        end++, cap++;
    }
    char *buf = xcalloc(cap + 4, 1);
    size_t n = 0;
    for (;;) {
        unsigned char c = p->s[p->pos];
        if (c == '\0') {
            free(buf);
            fail(p, "unterminated string");
            return false;
        }
        if (c == '"') {
            p->pos++;
            break;
        }
        if (c < 0x20) {
            free(buf);
            fail(p, "control character in a string");
            return false;
        }
        if (c == '\\') {
            p->pos++;
            unsigned char e = p->s[p->pos++];
            switch (e) {
            case '"': buf[n++] = '"'; break;
            case '\\': buf[n++] = '\\'; break;
            case '/': buf[n++] = '/'; break;
            case 'b': buf[n++] = '\b'; break;
            case 'f': buf[n++] = '\f'; break;
            case 'n': buf[n++] = '\n'; break;
            case 'r': buf[n++] = '\r'; break;
            case 't': buf[n++] = '\t'; break;
            case 'u': {
                int u = hex4(p);
                if (u < 0) {
                    free(buf);
                    fail(p, "bad \\u escape");
                    return false;
                }
                uint32_t cp = (uint32_t)u;
                if (cp >= 0xDC00 && cp <= 0xDFFF) {
                    free(buf);
                    fail(p, "lone low surrogate");
                    return false;
                }
                if (cp >= 0xD800 && cp <= 0xDBFF) {
                    int lo = -1;
                    if (p->s[p->pos] == '\\' && p->s[p->pos + 1] == 'u') {
                        p->pos += 2;
                        lo = hex4(p);
                    }
                    if (lo < 0xDC00 || lo > 0xDFFF) {
                        free(buf);
                        fail(p, "lone high surrogate");
                        return false;
                    }
                    cp = 0x10000 + ((cp - 0xD800) << 10) + ((uint32_t)lo - 0xDC00);
                }
                put_utf8(buf, &n, cp);
                break;
            }
            default:
                free(buf);
                fail(p, "bad escape");
                return false;
            }
            continue;
        }
        int len = utf8_length(p->s + p->pos);
        if (len == 0) {
            free(buf);
            fail(p, "invalid UTF-8");
            return false;
        }
        memcpy(buf + n, p->s + p->pos, (size_t)len);
        n += (size_t)len;
        p->pos += (size_t)len;
    }
    buf[n] = '\0';
    *out = buf;
    *outlen = n;
    return true;
}

static JsonValue *parse_container(Parser *p, int depth, bool object)
{
    JsonValue *v = xcalloc(1, sizeof *v);
    v->type = object ? JSON_OBJECT : JSON_ARRAY;
    int cap = 0;
    p->pos++; /* the bracket */
    skip_space(p);
    char close = object ? '}' : ']';
    if (p->s[p->pos] == (unsigned char)close) {
        p->pos++;
        return v;
    }
    for (;;) {
        char *key = NULL;
        if (object) {
            skip_space(p);
            size_t klen;
            if (p->s[p->pos] != '"') {
                fail(p, "expected a key");
                json_check_free(v);
                return NULL;
            }
            if (!parse_string_raw(p, &key, &klen)) {
                json_check_free(v);
                return NULL;
            }
            for (int i = 0; i < v->count; i++)
                if (strcmp(v->keys[i], key) == 0) {
                    fail(p, "repeated key");
                    free(key);
                    json_check_free(v);
                    return NULL;
                }
            skip_space(p);
            if (p->s[p->pos] != ':') {
                fail(p, "expected ':'");
                free(key);
                json_check_free(v);
                return NULL;
            }
            p->pos++;
        }
        JsonValue *item = parse_value(p, depth + 1);
        if (!item) {
            free(key);
            json_check_free(v);
            return NULL;
        }
        if (v->count == cap) {
            cap = cap ? 2 * cap : 8;
            v->items = realloc(v->items, (size_t)cap * sizeof *v->items);
            if (object)
                v->keys = realloc(v->keys, (size_t)cap * sizeof *v->keys);
            if (!v->items || (object && !v->keys))
                abort();
        }
        v->items[v->count] = item;
        if (object)
            v->keys[v->count] = key;
        v->count++;
        skip_space(p);
        if (p->s[p->pos] == ',') {
            p->pos++;
            continue;
        }
        if (p->s[p->pos] == (unsigned char)close) {
            p->pos++;
            return v;
        }
        fail(p, object ? "expected ',' or '}'" : "expected ',' or ']'");
        json_check_free(v);
        return NULL;
    }
}

static JsonValue *parse_value(Parser *p, int depth)
{
    if (depth > MAX_DEPTH) {
        fail(p, "nested too deeply");
        return NULL;
    }
    skip_space(p);
    unsigned char c = p->s[p->pos];
    JsonValue *v;
    switch (c) {
    case '{': return parse_container(p, depth, true);
    case '[': return parse_container(p, depth, false);
    case '"': {
        char *s;
        size_t n;
        if (!parse_string_raw(p, &s, &n))
            return NULL;
        v = xcalloc(1, sizeof *v);
        v->type = JSON_STRING;
        v->string = s;
        v->string_length = n;
        return v;
    }
    case 't':
    case 'f':
    case 'n':
        v = xcalloc(1, sizeof *v);
        if (literal(p, "true")) {
            v->type = JSON_BOOL;
            v->boolean = true;
        } else if (literal(p, "false")) {
            v->type = JSON_BOOL;
        } else if (literal(p, "null")) {
            v->type = JSON_NULL;
        } else {
            free(v);
            fail(p, "bad literal");
            return NULL;
        }
        return v;
    default:
        if (c == '-' || digit(c))
            return parse_number(p);
        fail(p, c ? "unexpected character" : "unexpected end of text");
        return NULL;
    }
}

JsonValue *json_check_parse(const char *text, char *err, size_t errlen)
{
    Parser p = {(const unsigned char *)text, 0, err, errlen, false};
    if (err && errlen)
        err[0] = '\0';
    if (!text) {
        fail(&p, "no text");
        return NULL;
    }
    JsonValue *v = parse_value(&p, 0);
    if (!v)
        return NULL;
    skip_space(&p);
    if (p.s[p.pos] != '\0') {
        fail(&p, "text after the value");
        json_check_free(v);
        return NULL;
    }
    return v;
}

void json_check_free(JsonValue *v)
{
    if (!v)
        return;
    for (int i = 0; i < v->count; i++) {
        json_check_free(v->items[i]);
        if (v->keys)
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->string);
    free(v);
}

const JsonValue *json_check_get(const JsonValue *v, const char *key)
{
    if (!v || v->type != JSON_OBJECT)
        return NULL;
    for (int i = 0; i < v->count; i++)
        if (strcmp(v->keys[i], key) == 0)
            return v->items[i];
    return NULL;
}

const JsonValue *json_check_at(const JsonValue *v, int i)
{
    if (!v || v->type != JSON_ARRAY || i < 0 || i >= v->count)
        return NULL;
    return v->items[i];
}

const char *json_check_string(const JsonValue *v, const char *key)
{
    const JsonValue *m = json_check_get(v, key);
    return m && m->type == JSON_STRING ? m->string : NULL;
}
