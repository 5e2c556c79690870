/* The selected ops of each GPU (or of each queue) in start order: what
 * the gap, idle and breakdown analyses sweep. */
#ifndef RPDTOP_LANE_OPS_H
#define RPDTOP_LANE_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "session/select.h"
#include "trace/trace.h"

/* ops[first[k]] .. ops[first[k + 1] - 1] are lane k's ops (lane = GPU
 * index, or queue index per queue), by start, then by row. */
struct lane_ops {
	uint32_t *ops;
	size_t *first;
	size_t nlanes;
	int per_queue;
};

void lane_ops_build(const struct trace *t, const struct selection *sel, int per_queue, struct lane_ops *out);
void lane_ops_free(struct lane_ops *l);
/* The GPU of lane k. */
uint32_t lane_ops_gpu(const struct trace *t, const struct lane_ops *l, size_t k);
/* Lanes in the order reports list them: GPUs by node (in the order of
 * the inputs), then number; queues of a GPU by their number. A new array
 * of the lane indices the caller frees. */
uint32_t *lane_ops_report_order(const struct trace *t, const struct lane_ops *l);

#endif
