/* The .stonewall status files that carry the write count to the later read/stat/delete phases. */
#ifndef RUNNER_STONEWALL_H
#define RUNNER_STONEWALL_H

#include <stdint.h>

/* Rank 0 writes the count as a bare decimal without newline, like StoreStoneWallingIterations. */
void stonewall_store(const char *name, uint64_t count);

/* Collective: rank 0 reads <resdir>/<name> and broadcasts; returns -1 when missing or unreadable. */
int64_t stonewall_load(const char *name);

#endif
