/* Internal to the exporter: the input of a single-input export. */
#ifndef RPDTOP_EXPORT_SRC_H
#define RPDTOP_EXPORT_SRC_H

#include <sqlite3.h>

#include "export/export_plan.h"
#include "sqlfile/dbfile.h"

/* The input attached to the output's connection as "src", and two
 * connections of its own to read from: all three read one snapshot of
 * it, taken by export_attach and held until export_src_close. */
struct export_src {
	sqlite3 *input; /* the reads that choose rows */
	sqlite3 *links; /* the links' scan, on a thread of its own */
	struct dbfile_stamp stamp;
};

/* Attach the trace's first input as src, read-only, opened with flags
 * (DBFILE_*). */
int export_attach(struct exporter *x, struct export_src *src, unsigned flags);
/* Is the input as it was when attached? 0, or -1 with x->err set. */
int export_src_unchanged(struct exporter *x, const struct export_src *src);
void export_src_close(struct export_src *src);

#endif
