/* The inputs a command line names: files as they are, directories as every
 * trace below them (.rpd, .db and .sqlite files, and .json and .json.gz
 * files that hold a trace). */
#ifndef RPDTOP_INPUTS_H
#define RPDTOP_INPUTS_H

#include <stddef.h>

#include "util/error.h"

struct input_list {
	char **paths;
	size_t n, cap;
};

/* Expand args into list (sorted within each directory). A directory with
 * no database in it is an error. */
int inputs_expand(const char *const *args, size_t nargs, struct input_list *list, struct rpd_error *err);
void inputs_free(struct input_list *list);

#endif
