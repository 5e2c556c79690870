#include "config.h"
#include "analysis/busy.h"

#include <stdlib.h>
#include <string.h>

#include "util/sort.h"
#include "util/xalloc.h"

/* Ops are read through their indices: a copy of every interval would
 * cost four times the memory. */
static int by_start(const void *a, const void *b, void *ctx)
{
	const struct trace *t = ctx;
	int64_t x = t->ops.start[*(const uint32_t *)a];
	int64_t y = t->ops.start[*(const uint32_t *)b];
	return (x > y) - (x < y);
}

/* A queue's ops, by start. */
struct run {
	const uint32_t *op;
	size_t n, next;
};

/* The runs as a binary min-heap on the start of each one's next op, so
 * that a GPU with thousands of queues costs a log of them per op, not
 * a scan of them all. */
static int64_t head_start(const struct trace *t, const struct run *r)
{
	return t->ops.start[r->op[r->next]];
}

static void sift_down(const struct trace *t, struct run **heap, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < n && head_start(t, heap[l]) < head_start(t, heap[m]))
			m = l;
		if (r < n && head_start(t, heap[r]) < head_start(t, heap[m]))
			m = r;
		if (m == i)
			return;
		struct run *x = heap[i];
		heap[i] = heap[m];
		heap[m] = x;
		i = m;
	}
}

/* Ops of one queue nearly always come in start order, so each queue's run
 * is sorted (rarely needing a sort), and the runs of a GPU's queues are
 * merged. Overlapping ops count once: each interval adds only the part of
 * it beyond the furthest end seen so far; with a window, only the part of
 * it inside the window counts. */
static int64_t union_of_runs(const struct trace *t, struct run *runs, size_t nruns, const struct window *w)
{
	const int64_t *start = t->ops.start, *end = t->ops.end;
	int64_t total = 0, reach = INT64_MIN;
	struct run **heap = xmalloc_array(nruns ? nruns : 1, sizeof(*heap));
	size_t n = 0;
	for (size_t i = 0; i < nruns; i++)
		if (runs[i].next < runs[i].n)
			heap[n++] = &runs[i];
	for (size_t i = n / 2; i-- > 0;)
		sift_down(t, heap, n, i);
	while (n) {
		struct run *best = heap[0];
		uint32_t op = best->op[best->next++];
		if (best->next == best->n)
			heap[0] = heap[--n];
		sift_down(t, heap, n, 0);
		int64_t to = w && w->active && end[op] > w->end ? w->end : end[op];
		int64_t from = w && w->active && start[op] < w->start ? w->start : start[op];
		from = from > reach ? from : reach;
		if (to > from)
			total += to - from;
		if (to > reach)
			reach = to;
	}
	free(heap);
	return total;
}

static void sort_run(const struct trace *t, uint32_t *op, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		if (t->ops.start[op[i - 1]] > t->ops.start[op[i]]) {
			sort_with(op, n, sizeof(*op), by_start, (void *)t);
			return;
		}
	}
}

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

/* Bucket the ops by queue (a counting sort, so each queue keeps its op
 * order); first[q]..first[q + 1] are queue q's ops. */
static uint32_t *ops_by_queue(const struct trace *t, const struct selection *sel, size_t **first_out)
{
	size_t nq = t->nqueues;
	size_t *first = xcalloc(nq + 1, sizeof(*first));
	for (size_t i = 0; i < t->ops.n; i++)
		if (selected_op(sel, i))
			first[t->ops.queue[i] + 1]++;
	for (size_t q = 0; q < nq; q++)
		first[q + 1] += first[q];
	size_t *fill = xmalloc_array(nq, sizeof(*fill));
	memcpy(fill, first, nq * sizeof(*fill));
	uint32_t *ops = xmalloc_array(first[nq], sizeof(*ops));
	for (size_t i = 0; i < t->ops.n; i++)
		if (selected_op(sel, i))
			ops[fill[t->ops.queue[i]]++] = (uint32_t)i;
	free(fill);
	for (size_t q = 0; q < nq; q++)
		sort_run(t, ops + first[q], first[q + 1] - first[q]);
	*first_out = first;
	return ops;
}

static int64_t gpu_union(const struct trace *t, uint32_t gpu, const uint32_t *ops, const size_t *first,
			 struct run *runs, const struct window *w)
{
	size_t nruns = 0;
	for (size_t q = 0; q < t->nqueues; q++)
		if (t->queues[q].gpu == gpu)
			runs[nruns++] = (struct run){ ops + first[q], first[q + 1] - first[q], 0 };
	return union_of_runs(t, runs, nruns, w);
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
		r->sum += select_clipped(sel ? &sel->window : NULL, t->ops.start[i], t->ops.end[i]);
		if (!seen++ || t->ops.start[i] < out->first_start)
			out->first_start = t->ops.start[i];
		if (seen == 1 || t->ops.end[i] > out->last_end)
			out->last_end = t->ops.end[i];
	}
	size_t *first;
	uint32_t *ops = ops_by_queue(t, sel, &first);
	struct run *runs = xmalloc_array(t->nqueues, sizeof(*runs));
	for (size_t g = 0; g < t->ngpus; g++) {
		out->rows[g].gpu = (uint32_t)g;
		out->rows[g].busy = gpu_union(t, (uint32_t)g, ops, first, runs, sel ? &sel->window : NULL);
	}
	out->n = t->ngpus;
	/* A filter does not change the wall: the busy share of matching ops is
	 * their share of the whole trace's time (or of the window's). */
	out->wall = t->ops.n ? t->op_last_end - t->op_first_start : 0;
	if (sel && sel->window.active)
		out->wall = sel->window.end - sel->window.start;
	free(runs);
	free(ops);
	free(first);
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
