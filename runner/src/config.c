#include "config.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hash.h"
#include "util.h"

/* One "[section]" header or "key = value" line of the file, in file order. */
typedef struct {
  int line;
  char *section; /* the section as written (for a key: the section it is in, NULL before any header) */
  char *key;     /* NULL for a header */
  char *value;   /* as written, trimmed; normalised (TRUE/FALSE) once the release is chosen */
} cfg_entry_t;

static cfg_entry_t *entries;
static size_t entry_count;
static const release_t *chosen;

/* The sections io500-runner runs or reads; every other section of a release belongs to a phase it does
   not run (extended mode, the ior-rnd* phases of io500-isc21 .. isc26_v2, mdworkbench, find-easy/-hard). */
static const char *const runner_sections[] = {
    "global",           "debug",          "ior-easy",         "ior-easy-write",    "mdtest-easy",
    "mdtest-easy-write", "timestamp",     "ior-hard",         "ior-hard-write",    "mdtest-hard",
    "mdtest-hard-write", "find",          "ior-easy-read",    "mdtest-easy-stat",  "ior-hard-read",
    "mdtest-hard-stat",  "mdtest-easy-delete", "mdtest-hard-read", "mdtest-hard-delete", "ior-rnd4K-easy-read",
};

static const rel_section_t *rel_section(const release_t *rel, const char *name) {
  for (const rel_section_t *s = rel->sections; s->name; s++) {
    if (strcasecmp(s->name, name) == 0) {
      return s;
    }
  }
  return NULL;
}

static const rel_option_t *rel_option(const rel_section_t *section, const char *key) {
  for (const rel_option_t *o = section->options; o->name; o++) {
    if (strcasecmp(o->name, key) == 0) {
      return o;
    }
  }
  return NULL;
}

static const rel_option_t *rel_lookup(const release_t *rel, const char *section, const char *key) {
  const rel_section_t *s = rel_section(rel, section);
  return s ? rel_option(s, key) : NULL;
}

static bool rel_script_key(const release_t *rel, const char *section, const char *key) {
  for (const rel_key_t *k = rel->script_keys; k->section; k++) {
    if (strcasecmp(k->section, section) == 0 && strcasecmp(k->key, key) == 0) {
      return true;
    }
  }
  return false;
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

/* The official parser's type check; booleans come back as TRUE/FALSE. NULL when the value fits, else
   what the option expects. */
static const char *type_mismatch(opt_type_t type, const char *value, const char **normalised) {
  *normalised = value;
  switch (type) {
    case OPT_INT:
      return value_matches("^[-]?[0-9]+$", value) ? NULL : "a whole number";
    case OPT_UINT:
    case OPT_UINT64:
      return value_matches("^[0-9]+$", value) ? NULL : "a whole number >= 0";
    case OPT_FLOAT:
      return value_matches("^([0-9e.+-]+)$", value) ? NULL : "a decimal number";
    case OPT_BOOL:
      if (strcasecmp(value, "true") == 0 || strcmp(value, "1") == 0) {
        *normalised = "TRUE";
        return NULL;
      }
      if (strcasecmp(value, "false") == 0 || strcmp(value, "0") == 0) {
        *normalised = "FALSE";
        return NULL;
      }
      return "TRUE or FALSE";
    case OPT_STRING:
      return NULL;
  }
  return NULL;
}

static void append(char *out, size_t len, const char *fmt, const char *text) {
  size_t used = strlen(out);
  if (used < len) {
    snprintf(out + used, len - used, fmt, text);
  }
}

/* Every section name of every release, each once, for messages. */
static void list_all_sections(char *out, size_t len) {
  out[0] = '\0';
  for (size_t r = 0; r < release_count; r++) {
    for (const rel_section_t *s = releases[r].sections; s->name; s++) {
      bool seen = false;
      for (size_t q = 0; q < r && !seen; q++) {
        seen = rel_section(&releases[q], s->name) != NULL;
      }
      if (!seen) {
        append(out, len, out[0] ? ", %s" : "%s", s->name);
      }
    }
  }
}

/* Every option any release has in this section, each once. */
static void list_all_options(const char *section, char *out, size_t len) {
  out[0] = '\0';
  for (size_t r = 0; r < release_count; r++) {
    const rel_section_t *s = rel_section(&releases[r], section);
    if (!s) {
      continue;
    }
    for (const rel_option_t *o = s->options; o->name; o++) {
      bool seen = false;
      for (size_t q = 0; q < r && !seen; q++) {
        seen = rel_lookup(&releases[q], section, o->name) != NULL;
      }
      if (!seen) {
        append(out, len, out[0] ? ", %s" : "%s", o->name);
      }
    }
    for (const rel_key_t *k = releases[r].script_keys; k->section; k++) {
      if (strcasecmp(k->section, section) == 0 && !strstr(out, k->key)) {
        append(out, len, out[0] ? ", %s" : "%s", k->key);
      }
    }
  }
  if (!out[0]) {
    snprintf(out, len, "none");
  }
}

static bool known_to_some_release(const cfg_entry_t *e) {
  for (size_t r = 0; r < release_count; r++) {
    if (!e->key ? rel_section(&releases[r], e->section) != NULL
                : rel_lookup(&releases[r], e->section, e->key) || rel_script_key(&releases[r], e->section, e->key)) {
      return true;
    }
  }
  return false;
}

/* Does this release accept the entry? On a type error, expect names what the option needs. */
static bool release_accepts(const release_t *rel, const cfg_entry_t *e, const char **expect) {
  *expect = NULL;
  if (!e->key) {
    return rel_section(rel, e->section) != NULL;
  }
  if (rel_script_key(rel, e->section, e->key)) {
    return true;
  }
  const rel_option_t *o = rel_lookup(rel, e->section, e->key);
  if (!o) {
    return false;
  }
  const char *normalised;
  *expect = type_mismatch(o->type, e->value, &normalised);
  return *expect == NULL;
}

/* Which releases have this entry, as a short text: "io500-isc20_v1 ... io500-sc20" style ranges. */
static void releases_with(const cfg_entry_t *e, char *out, size_t len) {
  out[0] = '\0';
  for (size_t r = 0; r < release_count; r++) {
    const char *expect;
    if (release_accepts(&releases[r], e, &expect)) {
      append(out, len, out[0] ? "; %s" : "%s", releases[r].tags);
    }
  }
}

static void describe(const cfg_entry_t *e, char *out, size_t len) {
  if (e->key) {
    snprintf(out, len, "[%s] %s (line %d)", e->section, e->key, e->line);
  } else {
    snprintf(out, len, "[%s] (line %d)", e->section, e->line);
  }
}

/* No release accepts the whole file: say why, for the first entry that explains it. */
static void explain_rejection(const char *file_name, char *err, size_t err_len) {
  for (size_t i = 0; i < entry_count; i++) {
    const cfg_entry_t *e = &entries[i];
    if (known_to_some_release(e)) {
      continue;
    }
    char known[4096];
    if (!e->key) {
      list_all_sections(known, sizeof(known));
      snprintf(err, err_len,
               "%s line %d: unknown section [%s]: no IO500 release has it. The sections an IO500 configuration may "
               "use are: %s.",
               file_name, e->line, e->section, known);
    } else {
      list_all_options(e->section, known, sizeof(known));
      snprintf(err, err_len,
               "%s line %d: unknown option \"%s\" in section [%s]: no IO500 release has it. The options of this "
               "section are: %s.",
               file_name, e->line, e->key, e->section, known);
    }
    return;
  }
  /* Every entry is known somewhere: a value of the wrong type, or options of different releases. */
  for (size_t i = 0; i < entry_count; i++) {
    const cfg_entry_t *e = &entries[i];
    bool accepted = false;
    const char *expect = NULL;
    for (size_t r = 0; r < release_count && !accepted; r++) {
      const char *why;
      accepted = release_accepts(&releases[r], e, &why);
      if (!expect && why) {
        expect = why;
      }
    }
    if (!accepted && expect) {
      snprintf(err, err_len, "%s line %d: option \"%s\" in section [%s] must be %s, but it is \"%s\".", file_name,
               e->line, e->key, e->section, expect, e->value);
      return;
    }
  }
  /* Narrow the releases entry by entry; the entry that empties the set conflicts with an earlier one. */
  bool possible[64];
  for (size_t r = 0; r < release_count && r < 64; r++) {
    possible[r] = true;
  }
  const cfg_entry_t *narrowing = NULL;
  for (size_t i = 0; i < entry_count; i++) {
    const cfg_entry_t *e = &entries[i];
    bool any = false, narrows = false;
    for (size_t r = 0; r < release_count && r < 64; r++) {
      const char *why;
      bool ok = release_accepts(&releases[r], e, &why);
      any = any || (possible[r] && ok);
      narrows = narrows || (possible[r] && !ok);
    }
    if (!any) {
      char first[256], second[256], first_rel[2048], second_rel[2048];
      describe(narrowing ? narrowing : e, first, sizeof(first));
      describe(e, second, sizeof(second));
      releases_with(narrowing ? narrowing : e, first_rel, sizeof(first_rel));
      releases_with(e, second_rel, sizeof(second_rel));
      snprintf(err, err_len,
               "%s: no IO500 release accepts every section and option of this file: %s belongs to %s, but %s "
               "to %s. Keep the options of one release.",
               file_name, first, first_rel, second, second_rel);
      return;
    }
    if (narrows) {
      narrowing = e;
    }
    for (size_t r = 0; r < release_count && r < 64; r++) {
      const char *why;
      possible[r] = possible[r] && release_accepts(&releases[r], e, &why);
    }
  }
  snprintf(err, err_len, "%s: no IO500 release accepts this file.", file_name);
}

static void free_entries(void) {
  for (size_t i = 0; i < entry_count; i++) {
    free(entries[i].section);
    free(entries[i].key);
    free(entries[i].value);
  }
  free(entries);
  entries = NULL;
  entry_count = 0;
}

static void add_entry(int line, const char *section, const char *key, const char *value) {
  entries = xrealloc(entries, (entry_count + 1) * sizeof(*entries));
  entries[entry_count].line = line;
  entries[entry_count].section = section ? xstrdup(section) : NULL;
  entries[entry_count].key = key ? xstrdup(key) : NULL;
  entries[entry_count].value = value ? xstrdup(value) : NULL;
  entry_count++;
}

/* The syntax of src/ini-parse.c: same expressions, so that what the official app accepts, we accept. */
static bool read_lines(const char *text, const char *file_name, char *err, size_t err_len) {
  regex_t r_section, r_key, r_empty;
  if (regcomp(&r_section, "^[[:space:]]*\\[[[:space:]]*([0-9a-zA-Z_-]+)[[:space:]]*\\][[:space:]]*([[:space:]][#;].*)?$",
              REG_EXTENDED) != 0 ||
      regcomp(&r_key, "^[[:space:]]*([0-9a-zA-Z_.-]+)[[:space:]]*=[[:space:]]*([^#;]*)[[:space:]]*([[:space:]][#;].*)?$",
              REG_EXTENDED) != 0 ||
      regcomp(&r_empty, "^[[:space:]]*([#;].*)?$", REG_EXTENDED) != 0) {
    die("internal error: cannot compile the INI expressions");
  }
  char *copy = xstrdup(text);
  char *section = NULL;
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
      section = line + m[1].rm_so;
      add_entry(line_no, section, NULL, NULL);
      section = entries[entry_count - 1].section;
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
        /* An empty value means "unset" for the official app; it is skipped before the key is looked up. */
      } else if (!section) {
        snprintf(err, err_len, "%s line %d: the option \"%s\" appears before any [section] header.", file_name,
                 line_no, key);
        ok = false;
      } else {
        add_entry(line_no, section, key, val);
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
  return ok;
}

bool config_parse(const char *text, const char *file_name, char *err, size_t err_len) {
  free_entries();
  chosen = NULL;
  if (!read_lines(text, file_name, err, err_len)) {
    return false;
  }
  for (size_t r = 0; r < release_count && !chosen; r++) {
    bool all = true;
    for (size_t i = 0; i < entry_count && all; i++) {
      const char *expect;
      all = release_accepts(&releases[r], &entries[i], &expect);
    }
    if (all) {
      chosen = &releases[r];
    }
  }
  if (!chosen) {
    explain_rejection(file_name, err, err_len);
    return false;
  }
  for (size_t i = 0; i < entry_count; i++) {
    cfg_entry_t *e = &entries[i];
    const rel_option_t *o = e->key ? rel_lookup(chosen, e->section, e->key) : NULL;
    if (o) {
      const char *normalised;
      type_mismatch(o->type, e->value, &normalised);
      if (normalised != e->value) {
        free(e->value);
        e->value = xstrdup(normalised);
      }
    }
  }
  for (const rel_section_t *s = chosen->sections; s->name; s++) {
    for (const rel_option_t *o = s->options; o->name; o++) {
      if (o->mandatory && !cfg_str(s->name, o->name)) {
        snprintf(err, err_len, "%s: the mandatory option \"%s\" in section [%s] is not set.", file_name, o->name,
                 s->name);
        return false;
      }
    }
  }
  return true;
}

const release_t *config_release(void) { return chosen ? chosen : &releases[0]; }

static const cfg_entry_t *given(const char *section, const char *key) {
  const cfg_entry_t *found = NULL;
  for (size_t i = 0; i < entry_count; i++) {
    if (entries[i].key && strcasecmp(entries[i].section, section) == 0 && strcasecmp(entries[i].key, key) == 0) {
      found = &entries[i]; /* the last assignment wins, as in the official parser */
    }
  }
  return found;
}

bool cfg_given(const char *section, const char *key) { return given(section, key) != NULL; }

static bool known_option(const char *section, const char *key) {
  for (size_t r = 0; r < release_count; r++) {
    if (rel_lookup(&releases[r], section, key) || rel_script_key(&releases[r], section, key)) {
      return true;
    }
  }
  return false;
}

const char *cfg_str_any(const char *section, const char *key) {
  return known_option(section, key) ? cfg_str(section, key) : NULL;
}

const char *cfg_str(const char *section, const char *key) {
  const cfg_entry_t *e = given(section, key);
  if (e) {
    return e->value;
  }
  const rel_option_t *o = rel_lookup(config_release(), section, key);
  if (o) {
    return o->dflt;
  }
  for (size_t r = 0; r < release_count; r++) {
    if ((o = rel_lookup(&releases[r], section, key)) != NULL) {
      return r == 0 ? o->dflt : NULL; /* an option of older releases only: unset unless given */
    }
    if (rel_script_key(&releases[r], section, key)) {
      return NULL;
    }
  }
  die("internal error: no IO500 release has the option %s in [%s]", key, section);
}

bool cfg_bool(const char *section, const char *key, bool when_unset) {
  const char *v = cfg_str(section, key);
  return v ? v[0] == 'T' : when_unset;
}

long long cfg_int(const char *section, const char *key, long long when_unset) {
  const char *v = cfg_str(section, key);
  return v ? atoll(v) : when_unset;
}

/* The value the chosen release writes into config.ini for an option: the file's, else its default. */
static const char *written_value(const rel_section_t *s, const rel_option_t *o) {
  const cfg_entry_t *e = given(s->name, o->name);
  return e ? e->value : o->dflt;
}

uint32_t config_hash(void) {
  uint32_t h = 0;
  for (const rel_section_t *s = config_release()->sections; s->name; s++) {
    for (const rel_option_t *o = s->options; o->name; o++) {
      const char *value = written_value(s, o);
      if (value) {
        hash_key_value(&h, o->name, value);
      }
    }
  }
  return h;
}

void config_write(FILE *out) {
  for (const rel_section_t *s = config_release()->sections; s->name; s++) {
    fprintf(out, "[%s]\n", s->name);
    for (const rel_option_t *o = s->options; o->name; o++) {
      const char *value = written_value(s, o);
      fprintf(out, "%s = %s\n", o->name, value ? value : "");
    }
    fprintf(out, "\n");
  }
}

static bool runner_runs(const char *section) {
  for (size_t i = 0; i < sizeof(runner_sections) / sizeof(runner_sections[0]); i++) {
    if (strcasecmp(runner_sections[i], section) == 0) {
      return true;
    }
  }
  return false;
}

void config_sections_not_run(char *out, size_t len) {
  out[0] = '\0';
  for (const rel_section_t *s = config_release()->sections; s->name; s++) {
    if (runner_runs(s->name)) {
      continue;
    }
    for (size_t i = 0; i < entry_count; i++) {
      if (strcasecmp(entries[i].section, s->name) == 0) {
        append(out, len, out[0] ? ", [%s]" : "[%s]", s->name);
        break;
      }
    }
  }
}

void config_script_keys_given(char *out, size_t len) {
  out[0] = '\0';
  for (size_t i = 0; i < entry_count; i++) {
    const cfg_entry_t *e = &entries[i];
    if (e->key && rel_script_key(config_release(), e->section, e->key) &&
        !rel_lookup(config_release(), e->section, e->key)) {
      char item[256];
      snprintf(item, sizeof(item), "[%s] %s", e->section, e->key);
      append(out, len, out[0] ? ", %s" : "%s", item);
    }
  }
}
