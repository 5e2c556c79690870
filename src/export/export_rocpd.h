/* Internal to the exporter: a rocprofiler-sdk input, in SQL. */
#ifndef RPDTOP_EXPORT_ROCPD_H
#define RPDTOP_EXPORT_ROCPD_H

#include "export/export_plan.h"

/* With the input attached as src (export_attach), write the rows the
 * selection keeps, process by process, in the input's own layout; the
 * trace holds the input's API rows. *apis gets the calls written. */
int export_rocpd(struct exporter *x, uint64_t *apis);

#endif
