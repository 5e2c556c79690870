#include "config.h"
#include "analysis/lane_ops.h"

#include <stdlib.h>
#include <string.h>

#include "util/sort.h"
#include "util/xalloc.h"

int lane_op_cmp(const void *ctx, uint32_t x, uint32_t y)
{
	const struct trace *t = ctx;
	int64_t sx = t->ops.start[x], sy = t->ops.start[y];
	if (sx != sy)
		return sx < sy ? -1 : 1;
	return (x > y) - (x < y);
}

/* The selected ops bucketed by queue (a counting sort keeps their row
 * order), each queue's run by start. */
static uint32_t *by_queue(const struct trace *t, const struct selection *sel, size_t *first)
{
	size_t nq = t->nqueues;
	for (size_t i = 0; i < t->ops.n; i++)
		if (selected_op(sel, i))
			first[t->ops.queue[i] + 1]++;
	for (size_t q = 0; q < nq; q++)
		first[q + 1] += first[q];
	size_t *fill = xmalloc_array(nq ? nq : 1, sizeof(*fill));
	memcpy(fill, first, nq * sizeof(*fill));
	uint32_t *ops = xmalloc_huge(first[nq] ? first[nq] : 1, sizeof(*ops));
	for (size_t i = 0; i < t->ops.n; i++)
		if (selected_op(sel, i))
			ops[fill[t->ops.queue[i]]++] = (uint32_t)i;
	free(fill);
	/* Each queue's ops come in start order, or nearly so: a few ascending
	 * runs dealt into one another (a real trace has a few dozen ops out of
	 * place in ten thousand). The order is total (start, then row). */
	for (size_t q = 0; q < nq; q++)
		sort_nearly_keyed(ops + first[q], first[q + 1] - first[q], t->ops.start, lane_op_cmp, t);
	return ops;
}

/* The heap's order: by the start of each queue's next op, then its row. */
static int head_before(const struct trace *t, const struct lane_run *a, const struct lane_run *b)
{
	return lane_op_cmp(t, a->op[a->next], b->op[b->next]) < 0;
}

static void sift_down(struct lane_merge *m, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, best = i;
		if (l < m->n && head_before(m->t, &m->heap[l], &m->heap[best]))
			best = l;
		if (r < m->n && head_before(m->t, &m->heap[r], &m->heap[best]))
			best = r;
		if (best == i)
			return;
		struct lane_run x = m->heap[i];
		m->heap[i] = m->heap[best];
		m->heap[best] = x;
		i = best;
	}
}

void lane_merge_init(struct lane_merge *m, const struct trace *t, const struct lane_ops *per_queue,
		     uint32_t gpu)
{
	m->t = t;
	m->n = 0;
	m->heap = xmalloc_array(t->nqueues ? t->nqueues : 1, sizeof(*m->heap));
	for (size_t q = 0; q < t->nqueues; q++) {
		size_t n = per_queue->first[q + 1] - per_queue->first[q];
		if (t->queues[q].gpu == gpu && n)
			m->heap[m->n++] = (struct lane_run){ per_queue->ops + per_queue->first[q], n, 0 };
	}
	for (size_t i = m->n / 2; i-- > 0;)
		sift_down(m, i);
}

uint32_t lane_merge_next(struct lane_merge *m)
{
	if (m->n == 0)
		return TRACE_NONE;
	struct lane_run *top = &m->heap[0];
	uint32_t op = top->op[top->next++];
	if (top->next == top->n)
		m->heap[0] = m->heap[--m->n];
	sift_down(m, 0);
	return op;
}

void lane_merge_free(struct lane_merge *m)
{
	free(m->heap);
	m->heap = NULL;
	m->n = 0;
}

void lane_ops_build(const struct trace *t, const struct selection *sel, int per_queue, struct lane_ops *out)
{
	size_t nq = t->nqueues;
	size_t *qfirst = xcalloc(nq + 1, sizeof(*qfirst));
	uint32_t *ops = by_queue(t, sel, qfirst);
	memset(out, 0, sizeof(*out));
	out->per_queue = per_queue;
	if (per_queue) {
		out->ops = ops;
		out->first = qfirst;
		out->nlanes = nq;
		return;
	}
	out->nlanes = t->ngpus;
	out->first = xcalloc(t->ngpus + 1, sizeof(*out->first));
	for (size_t q = 0; q < nq; q++)
		out->first[t->queues[q].gpu + 1] += qfirst[q + 1] - qfirst[q];
	for (size_t g = 0; g < t->ngpus; g++)
		out->first[g + 1] += out->first[g];
	out->ops = xmalloc_huge(qfirst[nq] ? qfirst[nq] : 1, sizeof(*out->ops));
	struct lane_ops queues = { ops, qfirst, nq, 1 };
	for (size_t g = 0; g < t->ngpus; g++) {
		struct lane_merge m;
		lane_merge_init(&m, t, &queues, (uint32_t)g);
		size_t k = out->first[g];
		/* A GPU whose ops ran on one queue has that queue's order. */
		if (m.n == 1) {
			memcpy(out->ops + k, m.heap[0].op, m.heap[0].n * sizeof(*out->ops));
			m.n = 0;
		}
		for (uint32_t op; (op = lane_merge_next(&m)) != TRACE_NONE;)
			out->ops[k++] = op;
		lane_merge_free(&m);
	}
	free(ops);
	free(qfirst);
}

void lane_ops_free(struct lane_ops *l)
{
	free(l->ops);
	free(l->first);
	memset(l, 0, sizeof(*l));
}

uint32_t lane_ops_gpu(const struct trace *t, const struct lane_ops *l, size_t k)
{
	return l->per_queue ? t->queues[k].gpu : (uint32_t)k;
}

struct order_ctx {
	const struct trace *t;
	const struct lane_ops *l;
};

static int by_device(const void *a, const void *b, void *ctx)
{
	const struct order_ctx *o = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int c = trace_gpu_cmp(o->t, lane_ops_gpu(o->t, o->l, x), lane_ops_gpu(o->t, o->l, y));
	if (c)
		return c;
	if (o->l->per_queue && o->t->queues[x].queue != o->t->queues[y].queue)
		return o->t->queues[x].queue < o->t->queues[y].queue ? -1 : 1;
	return (x > y) - (x < y);
}

uint32_t *lane_ops_report_order(const struct trace *t, const struct lane_ops *l)
{
	uint32_t *order = xmalloc_array(l->nlanes ? l->nlanes : 1, sizeof(*order));
	for (size_t k = 0; k < l->nlanes; k++)
		order[k] = (uint32_t)k;
	struct order_ctx o = { t, l };
	sort_with(order, l->nlanes, sizeof(*order), by_device, &o);
	return order;
}
