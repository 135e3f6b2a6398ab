/* The data packets of IOR and mdtest (IOR utilities.c: generate_memory_pattern, update_write_memory_pattern,
   verify_memory_pattern), selected by [global] dataPacketType. */
#ifndef RUNNER_PATTERN_H
#define RUNNER_PATTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The four packet types, in IOR's order. As in IOR the first character of the option value decides:
   t(imestamp), o(ffset), i(ncompressible), r(andom). */
typedef enum { PACKET_TIMESTAMP, PACKET_OFFSET, PACKET_INCOMPRESSIBLE, PACKET_RANDOM } packet_t;

/* false when the value names no packet type (IOR aborts with "Unknown packet type"). */
bool packet_parse(const char *value, packet_t *out);

/* The packet type of the run ([global] dataPacketType, checked before the run starts). */
packet_t packet_of_run(void);

/* Fills the buffer once per phase (IOR and mdtest do it before the timed region):
   timestamp and offset: 64-bit words (writer_rank << 32) | (seed + i) with the sign-extended seed;
   incompressible: every word (rand_r(s) << 32) | rand_r(s) with s = seed + writer_rank;
   random: left to pattern_update. Trailing bytes (bytes % 8) are (char)i for every type. */
void pattern_fill(char *buf, size_t bytes, packet_t packet, int32_t seed, int writer_rank);

/* Called before every write of a transfer (IOR: item = file offset) or file (mdtest: item = file number).
   Nothing for timestamp; offset and incompressible stamp the first word of every 4 KiB with
   (uint32_t)item * k | writer_rank << 32 (k = 1, 2, ...); random refills every word from
   rand_r(seed + writer_rank + item) with a multiplicative step. */
void pattern_update(char *buf, size_t bytes, packet_t packet, int32_t seed, int writer_rank, uint64_t item);

/* Compares every word of a buffer just read with what pattern_fill + pattern_update wrote for this
   writer and item; returns 1 when anything differs, else 0 (IOR and mdtest count one error per transfer
   or file). The whole buffer is always checked, and every word takes IOR's steps: select the expected
   word for the packet type, replace it by the offset stamp on the first word of each 4 KiB for the
   offset and incompressible packets, compare. */
int pattern_verify(const char *buf, size_t bytes, packet_t packet, int32_t seed, int writer_rank, uint64_t item);

#endif
