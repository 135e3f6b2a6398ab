/* The mdtest part of IO500: create/stat/read/remove of small files with rank shift and stonewall. */
#ifndef RUNNER_MDTEST_ENGINE_H
#define RUNNER_MDTEST_ENGINE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pattern.h"
#include "supported.h"

typedef enum { MD_CREATE, MD_STAT, MD_READ, MD_REMOVE } md_op_t;

typedef struct {
  const char *phase;          /* "mdtest-easy-write" */
  const char *stonewall_file; /* "mdtest-easy.stonewall" */
  const char *exe;
  md_op_t op;
  bool unique_dir;    /* -u: one tree directory per rank (easy) */
  uint64_t n;         /* -n items per rank */
  size_t file_bytes;  /* -w / -e: 3901 for the hard test, 0 for empty files */
  bool verify;        /* -X */
  int32_t seed;       /* -G */
  packet_t packet;    /* --dataPacketType */
  int deadline;       /* -W seconds, 0 = none */
  bool sync;          /* -Y: sync inside the timed region of the create phase */
  char dir[PATH_MAX]; /* -d */
  posix_opts_t posix; /* --posix.odirect, --posix.rangelocks (create and read) */
} md_job_t;

typedef struct {
  double rate;           /* items per second, aggregate: sum of items / slowest rank */
  double rate_stonewall; /* create: items done at the stonewall / stonewall time */
  uint64_t items_per_rank;
  int errors;            /* verification mismatches of the read phase */
  bool failed;           /* no status file, or stopped on an I/O error (see ioerror.h): no score */
} md_result_t;

/* Collective. Writes <phase>.txt, <phase>.csv and <phase>.timeline.csv. */
md_result_t md_run_job(const md_job_t *job);

/* Untimed tree removal after the delete phase, like mdtest's "Tree removal". */
void md_remove_trees(const md_job_t *job);

#endif
