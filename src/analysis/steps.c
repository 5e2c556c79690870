#include "config.h"
#include "analysis/steps.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/markers.h"
#include "analysis/params.h"
#include "session/named.h"
#include "util/satmath.h"
#include "util/search.h"
#include "util/sort.h"
#include "util/threads.h"
#include "util/xalloc.h"

/* The union of the ops in view clipped to the window: disjoint spans by
 * start. */
struct spans {
	int64_t *start, *end;
	size_t n;
};

/* The ops in view clipped to the window: their rows, and the clipped
 * columns (the trace's own without a window). */
struct clipped {
	const int64_t *start, *end;
	int64_t *own_start, *own_end;
	uint32_t *rows;
	size_t n, kernels;
};

/* Two ops' order: by start, the shorter first. */
static int clipped_cmp(const void *ctx, uint32_t a, uint32_t b)
{
	const struct clipped *c = ctx;
	if (c->start[a] != c->start[b])
		return c->start[a] < c->start[b] ? -1 : 1;
	return (c->end[a] > c->end[b]) - (c->end[a] < c->end[b]);
}

/* The rows of the ops in view that keep some time in the window, by
 * start (ops come nearly in order: each queue's by start, the queues
 * dealt into one another). */
static void clip_ops(const struct trace *t, const struct selection *sel, struct clipped *c)
{
	const struct window *w = sel ? &sel->window : NULL;
	size_t n = t->ops.n;
	memset(c, 0, sizeof(*c));
	c->start = t->ops.start;
	c->end = t->ops.end;
	if (w && w->active) {
		c->own_start = xmalloc_huge(n ? n : 1, sizeof(*c->own_start));
		c->own_end = xmalloc_huge(n ? n : 1, sizeof(*c->own_end));
		for (size_t i = 0; i < n; i++) {
			int64_t s = t->ops.start[i], e = t->ops.end[i];
			c->own_start[i] = s > w->start ? s : w->start;
			c->own_end[i] = e < w->end ? e : w->end;
		}
		c->start = c->own_start;
		c->end = c->own_end;
	}
	c->rows = xmalloc_huge(n ? n : 1, sizeof(*c->rows));
	for (size_t i = 0; i < n; i++) {
		if (!selected_op(sel, i) || c->end[i] <= c->start[i])
			continue;
		c->rows[c->n++] = (uint32_t)i;
		c->kernels += t->ops.kind[i] == OP_KERNEL;
	}
	sort_nearly_keyed(c->rows, c->n, c->start, clipped_cmp, c);
}

static void clipped_free(struct clipped *c)
{
	free(c->own_start);
	free(c->own_end);
	free(c->rows);
}

/* The kernels in view, read where the ops in view are put by start
 * rather than copied out of them (20 bytes a kernel), and the longest of
 * them. */
struct kernels {
	struct clipped c;
	int64_t longest;
};

/* The union of the ops in view as disjoint spans by start (busy), and
 * the kernels among them by start (kernels), in one walk of their order. */
static void spans_make(const struct trace *t, const struct selection *sel, struct spans *busy,
		       struct kernels *kernels)
{
	struct clipped *c = &kernels->c;
	clip_ops(t, sel, c);
	size_t cap = 0;
	memset(busy, 0, sizeof(*busy));
	kernels->longest = 0;
	for (size_t k = 0; k < c->n; k++) {
		uint32_t i = c->rows[k];
		int64_t s = c->start[i], e = c->end[i];
		if (busy->n > 0 && s <= busy->end[busy->n - 1]) {
			busy->end[busy->n - 1] = e > busy->end[busy->n - 1] ? e : busy->end[busy->n - 1];
		} else {
			if (busy->n == cap) {
				busy->start = xgrow(busy->start, &cap, busy->n + 1, sizeof(*busy->start));
				busy->end = xrealloc_array(busy->end, cap, sizeof(*busy->end));
			}
			busy->start[busy->n] = s;
			busy->end[busy->n++] = e;
		}
		int64_t d = sat_sub(e, s);
		if (t->ops.kind[i] == OP_KERNEL && d > kernels->longest)
			kernels->longest = d;
	}
}

static void spans_free(struct spans *s)
{
	free(s->start);
	free(s->end);
}

/* Does the op at place i of those by start start at x or later? */
struct starting {
	const struct clipped *c;
	int64_t x;
};

static int starts_from(const void *ctx, size_t i)
{
	const struct starting *s = ctx;
	return s->c->start[s->c->rows[i]] >= s->x;
}

/* The busy time in [a, b): disjoint spans end in rising order. */
static int64_t busy_in(const struct spans *u, int64_t a, int64_t b)
{
	int64_t busy = 0;
	for (size_t i = lower_bound_i64(u->end, 0, u->n, a + 1); i < u->n && u->start[i] < b; i++) {
		int64_t s = u->start[i] > a ? u->start[i] : a, e = u->end[i] < b ? u->end[i] : b;
		busy = sat_add(busy, e > s ? sat_sub(e, s) : 0);
	}
	return busy;
}

/* The kernel name with the most time in [a, b); the smaller name at equal
 * times. acc is zero per string id and left so. *near: where the last
 * step's kernels began (steps come in time order), kept here. */
static uint32_t top_in(const struct trace *t, const struct kernels *k, int64_t a, int64_t b, int64_t *acc,
		       uint32_t *touched, size_t *near)
{
	const struct clipped *c = &k->c;
	struct starting from = { c, sat_sub(a, k->longest) };
	size_t nt = 0;
	uint32_t best = TRACE_NONE;
	*near = search_from(0, c->n, *near, starts_from, &from);
	for (size_t p = *near; p < c->n && c->start[c->rows[p]] < b; p++) {
		uint32_t i = c->rows[p], name = t->ops.name[i];
		if (t->ops.kind[i] != OP_KERNEL)
			continue;
		int64_t s = c->start[i] > a ? c->start[i] : a, e = c->end[i] < b ? c->end[i] : b;
		if (e <= s)
			continue;
		if (!acc[name])
			touched[nt++] = name;
		acc[name] = sat_add(acc[name], sat_sub(e, s));
	}
	for (size_t i = 0; i < nt; i++) {
		uint32_t x = touched[i];
		if (best == TRACE_NONE || acc[x] > acc[best] ||
		    (acc[x] == acc[best] && strcmp(trace_str(t, x), trace_str(t, best)) < 0))
			best = x;
	}
	for (size_t i = 0; i < nt; i++)
		acc[touched[i]] = 0;
	return best;
}

/* The steps of rows among the ops' spans. */
static void find_in(const struct trace *t, const struct selection *sel, const uint32_t *rows, size_t n,
		    const struct spans *all_spans, const struct kernels *kernels, struct steps *out)
{
	const struct spans all = *all_spans;
	memset(out, 0, sizeof(*out));
	int64_t *acc = xcalloc(t->strings.count ? t->strings.count : 1, sizeof(*acc));
	uint32_t *touched = xmalloc_array(kernels->c.kernels ? kernels->c.kernels : 1, sizeof(*touched));
	size_t near = 0;
	out->rows = xmalloc_array(n ? n : 1, sizeof(*out->rows));
	for (size_t i = 0; i < n; i++) {
		uint32_t api = rows[i];
		if (!selected_api_named(sel, api))
			continue;
		struct step_row *r = &out->rows[out->n++];
		r->number = i + 1;
		r->api = api;
		r->text = trace_api_shown_name(t, api);
		r->start = t->apis.start[api];
		r->dur = sat_sub(t->apis.end[api], r->start);
		r->busy = busy_in(&all, r->start, t->apis.end[api]);
		r->top_kernel = top_in(t, kernels, r->start, t->apis.end[api], acc, touched, &near);
	}
	free(touched);
	free(acc);
}

void steps_find(const struct trace *t, const struct selection *sel, const uint32_t *rows, size_t n,
		struct steps *out)
{
	struct spans all;
	struct kernels kernels;
	spans_make(t, sel, &all, &kernels);
	find_in(t, sel, rows, n, &all, &kernels, out);
	clipped_free(&kernels.c);
	spans_free(&all);
}

struct spans_job {
	const struct trace *t;
	const struct selection *sel;
	struct spans all;
	struct kernels kernels;
};

static void *spans_job(void *arg)
{
	struct spans_job *j = arg;
	spans_make(j->t, j->sel, &j->all, &j->kernels);
	return NULL;
}

void steps_find_asked(const struct trace *t, const struct analysis_params *ap, const struct selection *sel,
		      char *pattern, size_t size, struct steps *out)
{
	/* The ops' spans (a sort of every op) and the steps among the
	 * markers read different columns: the spans are made beside. */
	struct spans_job j = { .t = t, .sel = sel };
	pthread_t th;
	int slot = threads_acquire(1), apart = slot && pthread_create(&th, NULL, spans_job, &j) == 0;
	size_t n;
	uint32_t *rows = steps_rows(t, ap, &n, pattern, size);
	if (apart)
		pthread_join(th, NULL);
	else
		spans_job(&j);
	threads_release(slot);
	find_in(t, sel, rows, n, &j.all, &j.kernels, out);
	free(rows);
	clipped_free(&j.kernels.c);
	spans_free(&j.all);
}

void steps_free(struct steps *s)
{
	free(s->rows);
	memset(s, 0, sizeof(*s));
}

double step_busy_percent(const struct step_row *r)
{
	return r->dur > 0 ? 100.0 * (double)r->busy / (double)r->dur : 0.0;
}

/* The instances that are steps: those whose text passes --step, or by
 * default the PyTorch profiler's (ProfilerStep#N) when there are any,
 * else those of the text taking the most time. pattern: what they are,
 * for the caption. */
uint32_t *steps_rows(const struct trace *t, const struct analysis_params *ap, size_t *n, char *pattern,
		     size_t size)
{
	uint8_t *pass = steps_pass_of_trace(t, ap, pattern, size);
	uint32_t *rows = named_marker_rows(t, pass, n);
	free(pass);
	return rows;
}
