/* Internal to the exporter: the single-input path, in SQL. */
#ifndef RPDTOP_EXPORT_SQL_H
#define RPDTOP_EXPORT_SQL_H

#include "export/export_plan.h"
#include "export/export_src.h"
#include "export/idset.h"

/* The condition the rows of p (in the attached input) must meet, from
 * the kinds of its columns, column skip left out: " WHERE 1 AND ..." in
 * *where (sqlite3_free it). When the columns cannot be read, or are not
 * those planned, -1 with x->err set: the table is never copied whole. */
int export_conditions(struct exporter *x, const struct table_plan *p, int skip, char **where);

/* Copy the rows of table (in the attached input) whose rowids are ids
 * (rising, n of them), which set k of the sets registered on the output
 * (export_sets_register) holds, and that meet where (" WHERE 1 AND ..."),
 * into the output's table of that name. 0, or -1 with x->err set. */
int export_copy_rowids(struct exporter *x, const char *table, int k, const struct idset *set,
		       const int64_t *ids, size_t n, const char *where);

/* Copy the exported rows of the trace's only (rpd) input into x's output;
 * ops are its exported op ids (sorted). *apis gets the API rows written. */
int export_single_sql(struct exporter *x, struct export_src *src, const int64_t *ops, size_t nops,
		      uint64_t *apis);

#endif
