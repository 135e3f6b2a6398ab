#ifndef RUNNER_SUPPORTED_H
#define RUNNER_SUPPORTED_H

#include <stdbool.h>
#include <stddef.h>

/* False with a sentence in err when the configuration asks for something this runner cannot do. */
bool check_supported_options(char *err, size_t err_len);

#endif
