#include "pattern.h"

#include <stdlib.h>
#include <string.h>

#include "config.h"

/* The multiplier of IOR's random packet (a 64-bit golden-ratio prime). */
#define RANDOM_PACKET_MULTIPLIER 0x9e37fffffffc0001ULL
/* Offset and incompressible packets stamp the first 8-byte word of every 4 KiB. */
#define WORDS_PER_STAMP 512

bool packet_parse(const char *value, packet_t *out) {
  if (value == NULL) {
    return false;
  }
  switch (value[0]) {
    case '\0':
    case 't': *out = PACKET_TIMESTAMP; return true;
    case 'o': *out = PACKET_OFFSET; return true;
    case 'i': *out = PACKET_INCOMPRESSIBLE; return true;
    case 'r': *out = PACKET_RANDOM; return true;
    default: return false;
  }
}

packet_t packet_of_run(void) {
  packet_t packet = PACKET_TIMESTAMP;
  packet_parse(cfg_str("global", "dataPacketType"), &packet);
  return packet;
}

static inline uint64_t timestamp_word(int32_t seed, int writer_rank, size_t i) {
  /* C promotes the int seed to size_t before the addition: a negative seed fills the upper half
     with ones and hides the rank, exactly like the official expression. */
  return ((uint64_t)writer_rank << 32) | (uint64_t)((size_t)(int64_t)seed + i);
}

/* Two rand_r draws from a fresh state seed + rank: IOR's incompressible word (the same for every i). */
static inline uint64_t incompressible_word(int32_t seed, int writer_rank) {
  unsigned state = (unsigned)seed + (unsigned)writer_rank;
  uint64_t high = (uint64_t)rand_r(&state) << 32;
  uint64_t low = (uint64_t)rand_r(&state);
  return high | low;
}

static inline uint64_t offset_stamp(uint64_t item, uint32_t k, int writer_rank) {
  return (uint64_t)((uint32_t)item * k) | ((uint64_t)writer_rank << 32);
}

static inline uint64_t random_start(int32_t seed, int writer_rank, uint64_t item) {
  unsigned state = (unsigned)seed + (unsigned)writer_rank + (unsigned)item;
  return (uint64_t)rand_r(&state);
}

static inline uint64_t random_next(uint64_t state) { return (state * RANDOM_PACKET_MULTIPLIER) >> 3; }

void pattern_fill(char *buf, size_t bytes, packet_t packet, int32_t seed, int writer_rank) {
  size_t words = bytes / 8;
  for (size_t i = 0; i < words; i++) {
    uint64_t w;
    switch (packet) {
      case PACKET_RANDOM:
        continue; /* written by pattern_update before every write */
      case PACKET_INCOMPRESSIBLE:
        w = incompressible_word(seed, writer_rank);
        break;
      case PACKET_OFFSET:
      case PACKET_TIMESTAMP:
      default:
        w = timestamp_word(seed, writer_rank, i);
        break;
    }
    memcpy(buf + i * 8, &w, sizeof(w));
  }
  for (size_t i = words * 8; i < bytes; i++) {
    buf[i] = (char)i;
  }
}

void pattern_update(char *buf, size_t bytes, packet_t packet, int32_t seed, int writer_rank, uint64_t item) {
  if (packet == PACKET_TIMESTAMP || bytes < 8) {
    return; /* the timestamp packet does not depend on the item: filled once */
  }
  size_t words = bytes / 8;
  if (packet == PACKET_RANDOM) {
    uint64_t state = random_start(seed, writer_rank, item);
    for (size_t i = 0; i < words; i++) {
      state = random_next(state);
      memcpy(buf + i * 8, &state, sizeof(state));
    }
    return;
  }
  uint32_t k = 1;
  for (size_t i = 0; i < words; i += WORDS_PER_STAMP, k++) {
    uint64_t stamp = offset_stamp(item, k, writer_rank);
    memcpy(buf + i * 8, &stamp, sizeof(stamp));
  }
}

int pattern_verify(const char *buf, size_t bytes, packet_t packet, int32_t seed, int writer_rank, uint64_t item) {
  size_t words = bytes / 8;
  uint32_t k = 1;
  uint64_t state = random_start(seed, writer_rank, item);
  int error = 0;
  for (size_t i = 0; i < words; i++) {
    uint64_t expected = 0;
    switch (packet) {
      case PACKET_RANDOM:
        state = random_next(state);
        expected = state;
        break;
      case PACKET_INCOMPRESSIBLE:
        expected = incompressible_word(seed, writer_rank);
        break;
      case PACKET_OFFSET:
      case PACKET_TIMESTAMP:
        expected = timestamp_word(seed, writer_rank, i);
        break;
    }
    if (i % WORDS_PER_STAMP == 0 && packet != PACKET_TIMESTAMP && packet != PACKET_RANDOM) {
      expected = offset_stamp(item, k, writer_rank);
      k++;
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
