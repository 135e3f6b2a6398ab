/* Options of the official INI that this runner cannot honour are refused up front, with a sentence that
   says why, instead of silently measuring something else. The POSIX backend options that the official
   application passes on to IOR and mdtest take effect. */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "pattern.h"
#include "supported.h"
#include "util.h"

/* The phases io500-runner runs, below their parent sections (as the official phases read their options). */
static const struct {
  const char *parent;
  const char *phase;
} io_phases[] = {
    {"ior-easy", "ior-easy-write"},       {"ior-easy", "ior-easy-read"},       {"ior-easy", "ior-rnd4K-easy-read"},
    {"ior-hard", "ior-hard-write"},       {"ior-hard", "ior-hard-read"},       {"mdtest-easy", "mdtest-easy-write"},
    {"mdtest-easy", "mdtest-easy-stat"},  {"mdtest-easy", "mdtest-easy-delete"}, {"mdtest-hard", "mdtest-hard-write"},
    {"mdtest-hard", "mdtest-hard-stat"},  {"mdtest-hard", "mdtest-hard-read"}, {"mdtest-hard", "mdtest-hard-delete"},
};
#define IO_PHASE_COUNT (sizeof(io_phases) / sizeof(io_phases[0]))

/* The API string of a phase and the section it comes from: the phase's API, else its parent's, else
   [global] api (u_argv_push_default_if_set_api_options). */
static const char *phase_api(const char *parent, const char *phase, const char **from) {
  const char *api = cfg_str_any(phase, "API");
  *from = phase;
  if (!api) {
    api = cfg_str_any(parent, "API");
    *from = parent;
  }
  if (!api) {
    api = cfg_str("global", "api");
    *from = "global";
  }
  return api ? api : "POSIX";
}

/* Checks "NAME --opt --opt" word by word (the app splits on spaces) and collects the POSIX options. */
static bool parse_api(const char *api, const char *from, posix_opts_t *opts, char *err, size_t err_len) {
  char copy[2048];
  snprintf(copy, sizeof(copy), "%s", api);
  char *save = NULL;
  const char *key = strcmp(from, "global") == 0 ? "api" : "API";
  char *name = strtok_r(copy, " ", &save);
  if (!name || strcasecmp(name, "POSIX") != 0) {
    snprintf(err, err_len,
             "[%s] %s = %s asks for the %s interface, which io500-runner does not implement: it runs the POSIX "
             "interface only (with the options --posix.odirect and --posix.rangelocks). Use the official IO500 "
             "application for %s.",
             from, key, api, name ? name : "(empty)", name ? name : "that interface");
    return false;
  }
  for (char *word = strtok_r(NULL, " ", &save); word; word = strtok_r(NULL, " ", &save)) {
    if (strcmp(word, "--posix.odirect") == 0) {
      opts->odirect = true;
    } else if (strcmp(word, "--posix.rangelocks") == 0) {
      opts->range_locks = true;
    } else if (strncmp(word, "--posix.lustre.", 15) == 0 || strncmp(word, "--posix.gpfs.", 13) == 0 ||
               strncmp(word, "--posix.beegfs.", 15) == 0) {
      const char *fs = word[8] == 'l' ? "Lustre" : word[8] == 'g' ? "GPFS" : "BeeGFS";
      snprintf(err, err_len,
               "[%s] %s = %s: %s needs IOR built with the %s library, which io500-runner does not implement. "
               "Set the layout on the data directory with the file system's own tool instead (it is inherited "
               "by the files), or use the official IO500 application.",
               from, key, api, word, fs);
      return false;
    } else {
      snprintf(err, err_len,
               "[%s] %s = %s: %s is not an option of IOR's POSIX backend that io500-runner implements "
               "(--posix.odirect, --posix.rangelocks).",
               from, key, api, word);
      return false;
    }
  }
  return true;
}

/* posix.odirect / hintsFileName of io500-isc20 .. sc20: the phase's value, else its parent's. */
static const char *phase_or_parent(const char *parent, const char *phase, const char *key) {
  const char *v = cfg_given(phase, key) ? cfg_str_any(phase, key) : NULL;
  return v ? v : cfg_given(parent, key) ? cfg_str_any(parent, key) : NULL;
}

posix_opts_t phase_posix_options(const char *parent, const char *phase) {
  posix_opts_t opts = {0};
  const char *from = NULL;
  const char *api = phase_api(parent, phase, &from);
  char err[1024];
  if (!parse_api(api, from, &opts, err, sizeof(err))) {
    die("internal error: %s", err); /* check_supported_options refused it before the run */
  }
  const char *odirect = phase_or_parent(parent, phase, "posix.odirect");
  if (odirect && strcmp(odirect, "TRUE") == 0) {
    opts.odirect = true;
  }
  opts.hints_file = phase_or_parent(parent, phase, "hintsFileName");
  return opts;
}

bool phase_enabled(const char *parent, const char *phase) {
  const char *sections[2] = {parent, phase};
  for (int i = 0; i < 2; i++) {
    const char *run_value = cfg_str_any(sections[i], "run");
    const char *no_run = cfg_str_any(sections[i], "noRun");
    if ((run_value && strcmp(run_value, "FALSE") == 0) || (no_run && strcmp(no_run, "TRUE") == 0)) {
      return false;
    }
  }
  return true;
}

static bool check_phase(const char *parent, const char *phase, char *err, size_t err_len) {
  posix_opts_t opts = {0};
  const char *from = NULL;
  const char *api = phase_api(parent, phase, &from);
  if (!parse_api(api, from, &opts, err, err_len)) {
    return false;
  }
  const char *hints = phase_or_parent(parent, phase, "hintsFileName");
  struct stat sb;
  if (hints && (stat(hints, &sb) != 0 || !S_ISREG(sb.st_mode) || access(hints, R_OK) != 0)) {
    /* The release's validate(): "The hintsFileName must be a readable file". */
    snprintf(err, err_len, "[%s] hintsFileName = %s must be a readable file.", cfg_given(phase, "hintsFileName") ? phase : parent,
             hints);
    return false;
  }
  return true;
}

bool check_supported_options(char *err, size_t err_len) {
  posix_opts_t global = {0};
  /* The data directories are created through [global] api, so it must be POSIX too. */
  if (!parse_api(cfg_str("global", "api") ? cfg_str("global", "api") : "POSIX", "global", &global, err, err_len)) {
    return false;
  }
  for (size_t i = 0; i < IO_PHASE_COUNT; i++) {
    if (!check_phase(io_phases[i].parent, io_phases[i].phase, err, err_len)) {
      return false;
    }
  }
  const char *collective_sections[] = {"ior-hard", "ior-hard-write", "ior-hard-read"};
  for (size_t i = 0; i < 3; i++) {
    if (cfg_bool(collective_sections[i], "collective", false)) {
      snprintf(err, err_len, "[%s] collective = TRUE needs MPI-IO, which io500-runner does not implement.",
               collective_sections[i]);
      return false;
    }
  }
  if (cfg_bool("global", "io-buffers-on-gpu", false)) {
    snprintf(err, err_len, "[global] io-buffers-on-gpu = TRUE is not supported: io500-runner uses host memory.");
    return false;
  }
  packet_t packet;
  if (!packet_parse(cfg_str("global", "dataPacketType"), &packet)) {
    const char *value = cfg_str("global", "dataPacketType");
    snprintf(err, err_len,
             "[global] dataPacketType = %s is not a packet type: use timestamp (the default), offset, "
             "incompressible or random (IOR and mdtest read the first letter).",
             value ? value : "(empty)");
    return false;
  }
  if (cfg_str("mdtest-hard", "files-per-dir") && cfg_int("mdtest-hard", "files-per-dir", 0) > 0) {
    snprintf(err, err_len,
             "[mdtest-hard] files-per-dir is a debugging option that invalidates the run and that io500-runner "
             "does not implement; remove it.");
    return false;
  }
  if (cfg_str("find", "external-script") && phase_enabled("find", "find")) {
    snprintf(err, err_len,
             "[find] external-script = %s is not supported: io500-runner always uses its built-in parallel find "
             "(pfind's rules). Remove the line to run it.",
             cfg_str("find", "external-script"));
    return false;
  }
  uint64_t transfer = 0, block = 0;
  if (!parse_size(cfg_str("ior-easy", "transferSize"), &transfer) || transfer == 0) {
    snprintf(err, err_len, "[ior-easy] transferSize = %s is not a size such as 2m or 1048576.",
             cfg_str("ior-easy", "transferSize"));
    return false;
  }
  if (!parse_size(cfg_str("ior-easy", "blockSize"), &block) || block == 0) {
    snprintf(err, err_len, "[ior-easy] blockSize = %s is not a size such as 9920000m.",
             cfg_str("ior-easy", "blockSize"));
    return false;
  }
  if (block % transfer != 0) {
    snprintf(err, err_len, "[ior-easy] blockSize (%s) must be a multiple of transferSize (%s).",
             cfg_str("ior-easy", "blockSize"), cfg_str("ior-easy", "transferSize"));
    return false;
  }
  if (transfer > (1ULL << 30)) {
    snprintf(err, err_len, "[ior-easy] transferSize = %s is larger than 1 GiB, which io500-runner refuses.",
             cfg_str("ior-easy", "transferSize"));
    return false;
  }
  if (cfg_int("ior-hard", "segmentCount", 1) < 1) {
    snprintf(err, err_len, "[ior-hard] segmentCount must be at least 1.");
    return false;
  }
  if (cfg_int("debug", "stonewall-time", 300) < 1) {
    snprintf(err, err_len, "[debug] stonewall-time must be at least 1 second (the rules require 300).");
    return false;
  }
  return true;
}
