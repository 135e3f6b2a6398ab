/* The timestamp phase and the untimed preparation/cleanup of the data directories. */
#include <errno.h>
#include <ftw.h>
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

static int remove_entry(const char *path, const struct stat *sb, int type, struct FTW *ftw) {
  (void)sb;
  (void)ftw;
  if (type == FTW_DP) {
    rmdir(path);
  } else {
    unlink(path);
  }
  return 0;
}

void remove_data_after_error(void) {
  MPI_Barrier(MPI_COMM_WORLD);
  if (run.rank == 0) {
    /* Only the directories the phases create: the data directory itself may be the site's own folder
       (timestamp-datadir = FALSE). */
    const char *dirs[] = {"ior-easy", "ior-hard", "mdtest-easy", "mdtest-hard"};
    for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
      char path[PATH_MAX];
      path_join(path, "%s/%s", run.datadir, dirs[i]);
      nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    }
    rmdir(run.datadir);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}
