/*
 * Just enough JSON for the example plugins: read a top-level string or integer field of a flat object, escape
 * text into a JSON string, and build the answer envelope. Every returned buffer comes from malloc, so the
 * plugin's entropic_free is plain free().
 */
#ifndef EXAMPLES_MINI_JSON_H
#define EXAMPLES_MINI_JSON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Points just after `"key":` (and any spaces) in a flat object, or NULL. */
static inline const char* mj_value(const char* json, const char* key) {
  size_t len = strlen(key);
  for (const char* p = strchr(json, '"'); p != NULL; p = strchr(p + 1, '"')) {
    if (strncmp(p + 1, key, len) != 0 || p[len + 1] != '"') continue;
    const char* v = p + len + 2;
    while (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r') v++;
    if (*v != ':') continue;
    v++;
    while (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r') v++;
    return v;
  }
  return NULL;
}

/* The decoded value of a string field (\uXXXX outside ASCII becomes '?'), or NULL. Caller frees. */
static inline char* mj_string(const char* json, const char* key) {
  const char* v = mj_value(json, key);
  if (v == NULL || *v != '"') return NULL;
  char* out = malloc(strlen(v) + 1);
  char* o = out;
  for (v++; *v && *v != '"'; v++) {
    if (*v != '\\') {
      *o++ = *v;
      continue;
    }
    v++;
    switch (*v) {
      case 'n': *o++ = '\n'; break;
      case 't': *o++ = '\t'; break;
      case 'r': *o++ = '\r'; break;
      case 'b': *o++ = '\b'; break;
      case 'f': *o++ = '\f'; break;
      case 'u': {
        unsigned code = 0;
        if (sscanf(v + 1, "%4x", &code) == 1) v += 4;
        *o++ = code < 0x80 ? (char)code : '?';
        break;
      }
      case '\0': v--; break;
      default: *o++ = *v; break;
    }
  }
  *o = '\0';
  return out;
}

/* An integer field, or `fallback`. */
static inline long mj_int(const char* json, const char* key, long fallback) {
  const char* v = mj_value(json, key);
  if (v == NULL) return fallback;
  char* end = NULL;
  long n = strtol(v, &end, 10);
  return end == v ? fallback : n;
}

/* `text` as the inside of a JSON string (no quotes). Caller frees. */
static inline char* mj_escape(const char* text) {
  char* out = malloc(strlen(text) * 6 + 1);
  char* o = out;
  for (const unsigned char* s = (const unsigned char*)text; *s; s++) {
    if (*s == '"' || *s == '\\') {
      *o++ = '\\';
      *o++ = (char)*s;
    } else if (*s == '\n') {
      *o++ = '\\';
      *o++ = 'n';
    } else if (*s < 0x20) {
      o += sprintf(o, "\\u%04x", *s);
    } else {
      *o++ = (char)*s;
    }
  }
  *o = '\0';
  return out;
}

/* The ServerResponse envelope: {"result":"<text>","directives":[{"type":"<directive>"}]} (none when NULL). */
static inline char* mj_answer(const char* text, const char* directive) {
  char* escaped = mj_escape(text);
  size_t size = strlen(escaped) + (directive ? strlen(directive) : 0) + 64;
  char* out = malloc(size);
  if (directive != NULL) {
    snprintf(out, size, "{\"result\":\"%s\",\"directives\":[{\"type\":\"%s\"}]}", escaped, directive);
  } else {
    snprintf(out, size, "{\"result\":\"%s\",\"directives\":[]}", escaped);
  }
  free(escaped);
  return out;
}

#endif
