/*
 * Small helpers of {{name}}'s tools: copying text for the host and building answers by hand (no JSON library).
 * Every string handed to the host comes from malloc and goes back through this library's entropic_free.
 */
#pragma once

#include <stdlib.h>
#include <string.h>

static char *copy_text(const char *text) {
  size_t size = strlen(text) + 1;
  char *copy = malloc(size);
  if (copy != NULL) memcpy(copy, text, size);
  return copy;
}

/* Builds {"result":"<prefix><raw><suffix>","directives":[]}; raw is already JSON-escaped text. */
static char *answer(const char *prefix, const char *raw, size_t raw_len, const char *suffix) {
  static const char head[] = "{\"result\":\"";
  static const char tail[] = "\",\"directives\":[]}";
  size_t size = strlen(head) + strlen(prefix) + raw_len + strlen(suffix) + strlen(tail) + 1;
  char *out = malloc(size);
  if (out == NULL) return NULL;
  char *p = out;
  memcpy(p, head, strlen(head)), p += strlen(head);
  memcpy(p, prefix, strlen(prefix)), p += strlen(prefix);
  memcpy(p, raw, raw_len), p += raw_len;
  memcpy(p, suffix, strlen(suffix)), p += strlen(suffix);
  memcpy(p, tail, sizeof tail);
  return out;
}

/*
 * Finds the string value of "name" in the arguments. The server has already checked them against the
 * inputSchema below (an object with exactly one string property "name"), so the first "name" is the key.
 * The value is returned still JSON-escaped, which is exactly what the answer needs.
 */
static const char *name_value(const char *args_json, size_t *len) {
  const char *p = args_json != NULL ? strstr(args_json, "\"name\"") : NULL;
  if (p == NULL) return NULL;
  p = strchr(p + 6, '"');
  if (p == NULL) return NULL;
  const char *start = ++p;
  while (*p != '\0' && *p != '"') p += (*p == '\\' && p[1] != '\0') ? 2 : 1;
  *len = (size_t)(p - start);
  return start;
}
