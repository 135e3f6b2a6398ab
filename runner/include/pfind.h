/* A parallel find with pfind's match rule and counters, balanced by work stealing. */
#ifndef RUNNER_PFIND_H
#define RUNNER_PFIND_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>

#include "timeline.h"

typedef struct {
  const char *root;
  const char *name_glob;     /* "-name *01*": pfind turns it into the POSIX basic regex ".*01.*" */
  uint64_t size;             /* "-size 3901c" */
  int64_t ctime_min;         /* "-newer timestampfile": ctime >= this, whole seconds (pfind's rule) */
  int queue_length;          /* -q */
  bool steal_next;           /* -N: half of the steal attempts go to the left neighbour */
  bool hashing;              /* -H 1: a thief may take half of the telldir() range of an open directory */
} pfind_job_t;

typedef struct {
  /* pfind_find_results_t, per rank */
  uint64_t errors, unknown, found, total, checked;
  uint64_t steal_inbound, work_sent, steal_tries, work_stolen, tokens_sent;
  double steal_time;
  double runtime;
} pfind_counters_t;

/* Collective over comm; returns this rank's counters and records files scanned into tl (started by
   the caller, its t0 is reset to the search start). */
pfind_counters_t pfind_run(const pfind_job_t *job, MPI_Comm comm, timeline_t *tl);

#endif
