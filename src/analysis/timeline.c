#include "config.h"
#include "analysis/timeline.h"

#include <stdlib.h>
#include <string.h>

#include "util/search.h"
#include "util/xalloc.h"

static const struct trace *sort_trace;

static int by_start(const void *a, const void *b)
{
	int64_t x = sort_trace->ops.start[*(const uint32_t *)a], y = sort_trace->ops.start[*(const uint32_t *)b];
	return (x > y) - (x < y);
}

/* Lanes in the order people read them: GPU by GPU, queues in order. */
static int by_lane(const void *a, const void *b)
{
	const struct trace_queue *x = &sort_trace->queues[((const struct tl_lane *)a)->queue];
	const struct trace_queue *y = &sort_trace->queues[((const struct tl_lane *)b)->queue];
	const struct trace_gpu *gx = &sort_trace->gpus[x->gpu], *gy = &sort_trace->gpus[y->gpu];
	if (gx->domain != gy->domain)
		return gx->domain < gy->domain ? -1 : 1;
	if (gx->device != gy->device)
		return gx->device < gy->device ? -1 : 1;
	return (x->queue > y->queue) - (x->queue < y->queue);
}

static void index_lane(const struct trace *t, struct tl_lane *l)
{
	sort_trace = t;
	qsort(l->ops, l->n, sizeof(*l->ops), by_start);
	l->start = xmalloc((l->n + 1) * sizeof(*l->start));
	l->end = xmalloc((l->n + 1) * sizeof(*l->end));
	l->covered = xmalloc((l->n + 1) * sizeof(*l->covered));
	l->covered[0] = 0;
	for (size_t i = 0; i < l->n; i++) {
		l->start[i] = t->ops.start[l->ops[i]];
		l->end[i] = t->ops.end[l->ops[i]];
		int64_t d = l->end[i] - l->start[i];
		l->covered[i + 1] = l->covered[i] + (d > 0 ? d : 0);
	}
}

void timeline_build(const struct trace *t, const struct selection *sel, struct timeline *tl)
{
	memset(tl, 0, sizeof(*tl));
	tl->start = t->op_first_start;
	tl->end = t->op_last_end;
	tl->lanes = xcalloc(t->nqueues ? t->nqueues : 1, sizeof(*tl->lanes));
	size_t *count = xcalloc(t->nqueues ? t->nqueues : 1, sizeof(*count));
	for (size_t i = 0; i < t->ops.n; i++)
		if (selected_op(sel, i))
			count[t->ops.queue[i]]++;
	for (size_t q = 0; q < t->nqueues; q++) {
		tl->lanes[q].queue = (uint32_t)q;
		tl->lanes[q].ops = xmalloc((count[q] ? count[q] : 1) * sizeof(uint32_t));
	}
	for (size_t i = 0; i < t->ops.n; i++) {
		if (!selected_op(sel, i))
			continue;
		struct tl_lane *l = &tl->lanes[t->ops.queue[i]];
		l->ops[l->n++] = (uint32_t)i;
	}
	tl->nlanes = t->nqueues;
	for (size_t q = 0; q < t->nqueues; q++)
		index_lane(t, &tl->lanes[q]);
	sort_trace = t;
	qsort(tl->lanes, tl->nlanes, sizeof(*tl->lanes), by_lane);
	free(count);
}

void timeline_free(struct timeline *tl)
{
	for (size_t i = 0; i < tl->nlanes; i++) {
		free(tl->lanes[i].ops);
		free(tl->lanes[i].start);
		free(tl->lanes[i].end);
		free(tl->lanes[i].covered);
	}
	free(tl->lanes);
	memset(tl, 0, sizeof(*tl));
}

/* How many ops start before x. */
static size_t starting_before(const struct tl_lane *l, int64_t x)
{
	return lower_bound_i64(l->start, 0, l->n, x);
}

/* Time covered before x. */
static int64_t covered_before(const struct tl_lane *l, int64_t x)
{
	size_t k = starting_before(l, x);
	int64_t c = l->covered[k];
	if (k > 0 && l->end[k - 1] > x)
		c -= l->end[k - 1] - x;
	return c;
}

int64_t timeline_busy(const struct tl_lane *l, int64_t from, int64_t to)
{
	int64_t b = covered_before(l, to) - covered_before(l, from);
	if (b < 0)
		return 0;
	return b > to - from ? to - from : b;
}

size_t timeline_at(const struct tl_lane *l, int64_t time)
{
	size_t k = starting_before(l, time + 1);
	if (k > 0 && l->end[k - 1] > time)
		return k - 1;
	return k;
}

uint32_t timeline_dominant(const struct tl_lane *l, int64_t from, int64_t to)
{
	size_t k = timeline_at(l, from + (to - from) / 2);
	if (k < l->n && l->start[k] < to && l->end[k] > from)
		return l->ops[k];
	k = timeline_at(l, from);
	if (k < l->n && l->start[k] < to)
		return l->ops[k];
	return TRACE_NONE;
}
