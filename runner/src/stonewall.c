#include "stonewall.h"

#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "runner.h"
#include "util.h"

void stonewall_store(const char *name, uint64_t count) {
  if (run.rank != 0) {
    return;
  }
  char path[PATH_MAX];
  path_join(path, "%s/%s", run.resdir, name);
  FILE *f = fopen(path, "w");
  if (!f) {
    die("cannot write the stonewall status file %s: %s", path, strerror(errno));
  }
  fprintf(f, "%llu", (unsigned long long)count);
  fclose(f);
}

int64_t stonewall_load(const char *name) {
  long long value = -1;
  if (run.rank == 0) {
    char path[PATH_MAX];
    path_join(path, "%s/%s", run.resdir, name);
    FILE *f = fopen(path, "r");
    if (f) {
      if (fscanf(f, "%lld", &value) != 1 || value < 0) {
        value = -1;
      }
      fclose(f);
    }
  }
  MPI_Bcast(&value, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  return value;
}
