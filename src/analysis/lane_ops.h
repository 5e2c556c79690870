/* The selected ops of each GPU (or of each queue) in start order: what
 * the gap, idle and breakdown analyses sweep. */
#ifndef RPDTOP_LANE_OPS_H
#define RPDTOP_LANE_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "session/select.h"
#include "trace/trace.h"
#include "util/satmath.h"

/* ops[first[k]] .. ops[first[k + 1] - 1] are lane k's ops (lane = GPU
 * index, or queue index per queue), by start, then by row. */
struct lane_ops {
	uint32_t *ops;
	size_t *first;
	size_t nlanes;
	int per_queue;
};

/* The order of ops a and b of t (ctx): by start, then row. */
int lane_op_cmp(const void *ctx, uint32_t a, uint32_t b);
void lane_ops_build(const struct trace *t, const struct selection *sel, int per_queue, struct lane_ops *out);
void lane_ops_free(struct lane_ops *l);
/* The GPU of lane k. */
uint32_t lane_ops_gpu(const struct trace *t, const struct lane_ops *l, size_t k);
/* Lanes in the order reports list them: GPUs by node (in the order of
 * the inputs), then number; queues of a GPU by their number. A new array
 * of the lane indices the caller frees. */
uint32_t *lane_ops_report_order(const struct trace *t, const struct lane_ops *l);

/* The length of a union of intervals met in start order: each adds the
 * part of it beyond the furthest end met so far (what busy, breakdown and
 * ranks sum). Start one with SPAN_UNION_INIT. */
struct span_union {
	int64_t reach, total;
};
#define SPAN_UNION_INIT                                                                                      \
	{                                                                                                    \
		INT64_MIN, 0                                                                                 \
	}

static inline void span_union_add(struct span_union *u, int64_t from, int64_t to)
{
	from = from > u->reach ? from : u->reach;
	if (to > from)
		u->total = sat_add(u->total, sat_sub(to, from));
	if (to > u->reach)
		u->reach = to;
}

/* The ops of one GPU's queues, taken from a per-queue lane_ops, one at a
 * time in start order (then row): a heap of the queues, so that a GPU
 * with thousands of queues costs a log of them per op. */
struct lane_run {
	const uint32_t *op;
	size_t n, next;
};

struct lane_merge {
	const struct trace *t;
	struct lane_run *heap;
	size_t n;
};

void lane_merge_init(struct lane_merge *m, const struct trace *t, const struct lane_ops *per_queue,
		     uint32_t gpu);
/* The next op, or TRACE_NONE when every queue is done. */
uint32_t lane_merge_next(struct lane_merge *m);
void lane_merge_free(struct lane_merge *m);

#endif
