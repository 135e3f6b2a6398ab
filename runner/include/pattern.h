/* The "timestamp" data packet of IOR and mdtest (utilities.c generate/verify_memory_pattern). */
#ifndef RUNNER_PATTERN_H
#define RUNNER_PATTERN_H

#include <stddef.h>
#include <stdint.h>

/* 64-bit words (writer_rank << 32) | (seed + i), sign-extended seed; trailing bytes (char)i. */
void pattern_fill(char *buf, size_t bytes, int32_t seed, int writer_rank);

/* Compares every word with the pattern (the whole buffer, as IOR does); returns 1 when anything
   differs, else 0. IOR and mdtest count one error per transfer or file. */
int pattern_verify(const char *buf, size_t bytes, int32_t seed, int writer_rank);

#endif
