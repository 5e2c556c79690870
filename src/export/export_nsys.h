/* Internal to the exporter: an Nsight Systems SQLite export, in SQL. */
#ifndef RPDTOP_EXPORT_NSYS_H
#define RPDTOP_EXPORT_NSYS_H

#include <stddef.h>
#include <stdint.h>

#include "export/export_plan.h"
#include "export/export_src.h"

/* With the input attached as src (export_attach), write its tables with
 * the rows of the ops and calls kept: ops are the exported op ids (sorted).
 * Says where the export records itself (x->metadata_table). *apis gets
 * the calls written (runtime calls, NVTX ranges and marks). */
int export_nsys(struct exporter *x, struct export_src *src, const int64_t *ops, size_t nops, uint64_t *apis);

#endif
