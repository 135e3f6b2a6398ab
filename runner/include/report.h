/* Writing result.txt and result_summary.txt in the official layout (rank 0 only). */
#ifndef RUNNER_REPORT_H
#define RUNNER_REPORT_H

#include <stdio.h>

/* "%-15s = value\n" into result.txt, like PRINT_PAIR. */
void report_pair(const char *key, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* "; ERROR INVALID ..." into result.txt and "ERROR INVALID ..." on stdout; marks the phase invalid. */
void report_invalid_phase(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The same for problems that invalidate the whole run (dry run). */
void report_invalid_run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "; WARNING ..." into result.txt and stdout. */
void report_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Writes the same text to result_summary.txt and stdout, like dupprintf. */
void report_summary(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "key = YYYY-MM-DD HH:MM:SS" with the local time. */
void report_time_pair(const char *key);

/* Opens a per-phase file <resdir>/<name> for writing on rank 0; dies with a clear message on failure. */
FILE *open_result_file(const char *name);

#endif
