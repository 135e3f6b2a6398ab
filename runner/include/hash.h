/* The IO500 application's 32-bit integrity hashes (io500-format.md section 9). */
#ifndef RUNNER_HASH_H
#define RUNNER_HASH_H

#include <stdint.h>

/* u_hash_update: rotate left by 2 and add each byte as a signed char. */
uint32_t hash_update(uint32_t hash, const char *text);

/* XORs hash(key then value) into *combined, exactly like u_hash_update_key_val. */
void hash_key_value(uint32_t *combined, const char *key, const char *value);

/* The same with the value printed as "%f", like u_hash_update_key_val_dbl. */
void hash_key_double(uint32_t *combined, const char *key, double value);

/* The per-phase -G seed: hash(phase key, then timestamp); 0 and all-ones become 4711. */
int32_t phase_seed(const char *phase_key, const char *timestamp);

#endif
