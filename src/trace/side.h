/* A side trace: the API rows of a trace's inputs read apart from it (on
 * another thread, while the trace is being shown), then moved into it.
 * The side has the trace's inputs and domains and borrows its op ids, so
 * that links resolve to the trace's own op rows. */
#ifndef RPDTOP_TRACE_SIDE_H
#define RPDTOP_TRACE_SIDE_H

#include "trace/trace.h"

/* Make side ready to receive t's API rows; t is only read (its op ids). */
void trace_side_init(struct trace *side, const struct trace *t);
/* Move side's API rows, links, threads and counters into t (which has
 * none of its own API rows yet), its strings re-interned; frees side. */
void trace_side_take(struct trace *t, struct trace *side);
/* Free a side whose rows are not wanted. */
void trace_side_free(struct trace *side);

#endif
