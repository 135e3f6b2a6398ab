/* The find phase: pfind's command line, rule, counters and find.csv. */
#include <errno.h>
#include <inttypes.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "argv.h"
#include "config.h"
#include "pfind.h"
#include "report.h"
#include "runner.h"
#include "supported.h"
#include "timeline.h"
#include "util.h"

static void write_find_csv(const pfind_counters_t *all, int nproc, double runtime, uint64_t total) {
  FILE *f = open_result_file("find.csv");
  fprintf(f, "runtime: %f rate: %f\n", runtime, runtime > 0 ? (double)total / runtime : 0.0);
  fprintf(f, "rank, errors, unknown, found, total, checked, job steal msgs received, work items send, job steal "
             "msgs send, work items stolen, time spend in job stealing in s, number of completion tokens send\n");
  for (int r = 0; r < nproc; r++) {
    const pfind_counters_t *c = &all[r];
    fprintf(f, "%d, %" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %" PRIu64, r, c->errors, c->unknown,
            c->found, c->total, c->checked);
    fprintf(f, ", %" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %" PRIu64 ", %.3fs, %" PRIu64 "\n", c->steal_inbound,
            c->work_sent, c->steal_tries, c->work_stolen, c->steal_time, c->tokens_sent);
  }
  fclose(f);
}

double phase_find(void) {
  long long queue = cfg_int("find", "pfind-queue-length", 10000);
  bool steal_next = cfg_bool("find", "pfind-steal-next", false);
  cmdline_t cmd;
  cmd_init(&cmd, "./pfind");
  cmd_add(&cmd, "%s -newer %s/timestampfile -size 3901c -name *01* -C", run.datadir, run.resdir);
  if (steal_next) {
    cmd_add(&cmd, "-N");
  }
  if (cfg_bool("find", "pfind-parallelize-single-dir-access-using-hashing", false)) {
    cmd_add(&cmd, "-H 1");
  }
  cmd_add(&cmd, "-q %lld", queue);

  int nproc = run.size;
  const char *nproc_text = cfg_str("find", "nproc");
  if (nproc_text) {
    nproc = atoi(nproc_text);
    if (nproc < 1 || nproc > run.size) {
      nproc = run.size;
    }
  }
  if (!phase_enabled("find", "find")) {
    return 0;
  }
  report_pair("exe", "%s", cmd.text);
  /* The official app always prints nproc: it replaces the option by the size of pfind's communicator. */
  report_pair("nproc", "%d", nproc);
  if (run.dry_run) {
    return 0;
  }

  long long ctime_min = -1;
  if (run.rank == 0) {
    char stamp[PATH_MAX];
    path_join(stamp, "%s/timestampfile", run.resdir);
    struct stat sb;
    if (stat(stamp, &sb) != 0) {
      die("cannot read the timestamp file %s (%s); the timestamp phase must run before find", stamp, strerror(errno));
    }
    ctime_min = (long long)sb.st_ctime;
  }
  MPI_Bcast(&ctime_min, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);

  /* [find] nproc: pfind runs on the first nproc ranks only, like the official split communicator. */
  MPI_Comm comm;
  int member = run.rank < nproc;
  MPI_Comm_split(MPI_COMM_WORLD, member ? 0 : 1, run.rank, &comm);
  pfind_job_t job = {.root = run.datadir, .name_glob = "*01*", .size = 3901, .ctime_min = ctime_min,
                     .queue_length = queue > 0 ? (int)queue : 10000, .steal_next = steal_next,
                     .hashing = cfg_bool("find", "pfind-parallelize-single-dir-access-using-hashing", false)};
  timeline_t tl;
  timeline_start(&tl, now(), 64);
  pfind_counters_t mine;
  memset(&mine, 0, sizeof(mine));
  if (member) {
    mine = pfind_run(&job, comm, &tl);
  }
  MPI_Comm_free(&comm);

  pfind_counters_t *all = run.rank == 0 ? xmalloc(sizeof(pfind_counters_t) * (size_t)run.size) : NULL;
  MPI_Gather(&mine, sizeof(mine), MPI_BYTE, all, sizeof(mine), MPI_BYTE, 0, MPI_COMM_WORLD);
  timeline_write(&tl, "find");
  timeline_free(&tl);
  if (run.rank != 0) {
    return 0;
  }
  uint64_t total = 0, found = 0;
  double runtime = 0;
  for (int r = 0; r < nproc; r++) {
    total += all[r].total;
    found += all[r].found;
    if (all[r].runtime > runtime) {
      runtime = all[r].runtime;
    }
  }
  write_find_csv(all, nproc, runtime, total);
  free(all);
  if (found == 0) {
    report_invalid_phase("Find didn't find anything, this is likely invalid.");
  }
  report_pair("found", "%" PRIu64, found);
  report_pair("total-files", "%" PRIu64, total);
  return runtime > 0 ? (double)total / runtime / 1000.0 : 0;
}
