/* Where an input was recorded, read without loading it: the node names a
 * rocpd file's processes give (rpd files name none). Batch reports group
 * inputs by node before reading any of them. */
#ifndef RPDTOP_NODES_H
#define RPDTOP_NODES_H

#include <stddef.h>

#include "util/error.h"

struct input_nodes {
	char **names; /* a NULL name: a process that names no node */
	size_t n;
};

/* The nodes of the file at path (none for an rpd file); -1 with *err
 * naming the file when it cannot be read. */
int input_nodes_read(const char *path, struct input_nodes *out, struct rpd_error *err);
void input_nodes_free(struct input_nodes *nodes);

#endif
