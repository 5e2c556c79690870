#include "config.h"
#include "analysis/busy.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/lane_ops.h"
#include "util/satmath.h"
#include "util/sort.h"
#include "util/xalloc.h"

/* GPUs are listed by place in natural order (rank2 before rank10), then
 * by number. */
static int by_device(const void *a, const void *b, void *ctx)
{
	const struct trace *t = ctx;
	return trace_gpu_cmp(t, ((const struct busy_row *)a)->gpu, ((const struct busy_row *)b)->gpu);
}

void busy_inputs_of(const struct trace *t, struct busy_inputs *in)
{
	size_t n = t->ninputs ? t->ninputs : 1;
	in->ops = t->ops.n;
	in->first = t->op_first_start;
	in->last = t->op_last_end;
	in->n = t->ninputs;
	in->count = xcalloc(n, sizeof(*in->count));
	in->from = xcalloc(n, sizeof(*in->from));
	in->to = xcalloc(n, sizeof(*in->to));
	for (size_t k = 0; k < t->ninputs; k++) {
		const struct trace_input *ti = &t->inputs[k];
		in->count[k] = ti->op_count;
		for (size_t i = ti->op_first; i < ti->op_first + ti->op_count; i++) {
			if (i == ti->op_first || t->ops.start[i] < in->from[k])
				in->from[k] = t->ops.start[i];
			if (i == ti->op_first || t->ops.end[i] > in->to[k])
				in->to[k] = t->ops.end[i];
		}
	}
}

void busy_inputs_free(struct busy_inputs *in)
{
	free(in->count);
	free(in->from);
	free(in->to);
	memset(in, 0, sizeof(*in));
}

/* 0 when some two inputs with ops do not overlap in time. */
static int inputs_overlap(const struct busy_inputs *in)
{
	for (size_t a = 0; a < in->n; a++)
		for (size_t b = a + 1; b < in->n; b++)
			if (in->count[a] && in->count[b] &&
			    (in->from[a] >= in->to[b] || in->from[b] >= in->to[a]))
				return 0;
	return 1;
}

/* Each GPU's span of the inputs whose ops ran on it. */
static void gpu_spans(const struct trace *t, const struct busy_inputs *in, struct busy *b)
{
	size_t ng = t->ngpus ? t->ngpus : 1;
	int64_t *gfrom = xcalloc(ng, sizeof(*gfrom)), *gto = xcalloc(ng, sizeof(*gto));
	uint8_t *seen = xcalloc(ng, 1);
	for (size_t k = 0; k < t->ninputs; k++) {
		const struct trace_input *ti = &t->inputs[k];
		for (size_t i = ti->op_first; i < ti->op_first + ti->op_count; i++) {
			uint32_t g = trace_op_gpu(t, i);
			if (!seen[g] || in->from[k] < gfrom[g])
				gfrom[g] = in->from[k];
			if (!seen[g] || in->to[k] > gto[g])
				gto[g] = in->to[k];
			seen[g] = 1;
		}
	}
	for (size_t i = 0; i < b->n; i++) {
		b->rows[i].span_from = gfrom[b->rows[i].gpu];
		b->rows[i].span_to = gto[b->rows[i].gpu];
	}
	free(seen);
	free(gfrom);
	free(gto);
}

/* The wall of each row: the trace's or the window's, or with inputs
 * apart in time (two runs read together) the span of the inputs whose
 * ops ran on the GPU. A filter does not change the wall: the busy share
 * of matching ops is their share of the whole trace's time. */
void busy_set_walls(struct busy *b, const struct busy_inputs *in, const struct window *window)
{
	b->wall = in->ops ? sat_sub(in->last, in->first) : 0;
	if (window && window->active)
		b->wall = sat_sub(window->end, window->start);
	b->disjoint = !(window && window->active) && !inputs_overlap(in);
	for (size_t i = 0; i < b->n; i++)
		b->rows[i].wall = b->disjoint ? b->rows[i].span_to - b->rows[i].span_from : b->wall;
}

static void union_add(const struct trace *t, struct span_union *u, uint32_t op, const struct window *w)
{
	int64_t from = t->ops.start[op], to = t->ops.end[op];
	select_clip(w, &from, &to);
	span_union_add(u, from, to);
}

/* The union of a GPU's ops over all its queues, taken in start order:
 * each interval adds only the part of it beyond the furthest end seen so
 * far; with a window, only the part of it inside the window counts. */
static int64_t gpu_union(const struct trace *t, const struct lane_ops *lo, uint32_t gpu,
			 const struct window *w)
{
	struct span_union u = SPAN_UNION_INIT;
	if (!lo->per_queue) {
		for (size_t i = lo->first[gpu]; i < lo->first[gpu + 1]; i++)
			union_add(t, &u, lo->ops[i], w);
		return u.total;
	}
	struct lane_merge m;
	lane_merge_init(&m, t, lo, gpu);
	for (uint32_t op; (op = lane_merge_next(&m)) != TRACE_NONE;)
		union_add(t, &u, op, w);
	lane_merge_free(&m);
	return u.total;
}

void busy_per_gpu(const struct trace *t, const struct selection *sel, struct busy *out)
{
	struct lane_ops queues;
	lane_ops_build(t, sel, 1, &queues);
	busy_of_lanes(t, sel, &queues, out);
	lane_ops_free(&queues);
}

void busy_of_lanes(const struct trace *t, const struct selection *sel, const struct lane_ops *lo,
		   struct busy *out)
{
	size_t seen = 0;
	memset(out, 0, sizeof(*out));
	out->rows = xcalloc(t->ngpus ? t->ngpus : 1, sizeof(*out->rows));
	for (size_t i = 0; i < t->ops.n; i++) {
		if (!selected_op(sel, i))
			continue;
		struct busy_row *r = &out->rows[trace_op_gpu(t, i)];
		int64_t from = t->ops.start[i], to = t->ops.end[i];
		if (sel && sel->window.active) {
			from = from > sel->window.start ? from : sel->window.start;
			to = to < sel->window.end ? to : sel->window.end;
		}
		if (!r->ops || from < r->first)
			r->first = from;
		if (!r->ops || to > r->last)
			r->last = to;
		r->ops++;
		r->sum = sat_add(r->sum,
				 select_clipped(sel ? &sel->window : NULL, t->ops.start[i], t->ops.end[i]));
		if (!seen++ || t->ops.start[i] < out->first_start)
			out->first_start = t->ops.start[i];
		if (seen == 1 || t->ops.end[i] > out->last_end)
			out->last_end = t->ops.end[i];
	}
	for (size_t g = 0; g < t->ngpus; g++) {
		out->rows[g].gpu = (uint32_t)g;
		out->rows[g].busy = gpu_union(t, lo, (uint32_t)g, sel ? &sel->window : NULL);
	}
	out->n = t->ngpus;
	struct busy_inputs in;
	busy_inputs_of(t, &in);
	gpu_spans(t, &in, out);
	busy_set_walls(out, &in, sel ? &sel->window : NULL);
	busy_inputs_free(&in);
	if (sel && sel->gpu_view) {
		/* The GPUs the place filters leave out are not listed. */
		size_t kept = 0;
		for (size_t i = 0; i < out->n; i++)
			if (sel->gpu_view[out->rows[i].gpu])
				out->rows[kept++] = out->rows[i];
		out->n = kept;
	}
	busy_sort(out, t);
}

void busy_sort(struct busy *b, const struct trace *t)
{
	sort_with(b->rows, b->n, sizeof(*b->rows), by_device, (void *)t);
}

void busy_free(struct busy *b)
{
	free(b->rows);
	memset(b, 0, sizeof(*b));
}

double busy_row_percent(const struct busy *b, const struct busy_row *r)
{
	(void)b;
	return r->wall > 0 ? 100.0 * (double)r->busy / (double)r->wall : 0.0;
}

double busy_row_span_percent(const struct busy_row *r)
{
	int64_t span = sat_sub(r->last, r->first);
	return span > 0 ? 100.0 * (double)r->busy / (double)span : 0.0;
}
