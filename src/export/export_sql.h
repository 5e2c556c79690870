/* Internal to the exporter: the single-input path, in SQL. */
#ifndef RPDTOP_EXPORT_SQL_H
#define RPDTOP_EXPORT_SQL_H

#include "export/export_plan.h"

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

/* The condition the rows of p (in the attached input) must meet, from
 * the kinds of its columns, column skip left out: " WHERE 1 AND ..." in
 * *where (sqlite3_free it). When the columns cannot be read, or are not
 * those planned, -1 with x->err set: the table is never copied whole. */
int export_conditions(struct exporter *x, const struct table_plan *p, int skip, char **where);

/* Attach the trace's first input as src, read-only. */
int export_attach(struct exporter *x, struct export_src *src);
void export_src_close(struct export_src *src);

/* Copy the exported rows of the trace's only (rpd) input into x's output;
 * ops are its exported op ids (sorted). *apis gets the API rows written. */
int export_single_sql(struct exporter *x, struct export_src *src, const int64_t *ops, size_t nops,
		      uint64_t *apis);

#endif
