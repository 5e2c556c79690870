/* Merging a trace read from one input into the unified trace. */
#ifndef RPDTOP_MERGE_H
#define RPDTOP_MERGE_H

#include "trace/trace.h"

/* Append the inputs of src (all, or those skip[input] does not mark),
 * their rows, links and the lanes they use to dst, translating string ids
 * and lanes. Each input's rows must be a run of src's (as loaded). src is
 * left as it was; trace_finish(dst) comes after the last merge. */
void trace_merge(struct trace *dst, const struct trace *src, const uint8_t *skip);

#endif
