/* The span of the GPU ops of inputs, read without loading them: a batch
 * report placing a window on the whole trace's span learns it before it
 * reads the node groups one by one. */
#ifndef RPDTOP_LOAD_SPAN_H
#define RPDTOP_LOAD_SPAN_H

#include <stddef.h>
#include <stdint.h>

#include "trace/op_span.h"
#include "util/error.h"

/* The span of the ops the inputs (files or directories) hold, as loading
 * them (trace_load) finds it, a process read twice counted once. An input
 * that cannot be read fails it as it fails the load (0, or -1 with *err),
 * or with skip_bad is left out. */
int load_span(const char *const *args, size_t nargs, int skip_bad, struct op_span *out,
	      struct rpd_error *err);

#endif
