/* Internal to the exporter: the input of a single-input export. */
#ifndef RPDTOP_EXPORT_SRC_H
#define RPDTOP_EXPORT_SRC_H

#include <sqlite3.h>

#include "export/export_plan.h"

/* The input attached to the output's connection as "src", and a
 * connection of its own to read from. */
struct export_src {
	sqlite3 *input;
};

/* Attach the trace's first input as src, read-only. */
int export_attach(struct exporter *x, struct export_src *src);
void export_src_close(struct export_src *src);

#endif
