/* The official INI option set (IO500 main, 26 sections), parsing, config.ini and the config hash. */
#ifndef RUNNER_CONFIG_H
#define RUNNER_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum { OPT_STRING, OPT_INT, OPT_UINT, OPT_UINT64, OPT_BOOL, OPT_FLOAT } opt_type_t;

typedef struct {
  const char *name;
  opt_type_t type;
  const char *dflt; /* NULL: unset by default */
  bool mandatory;
  const char *value; /* effective value; NULL when unset */
} cfg_option_t;

typedef struct {
  const char *name;
  cfg_option_t *options;
} cfg_section_t;

/* Resets every option to its default. */
void config_reset(void);

/* Parses INI text like src/ini-parse.c. On error returns false and writes a sentence into err. */
bool config_parse(const char *text, const char *file_name, char *err, size_t err_len);

/* Effective value, NULL when unset. Section and key are matched case-insensitively. */
const char *cfg_str(const char *section, const char *key);
bool cfg_bool(const char *section, const char *key, bool when_unset);
long long cfg_int(const char *section, const char *key, long long when_unset);

/* XOR of hash(option, value) over every option that has a value, exactly as u_ini_gen_hash. */
uint32_t config_hash(void);

/* config.ini: every section in phase order, every option "key = value". */
void config_write(FILE *out);

/* For messages: the list of all sections. */
const cfg_section_t *config_sections(size_t *count);

#endif
