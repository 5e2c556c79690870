#include "config.h"
#include "analysis/ranks.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/lane_ops.h"
#include "util/natcmp.h"
#include "util/satmath.h"
#include "util/sort.h"
#include "util/xalloc.h"

static int by_gpu_start(const void *a, const void *b, void *ctx)
{
	const struct trace *t = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint32_t gx = trace_op_gpu(t, x), gy = trace_op_gpu(t, y);
	if (gx != gy)
		return gx < gy ? -1 : 1;
	if (t->ops.start[x] != t->ops.start[y])
		return t->ops.start[x] < t->ops.start[y] ? -1 : 1;
	return (x > y) - (x < y);
}

/* Per GPU the union of the ops' intervals (sorted by GPU, then start),
 * inside the window, summed; and the number of GPUs. */
static int64_t busy_over_gpus(const struct trace *t, const uint32_t *ops, size_t n, const struct window *w,
			      size_t *gpus)
{
	int64_t total = 0;
	struct span_union u = SPAN_UNION_INIT;
	uint32_t gpu = TRACE_NONE;
	*gpus = 0;
	for (size_t k = 0; k < n; k++) {
		uint32_t op = ops[k];
		int64_t from = t->ops.start[op], to = t->ops.end[op];
		select_clip(w, &from, &to);
		if (trace_op_gpu(t, op) != gpu) {
			gpu = trace_op_gpu(t, op);
			total = sat_add(total, u.total);
			u = (struct span_union)SPAN_UNION_INIT;
			(*gpus)++;
		}
		span_union_add(&u, from, to);
	}
	return sat_add(total, u.total);
}

/* One rank's figures from its ops in the selection; 0 when it has none. */
static int one_rank(const struct trace *t, const struct selection *sel, const uint8_t *comm_names,
		    uint32_t input, struct rank_row *r)
{
	static const struct window none;
	const struct window *w = sel ? &sel->window : &none;
	const struct trace_input *in = &t->inputs[input];
	uint32_t *ops = xmalloc_array(in->op_count ? in->op_count : 1, sizeof(*ops));
	size_t n = 0;
	memset(r, 0, sizeof(*r));
	r->input = input;
	for (size_t i = in->op_first; i < in->op_first + in->op_count; i++) {
		if (!selected_op(sel, i))
			continue;
		int64_t inside = select_clipped(w, t->ops.start[i], t->ops.end[i]);
		int64_t from = w->active && t->ops.start[i] < w->start ? w->start : t->ops.start[i];
		int64_t to = w->active && t->ops.end[i] > w->end ? w->end : t->ops.end[i];
		if (!n || from < r->first)
			r->first = from;
		if (!n || to > r->last)
			r->last = to;
		r->gpu = sat_add(r->gpu, inside);
		if (t->ops.kind[i] == OP_KERNEL && comm_names[t->ops.name[i]])
			r->comm = sat_add(r->comm, inside);
		ops[n++] = (uint32_t)i;
	}
	r->ops = n;
	sort_with(ops, n, sizeof(*ops), by_gpu_start, (void *)t);
	r->busy = busy_over_gpus(t, ops, n, w, &r->gpus);
	free(ops);
	return n > 0;
}

/* A collective instance: its name, rank (row), start and op. */
struct instance {
	uint32_t name, rank, op;
	int64_t start;
};

static int by_name_rank_start(const void *a, const void *b, void *ctx)
{
	const struct instance *x = a, *y = b;
	(void)ctx;
	if (x->name != y->name)
		return x->name < y->name ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->op > y->op) - (x->op < y->op);
}

/* The instances of one name, [lo, hi), sorted by rank then start: matched
 * when every rank has the same number c of them. Returns c, or 0. */
static size_t matched_count(const struct instance *v, size_t lo, size_t hi, size_t nranks)
{
	size_t c = 0, ranks = 0;
	for (size_t k = lo; k < hi;) {
		size_t e = k;
		while (e < hi && v[e].rank == v[k].rank)
			e++;
		if (ranks++ == 0)
			c = e - k;
		else if (e - k != c)
			return 0;
		k = e;
	}
	return ranks == nranks ? c : 0;
}

/* Each matched instance: every rank waits for the latest start, at most
 * for its instance's duration; the latest rank is credited the waits. */
static void match_name(const struct trace *t, const struct instance *v, size_t lo, size_t c,
		       struct ranks *out)
{
	size_t nr = out->n;
	for (size_t i = 0; i < c; i++) {
		int64_t latest = INT64_MIN;
		size_t late = 0;
		for (size_t r = 0; r < nr; r++) {
			const struct instance *x = &v[lo + r * c + i];
			if (x->start > latest) {
				latest = x->start;
				late = r;
			}
		}
		for (size_t r = 0; r < nr; r++) {
			const struct instance *x = &v[lo + r * c + i];
			int64_t dur = sat_sub(t->ops.end[x->op], x->start), wait = sat_sub(latest, x->start);
			wait = wait < dur ? wait : dur;
			wait = wait > 0 ? wait : 0;
			out->rows[r].comm_wait = sat_add(out->rows[r].comm_wait, wait);
			out->rows[late].waited_for = sat_add(out->rows[late].waited_for, wait);
		}
	}
	out->instances += c;
	out->collectives++;
}

static void match_collectives(const struct trace *t, const struct selection *sel, const uint8_t *comm_names,
			      struct ranks *out)
{
	struct instance *v = NULL;
	size_t n = 0, cap = 0;
	for (size_t r = 0; r < out->n; r++) {
		const struct trace_input *in = &t->inputs[out->rows[r].input];
		for (size_t i = in->op_first; i < in->op_first + in->op_count; i++) {
			if (!selected_op(sel, i) || t->ops.kind[i] != OP_KERNEL ||
			    !comm_names[t->ops.name[i]])
				continue;
			v = xgrow(v, &cap, n + 1, sizeof(*v));
			v[n++] = (struct instance){ t->ops.name[i], (uint32_t)r, (uint32_t)i,
						    t->ops.start[i] };
		}
	}
	sort_with(v, n, sizeof(*v), by_name_rank_start, NULL);
	for (size_t lo = 0, hi; lo < n; lo = hi) {
		for (hi = lo; hi < n && v[hi].name == v[lo].name;)
			hi++;
		size_t c = out->n > 1 ? matched_count(v, lo, hi, out->n) : 0;
		if (c)
			match_name(t, v, lo, c, out);
	}
	free(v);
}

static int by_input_name(const void *a, const void *b, void *ctx)
{
	const struct trace *t = ctx;
	const struct rank_row *x = a, *y = b;
	int c = natcmp(trace_input_name(t, x->input), trace_input_name(t, y->input));
	return c ? c : (x->input > y->input) - (x->input < y->input);
}

void ranks_per_input(const struct trace *t, const struct selection *sel, const struct filter *comm,
		     struct ranks *out)
{
	memset(out, 0, sizeof(*out));
	out->straggler = SIZE_MAX;
	/* Only the kernels' names need matching. */
	uint8_t *kernels = xcalloc(t->strings.count ? t->strings.count : 1, 1);
	for (size_t i = 0; i < t->ops.n; i++)
		if (t->ops.kind[i] == OP_KERNEL)
			kernels[t->ops.name[i]] = 1;
	uint8_t *comm_names = filter_strings(comm, t, kernels);
	free(kernels);
	out->rows = xcalloc(t->ninputs ? t->ninputs : 1, sizeof(*out->rows));
	for (size_t k = 0; k < t->ninputs; k++)
		if (one_rank(t, sel, comm_names, (uint32_t)k, &out->rows[out->n]))
			out->n++;
	sort_with(out->rows, out->n, sizeof(*out->rows), by_input_name, (void *)t);
	match_collectives(t, sel, comm_names, out);
	for (size_t r = 0; r < out->n; r++)
		if (out->rows[r].waited_for > 0 &&
		    (out->straggler == SIZE_MAX ||
		     out->rows[r].waited_for > out->rows[out->straggler].waited_for))
			out->straggler = r;
	free(comm_names);
}

void ranks_free(struct ranks *r)
{
	free(r->rows);
	memset(r, 0, sizeof(*r));
}
