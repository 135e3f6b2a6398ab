#include "timeline.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "runner.h"
#include "util.h"

void timeline_start(timeline_t *tl, double t0, int expected_seconds) {
  tl->t0 = t0;
  tl->count = 0;
  tl->capacity = (size_t)(expected_seconds > 0 ? expected_seconds : 1) * 2 + 16;
  tl->bins = xcalloc(tl->capacity, sizeof(uint64_t));
}

void timeline_grow(timeline_t *tl, size_t bin) {
  size_t capacity = tl->capacity;
  while (capacity <= bin) {
    capacity *= 2;
  }
  tl->bins = xrealloc(tl->bins, capacity * sizeof(uint64_t));
  memset(tl->bins + tl->capacity, 0, (capacity - tl->capacity) * sizeof(uint64_t));
  tl->capacity = capacity;
}

void timeline_end(timeline_t *tl, double t) {
  double dt = t - tl->t0;
  size_t last = dt > 0 ? (size_t)dt : 0;
  if (last >= tl->capacity) {
    timeline_grow(tl, last);
  }
  if (last >= tl->count) {
    tl->count = last + 1;
  }
}

void timeline_write(timeline_t *tl, const char *phase) {
  unsigned long long count = tl->count;
  unsigned long long *counts = NULL;
  int *recv_counts = NULL;
  int *displs = NULL;
  uint64_t *all = NULL;
  if (run.rank == 0) {
    counts = xcalloc((size_t)run.size, sizeof(*counts));
  }
  MPI_Gather(&count, 1, MPI_UNSIGNED_LONG_LONG, counts, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
  if (run.rank == 0) {
    recv_counts = xcalloc((size_t)run.size, sizeof(int));
    displs = xcalloc((size_t)run.size, sizeof(int));
    long long total = 0;
    for (int r = 0; r < run.size; r++) {
      recv_counts[r] = (int)counts[r];
      displs[r] = (int)total;
      total += (long long)counts[r];
    }
    all = xcalloc((size_t)total, sizeof(uint64_t));
  }
  MPI_Gatherv(tl->bins, (int)count, MPI_UINT64_T, all, recv_counts, displs, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  if (run.rank == 0) {
    char name[256];
    snprintf(name, sizeof(name), "%s.timeline.csv", phase);
    FILE *f = open_result_file(name);
    fprintf(f, "rank,second,amount\n");
    for (int r = 0; r < run.size; r++) {
      for (int k = 0; k < recv_counts[r]; k++) {
        fprintf(f, "%d,%d,%llu\n", r, k, (unsigned long long)all[displs[r] + k]);
      }
    }
    fclose(f);
    free(counts);
    free(recv_counts);
    free(displs);
    free(all);
  }
}

void timeline_free(timeline_t *tl) {
  free(tl->bins);
  tl->bins = NULL;
  tl->count = tl->capacity = 0;
}
