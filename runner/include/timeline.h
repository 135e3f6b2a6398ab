/* Per-rank progress in one-second bins, kept in memory during a phase and written after it. */
#ifndef RUNNER_TIMELINE_H
#define RUNNER_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
  double t0;      /* phase start on this rank (MPI_Wtime) */
  uint64_t *bins; /* amount done in second k since t0 */
  size_t count;   /* bins in use */
  size_t capacity;
} timeline_t;

/* Starts at t0; capacity is sized for the stonewall so that growth is rare during the phase. */
void timeline_start(timeline_t *tl, double t0, int expected_seconds);

/* Makes room for bin; called by timeline_add only when the preallocated bins run out. */
void timeline_grow(timeline_t *tl, size_t bin);

/* Adds amount (bytes or items) at time t; inline because it runs after every transfer or file. */
static inline void timeline_add(timeline_t *tl, double t, uint64_t amount) {
  double dt = t - tl->t0;
  size_t bin = dt > 0 ? (size_t)dt : 0;
  if (bin >= tl->capacity) {
    timeline_grow(tl, bin);
  }
  if (bin >= tl->count) {
    tl->count = bin + 1;
  }
  tl->bins[bin] += amount;
}

/* Marks the end of this rank's work at time t, so that idle seconds show up as zero bins. */
void timeline_end(timeline_t *tl, double t);

/* Collective: gathers every rank's bins and rank 0 writes <resdir>/<phase>.timeline.csv. */
void timeline_write(timeline_t *tl, const char *phase);

void timeline_free(timeline_t *tl);

#endif
