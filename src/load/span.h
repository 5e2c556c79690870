/* The span of the GPU ops of inputs, read without loading them: a batch
 * report placing a window on the whole trace's span learns it before it
 * reads the node groups one by one. */
#ifndef RPDTOP_LOAD_SPAN_H
#define RPDTOP_LOAD_SPAN_H

#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

struct op_span {
	int64_t first, last; /* the first start and the last end */
	uint64_t ops;        /* 0: none, and no span */
};

/* An op from start to end, as the trace's span takes it (trace_finish). */
static inline void op_span_add(struct op_span *s, int64_t start, int64_t end)
{
	if (!s->ops || start < s->first)
		s->first = start;
	if (!s->ops || end > s->last)
		s->last = end;
	s->ops++;
}

/* Two spans as one. */
static inline void op_span_merge(struct op_span *into, const struct op_span *s)
{
	if (!s->ops)
		return;
	if (!into->ops || s->first < into->first)
		into->first = s->first;
	if (!into->ops || s->last > into->last)
		into->last = s->last;
	into->ops += s->ops;
}

/* The span of the ops the inputs (files or directories) hold, as loading
 * them (trace_load) finds it, a process read twice counted once. An input
 * that cannot be read fails it as it fails the load (0, or -1 with *err),
 * or with skip_bad is left out. */
int load_span(const char *const *args, size_t nargs, int skip_bad, struct op_span *out,
	      struct rpd_error *err);

#endif
