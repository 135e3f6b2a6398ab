#include "hash.h"

#include <stdio.h>

uint32_t hash_update(uint32_t hash, const char *text) {
  for (const char *c = text; *c != '\0'; c++) {
    /* The official code adds a plain char, which is signed on x86; do the same on every platform. */
    hash = ((hash << 2) | (hash >> 30)) + (uint32_t)(int32_t)(signed char)*c;
  }
  return hash;
}

void hash_key_value(uint32_t *combined, const char *key, const char *value) {
  *combined ^= hash_update(hash_update(0, key), value);
}

void hash_key_double(uint32_t *combined, const char *key, double value) {
  char text[64];
  snprintf(text, sizeof(text), "%f", value);
  hash_key_value(combined, key, text);
}

int32_t phase_seed(const char *phase_key, const char *timestamp) {
  uint32_t h = hash_update(hash_update(0, phase_key), timestamp);
  if (h == 0 || h == UINT32_MAX) {
    return 4711;
  }
  return (int32_t)h;
}
