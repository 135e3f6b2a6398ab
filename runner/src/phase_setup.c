/* The timestamp phase and the untimed preparation/cleanup of the data directories. */
#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "report.h"
#include "runner.h"
#include "util.h"

void ior_cleanup(void);
void mdtest_cleanup(void);

double phase_timestamp(void) {
  if (run.rank != 0) {
    return 0;
  }
  char path[PATH_MAX];
  path_join(path, "%s/timestampfile", run.resdir);
  if (run.verbosity > 1) {
    report_pair("timestamp-file", "%s", path);
  }
  FILE *f = fopen(path, "w");
  if (!f) {
    die("cannot create the timestamp file %s: %s", path, strerror(errno));
  }
  fclose(f);
  return 0;
}

void prepare_data_directories(void) {
  if (run.rank != 0) {
    return;
  }
  /* The validate() step of the ior phases: rank 0 creates the directories, mode 0700 like the app. */
  const char *dirs[] = {"ior-easy", "ior-hard"};
  for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
    char path[PATH_MAX];
    path_join(path, "%s/%s", run.datadir, dirs[i]);
    if (mkdir_recursive(path, 0700) != 0) {
      die("cannot create the data directory %s: %s", path, strerror(errno));
    }
  }
}

void cleanup_data_directories(void) {
  ior_cleanup();
  mdtest_cleanup();
  MPI_Barrier(MPI_COMM_WORLD);
  if (run.rank == 0) {
    const char *dirs[] = {"ior-easy", "ior-hard", "mdtest-easy", "mdtest-hard", ""};
    for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
      char path[PATH_MAX];
      path_join(path, "%s/%s", run.datadir, dirs[i]);
      rmdir(path);
    }
  }
}
