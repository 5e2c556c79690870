#include "config.h"
#include "analysis/gaps.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/graphs.h"
#include "util/satmath.h"
#include "util/search.h"
#include "util/sort.h"
#include "util/xalloc.h"

const int64_t gaps_bucket_lo[GAPS_NBUCKETS] = { 0, 5000, 10000, 20000, 100000, 1000000 };

const char *gap_cause_name(enum gap_cause c)
{
	static const char *const names[] = { "host_wait", "kernel_wait", "other", "graph" };
	return c < GAP_NCAUSES ? names[c] : "";
}

static enum gap_cause cause_of(const struct trace *t, const struct graph_calls *g, uint32_t before,
			       uint32_t after, int64_t start, int64_t len, int64_t threshold)
{
	uint32_t api = t->op_launch && after < t->op_launch_n ? t->op_launch[after] : TRACE_NONE;
	uint32_t replay = graph_call_of(t, g, after);
	if (replay != TRACE_NONE && before != TRACE_NONE && graph_call_of(t, g, before) == replay)
		return GAP_GRAPH;
	/* Holistic Trace Analysis's rule, for figures that compare: the host
	 * waited when the launch began after the GPU fell idle; else a short
	 * gap is the kernels' own overhead, whether the launch is known or
	 * not (an op of unknown launch never counts as the host's wait). */
	if (api != TRACE_NONE && t->apis.start[api] > start)
		return GAP_HOST_WAIT;
	return len < threshold ? GAP_KERNEL_WAIT : GAP_OTHER;
}

static int bucket_of(int64_t len)
{
	int b = 0;
	while (b + 1 < GAPS_NBUCKETS && len >= gaps_bucket_lo[b + 1])
		b++;
	return b;
}

struct sweep {
	const struct trace *t;
	const struct gaps_params *p;
	const struct window *w;
	struct gaps *out;
	size_t cap;
	uint32_t *rank; /* of each lane in report order, set before it is swept */
	struct graph_calls graphs;
};

/* Gaps in report order: longest first, then by start, then lane. */
static int by_length(const void *a, const void *b, void *ctx)
{
	const struct gap *x = a, *y = b;
	const uint32_t *rank = ctx;
	int64_t lx = sat_sub(x->end, x->start), ly = sat_sub(y->end, y->start);
	if (lx != ly)
		return lx > ly ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (rank[x->lane] > rank[y->lane]) - (rank[x->lane] < rank[y->lane]);
}

/* With a limit the gaps kept are a heap whose top is the one that would
 * be listed last: a gap listed before it takes its place. */
static void sift_down(struct gap *h, size_t n, const uint32_t *rank)
{
	size_t i = 0;
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < n && by_length(&h[l], &h[m], (void *)rank) > 0)
			m = l;
		if (r < n && by_length(&h[r], &h[m], (void *)rank) > 0)
			m = r;
		if (m == i)
			return;
		struct gap x = h[i];
		h[i] = h[m];
		h[m] = x;
		i = m;
	}
}

static void sift_up(struct gap *h, size_t i, const uint32_t *rank)
{
	while (i > 0 && by_length(&h[i], &h[(i - 1) / 2], (void *)rank) > 0) {
		struct gap x = h[i];
		h[i] = h[(i - 1) / 2];
		h[(i - 1) / 2] = x;
		i = (i - 1) / 2;
	}
}

static void keep_gap(struct sweep *s, const struct gap *x)
{
	struct gaps *g = s->out;
	size_t keep = s->p->keep;
	if (keep == 0)
		return;
	if (keep != SIZE_MAX && g->n == keep) {
		if (by_length(x, &g->gaps[0], s->rank) < 0) {
			g->gaps[0] = *x;
			sift_down(g->gaps, g->n, s->rank);
		}
		return;
	}
	if (g->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 1024;
		s->cap = s->cap < keep ? s->cap : keep; /* SIZE_MAX: grows as needed */
		g->gaps = xrealloc_array(g->gaps, s->cap, sizeof(*g->gaps));
	}
	g->gaps[g->n++] = *x;
	if (keep != SIZE_MAX)
		sift_up(g->gaps, g->n - 1, s->rank);
}

static void add_gap(struct sweep *s, struct gap_lane *l, uint32_t before, uint32_t after, int64_t from,
		    int64_t to)
{
	int64_t len = sat_sub(to, from);
	enum gap_cause c = cause_of(s->t, &s->graphs, before, after, from, len, s->p->threshold);
	struct gap x = { l->lane, before, after, from, to, c };
	keep_gap(s, &x);
	s->out->total++;
	l->ngaps++;
	l->cause_ns[c] = sat_add(l->cause_ns[c], len);
	l->max_gap = len > l->max_gap ? len : l->max_gap;
	l->hist[bucket_of(len)]++;
}

/* One lane's ops by start: each op adds the part of it beyond the furthest
 * end so far (its reach); an op starting past the reach ends a gap. The
 * op before a gap is the first to reach as far. */
static void sweep_lane(struct sweep *s, struct gap_lane *l, const uint32_t *ops, size_t n)
{
	const struct trace *t = s->t;
	int64_t reach = 0;
	uint32_t reach_op = TRACE_NONE;
	for (size_t i = 0; i < n; i++) {
		uint32_t op = ops[i];
		int64_t from = t->ops.start[op], to = t->ops.end[op];
		if (to <= from)
			continue;
		if (s->w->active) {
			from = from > s->w->start ? from : s->w->start;
			to = to < s->w->end ? to : s->w->end;
		}
		if (reach_op == TRACE_NONE) {
			l->first = from;
			reach = from;
		} else if (from > reach) {
			add_gap(s, l, reach_op, op, reach, from);
		}
		l->ops++;
		if (from < reach)
			from = reach;
		if (to > from)
			l->busy = sat_add(l->busy, sat_sub(to, from));
		if (reach_op == TRACE_NONE || to > reach) {
			reach = to;
			reach_op = op;
		}
	}
	l->last = reach;
}

void gaps_find(const struct trace *t, const struct selection *sel, const struct gaps_params *p,
	       struct gaps *out)
{
	struct lane_ops lo;
	lane_ops_build(t, sel, p->per_queue, &lo);
	gaps_find_in(t, sel, &lo, p, out);
	lane_ops_free(&lo);
}

void gaps_find_in(const struct trace *t, const struct selection *sel, const struct lane_ops *lo,
		  const struct gaps_params *p, struct gaps *out)
{
	static const struct window none;
	struct sweep s = { t, p, sel ? &sel->window : &none, out, 0, NULL, { 0 } };
	memset(out, 0, sizeof(*out));
	out->per_queue = p->per_queue;
	out->range_start = t->op_first_start;
	out->range_end = t->op_last_end;
	if (s.w->active) {
		out->range_start = s.w->start;
		out->range_end = s.w->end;
	}
	uint32_t *order = lane_ops_report_order(t, lo);
	uint32_t *rank = xmalloc_array(lo->nlanes ? lo->nlanes : 1, sizeof(*rank));
	s.rank = rank;
	graph_calls_init(&s.graphs, t);
	out->lanes = xcalloc(lo->nlanes ? lo->nlanes : 1, sizeof(*out->lanes));
	for (size_t i = 0; i < lo->nlanes; i++) {
		uint32_t k = order[i];
		struct gap_lane *l = &out->lanes[out->nlanes];
		rank[k] = (uint32_t)i;
		memset(l, 0, sizeof(*l));
		l->lane = k;
		sweep_lane(&s, l, lo->ops + lo->first[k], lo->first[k + 1] - lo->first[k]);
		if (!l->ops)
			continue;
		l->leading = sat_sub(l->first, out->range_start);
		l->trailing = sat_sub(out->range_end, l->last);
		out->nlanes++;
	}
	if (!(p->in_lane_order && p->keep == SIZE_MAX))
		sort_with(out->gaps, out->n, sizeof(*out->gaps), by_length, rank);
	free(rank);
	free(order);
	graph_calls_free(&s.graphs);
}

void gaps_free(struct gaps *g)
{
	free(g->gaps);
	free(g->lanes);
	memset(g, 0, sizeof(*g));
}

/* The host side. */
struct gap_cpu {
	const struct trace *t;
	const struct api_order *o;
	int64_t *pmax; /* per parent: the latest end of its thread's parents up to it */
	/* Per parent: the nearest earlier parent of its thread that ends
	 * later than it, UINT32_MAX when none. A walk back for the last
	 * parent still running at a moment skips by it the parents that end
	 * sooner: a few steps, as many as the calls nest, not one per call
	 * under a long range. */
	uint32_t *up;
	/* Per thread, the place its last lookup found: a queue's gaps come
	 * in time order, the next place is near (what is found does not
	 * depend on it). */
	size_t *near;
};

static int64_t parent_end(const struct gap_cpu *c, size_t j)
{
	return c->t->apis.end[c->o->rows[c->o->parents[j]]];
}

struct gap_cpu *gap_cpu_new(const struct trace *t, const struct api_order *order)
{
	struct gap_cpu *c = xcalloc(1, sizeof(*c));
	size_t np = order->pfirst ? order->pfirst[order->nthreads] : 0;
	c->t = t;
	c->o = order;
	c->pmax = xmalloc_array(np ? np : 1, sizeof(*c->pmax));
	c->near = xcalloc(order->nthreads ? order->nthreads : 1, sizeof(*c->near));
	c->up = xmalloc_array(np ? np : 1, sizeof(*c->up));
	uint32_t *stack = xmalloc_array(np ? np : 1, sizeof(*stack));
	for (size_t k = 0; k < order->nthreads; k++) {
		int64_t m = INT64_MIN;
		size_t depth = 0;
		for (size_t j = order->pfirst[k]; j < order->pfirst[k + 1]; j++) {
			int64_t e = parent_end(c, j);
			m = e > m ? e : m;
			c->pmax[j] = m;
			while (depth > 0 && parent_end(c, stack[depth - 1]) <= e)
				depth--;
			c->up[j] = depth > 0 ? stack[depth - 1] : UINT32_MAX;
			stack[depth++] = (uint32_t)j;
		}
	}
	free(stack);
	return c;
}

void gap_cpu_free(struct gap_cpu *c)
{
	if (!c)
		return;
	free(c->pmax);
	free(c->up);
	free(c->near);
	free(c);
}

/* Is call a more inner than call b (both running at the same time)? */
static int inner(const struct trace *t, uint32_t a, uint32_t b)
{
	if (b == TRACE_NONE)
		return 1;
	if (t->apis.start[a] != t->apis.start[b])
		return t->apis.start[a] > t->apis.start[b];
	if (t->apis.end[a] != t->apis.end[b])
		return t->apis.end[a] < t->apis.end[b];
	return a < b;
}

/* Does the call at place i of rows start after time? */
struct starts {
	const int64_t *start;
	const uint32_t *rows;
	int64_t time;
};

static int starts_after(const void *ctx, size_t i)
{
	const struct starts *s = ctx;
	return s->start[s->rows[i]] > s->time;
}

/* The first place in rows[lo, hi) whose call starts after time, looked
 * for from *near, which becomes the place found. */
static size_t after_time_near(const struct trace *t, const uint32_t *rows, size_t lo, size_t hi, int64_t time,
			      size_t *near)
{
	struct starts s = { t->apis.start, rows, time };
	*near = search_from(lo, hi, *near, starts_after, &s);
	return *near;
}

/* The first of thread k's parents past place p of rows. */
static size_t parents_past(const struct api_order *o, size_t k, size_t p)
{
	size_t a = o->pfirst[k], b = o->pfirst[k + 1];
	while (a < b) {
		size_t m = a + (b - a) / 2;
		if (o->parents[m] <= p)
			a = m + 1;
		else
			b = m;
	}
	return a;
}

/* The innermost call of thread k running at mid. The last call to start
 * by mid is it, or it ended and the call wanted encloses it: a parent,
 * found walking back the parents while one of them still reaches mid. */
static uint32_t on_thread(const struct gap_cpu *c, size_t k, int64_t mid)
{
	const struct trace *t = c->t;
	const struct api_order *o = c->o;
	size_t lo = o->first[k], hi = o->first[k + 1];
	size_t p = after_time_near(t, o->rows, lo, hi, mid, &c->near[k]);
	if (p == lo)
		return TRACE_NONE;
	p--;
	int64_t s;
	if (t->apis.end[o->rows[p]] > mid) {
		s = t->apis.start[o->rows[p]];
	} else {
		size_t j = parents_past(o, k, p);
		if (j == o->pfirst[k] || c->pmax[j - 1] <= mid)
			return TRACE_NONE;
		/* The last parent before j still running at mid: one is (pmax). */
		for (j--; parent_end(c, j) <= mid; j = c->up[j])
			;
		s = t->apis.start[o->rows[o->parents[j]]];
	}
	/* Calls of the same start: the innermost of those running. */
	uint32_t best = TRACE_NONE;
	size_t from = p;
	for (size_t i = after_time_near(t, o->rows, lo, hi, s - 1, &from);
	     i < hi && t->apis.start[o->rows[i]] == s; i++) {
		uint32_t r = o->rows[i];
		if (t->apis.end[r] > mid && inner(t, r, best))
			best = r;
	}
	return best;
}

/* The call of thread k that ended last by mid, none running then: the
 * last to start by mid, or a parent of an earlier one that ended later
 * (a call enclosing nothing ends before the next one starts). At equal
 * ends the outer, the one that started first. */
static uint32_t last_finished(const struct gap_cpu *c, size_t k, int64_t mid)
{
	const struct trace *t = c->t;
	const struct api_order *o = c->o;
	size_t lo = o->first[k], hi = o->first[k + 1];
	size_t p = after_time_near(t, o->rows, lo, hi, mid, &c->near[k]);
	if (p == lo)
		return TRACE_NONE;
	uint32_t best = o->rows[p - 1];
	size_t j = parents_past(o, k, p - 1);
	if (j == o->pfirst[k] || c->pmax[j - 1] < t->apis.end[best])
		return best;
	/* The latest end among the parents: the first parent to reach it. */
	size_t a = o->pfirst[k], b = j - 1;
	while (a < b) {
		size_t m = a + (b - a) / 2;
		if (c->pmax[m] < c->pmax[j - 1])
			a = m + 1;
		else
			b = m;
	}
	return o->rows[o->parents[a]];
}

/* The call that launched the op after the gap. */
static uint32_t launching_call(const struct trace *t, const struct gap *g)
{
	uint32_t api = TRACE_NONE;
	if (t->op_launch && g->after < t->op_launch_n)
		api = t->op_launch[g->after];
	return api < t->apis.n ? api : TRACE_NONE;
}

int gap_cpu_moment(const struct trace *t, const struct gap *g, struct call_probe *out)
{
	uint32_t api = launching_call(t, g);
	if (api == TRACE_NONE)
		return 0;
	const struct trace_thread *th = &t->threads[t->apis.thread[api]];
	*out = (struct call_probe){ th->domain, th->pid, th->tid, gap_midpoint(g), TRACE_NONE, 0 };
	return 1;
}

uint32_t gap_cpu_find(const struct gap_cpu *c, const struct gap *g, int *after)
{
	const struct trace *t = c->t;
	uint32_t api = launching_call(t, g);
	*after = 0;
	if (api == TRACE_NONE || c->o->napis != t->apis.n)
		return TRACE_NONE;
	/* Halved unsigned: end - start may not fit an int64_t, its half does. */
	int64_t mid = gap_midpoint(g);
	size_t k = t->apis.thread[api];
	uint32_t r = on_thread(c, k, mid);
	if (r == TRACE_NONE) {
		r = last_finished(c, k, mid);
		*after = r != TRACE_NONE;
	}
	return r;
}
