/* Internal to the exporter: the single-input path, in SQL. */
#ifndef RPDTOP_EXPORT_SQL_H
#define RPDTOP_EXPORT_SQL_H

#include "export/export_plan.h"

/* Copy the exported rows of the trace's only input into x's output; ops
 * are its exported op ids (sorted). *apis gets the API rows written. */
int export_single_sql(struct exporter *x, const int64_t *ops, size_t nops, uint64_t *apis);

#endif
