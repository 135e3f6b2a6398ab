/* The state of one benchmark run, shared by every phase. */
#ifndef RUNNER_RUNNER_H
#define RUNNER_RUNNER_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef enum { GROUP_NONE, GROUP_MD, GROUP_BW } score_group_t;

typedef struct {
  int rank;
  int size;
  int nodes;          /* distinct hosts in MPI_COMM_WORLD */
  int tasks_on_node0; /* ranks sharing rank 0's host */
  bool block_mapping; /* rank 1 on rank 0's host: consecutive ranks fill a node first */
  char hostname[256];

  char timestamp[64];
  char datadir[PATH_MAX];
  char resdir[PATH_MAX];
  int stonewall; /* [debug] stonewall-time, seconds */
  int minwrite;  /* 300, or 30 with scc */
  bool dry_run;
  int verbosity;
  bool drop_caches;
  const char *drop_caches_cmd;
  const char *api; /* always "POSIX" here */

  bool valid_run;   /* cleared by any invalid scored phase */
  bool valid_phase; /* reset before every phase */
  const char *phase; /* the phase running now (NULL before the first), for error messages */
  FILE *result;     /* rank 0: result.txt */
  FILE *summary;    /* rank 0: result_summary.txt */
} run_t;

extern run_t run;

/* One function per phase, in the official order (see main.c); each returns its score (GiB/s or
   kIOPS) on rank 0, computed as the official tool computes it. */
double phase_ior_easy_write(void);
double phase_mdtest_easy_write(void);
double phase_timestamp(void);
double phase_ior_hard_write(void);
double phase_mdtest_hard_write(void);
double phase_find(void);
double phase_ior_easy_read(void);
double phase_mdtest_easy_stat(void);
double phase_ior_hard_read(void);
double phase_mdtest_hard_stat(void);
double phase_mdtest_easy_delete(void);
double phase_mdtest_hard_read(void);
double phase_mdtest_hard_delete(void);
double phase_ior_rnd4k_easy_read(void);

/* Untimed preparation and cleanup, as each official phase's validate() and cleanup() do. */
void prepare_data_directories(void);
void cleanup_data_directories(void);
/* After an I/O error stopped the run: removes what the phases wrote (collective). */
void remove_data_after_error(void);

#endif
