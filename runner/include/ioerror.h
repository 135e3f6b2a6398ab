/* I/O errors stop the run, as IOR and mdtest stop the official application: the first failed operation of
   a rank is recorded with the phase, the operation, the file and the errno text; the phase ends early on
   every rank, no score is computed from it, and the run exits non-zero (main.c). */
#ifndef RUNNER_IOERROR_H
#define RUNNER_IOERROR_H

#include <stdbool.h>
#include <stddef.h>

/* Records the first failed operation of this rank in the running phase (later ones are ignored) and prints
   it on stderr at once: "io500-runner: rank R: PHASE: OP PATH at offset O: strerror(err)". err 0 means the
   operation text already says what went wrong (a read that hit the end of the file); offset < 0: none. */
void io_error(const char *op, const char *path, long long offset, int err);

/* This rank has recorded an I/O error: issue no more I/O in this phase. */
bool io_error_pending(void);

/* Collective: true on every rank when any rank has recorded an I/O error. */
bool io_error_any(void);

/* Collective: like io_error_any, and on every rank the message of the lowest failing rank (with the number
   of ranks that failed) in msg. */
bool io_error_agreed(char *msg, size_t len);

#endif
