#include "report.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "runner.h"
#include "util.h"

void report_pair(const char *key, const char *fmt, ...) {
  if (run.rank != 0 || !run.result) {
    return;
  }
  va_list ap;
  va_start(ap, fmt);
  fprintf(run.result, "%-15s = ", key);
  vfprintf(run.result, fmt, ap);
  fprintf(run.result, "\n");
  va_end(ap);
  fflush(run.result);
}

static void report_error_line(const char *prefix, const char *fmt, va_list ap) {
  va_list copy;
  va_copy(copy, ap);
  if (run.result) {
    fprintf(run.result, "; %s", prefix);
    vfprintf(run.result, fmt, ap);
    fprintf(run.result, "\n");
    fflush(run.result);
  }
  printf("%s", prefix);
  vprintf(fmt, copy);
  printf("\n");
  fflush(stdout);
  va_end(copy);
}

void report_invalid_phase(const char *fmt, ...) {
  if (run.rank != 0) {
    return;
  }
  va_list ap;
  va_start(ap, fmt);
  report_error_line("ERROR INVALID ", fmt, ap);
  va_end(ap);
  run.valid_phase = false;
}

void report_invalid_run(const char *fmt, ...) {
  if (run.rank != 0) {
    return;
  }
  va_list ap;
  va_start(ap, fmt);
  report_error_line("ERROR INVALID ", fmt, ap);
  va_end(ap);
  run.valid_run = false;
}

void report_warning(const char *fmt, ...) {
  if (run.rank != 0) {
    return;
  }
  va_list ap;
  va_start(ap, fmt);
  report_error_line("WARNING ", fmt, ap);
  va_end(ap);
}

void report_summary(const char *fmt, ...) {
  if (run.rank != 0) {
    return;
  }
  va_list ap;
  va_start(ap, fmt);
  va_list copy;
  va_copy(copy, ap);
  if (run.summary) {
    vfprintf(run.summary, fmt, ap);
    fflush(run.summary);
  }
  vprintf(fmt, copy);
  fflush(stdout);
  va_end(copy);
  va_end(ap);
}

void report_time_pair(const char *key) {
  char stamp[32];
  format_local_time(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S");
  report_pair(key, "%s", stamp);
}

FILE *open_result_file(const char *name) {
  char path[PATH_MAX];
  path_join(path, "%s/%s", run.resdir, name);
  FILE *f = fopen(path, "w");
  if (!f) {
    die("cannot create the result file %s: %s", path, strerror(errno));
  }
  return f;
}
