#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "io500-runner: ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n");
  va_end(ap);
  fflush(stderr);
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized) {
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  exit(2);
}

void die_all(const char *fmt, ...) {
  int initialized = 0;
  int rank = 0;
  MPI_Initialized(&initialized);
  if (initialized) {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  }
  if (rank == 0) {
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "io500-runner: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    fflush(stderr);
  }
  if (initialized) {
    /* Every rank reached the same decision, so a clean shutdown keeps mpirun's noise away. */
    MPI_Finalize();
  }
  exit(2);
}

void *xmalloc(size_t size) {
  void *p = malloc(size ? size : 1);
  if (!p) {
    die("out of memory while allocating %zu bytes", size);
  }
  return p;
}

void *xcalloc(size_t count, size_t size) {
  void *p = calloc(count ? count : 1, size ? size : 1);
  if (!p) {
    die("out of memory while allocating %zu x %zu bytes", count, size);
  }
  return p;
}

void *xrealloc(void *ptr, size_t size) {
  void *p = realloc(ptr, size ? size : 1);
  if (!p) {
    die("out of memory while growing a buffer to %zu bytes", size);
  }
  return p;
}

char *xstrdup(const char *s) {
  size_t len = strlen(s);
  char *p = xmalloc(len + 1);
  memcpy(p, s, len + 1);
  return p;
}

void path_join(char *out, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(out, PATH_MAX, fmt, ap);
  va_end(ap);
  if (n < 0 || n >= PATH_MAX) {
    die("a path built from the configuration is longer than %d characters; use shorter datadir/resultdir",
        PATH_MAX);
  }
}

int mkdir_recursive(const char *dir, unsigned mode) {
  char buf[PATH_MAX];
  size_t len = strlen(dir);
  if (len == 0 || len >= sizeof(buf)) {
    errno = ENAMETOOLONG;
    return -1;
  }
  memcpy(buf, dir, len + 1);
  for (char *p = buf + 1; *p; p++) {
    if (*p != '/') {
      continue;
    }
    *p = '\0';
    if (mkdir(buf, mode) != 0 && errno != EEXIST) {
      return -1;
    }
    *p = '/';
  }
  if (mkdir(buf, mode) != 0 && errno != EEXIST) {
    return -1;
  }
  return 0;
}

bool parse_size(const char *text, uint64_t *out) {
  /* IOR's string_to_bytes: sscanf(" %lld %c "): a number, then one letter k/m/g/t/p (either case) that
     scales it; any other letter and whatever follows are ignored ("512kb" is 512 KiB, as in IOR). */
  long long value = 0;
  char unit = 0;
  int fields = text ? sscanf(text, " %lld %c", &value, &unit) : 0;
  if (fields < 1 || value < 0) {
    return false;
  }
  int shift = 0;
  switch (fields == 2 ? unit : 0) {
    case 'k': case 'K': shift = 10; break;
    case 'm': case 'M': shift = 20; break;
    case 'g': case 'G': shift = 30; break;
    case 't': case 'T': shift = 40; break;
    case 'p': case 'P': shift = 50; break;
    default: break;
  }
  if (shift && (uint64_t)value > (UINT64_MAX >> shift)) {
    return false;
  }
  *out = (uint64_t)value << shift;
  return true;
}

void format_local_time(char *out, size_t len, const char *strftime_fmt) {
  time_t t = time(NULL);
  struct tm tm_info;
  localtime_r(&t, &tm_info);
  strftime(out, len, strftime_fmt, &tm_info);
}

int posix_xfer(int fd, char *buf, size_t len, long long offset, bool is_write, bool range_locks, size_t *moved) {
  enum { MAX_RETRIES = 10000 }; /* IOR's MAX_RETRY */
  *moved = 0;
  if (lseek(fd, (off_t)offset, SEEK_SET) == (off_t)-1) {
    return errno;
  }
  if (range_locks) {
    struct flock lock = {.l_whence = SEEK_SET, .l_start = (off_t)offset, .l_len = (off_t)len,
                         .l_type = is_write ? F_WRLCK : F_RDLCK};
    if (fcntl(fd, F_SETLKW, &lock) != 0) {
      return errno;
    }
  }
  int rc = 0;
  size_t done = 0;
  for (int retries = 0; done < len; retries++) {
    ssize_t n = is_write ? write(fd, buf + done, len - done) : read(fd, buf + done, len - done);
    if (n < 0) {
      rc = errno;
      break;
    }
    if (n == 0) {
      rc = is_write ? EIO : XFER_EOF;
      break;
    }
    done += (size_t)n;
    if (retries > MAX_RETRIES && done < len) {
      rc = EIO;
      break;
    }
  }
  if (range_locks) {
    struct flock unlock = {.l_whence = SEEK_SET, .l_start = (off_t)offset, .l_len = (off_t)len, .l_type = F_UNLCK};
    int saved = errno;
    if (fcntl(fd, F_SETLK, &unlock) != 0 && rc == 0) {
      rc = errno;
    }
    errno = saved;
  }
  *moved = done;
  return rc;
}

void describe_xfer_error(char *out, size_t len, bool is_write, int rc, size_t moved, size_t wanted) {
  if (rc == XFER_EOF) {
    snprintf(out, len, "read found the end of the file after %zu of %zu bytes of", moved, wanted);
  } else if (moved > 0) {
    snprintf(out, len, "%s failed after %zu of %zu bytes of", is_write ? "write" : "read", moved, wanted);
  } else {
    snprintf(out, len, "%s of %zu bytes failed on", is_write ? "write" : "read", wanted);
  }
}

double now(void) { return MPI_Wtime(); }

long peak_rss_kib(void) {
  struct rusage usage;
  if (getrusage(RUSAGE_SELF, &usage) != 0) {
    return -1;
  }
  return usage.ru_maxrss;
}

char *read_text_file(const char *path, size_t *len_out) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    return NULL;
  }
  size_t cap = 4096;
  size_t len = 0;
  char *buf = xmalloc(cap);
  for (;;) {
    size_t got = fread(buf + len, 1, cap - len - 1, f);
    len += got;
    if (len + 1 < cap) {
      if (ferror(f)) {
        free(buf);
        fclose(f);
        return NULL;
      }
      break;
    }
    cap *= 2;
    buf = xrealloc(buf, cap);
  }
  fclose(f);
  buf[len] = '\0';
  if (len_out) {
    *len_out = len;
  }
  return buf;
}
