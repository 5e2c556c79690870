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

static int by_api_start(const void *a, const void *b)
{
	const struct trace *t = sort_trace;
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	if (t->apis.thread[i] != t->apis.thread[j])
		return t->apis.thread[i] < t->apis.thread[j] ? -1 : 1;
	if (t->apis.start[i] != t->apis.start[j])
		return t->apis.start[i] < t->apis.start[j] ? -1 : 1;
	/* The longer (outer) call first when two start together. */
	return (t->apis.end[i] < t->apis.end[j]) - (t->apis.end[i] > t->apis.end[j]);
}

/* Lanes in the order people read them: GPU by GPU, queues in order. */
static int by_lane(const void *a, const void *b)
{
	const struct tl_lane *la = a, *lb = b;
	if (la->kind != lb->kind)
		return la->kind - lb->kind;
	if (la->kind == TL_CPU) {
		if (la->thread != lb->thread)
			return la->thread < lb->thread ? -1 : 1;
		return la->depth - lb->depth;
	}
	const struct trace_queue *x = &sort_trace->queues[((const struct tl_lane *)a)->queue];
	const struct trace_queue *y = &sort_trace->queues[((const struct tl_lane *)b)->queue];
	const struct trace_gpu *gx = &sort_trace->gpus[x->gpu], *gy = &sort_trace->gpus[y->gpu];
	if (gx->domain != gy->domain)
		return gx->domain < gy->domain ? -1 : 1;
	if (gx->device != gy->device)
		return gx->device < gy->device ? -1 : 1;
	return (x->queue > y->queue) - (x->queue < y->queue);
}

/* Times of a lane's rows, by start, with prefix sums of their lengths. */
static void index_lane(const struct trace *t, struct tl_lane *l)
{
	const int64_t *st = l->kind == TL_GPU ? t->ops.start : t->apis.start;
	const int64_t *en = l->kind == TL_GPU ? t->ops.end : t->apis.end;
	if (l->kind == TL_GPU) {
		sort_trace = t;
		qsort(l->ops, l->n, sizeof(*l->ops), by_start);
	}
	l->start = xmalloc((l->n + 1) * sizeof(*l->start));
	l->end = xmalloc((l->n + 1) * sizeof(*l->end));
	l->covered = xmalloc((l->n + 1) * sizeof(*l->covered));
	l->covered[0] = 0;
	for (size_t i = 0; i < l->n; i++) {
		l->start[i] = st[l->ops[i]];
		l->end[i] = en[l->ops[i]];
		int64_t d = l->end[i] - l->start[i];
		l->covered[i + 1] = l->covered[i] + (d > 0 ? d : 0);
	}
}

#define MAX_DEPTH 32

/* A lane for each (thread, depth). A call's depth is the number of calls of
 * its thread still open when it starts. */
static void add_cpu_lanes(const struct trace *t, const struct selection *sel, struct timeline *tl)
{
	size_t n = 0;
	uint32_t *calls = xmalloc((t->apis.n ? t->apis.n : 1) * sizeof(*calls));
	for (size_t i = 0; i < t->apis.n; i++)
		if (!sel || sel->apis[i])
			calls[n++] = (uint32_t)i;
	sort_trace = t;
	qsort(calls, n, sizeof(*calls), by_api_start);
	int64_t open_end[MAX_DEPTH];
	int depth = 0;
	size_t lane_of[MAX_DEPTH];
	uint32_t thread = TRACE_NONE;
	for (size_t k = 0; k < n; k++) {
		uint32_t i = calls[k];
		if (t->apis.thread[i] != thread) {
			thread = t->apis.thread[i];
			depth = 0;
			for (int d = 0; d < MAX_DEPTH; d++)
				lane_of[d] = SIZE_MAX;
		}
		while (depth > 0 && open_end[depth - 1] <= t->apis.start[i])
			depth--;
		int d = depth < MAX_DEPTH ? depth : MAX_DEPTH - 1;
		if (lane_of[d] == SIZE_MAX) {
			tl->lanes = xrealloc(tl->lanes, (tl->nlanes + 1) * sizeof(*tl->lanes));
			struct tl_lane *l = &tl->lanes[tl->nlanes];
			memset(l, 0, sizeof(*l));
			l->kind = TL_CPU;
			l->thread = thread;
			l->depth = d;
			l->ops = NULL;
			lane_of[d] = tl->nlanes++;
		}
		struct tl_lane *l = &tl->lanes[lane_of[d]];
		l->ops = xgrow(l->ops, &l->cap, l->n + 1, sizeof(*l->ops));
		l->ops[l->n++] = i;
		if (depth < MAX_DEPTH)
			open_end[depth++] = t->apis.end[i];
	}
	free(calls);
}

void timeline_build(const struct trace *t, const struct selection *sel, struct timeline *tl)
{
	memset(tl, 0, sizeof(*tl));
	tl->origin = tl->start = t->op_first_start;
	tl->end = t->op_last_end;
	/* API calls often begin before the first op: the view reaches them. */
	for (size_t i = 0; i < t->apis.n; i++) {
		if (sel && !sel->apis[i])
			continue;
		if (t->apis.start[i] < tl->start)
			tl->start = t->apis.start[i];
		if (t->apis.end[i] > tl->end)
			tl->end = t->apis.end[i];
	}
	tl->lanes = xcalloc(t->nqueues ? t->nqueues : 1, sizeof(*tl->lanes));
	size_t *count = xcalloc(t->nqueues ? t->nqueues : 1, sizeof(*count));
	for (size_t i = 0; i < t->ops.n; i++)
		if (selected_op(sel, i))
			count[t->ops.queue[i]]++;
	for (size_t q = 0; q < t->nqueues; q++) {
		tl->lanes[q].kind = TL_GPU;
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
	add_cpu_lanes(t, sel, tl);
	for (size_t q = 0; q < tl->nlanes; q++)
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
