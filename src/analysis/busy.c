#include "config.h"
#include "analysis/busy.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

struct span {
	int64_t start, end;
};

static int by_start(const void *a, const void *b)
{
	const struct span *x = a, *y = b;
	return (x->start > y->start) - (x->start < y->start);
}

/* A queue's ops, as intervals sorted by start. */
struct run {
	const struct span *s;
	size_t n, next;
};

/* Ops of one queue nearly always come in start order, so each queue's run
 * is sorted (rarely needing a sort), and the runs of a GPU's queues are
 * merged. Overlapping ops count once: each interval adds only the part of
 * it beyond the furthest end seen so far. */
static int64_t union_of_runs(struct run *runs, size_t nruns)
{
	int64_t total = 0, reach = INT64_MIN;
	for (;;) {
		struct run *best = NULL;
		for (size_t i = 0; i < nruns; i++)
			if (runs[i].next < runs[i].n &&
			    (!best || runs[i].s[runs[i].next].start < best->s[best->next].start))
				best = &runs[i];
		if (!best)
			return total;
		const struct span *x = &best->s[best->next++];
		int64_t from = x->start > reach ? x->start : reach;
		if (x->end > from)
			total += x->end - from;
		if (x->end > reach)
			reach = x->end;
	}
}

static void sort_run(struct span *s, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		if (s[i - 1].start > s[i].start) {
			qsort(s, n, sizeof(*s), by_start);
			return;
		}
	}
}

/* GPUs are listed by node (in the order of the inputs), then by number. */
static const struct trace *sort_trace;

static int by_device(const void *a, const void *b)
{
	const struct trace_gpu *x = &sort_trace->gpus[((const struct busy_row *)a)->gpu];
	const struct trace_gpu *y = &sort_trace->gpus[((const struct busy_row *)b)->gpu];
	if (x->domain != y->domain)
		return x->domain < y->domain ? -1 : 1;
	return (x->device > y->device) - (x->device < y->device);
}

/* Bucket the op intervals by queue (a counting sort, so each queue keeps
 * its op order); first[q]..first[q + 1] are queue q's intervals. */
static struct span *spans_by_queue(const struct trace *t, const struct selection *sel,
				   size_t **first_out)
{
	size_t nq = t->nqueues;
	const struct window *w = sel ? &sel->window : NULL;
	size_t *first = xcalloc(nq + 1, sizeof(*first));
	for (size_t i = 0; i < t->ops.n; i++)
		if (selected_op(sel, i))
			first[t->ops.queue[i] + 1]++;
	for (size_t q = 0; q < nq; q++)
		first[q + 1] += first[q];
	size_t *fill = xmalloc((nq ? nq : 1) * sizeof(*fill));
	memcpy(fill, first, nq * sizeof(*fill));
	struct span *spans = xmalloc((t->ops.n ? t->ops.n : 1) * sizeof(*spans));
	for (size_t i = 0; i < t->ops.n; i++) {
		if (!selected_op(sel, i))
			continue;
		struct span sp = { t->ops.start[i], t->ops.end[i] };
		/* With a window only the time inside it is busy time. */
		if (w && w->active && sp.end > w->end)
			sp.end = w->end;
		spans[fill[t->ops.queue[i]]++] = sp;
	}
	free(fill);
	for (size_t q = 0; q < nq; q++)
		sort_run(spans + first[q], first[q + 1] - first[q]);
	*first_out = first;
	return spans;
}

static int64_t gpu_union(const struct trace *t, uint32_t gpu, const struct span *spans,
			 const size_t *first, struct run *runs)
{
	size_t nruns = 0;
	for (size_t q = 0; q < t->nqueues; q++)
		if (t->queues[q].gpu == gpu)
			runs[nruns++] = (struct run){ spans + first[q], first[q + 1] - first[q], 0 };
	return union_of_runs(runs, nruns);
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
		r->sum += t->ops.end[i] - t->ops.start[i];
		if (!seen++ || t->ops.start[i] < out->first_start)
			out->first_start = t->ops.start[i];
		if (seen == 1 || t->ops.end[i] > out->last_end)
			out->last_end = t->ops.end[i];
	}
	size_t *first;
	struct span *spans = spans_by_queue(t, sel, &first);
	struct run *runs = xmalloc((t->nqueues ? t->nqueues : 1) * sizeof(*runs));
	for (size_t g = 0; g < t->ngpus; g++) {
		out->rows[g].gpu = (uint32_t)g;
		out->rows[g].busy = gpu_union(t, (uint32_t)g, spans, first, runs);
	}
	out->n = t->ngpus;
	/* A filter does not change the wall: the busy share of matching ops is
	 * their share of the whole trace's time (or of the window's). */
	out->wall = t->ops.n ? t->op_last_end - t->op_first_start : 0;
	if (sel && sel->window.active)
		out->wall = sel->window.end - sel->window.start;
	free(runs);
	free(spans);
	free(first);
	sort_trace = t;
	qsort(out->rows, out->n, sizeof(*out->rows), by_device);
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
