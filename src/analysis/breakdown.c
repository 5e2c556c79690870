#include "config.h"
#include "analysis/breakdown.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/lane_ops.h"
#include "util/satmath.h"
#include "util/xalloc.h"

enum { SET_COMPUTE = 1, SET_COMM = 2, SET_COPY = 4 };

/* The unions one_gpu needs, each of the sets its mask names. */
static const unsigned union_sets[] = { SET_COMPUTE, SET_COMM, SET_COPY, SET_COMPUTE | SET_COMM,
				       SET_COMPUTE | SET_COMM | SET_COPY };
#define NUNIONS (sizeof(union_sets) / sizeof(union_sets[0]))

/* The length of the union of each of union_sets' intervals of the ops (by
 * start) inside the window, in one walk of the ops. */
static void unions_of(const struct trace *t, const uint32_t *ops, size_t n, const uint8_t *set,
		      const struct window *w, int64_t total[NUNIONS])
{
	struct span_union u[NUNIONS];
	for (size_t k = 0; k < NUNIONS; k++)
		u[k] = (struct span_union)SPAN_UNION_INIT;
	for (size_t i = 0; i < n; i++) {
		int64_t from = t->ops.start[ops[i]], to = t->ops.end[ops[i]];
		select_clip(w, &from, &to);
		for (size_t k = 0; k < NUNIONS; k++)
			if (set[i] & union_sets[k])
				span_union_add(&u[k], from, to);
	}
	for (size_t k = 0; k < NUNIONS; k++)
		total[k] = u[k].total;
}

/* Returns the number of ops of some duration (the others cover nothing
 * and leave the span alone, as in gaps). */
static size_t one_gpu(const struct trace *t, const uint32_t *ops, size_t n, const uint8_t *comm_names,
		      const struct window *w, struct breakdown_row *r, uint8_t *set)
{
	int64_t first = INT64_MAX, last = INT64_MIN;
	size_t timed = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t op = ops[i];
		int64_t from = t->ops.start[op], to = t->ops.end[op];
		if (w->active) {
			from = from > w->start ? from : w->start;
			to = to < w->end ? to : w->end;
		}
		if (to > from) {
			first = from < first ? from : first;
			last = to > last ? to : last;
			timed++;
		}
		if (t->ops.kind[op] == OP_COPY)
			set[i] = SET_COPY;
		else if (t->ops.kind[op] == OP_KERNEL && comm_names[t->ops.name[op]])
			set[i] = SET_COMM;
		else
			set[i] = SET_COMPUTE;
	}
	r->span = last > first ? sat_sub(last, first) : 0;
	int64_t total[NUNIONS];
	unions_of(t, ops, n, set, w, total);
	r->compute = total[0];
	r->comm = total[1];
	r->copy = total[2];
	int64_t compute_comm = total[3], all = total[4];
	r->exposed_comm = compute_comm - r->compute;
	r->exposed_copy = all - compute_comm;
	r->idle = r->span - all;
	r->overlap_ratio = r->comm > 0 ? (double)(r->comm - r->exposed_comm) / (double)r->comm : 0.0;
	return timed;
}

void breakdown_per_gpu(const struct trace *t, const struct selection *sel, const struct filter *comm,
		       struct breakdown *out)
{
	struct lane_ops lo;
	lane_ops_build(t, sel, 0, &lo);
	breakdown_of_lanes(t, sel, comm, &lo, out);
	lane_ops_free(&lo);
}

void breakdown_of_lanes(const struct trace *t, const struct selection *sel, const struct filter *comm,
			const struct lane_ops *lo, struct breakdown *out)
{
	static const struct window none;
	const struct window *w = sel ? &sel->window : &none;
	memset(out, 0, sizeof(*out));
	uint8_t *comm_names = filter_kernel_names(comm, t);
	uint32_t *order = lane_ops_report_order(t, lo);
	size_t most = 0;
	for (size_t g = 0; g < lo->nlanes; g++)
		most = lo->first[g + 1] - lo->first[g] > most ? lo->first[g + 1] - lo->first[g] : most;
	uint8_t *set = xmalloc_huge(most ? most : 1, 1);
	out->rows = xcalloc(lo->nlanes ? lo->nlanes : 1, sizeof(*out->rows));
	for (size_t i = 0; i < lo->nlanes; i++) {
		uint32_t g = order[i];
		struct breakdown_row *r = &out->rows[out->n];
		memset(r, 0, sizeof(*r));
		r->gpu = g;
		if (one_gpu(t, lo->ops + lo->first[g], lo->first[g + 1] - lo->first[g], comm_names, w, r,
			    set))
			out->n++;
	}
	free(set);
	free(order);
	free(comm_names);
}

void breakdown_free(struct breakdown *b)
{
	free(b->rows);
	memset(b, 0, sizeof(*b));
}
