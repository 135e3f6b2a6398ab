/* What of a configuration io500-runner can honour: the POSIX interface with the backend options the
   official application passes to IOR and mdtest, and which phases run. */
#ifndef RUNNER_SUPPORTED_H
#define RUNNER_SUPPORTED_H

#include <stdbool.h>
#include <stddef.h>

/* The POSIX backend options of one phase, as IOR's aiori-POSIX.c applies them. */
typedef struct {
  bool odirect;           /* --posix.odirect (or the INI key posix.odirect of io500-isc20 .. sc20): O_DIRECT */
  bool range_locks;       /* --posix.rangelocks: fcntl(F_SETLKW) on the byte range of every transfer */
  const char *hints_file; /* hintsFileName (-U) of io500-isc20 .. sc20: MPI-IO hints, no effect on POSIX */
} posix_opts_t;

/* False with a sentence in err when the configuration asks for something this runner cannot do. */
bool check_supported_options(char *err, size_t err_len);

/* The options of the phase [phase] below [parent] (checked by check_supported_options before the run). */
posix_opts_t phase_posix_options(const char *parent, const char *phase);

/* run = TRUE in both sections (io500-isc21 on) and noRun not TRUE in either (io500-isc20 .. sc20). */
bool phase_enabled(const char *parent, const char *phase);

#endif
