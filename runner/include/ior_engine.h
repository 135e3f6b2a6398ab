/* The IOR part of IO500: timed open / transfer loop / fsync / close with stonewall and wear-out. */
#ifndef RUNNER_IOR_ENGINE_H
#define RUNNER_IOR_ENGINE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "pattern.h"
#include "supported.h"

typedef enum { IOR_WRITE, IOR_READ } ior_access_t;

typedef struct {
  const char *phase;          /* "ior-easy-write": names the .txt, .csv and .timeline.csv */
  const char *stonewall_file; /* "ior-easy.stonewall" (NULL for the random read) */
  const char *exe;            /* the equivalent IOR command line, for the log */
  ior_access_t access;
  bool verify;        /* -R: compare every word with the expected pattern, inside the timed region */
  bool file_per_proc; /* -F */
  bool unique_dir;    /* -u */
  bool random;        /* -z: random transfer-sized offsets inside the file (ior-rnd4K-easy-read) */
  char path[PATH_MAX];
  uint64_t transfer;  /* -t */
  uint64_t block;     /* -b */
  uint64_t segments;  /* -s */
  bool unbounded;     /* -s=-1 (io500-sc26's random read): no segment cap, the stonewall ends the phase */
  int32_t seed;       /* -G */
  packet_t packet;    /* --dataPacketType */
  int deadline;       /* -D seconds, 0 = no stonewall */
  bool wearout;       /* stoneWallingWearOut=1 */
  int node_shift;     /* -C -Q k for reads: read the data of the rank k nodes away */
  posix_opts_t posix; /* --posix.odirect, --posix.rangelocks */
} ior_job_t;

typedef struct {
  double time;          /* the IOR time: slowest rank from open start to close end */
  uint64_t bytes;       /* aggregate bytes moved (aggFileSizeFromXfer) */
  uint64_t pairs_max;   /* transfers per rank after wear-out */
  double stonewall_time;
  uint64_t stonewall_bytes_sum; /* bytes moved by all ranks when the stonewall hit */
  int errors;           /* transfers whose data differed from the pattern */
  bool failed;          /* the phase could not run or stopped on an I/O error (see ioerror.h): no score */
} ior_result_t;

/* Collective. Runs the job on every rank, writes <phase>.txt, <phase>.csv and the timeline. */
ior_result_t ior_run_job(const ior_job_t *job);

/* The data file of file_rank (file per process, IOR's name) or the shared file. */
void ior_file_name(const ior_job_t *job, int file_rank, char *out);

#endif
