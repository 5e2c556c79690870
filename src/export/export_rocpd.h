/* Internal to the exporter: a rocprofiler-sdk input, in SQL. */
#ifndef RPDTOP_EXPORT_ROCPD_H
#define RPDTOP_EXPORT_ROCPD_H

#include "export/export_plan.h"

/* With the input attached as src (export_attach), write its exported rows
 * to x's output in its own layout; *apis gets the regions written. */
int export_rocpd(struct exporter *x, const int64_t *ops, size_t nops, uint64_t *apis);

#endif
