/* Options of the official INI that this runner accepts but cannot honour are refused up front,
   with a sentence that says why, instead of silently measuring something else. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "config.h"
#include "pattern.h"
#include "supported.h"
#include "util.h"

static bool api_is_plain_posix(const char *api) { return api == NULL || strcasecmp(api, "POSIX") == 0; }

bool check_supported_options(char *err, size_t err_len) {
  size_t count = 0;
  const cfg_section_t *sections = config_sections(&count);
  if (!api_is_plain_posix(cfg_str("global", "api"))) {
    snprintf(err, err_len,
             "[global] api = %s is not supported: io500-runner implements the POSIX interface without backend "
             "options. Use the official IO500 application for other interfaces.",
             cfg_str("global", "api"));
    return false;
  }
  for (size_t s = 0; s < count; s++) {
    for (const cfg_option_t *o = sections[s].options; o->name; o++) {
      if (strcmp(o->name, "API") == 0 && !api_is_plain_posix(o->value)) {
        snprintf(err, err_len,
                 "[%s] API = %s is not supported: io500-runner implements the POSIX interface without backend "
                 "options.",
                 sections[s].name, o->value);
        return false;
      }
      if (strcmp(o->name, "collective") == 0 && o->value && strcmp(o->value, "TRUE") == 0) {
        snprintf(err, err_len, "[%s] collective = TRUE needs MPI-IO, which io500-runner does not implement.",
                 sections[s].name);
        return false;
      }
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
  if (cfg_str("debug", "pause-dir")) {
    snprintf(err, err_len, "[debug] pause-dir is a debugging option that io500-runner does not implement; remove it.");
    return false;
  }
  if (cfg_str("mdtest-hard", "files-per-dir") && cfg_int("mdtest-hard", "files-per-dir", 0) > 0) {
    snprintf(err, err_len,
             "[mdtest-hard] files-per-dir is a debugging option that invalidates the run and that io500-runner "
             "does not implement; remove it.");
    return false;
  }
  if (cfg_str("find", "external-script")) {
    snprintf(err, err_len,
             "[find] external-script is not supported: io500-runner always uses its built-in parallel find.");
    return false;
  }
  if (cfg_bool("find", "pfind-parallelize-single-dir-access-using-hashing", false)) {
    snprintf(err, err_len,
             "[find] pfind-parallelize-single-dir-access-using-hashing = TRUE is not supported by io500-runner.");
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
