/* Reader for rocprofiler-sdk "rocpd" databases (rocprofv3
 * --output-format rocpd), schema version 3. */
#ifndef RPDTOP_ROCPD_H
#define RPDTOP_ROCPD_H

#include <sqlite3.h>

#include "load/rpd.h"
#include "trace/trace.h"
#include "util/error.h"

/* Is db a rocpd database? Returns 1 yes, 0 no, -1 on an error. */
int rocpd_is(sqlite3 *db, const char *path, struct rpd_error *err);
/* Check its schema version; store the major version in *version. */
int rocpd_detect(sqlite3 *db, const char *path, int *version, struct rpd_error *err);
/* Append its rows to t, as one input per node it records. */
int rocpd_read(struct trace *t, sqlite3 *db, const char *path, int version, unsigned what,
	       struct rpd_error *err);

#endif
