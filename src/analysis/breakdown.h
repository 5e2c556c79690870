/* Where each GPU's time went (HTA's temporal breakdown, where overlapped
 * time counts as compute), and how much of its communication overlapped
 * compute (AORTA's overlap ratio).
 *
 * Over a GPU's own span (its first selected op's start to its last op's
 * end, inside the window; ops of no duration count for nothing, as in
 * analysis/gaps.h) three sets, each the union of its ops'
 * intervals: communication (kernels whose name matches the comm pattern),
 * copies (Copy* ops), and compute (every other op: kernels, barriers,
 * fills). compute, comm and copy are the sets' lengths; exposed comm =
 * |comm \ compute|, exposed copy = |copies \ (compute u comm)|, idle =
 * span - |all ops|: compute + exposed comm + exposed copy + idle = span.
 * Overlap ratio = |compute n comm| / |comm|, 0 without communication. */
#ifndef RPDTOP_BREAKDOWN_H
#define RPDTOP_BREAKDOWN_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/part.h"
#include "session/filter.h"
#include "session/select.h"
#include "trace/trace.h"

/* RCCL and NCCL kernels, the collectives by name, and vLLM's custom
 * all-reduce (caseless: no capital). */
#define BREAKDOWN_DEFAULT_COMM                                                                               \
	"nccl|rccl|allreduce|reducescatter|allgather|broadcast|sendrecv|cross_device_reduce"

struct breakdown_row {
	uint32_t gpu;
	int64_t span, compute, comm, copy, idle, exposed_comm, exposed_copy;
	double overlap_ratio;
};

struct breakdown {
	struct breakdown_row *rows; /* GPUs with ops, in report order */
	size_t n;
};

/* comm: the pattern that makes a kernel communication. */
void breakdown_per_gpu(const struct trace *t, const struct selection *sel, const struct filter *comm,
		       struct breakdown *out);
/* The same over each GPU's lane already built for sel (lane_ops_build,
 * not per queue). */
struct lane_ops;
void breakdown_of_lanes(const struct trace *t, const struct selection *sel, const struct filter *comm,
			const struct lane_ops *lo, struct breakdown *out);
void breakdown_free(struct breakdown *b);

/* Breakdown's partial result: each GPU that ran an op, with its row when
 * the selection keeps an op of it. */
struct breakdown_part_row {
	struct breakdown_row row;
	int present;
};

struct breakdown_part {
	struct breakdown_part_row *rows;
	size_t n, cap;
	struct part_gpu_list gpus; /* each row's */
};

void breakdown_part_init(struct breakdown_part *p);
void breakdown_part_free(struct breakdown_part *p);
void breakdown_part_add(struct breakdown_part *p, const struct trace *t, const struct selection *sel,
			const struct filter *comm);
void breakdown_part_encode(const struct breakdown_part *p, struct bytes_out *b);
int breakdown_part_merge(struct breakdown_part *p, const struct part_in *in);
void breakdown_part_finish(struct breakdown_part *p, struct trace *whole, struct breakdown *out);

#endif
