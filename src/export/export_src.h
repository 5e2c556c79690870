/* Internal to the exporter: the input of a single-input export. */
#ifndef RPDTOP_EXPORT_SRC_H
#define RPDTOP_EXPORT_SRC_H

#include <sqlite3.h>
#include <stdint.h>

#include "export/export_plan.h"
#include "session/filter.h"
#include "util/idmap.h"

/* The input attached to the output's connection, and what the SQL
 * function rpdtop_pass(string_id, in_ustring) needs to match names. */
struct export_src {
	const struct filter *filter;
	sqlite3 *input; /* a connection of its own, for lookups */
	sqlite3_stmt *str, *ustr;
	struct idmap seen;
};

/* Does the string of that id (in rocpd_ustring when ustring is set) pass
 * the filter? 1 or 0, each string matched once; -1 when it cannot be read
 * (sqlite3_errmsg(src->input) says why). */
int export_src_passes(struct export_src *src, int64_t id, int ustring);

/* Attach the trace's first input as src, read-only. */
int export_attach(struct exporter *x, struct export_src *src);
void export_src_close(struct export_src *src);

#endif
