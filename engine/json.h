/* json.h - a small JSON writer (output only) into a caller's buffer.
 *
 * Commas and nesting are tracked by the writer, strings are escaped, and the
 * text stays NUL-terminated; when the buffer is too small the writer stops
 * writing and json_ok() turns false, so a caller never emits a cut-off
 * object.  Everything the engine prints as JSON goes through here. */
#ifndef SIGIL_JSON_H
#define SIGIL_JSON_H

#include <stdbool.h>
#include <stddef.h>

#define JSON_MAX_DEPTH 16

typedef struct JsonWriter {
    char *buf;
    size_t size;     /* bytes of buf, the NUL included */
    size_t len;      /* bytes written so far (without the NUL) */
    bool overflow;   /* something did not fit, or the nesting was wrong */
    int depth;
    bool first[JSON_MAX_DEPTH]; /* no value written yet at this level */
    bool after_key;  /* a key was written; its value comes next */
} JsonWriter;

/* Start writing into buf (size > 0 bytes). */
void json_init(JsonWriter *w, char *buf, size_t size);
/* True when everything written so far fitted and every object and array is
 * closed. */
bool json_ok(const JsonWriter *w);

/* '{' and '}', '[' and ']'. */
void json_begin_object(JsonWriter *w);
void json_end_object(JsonWriter *w);
void json_begin_array(JsonWriter *w);
void json_end_array(JsonWriter *w);
/* The key of the next member of the current object. */
void json_key(JsonWriter *w, const char *key);

/* Values (in an array, or after json_key). */
void json_string(JsonWriter *w, const char *s);
/* A member whose value is a string: json_key(w, key), then json_string(w, s). */
void json_member_string(JsonWriter *w, const char *key, const char *s);
/* A string, or null when s is NULL. */
void json_string_or_null(JsonWriter *w, const char *s);
void json_int(JsonWriter *w, long long v);
/* A number with at most `decimals` digits after the point, trailing zeros
 * dropped; NaN and infinities (not JSON) are written as null. */
void json_double(JsonWriter *w, double v, int decimals);
void json_bool(JsonWriter *w, bool v);
void json_null(JsonWriter *w);

#endif
