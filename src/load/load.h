/* Loading inputs into one trace. */
#ifndef RPDTOP_LOAD_H
#define RPDTOP_LOAD_H

#include <stddef.h>

#include "load/rpd.h"
#include "trace/trace.h"
#include "util/error.h"

/* Read every path into t (initialised here). Returns 0, or -1 with *err set
 * to one line naming the input at fault; t is then already freed. */
int trace_load(struct trace *t, const char *const *paths, size_t npaths,
	       unsigned what, struct rpd_error *err);

#endif
