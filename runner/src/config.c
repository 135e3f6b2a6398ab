#include "config.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hash.h"
#include "util.h"

#define END_OPTIONS {NULL, OPT_STRING, NULL, false, NULL}
#define OPT_API {"API", OPT_STRING, NULL, false, NULL}
#define OPT_RUN {"run", OPT_BOOL, "TRUE", false, NULL}

static cfg_option_t global_opts[] = {
    {"datadir", OPT_STRING, "./datafiles", true, NULL},
    {"timestamp-datadir", OPT_BOOL, "TRUE", false, NULL},
    {"resultdir", OPT_STRING, "./results", false, NULL},
    {"timestamp-resultdir", OPT_BOOL, "TRUE", false, NULL},
    {"api", OPT_STRING, "POSIX", false, NULL},
    {"drop-caches", OPT_BOOL, "FALSE", false, NULL},
    {"drop-caches-cmd", OPT_STRING, "sudo -n bash -c \"echo 3 > /proc/sys/vm/drop_caches\"", false, NULL},
    {"io-buffers-on-gpu", OPT_BOOL, "FALSE", false, NULL},
    {"verbosity", OPT_UINT, "1", false, NULL},
    {"scc", OPT_BOOL, "FALSE", false, NULL},
    {"dataPacketType", OPT_STRING, "timestamp", false, NULL},
    END_OPTIONS};
static cfg_option_t debug_opts[] = {
    {"stonewall-time", OPT_INT, "300", false, NULL},
    {"pause-dir", OPT_STRING, NULL, false, NULL},
    END_OPTIONS};
static cfg_option_t ior_easy_opts[] = {
    OPT_API,
    {"transferSize", OPT_STRING, "2m", false, NULL},
    {"blockSize", OPT_STRING, "9920000m", false, NULL},
    {"filePerProc", OPT_BOOL, "TRUE", false, NULL},
    {"uniqueDir", OPT_BOOL, "FALSE", false, NULL},
    OPT_RUN,
    {"verbosity", OPT_INT, NULL, false, NULL},
    END_OPTIONS};
static cfg_option_t ior_easy_write_opts[] = {OPT_API, OPT_RUN, END_OPTIONS};
static cfg_option_t mdtest_easy_opts[] = {
    OPT_API, {"n", OPT_UINT64, "1000000", false, NULL}, OPT_RUN, END_OPTIONS};
static cfg_option_t mdtest_easy_write_opts[] = {OPT_API, OPT_RUN, END_OPTIONS};
static cfg_option_t mdworkbench_opts[] = {
    OPT_API,
    {"waitingTime", OPT_FLOAT, "0.0", false, NULL},
    {"precreatePerSet", OPT_UINT64, NULL, false, NULL},
    {"filesPerProc", OPT_UINT64, NULL, false, NULL},
    OPT_RUN,
    {"verbosity", OPT_INT, NULL, false, NULL},
    END_OPTIONS};
static cfg_option_t mdworkbench_create_opts[] = {OPT_RUN, END_OPTIONS};
static cfg_option_t timestamp_opts[] = {END_OPTIONS};
#define FIND_OPTIONS                                                                   \
  {                                                                                    \
    {"external-script", OPT_STRING, NULL, false, NULL},                                \
    {"external-mpi-args", OPT_STRING, "", false, NULL},                                \
    {"external-extra-args", OPT_STRING, "", false, NULL},                              \
    {"nproc", OPT_UINT, NULL, false, NULL}, OPT_RUN,                                   \
    {"pfind-queue-length", OPT_INT, "10000", false, NULL},                             \
    {"pfind-steal-next", OPT_BOOL, "FALSE", false, NULL},                              \
    {"pfind-parallelize-single-dir-access-using-hashing", OPT_BOOL, "FALSE", false, NULL}, \
    END_OPTIONS                                                                        \
  }
static cfg_option_t find_easy_opts[] = FIND_OPTIONS;
static cfg_option_t ior_hard_opts[] = {
    OPT_API,
    {"segmentCount", OPT_INT, "10000000", false, NULL},
    {"collective", OPT_BOOL, NULL, false, NULL},
    OPT_RUN,
    {"verbosity", OPT_INT, NULL, false, NULL},
    END_OPTIONS};
static cfg_option_t ior_hard_write_opts[] = {
    OPT_API, {"collective", OPT_BOOL, NULL, false, NULL}, OPT_RUN, END_OPTIONS};
static cfg_option_t mdtest_hard_opts[] = {
    OPT_API,
    {"n", OPT_UINT64, "1000000", false, NULL},
    {"files-per-dir", OPT_UINT64, NULL, false, NULL},
    OPT_RUN,
    END_OPTIONS};
static cfg_option_t mdtest_hard_write_opts[] = {OPT_API, OPT_RUN, END_OPTIONS};
static cfg_option_t find_opts[] = FIND_OPTIONS;
static cfg_option_t find_hard_opts[] = FIND_OPTIONS;
static cfg_option_t mdworkbench_bench_opts[] = {OPT_RUN, END_OPTIONS};
static cfg_option_t ior_easy_read_opts[] = {OPT_API, OPT_RUN, END_OPTIONS};
static cfg_option_t mdtest_easy_stat_opts[] = {OPT_API, OPT_RUN, END_OPTIONS};
static cfg_option_t ior_hard_read_opts[] = {
    OPT_API, {"collective", OPT_BOOL, NULL, false, NULL}, OPT_RUN, END_OPTIONS};
static cfg_option_t mdtest_hard_stat_opts[] = {OPT_API, OPT_RUN, END_OPTIONS};
static cfg_option_t mdworkbench_delete_opts[] = {OPT_RUN, END_OPTIONS};
static cfg_option_t mdtest_easy_delete_opts[] = {OPT_API, OPT_RUN, END_OPTIONS};
static cfg_option_t mdtest_hard_read_opts[] = {OPT_API, OPT_RUN, END_OPTIONS};
static cfg_option_t mdtest_hard_delete_opts[] = {OPT_API, OPT_RUN, END_OPTIONS};
static cfg_option_t ior_rnd4k_easy_read_opts[] = {OPT_API, OPT_RUN, END_OPTIONS};

/* Phase order of src/phase-definitions.h; config.ini and the hash follow it. */
static cfg_section_t sections[] = {
    {"global", global_opts},
    {"debug", debug_opts},
    {"ior-easy", ior_easy_opts},
    {"ior-easy-write", ior_easy_write_opts},
    {"mdtest-easy", mdtest_easy_opts},
    {"mdtest-easy-write", mdtest_easy_write_opts},
    {"mdworkbench", mdworkbench_opts},
    {"mdworkbench-create", mdworkbench_create_opts},
    {"timestamp", timestamp_opts},
    {"find-easy", find_easy_opts},
    {"ior-hard", ior_hard_opts},
    {"ior-hard-write", ior_hard_write_opts},
    {"mdtest-hard", mdtest_hard_opts},
    {"mdtest-hard-write", mdtest_hard_write_opts},
    {"find", find_opts},
    {"find-hard", find_hard_opts},
    {"mdworkbench-bench", mdworkbench_bench_opts},
    {"ior-easy-read", ior_easy_read_opts},
    {"mdtest-easy-stat", mdtest_easy_stat_opts},
    {"ior-hard-read", ior_hard_read_opts},
    {"mdtest-hard-stat", mdtest_hard_stat_opts},
    {"mdworkbench-delete", mdworkbench_delete_opts},
    {"mdtest-easy-delete", mdtest_easy_delete_opts},
    {"mdtest-hard-read", mdtest_hard_read_opts},
    {"mdtest-hard-delete", mdtest_hard_delete_opts},
    {"ior-rnd4K-easy-read", ior_rnd4k_easy_read_opts},
};
#define SECTION_COUNT (sizeof(sections) / sizeof(sections[0]))

const cfg_section_t *config_sections(size_t *count) {
  *count = SECTION_COUNT;
  return sections;
}

void config_reset(void) {
  for (size_t s = 0; s < SECTION_COUNT; s++) {
    for (cfg_option_t *o = sections[s].options; o->name; o++) {
      o->value = o->dflt;
    }
  }
}

static cfg_section_t *find_section(const char *name) {
  for (size_t s = 0; s < SECTION_COUNT; s++) {
    if (strcasecmp(sections[s].name, name) == 0) {
      return &sections[s];
    }
  }
  return NULL;
}

static cfg_option_t *find_option(cfg_section_t *section, const char *key) {
  for (cfg_option_t *o = section->options; o->name; o++) {
    if (strcasecmp(o->name, key) == 0) {
      return o;
    }
  }
  return NULL;
}

static void list_section_names(char *out, size_t len) {
  out[0] = '\0';
  for (size_t s = 0; s < SECTION_COUNT; s++) {
    size_t used = strlen(out);
    snprintf(out + used, len - used, "%s%s", s ? ", " : "", sections[s].name);
  }
}

static void list_option_names(const cfg_section_t *section, char *out, size_t len) {
  out[0] = '\0';
  if (!section->options[0].name) {
    snprintf(out, len, "none");
    return;
  }
  for (cfg_option_t *o = section->options; o->name; o++) {
    size_t used = strlen(out);
    snprintf(out + used, len - used, "%s%s", o == section->options ? "" : ", ", o->name);
  }
}

static bool value_matches(const char *pattern, const char *value) {
  regex_t re;
  if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB) != 0) {
    die("internal error: cannot compile the value pattern %s", pattern);
  }
  bool ok = regexec(&re, value, 0, NULL, 0) == 0;
  regfree(&re);
  return ok;
}

/* Checks the value against the option type; booleans are normalised as the official parser does. */
static bool check_type(cfg_option_t *o, const char **value, const char *section, int line, const char *file,
                       char *err, size_t err_len) {
  const char *expect = NULL;
  switch (o->type) {
    case OPT_INT:
      if (!value_matches("^[-]?[0-9]+$", *value)) expect = "a whole number";
      break;
    case OPT_UINT:
    case OPT_UINT64:
      if (!value_matches("^[0-9]+$", *value)) expect = "a whole number >= 0";
      break;
    case OPT_FLOAT:
      if (!value_matches("^([0-9e.+-]+)$", *value)) expect = "a decimal number";
      break;
    case OPT_BOOL:
      if (strcasecmp(*value, "true") == 0 || strcmp(*value, "1") == 0) {
        *value = "TRUE";
      } else if (strcasecmp(*value, "false") == 0 || strcmp(*value, "0") == 0) {
        *value = "FALSE";
      } else {
        expect = "TRUE or FALSE";
      }
      break;
    case OPT_STRING:
      break;
  }
  if (expect) {
    snprintf(err, err_len, "%s line %d: option \"%s\" in section [%s] must be %s, but it is \"%s\".", file,
             line, o->name, section, expect, *value);
    return false;
  }
  return true;
}

bool config_parse(const char *text, const char *file_name, char *err, size_t err_len) {
  regex_t r_section, r_key, r_empty;
  /* The same expressions as src/ini-parse.c so that what the official app accepts, we accept. */
  if (regcomp(&r_section, "^[[:space:]]*\\[[[:space:]]*([0-9a-zA-Z_-]+)[[:space:]]*\\][[:space:]]*([[:space:]][#;].*)?$",
              REG_EXTENDED) != 0 ||
      regcomp(&r_key, "^[[:space:]]*([0-9a-zA-Z_.-]+)[[:space:]]*=[[:space:]]*([^#;]*)[[:space:]]*([[:space:]][#;].*)?$",
              REG_EXTENDED) != 0 ||
      regcomp(&r_empty, "^[[:space:]]*([#;].*)?$", REG_EXTENDED) != 0) {
    die("internal error: cannot compile the INI expressions");
  }
  config_reset();
  char *copy = xstrdup(text);
  cfg_section_t *section = NULL;
  bool ok = true;
  int line_no = 0;
  char *line = copy;
  while (line && ok) {
    char *next = strchr(line, '\n');
    if (next) {
      *next++ = '\0';
    }
    line_no++;
    regmatch_t m[3];
    if (regexec(&r_section, line, 3, m, 0) == 0) {
      line[m[1].rm_eo] = '\0';
      const char *name = line + m[1].rm_so;
      section = find_section(name);
      if (!section) {
        char known[1024];
        list_section_names(known, sizeof(known));
        snprintf(err, err_len, "%s line %d: unknown section [%s]. The sections an IO500 configuration may use are: %s.",
                 file_name, line_no, name, known);
        ok = false;
      }
    } else if (regexec(&r_key, line, 3, m, 0) == 0) {
      line[m[1].rm_eo] = '\0';
      char *key = line + m[1].rm_so;
      char *val = line + m[2].rm_so;
      /* Trim like the official parser: spaces, tabs and carriage returns at the end of the value. */
      char *end = line + m[2].rm_eo;
      *end = '\0';
      while (end > val && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r')) {
        *--end = '\0';
      }
      if (*val == '\0') {
        /* An empty value means "unset" for the official app; it is skipped, so do we. */
      } else if (!section) {
        snprintf(err, err_len, "%s line %d: the option \"%s\" appears before any [section] header.", file_name,
                 line_no, key);
        ok = false;
      } else {
        cfg_option_t *o = find_option(section, key);
        if (!o) {
          char known[1024];
          list_option_names(section, known, sizeof(known));
          snprintf(err, err_len,
                   "%s line %d: unknown option \"%s\" in section [%s]. The options of this section are: %s.",
                   file_name, line_no, key, section->name, known);
          ok = false;
        } else {
          const char *value = val;
          ok = check_type(o, &value, section->name, line_no, file_name, err, err_len);
          if (ok) {
            o->value = xstrdup(value);
          }
        }
      }
    } else if (regexec(&r_empty, line, 0, NULL, 0) != 0) {
      snprintf(err, err_len, "%s line %d: this line is neither a [section], a \"key = value\" pair nor a comment: \"%s\".",
               file_name, line_no, line);
      ok = false;
    }
    line = next;
  }
  free(copy);
  regfree(&r_section);
  regfree(&r_key);
  regfree(&r_empty);
  if (ok) {
    for (size_t s = 0; s < SECTION_COUNT && ok; s++) {
      for (cfg_option_t *o = sections[s].options; o->name; o++) {
        if (o->mandatory && !o->value) {
          snprintf(err, err_len, "%s: the mandatory option \"%s\" in section [%s] is not set.", file_name, o->name,
                   sections[s].name);
          ok = false;
          break;
        }
      }
    }
  }
  return ok;
}

static cfg_option_t *lookup(const char *section, const char *key) {
  cfg_section_t *s = find_section(section);
  if (!s) {
    die("internal error: no section [%s]", section);
  }
  cfg_option_t *o = find_option(s, key);
  if (!o) {
    die("internal error: no option %s in [%s]", key, section);
  }
  return o;
}

const char *cfg_str(const char *section, const char *key) { return lookup(section, key)->value; }

bool cfg_bool(const char *section, const char *key, bool when_unset) {
  const char *v = cfg_str(section, key);
  return v ? v[0] == 'T' : when_unset;
}

long long cfg_int(const char *section, const char *key, long long when_unset) {
  const char *v = cfg_str(section, key);
  return v ? atoll(v) : when_unset;
}

uint32_t config_hash(void) {
  uint32_t h = 0;
  for (size_t s = 0; s < SECTION_COUNT; s++) {
    for (cfg_option_t *o = sections[s].options; o->name; o++) {
      if (o->value) {
        hash_key_value(&h, o->name, o->value);
      }
    }
  }
  return h;
}

void config_write(FILE *out) {
  for (size_t s = 0; s < SECTION_COUNT; s++) {
    fprintf(out, "[%s]\n", sections[s].name);
    for (cfg_option_t *o = sections[s].options; o->name; o++) {
      fprintf(out, "%s = %s\n", o->name, o->value ? o->value : "");
    }
    fprintf(out, "\n");
  }
}
