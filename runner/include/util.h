/* Small helpers shared by every phase: errors, paths, sizes and clocks. */
#ifndef RUNNER_UTIL_H
#define RUNNER_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define RUNNER_VERSION "io500-runner-1.0.0"
#define GIBIBYTE (1024.0 * 1024.0 * 1024.0)
#define MEBIBYTE (1024.0 * 1024.0)

/* Print a sentence for the researcher and abort every rank: the run cannot continue. */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* Like die() but only rank 0 prints; every rank must call it (collective errors). */
void die_all(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

void *xmalloc(size_t size);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *s);

/* Joins into a PATH_MAX buffer and dies with a clear message if the result would be truncated. */
void path_join(char *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* mkdir -p with the mode the official tools use; returns 0 or -1 with errno set. */
int mkdir_recursive(const char *dir, unsigned mode);

/* Parses sizes as IOR does ("2m", "47008", "9920000m", "1g", "512kb"); false when there is no number. */
bool parse_size(const char *text, uint64_t *out);

/* Local wall-clock time in the app's formats. */
void format_local_time(char *out, size_t len, const char *strftime_fmt);

/* One transfer the way IOR's POSIX backend does it (mdtest uses the same backend): lseek(offset), with
   range_locks (--posix.rangelocks) an fcntl(F_SETLKW) lock of the range, then write() or read() until the
   whole length is moved, retrying partial transfers, then the unlock. Returns 0 when len bytes moved, else
   the errno of the call that failed, or XFER_EOF when a read found the end of the file; *moved gets the
   bytes moved. */
#define XFER_EOF (-1)
int posix_xfer(int fd, char *buf, size_t len, long long offset, bool is_write, bool range_locks, size_t *moved);

/* "write of", "read of" ... for io_error(): the failed transfer described with its byte counts. */
void describe_xfer_error(char *out, size_t len, bool is_write, int rc, size_t moved, size_t wanted);

/* Monotonic, high resolution; every phase timing uses this through MPI_Wtime. */
double now(void);

/* Peak resident set size of this process in KiB (getrusage). */
long peak_rss_kib(void);

/* Reads a whole small text file; returns NULL when it cannot be read. */
char *read_text_file(const char *path, size_t *len_out);

#endif
