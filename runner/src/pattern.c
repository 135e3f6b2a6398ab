#include "pattern.h"

#include <string.h>

static inline uint64_t pattern_word(int32_t seed, int writer_rank, size_t i) {
  /* C promotes the int seed to size_t before the addition: a negative seed fills the upper half
     with ones and hides the rank, exactly like the official expression. */
  return ((uint64_t)writer_rank << 32) | (uint64_t)((size_t)(int64_t)seed + i);
}

void pattern_fill(char *buf, size_t bytes, int32_t seed, int writer_rank) {
  size_t words = bytes / 8;
  for (size_t i = 0; i < words; i++) {
    uint64_t w = pattern_word(seed, writer_rank, i);
    memcpy(buf + i * 8, &w, sizeof(w));
  }
  for (size_t i = words * 8; i < bytes; i++) {
    buf[i] = (char)i;
  }
}

int pattern_verify(const char *buf, size_t bytes, int32_t seed, int writer_rank, uint64_t item,
                   bool offset_stamps) {
  size_t words = bytes / 8;
  uint64_t stamp = 1;
  int error = 0;
  for (size_t i = 0; i < words; i++) {
    uint64_t expected = pattern_word(seed, writer_rank, i);
    if (i % 512 == 0 && offset_stamps) {
      expected = ((uint64_t)writer_rank << 32) | ((uint32_t)item * stamp);
      stamp++;
    }
    uint64_t w;
    memcpy(&w, buf + i * 8, sizeof(w));
    if (w != expected) {
      error = 1;
    }
  }
  for (size_t i = words * 8; i < bytes; i++) {
    if (buf[i] != (char)i) {
      error = 1;
    }
  }
  return error;
}
