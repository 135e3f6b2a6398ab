/* The equivalent official command line of a phase (the "exe" line of result.txt). */
#ifndef RUNNER_ARGV_H
#define RUNNER_ARGV_H

#include <stddef.h>

typedef struct {
  char text[8192];
  size_t len;
} cmdline_t;

void cmd_init(cmdline_t *cmd, const char *program);
void cmd_add(cmdline_t *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* "-a <API words>": the phase's API, else the section's, else [global] api, like the official app. */
void cmd_add_api(cmdline_t *cmd, const char *section, const char *phase_section);

#endif
