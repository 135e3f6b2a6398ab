#include "argv.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "util.h"

void cmd_init(cmdline_t *cmd, const char *program) {
  cmd->len = 0;
  cmd->text[0] = '\0';
  cmd_add(cmd, "%s", program);
}

void cmd_add(cmdline_t *cmd, const char *fmt, ...) {
  char word[PATH_MAX + 128];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(word, sizeof(word), fmt, ap);
  va_end(ap);
  int n = snprintf(cmd->text + cmd->len, sizeof(cmd->text) - cmd->len, "%s%s", cmd->len ? " " : "", word);
  if (n < 0 || (size_t)n >= sizeof(cmd->text) - cmd->len) {
    die("a phase command line is longer than %zu characters; use shorter paths", sizeof(cmd->text));
  }
  cmd->len += (size_t)n;
}

void cmd_add_api(cmdline_t *cmd, const char *section, const char *phase_section) {
  const char *api = cfg_str_any(phase_section, "API");
  if (!api) {
    api = cfg_str_any(section, "API");
  }
  if (!api) {
    api = cfg_str("global", "api");
  }
  /* hintsFileName and posix.odirect of io500-isc20 .. sc20: "-U <file>" before, "--posix.odirect" after
     the API, the phase's value else its parent's (u_argv_push_default_if_set[_bool]). */
  const char *hints = cfg_given(phase_section, "hintsFileName") ? cfg_str_any(phase_section, "hintsFileName")
                      : cfg_given(section, "hintsFileName")     ? cfg_str_any(section, "hintsFileName")
                                                                : NULL;
  if (hints) {
    cmd_add(cmd, "-U %s", hints);
  }
  cmd_add(cmd, "-a");
  /* The official app splits the API string on spaces into separate words. */
  char copy[1024];
  snprintf(copy, sizeof(copy), "%s", api ? api : "POSIX");
  char *save = NULL;
  for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
    cmd_add(cmd, "%s", w);
  }
  const char *odirect = cfg_given(phase_section, "posix.odirect") ? cfg_str_any(phase_section, "posix.odirect")
                        : cfg_given(section, "posix.odirect")     ? cfg_str_any(section, "posix.odirect")
                                                                  : NULL;
  if (odirect && strcmp(odirect, "TRUE") == 0) {
    cmd_add(cmd, "--posix.odirect");
  }
}
