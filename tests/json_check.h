/* json_check.h - a strict JSON parser for the tests (RFC 8259).
 *
 * The engine only writes JSON; the tests read it back with this parser,
 * which accepts exactly RFC 8259 text (one value, optional whitespace
 * around it) and rejects everything else: trailing commas, leading zeros,
 * bare control characters, bad escapes, lone surrogates, invalid UTF-8.
 * It is stricter than the RFC in one way: an object may not repeat a key
 * (no engine output needs that, and a repeated key is a writer bug). */
#ifndef SIGIL_JSON_CHECK_H
#define SIGIL_JSON_CHECK_H

#include <stdbool.h>
#include <stddef.h>

typedef enum JsonType {
    JSON_NULL,
    JSON_BOOL,
    JSON_NUMBER,
    JSON_STRING,
    JSON_ARRAY,
    JSON_OBJECT
} JsonType;

typedef struct JsonValue {
    JsonType type;
    bool boolean;
    double number;
    char *string;              /* JSON_STRING: decoded UTF-8, NUL-terminated */
    size_t string_length;      /* bytes (a \u0000 may be inside) */
    int count;                 /* JSON_ARRAY / JSON_OBJECT: members */
    struct JsonValue **items;  /* the elements, or the members' values */
    char **keys;               /* JSON_OBJECT: the members' keys */
} JsonValue;

/* Parse text whole; NULL on any error, with the reason and the byte offset
 * in err. */
JsonValue *json_check_parse(const char *text, char *err, size_t errlen);
/* Free a parsed value (NULL is fine). */
void json_check_free(JsonValue *v);

/* Member `key` of an object, or NULL (also when v is no object). */
const JsonValue *json_check_get(const JsonValue *v, const char *key);
/* Element i of an array, or NULL. */
const JsonValue *json_check_at(const JsonValue *v, int i);
/* The string of member `key` when it is a string, else NULL. */
const char *json_check_string(const JsonValue *v, const char *key);

#endif
