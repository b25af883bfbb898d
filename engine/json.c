/* json.c - the JSON writer (see json.h). */
#include "json.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void json_init(JsonWriter *w, char *buf, size_t size)
{
    memset(w, 0, sizeof *w);
    w->buf = buf;
    w->size = size;
    w->first[0] = true;
    if (size)
        buf[0] = '\0';
    else
        w->overflow = true;
}

bool json_ok(const JsonWriter *w) { return !w->overflow && w->depth == 0 && !w->after_key; }

static void put_bytes(JsonWriter *w, const char *s, size_t n)
{
    if (w->overflow)
        return;
    if (w->len + n >= w->size) {
        w->overflow = true;
        return;
    }
    memcpy(w->buf + w->len, s, n);
    w->len += n;
    w->buf[w->len] = '\0';
}

static void put(JsonWriter *w, const char *s) { put_bytes(w, s, strlen(s)); }

static void putf(JsonWriter *w, const char *fmt, ...)
{
    char tmp[64];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof tmp) {
        w->overflow = true;
        return;
    }
    put_bytes(w, tmp, (size_t)n);
}

/* Called before every value and every key: the comma between siblings.  A
 * value right after its key needs none. */
static void separate(JsonWriter *w)
{
    if (w->after_key) {
        w->after_key = false;
        return;
    }
    if (!w->first[w->depth])
        put(w, ",");
    w->first[w->depth] = false;
}

static void open_level(JsonWriter *w, const char *bracket)
{
    separate(w);
    put(w, bracket);
    if (w->depth + 1 >= JSON_MAX_DEPTH) {
        w->overflow = true;
        return;
    }
    w->first[++w->depth] = true;
}

static void close_level(JsonWriter *w, const char *bracket)
{
    if (w->depth == 0 || w->after_key) {
        w->overflow = true;
        return;
    }
    w->depth--;
    put(w, bracket);
}

void json_begin_object(JsonWriter *w) { open_level(w, "{"); }
void json_end_object(JsonWriter *w) { close_level(w, "}"); }
void json_begin_array(JsonWriter *w) { open_level(w, "["); }
void json_end_array(JsonWriter *w) { close_level(w, "]"); }

/* Length of the valid UTF-8 sequence at s (1-4), or 0 when it is not one
 * (overlong forms, surrogates and values above U+10FFFF are not). */
static int utf8_sequence(const unsigned char *s)
{
    unsigned c = s[0];
    int n;
    unsigned min;
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
    unsigned v = c & (0x7F >> n);
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        v = v << 6 | (s[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    return n;
}

static void put_string(JsonWriter *w, const char *text)
{
    const unsigned char *s = (const unsigned char *)text;
    put(w, "\"");
    while (*s) {
        unsigned c = *s;
        if (c == '"' || c == '\\') {
            put(w, c == '"' ? "\\\"" : "\\\\");
            s++;
        } else if (c < 0x20) {
            switch (c) {
            case '\n': put(w, "\\n"); break;
            case '\r': put(w, "\\r"); break;
            case '\t': put(w, "\\t"); break;
            case '\b': put(w, "\\b"); break;
            case '\f': put(w, "\\f"); break;
            default: putf(w, "\\u%04x", c); break;
            }
            s++;
        } else {
            int n = utf8_sequence(s);
            if (n == 0) {
                put(w, "\\ufffd"); /* not UTF-8: the replacement character */
                s++;
            } else {
                put_bytes(w, (const char *)s, (size_t)n);
                s += n;
            }
        }
    }
    put(w, "\"");
}

void json_key(JsonWriter *w, const char *key)
{
    if (w->depth == 0 || w->after_key) {
        w->overflow = true;
        return;
    }
    separate(w);
    put_string(w, key);
    put(w, ":");
    w->after_key = true;
}

void json_string(JsonWriter *w, const char *s)
{
    separate(w);
    put_string(w, s ? s : "");
}

void json_member_string(JsonWriter *w, const char *key, const char *s)
{
    json_key(w, key);
    json_string(w, s);
}

void json_string_or_null(JsonWriter *w, const char *s)
{
    if (s)
        json_string(w, s);
    else
        json_null(w);
}

void json_int(JsonWriter *w, long long v)
{
    separate(w);
    putf(w, "%lld", v);
}

void json_double(JsonWriter *w, double v, int decimals)
{
    if (!isfinite(v)) {
        json_null(w);
        return;
    }
    if (decimals < 0)
        decimals = 0;
    if (decimals > 12)
        decimals = 12;
    char tmp[64];
    int n = snprintf(tmp, sizeof tmp, "%.*f", decimals, v);
    if (n < 0 || (size_t)n >= sizeof tmp) {
        separate(w);
        w->overflow = true;
        return;
    }
    if (strchr(tmp, '.')) {
        while (n > 0 && tmp[n - 1] == '0')
            tmp[--n] = '\0';
        if (n > 0 && tmp[n - 1] == '.')
            tmp[--n] = '\0';
    }
    if (strcmp(tmp, "-0") == 0)
        strcpy(tmp, "0");
    separate(w);
    put(w, tmp);
}

void json_bool(JsonWriter *w, bool v)
{
    separate(w);
    put(w, v ? "true" : "false");
}

void json_null(JsonWriter *w)
{
    separate(w);
    put(w, "null");
}
