#include "ioerror.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "runner.h"

static bool pending;
static char message[1024];

void io_error(const char *op, const char *path, long long offset, int err) {
  if (pending) {
    return;
  }
  pending = true;
  char where[64] = "";
  if (offset >= 0) {
    snprintf(where, sizeof(where), " at offset %lld", offset);
  }
  snprintf(message, sizeof(message), "%s: %s %s%s%s%s", run.phase ? run.phase : "setup", op, path, where,
           err ? ": " : "", err ? strerror(err) : "");
  fprintf(stderr, "io500-runner: rank %d: %s\n", run.rank, message);
  fflush(stderr);
}

bool io_error_pending(void) { return pending; }

bool io_error_any(void) {
  int mine = pending ? 1 : 0, any = 0;
  MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return any != 0;
}

bool io_error_agreed(char *msg, size_t len) {
  int mine = pending ? run.rank : run.size, first = run.size;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == run.size) {
    return false;
  }
  int failed = pending ? 1 : 0, failed_ranks = 0;
  MPI_Allreduce(&failed, &failed_ranks, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  char text[sizeof(message)];
  memcpy(text, message, sizeof(text));
  MPI_Bcast(text, (int)sizeof(text), MPI_CHAR, first, MPI_COMM_WORLD);
  if (failed_ranks > 1) {
    snprintf(msg, len, "rank %d: %s (and %d more rank%s failed)", first, text, failed_ranks - 1,
             failed_ranks > 2 ? "s" : "");
  } else {
    snprintf(msg, len, "rank %d: %s", first, text);
  }
  return true;
}
