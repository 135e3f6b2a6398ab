/* The "timestamp" data packet of IOR and mdtest (utilities.c generate/verify_memory_pattern). */
#ifndef RUNNER_PATTERN_H
#define RUNNER_PATTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* 64-bit words (writer_rank << 32) | (seed + i), sign-extended seed; trailing bytes (char)i. */
void pattern_fill(char *buf, size_t bytes, int32_t seed, int writer_rank);

/* Compares every word with the pattern (the whole buffer, as IOR's verify_memory_pattern does); returns 1
   when anything differs, else 0. IOR and mdtest count one error per transfer or file.
   IOR's loop does three things per 8-byte word: it forms the expected word, tests whether the word is
   one of the offset stamps that its offset and incompressible packets carry in the first word of every
   4 KiB (stamp = (uint32_t)item * k | rank << 32, k = 1, 2, ...), and compares. offset_stamps says whether
   the packet carries them; it is false for the timestamp packet, the only one this runner writes, but it
   is tested per word as in IOR, so that checking a buffer costs the same CPU time as in IOR (a plain
   comparison loop is vectorised by the compiler and made our checked reads ~1.5x faster than IOR's). */
int pattern_verify(const char *buf, size_t bytes, int32_t seed, int writer_rank, uint64_t item,
                   bool offset_stamps);

#endif
