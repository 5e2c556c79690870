/* GPU busy: how much of the trace's wall time each GPU was executing. */
#ifndef RPDTOP_BUSY_H
#define RPDTOP_BUSY_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/part.h"
#include "session/select.h"
#include "session/window.h"
#include "trace/trace.h"

struct busy_row {
	uint32_t gpu; /* index into trace.gpus */
	uint64_t ops;
	int64_t sum;         /* sum of op durations (inside the window) */
	int64_t busy;        /* length of the union of its op intervals (inside it) */
	int64_t first, last; /* its first op's start and last op's end (inside it);
			      * 0 when it has no op in the selection */
	int64_t wall;        /* the wall its busy share is of: see struct busy */
	/* The span of the inputs whose ops ran on it, all ops (its wall when
	 * inputs do not overlap); 0, 0 when none did. */
	int64_t span_from, span_to;
};

struct busy {
	struct busy_row *rows; /* in the natural order of their places, then by number */
	size_t n;
	int64_t first_start, last_end; /* span of the ops in the selection */
	int64_t wall;                  /* last op end - first op start over all GPUs
					* of the trace (a filter does not change it),
					* or the window's length */
	int disjoint;                  /* some two inputs do not overlap in time:
					* each GPU's wall is then the span of the
					* inputs whose ops ran on it */
};

/* GPU busy over the ops in the selection (NULL: all). With a window, the
 * ops overlapping it count with the part of them inside it, and the wall
 * is its length. GPUs that place filters leave out are not listed. */
void busy_per_gpu(const struct trace *t, const struct selection *sel, struct busy *out);
/* The same over lanes already built for sel (lane_ops_build, of each GPU
 * or of each queue). */
struct lane_ops;
void busy_of_lanes(const struct trace *t, const struct selection *sel, const struct lane_ops *lo,
		   struct busy *out);
void busy_free(struct busy *b);

/* Each input's span over all its ops, a filter or not: count[k] ops from
 * from[k] to to[k]. */
struct busy_inputs {
	uint64_t ops;        /* every op of the trace */
	int64_t first, last; /* their span */
	size_t n;
	uint64_t *count;
	int64_t *from, *to;
};

/* The spans of t's inputs (freed with busy_inputs_free). */
void busy_inputs_of(const struct trace *t, struct busy_inputs *in);
void busy_inputs_free(struct busy_inputs *in);
/* Set the wall of b's rows (and b->wall, b->disjoint) from the spans of
 * every input; window: the window's [start, end) when one is active. */
void busy_set_walls(struct busy *b, const struct busy_inputs *in, const struct window *window);
/* Sort b's rows as listed, by t's order of GPUs. */
void busy_sort(struct busy *b, const struct trace *t);
/* 100 * busy / the row's wall (0 when the wall is empty). */
double busy_row_percent(const struct busy *b, const struct busy_row *r);
/* 100 * busy / (last - first), busy over the GPU's own span (0 when empty). */
double busy_row_span_percent(const struct busy_row *r);

/* Busy's partial result: every input's span, and a row for each GPU that
 * ran an op. */
struct busy_part {
	struct busy_inputs in;
	struct busy_row *rows;
	size_t n, cap;
	struct part_gpu_list gpus; /* each row's */
};

void busy_part_init(struct busy_part *p);
void busy_part_free(struct busy_part *p);
void busy_part_add(struct busy_part *p, const struct trace *t, const struct selection *sel);
void busy_part_encode(const struct busy_part *p, struct bytes_out *b);
int busy_part_merge(struct busy_part *p, const struct part_in *in);
/* window: the request's on the whole span (inactive: none). */
void busy_part_finish(struct busy_part *p, struct trace *whole, const struct window *window,
		      struct busy *out);

#endif
