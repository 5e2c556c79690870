#include "config.h"
#include "analysis/busy.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/lane_ops.h"
#include "util/satmath.h"
#include "util/sort.h"
#include "util/xalloc.h"

/* GPUs are listed by node (in the order of the inputs), then by number. */
static int by_device(const void *a, const void *b, void *ctx)
{
	const struct trace *t = ctx;
	const struct trace_gpu *x = &t->gpus[((const struct busy_row *)a)->gpu];
	const struct trace_gpu *y = &t->gpus[((const struct busy_row *)b)->gpu];
	if (x->domain != y->domain)
		return x->domain < y->domain ? -1 : 1;
	return (x->device > y->device) - (x->device < y->device);
}

/* The union of a GPU's ops over all its queues, taken in start order:
 * each interval adds only the part of it beyond the furthest end seen so
 * far; with a window, only the part of it inside the window counts. */
static int64_t gpu_union(const struct trace *t, const struct lane_ops *queues, uint32_t gpu,
			 const struct window *w)
{
	const int64_t *start = t->ops.start, *end = t->ops.end;
	int64_t total = 0, reach = INT64_MIN;
	struct lane_merge m;
	lane_merge_init(&m, t, queues, gpu);
	for (uint32_t op; (op = lane_merge_next(&m)) != TRACE_NONE;) {
		int64_t to = w && w->active && end[op] > w->end ? w->end : end[op];
		int64_t from = w && w->active && start[op] < w->start ? w->start : start[op];
		from = from > reach ? from : reach;
		if (to > from)
			total = sat_add(total, sat_sub(to, from));
		if (to > reach)
			reach = to;
	}
	lane_merge_free(&m);
	return total;
}

void busy_per_gpu(const struct trace *t, const struct selection *sel, struct busy *out)
{
	size_t seen = 0;
	memset(out, 0, sizeof(*out));
	out->rows = xcalloc(t->ngpus ? t->ngpus : 1, sizeof(*out->rows));
	for (size_t i = 0; i < t->ops.n; i++) {
		if (!selected_op(sel, i))
			continue;
		struct busy_row *r = &out->rows[trace_op_gpu(t, i)];
		r->ops++;
		r->sum = sat_add(r->sum,
				 select_clipped(sel ? &sel->window : NULL, t->ops.start[i], t->ops.end[i]));
		if (!seen++ || t->ops.start[i] < out->first_start)
			out->first_start = t->ops.start[i];
		if (seen == 1 || t->ops.end[i] > out->last_end)
			out->last_end = t->ops.end[i];
	}
	struct lane_ops queues;
	lane_ops_build(t, sel, 1, &queues);
	for (size_t g = 0; g < t->ngpus; g++) {
		out->rows[g].gpu = (uint32_t)g;
		out->rows[g].busy = gpu_union(t, &queues, (uint32_t)g, sel ? &sel->window : NULL);
	}
	out->n = t->ngpus;
	/* A filter does not change the wall: the busy share of matching ops is
	 * their share of the whole trace's time (or of the window's). */
	out->wall = t->ops.n ? sat_sub(t->op_last_end, t->op_first_start) : 0;
	if (sel && sel->window.active)
		out->wall = sat_sub(sel->window.end, sel->window.start);
	lane_ops_free(&queues);
	sort_with(out->rows, out->n, sizeof(*out->rows), by_device, (void *)t);
}

void busy_free(struct busy *b)
{
	free(b->rows);
	memset(b, 0, sizeof(*b));
}

double busy_row_percent(const struct busy *b, const struct busy_row *r)
{
	return b->wall > 0 ? 100.0 * (double)r->busy / (double)b->wall : 0.0;
}
