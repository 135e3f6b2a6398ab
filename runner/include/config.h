/* The INI configuration: parsing with the official rules, the IO500 release whose option table accepts the
   file, effective values, config.ini and the config hash exactly as that release writes them. */
#ifndef RUNNER_CONFIG_H
#define RUNNER_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "releases.h"

/* Parses INI text like src/ini-parse.c and picks the newest release (releases[], main first) whose table
   has every section and key of the file, with values of the right type. A key that no release ever had,
   a section that no release ever had, a value of the wrong type, a file that mixes options of releases
   that never coexisted, or a missing mandatory option is an error: returns false with a sentence in err. */
bool config_parse(const char *text, const char *file_name, char *err, size_t err_len);

/* The release whose table was chosen, e.g. releases[0] for a configuration IO500 main accepts. */
const release_t *config_release(void);

/* Effective value, NULL when unset: the file's value (booleans as TRUE/FALSE), else the chosen release's
   default, else main's default. Section and key are matched case-insensitively. */
const char *cfg_str(const char *section, const char *key);
bool cfg_bool(const char *section, const char *key, bool when_unset);
long long cfg_int(const char *section, const char *key, long long when_unset);
/* The same for keys that only some releases have (noRun, posix.odirect, ...): NULL where none has it. */
const char *cfg_str_any(const char *section, const char *key);
/* True when the file itself gives the key a value. */
bool cfg_given(const char *section, const char *key);

/* XOR of hash(option, value) over every option of the chosen release that has a value, as u_ini_gen_hash. */
uint32_t config_hash(void);

/* config.ini as the chosen release writes it: every section in its order, every option "key = value". */
void config_write(FILE *out);

/* The sections of the file whose phases io500-runner does not run (extended mode, ior-rnd*, mdworkbench,
   find-easy/-hard), as "[a], [b]"; empty when there are none. */
void config_sections_not_run(char *out, size_t len);

/* The keys of the file that only the release's io500.sh wrapper read (for example [find] external-args of
   io500-isc20_v1), as "[find] external-args"; empty when there are none. */
void config_script_keys_given(char *out, size_t len);

#endif
