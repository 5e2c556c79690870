/* Merging a trace read from one input into the unified trace. */
#ifndef RPDTOP_MERGE_H
#define RPDTOP_MERGE_H

#include "trace/trace.h"

/* Append every input, lane, row and link of src to dst, translating string
 * ids and lanes. src is left as it was; trace_finish(dst) comes after the
 * last merge. */
void trace_merge(struct trace *dst, const struct trace *src);

#endif
