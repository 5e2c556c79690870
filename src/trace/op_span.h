/* The span of GPU ops: the first start and the last end, taken op by op
 * as the trace's span is (trace_finish), and merged across inputs. */
#ifndef RPDTOP_TRACE_OP_SPAN_H
#define RPDTOP_TRACE_OP_SPAN_H

#include <stdint.h>

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

#endif
