#include "config.h"
#include "analysis/steps.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/markers.h"
#include "analysis/params.h"
#include "session/named.h"
#include "util/satmath.h"
#include "util/search.h"
#include "util/sort.h"
#include "util/xalloc.h"

/* The ops in view as intervals clipped to the window, by start. */
struct spans {
	int64_t *start, *end;
	uint32_t *name;
	size_t n;
	int64_t longest;
};

/* Two spans' order: by start, the shorter first. */
static int span_cmp(const void *ctx, uint32_t a, uint32_t b)
{
	const struct spans *s = ctx;
	if (s->start[a] != s->start[b])
		return s->start[a] < s->start[b] ? -1 : 1;
	return (s->end[a] > s->end[b]) - (s->end[a] < s->end[b]);
}

/* The order of s's spans (ops come nearly in order: each queue's by
 * start, the queues dealt into one another); NULL: they are in order
 * already. */
static uint32_t *spans_order(const struct spans *s)
{
	size_t sorted = 1, n = s->n;
	while (sorted < n && span_cmp(s, (uint32_t)sorted - 1, (uint32_t)sorted) <= 0)
		sorted++;
	if (sorted >= n)
		return NULL;
	uint32_t *v = xmalloc_huge(n, sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[i] = (uint32_t)i;
	sort_nearly_keyed(v, n, s->start, span_cmp, s);
	return v;
}

/* Put s's spans (and their kernel marks) in the order v, each column
 * through one buffer. */
static void spans_permute(struct spans *s, uint8_t *kernel, const uint32_t *v)
{
	int64_t *tmp = xmalloc_huge(s->n ? s->n : 1, sizeof(*tmp));
	int64_t *col[] = { s->start, s->end };
	for (size_t c = 0; c < 2; c++) {
		for (size_t i = 0; i < s->n; i++)
			tmp[i] = col[c][v[i]];
		memcpy(col[c], tmp, s->n * sizeof(*tmp));
	}
	uint32_t *names = (uint32_t *)tmp;
	for (size_t i = 0; i < s->n; i++)
		names[i] = s->name[v[i]];
	memcpy(s->name, names, s->n * sizeof(*names));
	uint8_t *marks = (uint8_t *)tmp;
	for (size_t i = 0; i < s->n; i++)
		marks[i] = kernel[v[i]];
	memcpy(kernel, marks, s->n);
	free(tmp);
}

static void spans_alloc(struct spans *s, size_t cap)
{
	memset(s, 0, sizeof(*s));
	cap = cap ? cap : 1;
	s->start = xmalloc_huge(cap, sizeof(*s->start));
	s->end = xmalloc_huge(cap, sizeof(*s->end));
	s->name = xmalloc_huge(cap, sizeof(*s->name));
}

/* The ops in view as spans by start (all), and the kernels among them
 * (kernels), taken in that order: one sort for both. */
static void spans_make(const struct trace *t, const struct selection *sel, struct spans *all,
		       struct spans *kernels)
{
	const struct window *w = sel ? &sel->window : NULL;
	size_t n = 0, nk = 0;
	spans_alloc(all, t->ops.n);
	uint8_t *kernel = xmalloc_huge(t->ops.n ? t->ops.n : 1, 1);
	for (size_t i = 0; i < t->ops.n; i++) {
		if (!selected_op(sel, i))
			continue;
		int64_t s = t->ops.start[i], e = t->ops.end[i];
		if (w && w->active) {
			s = s > w->start ? s : w->start;
			e = e < w->end ? e : w->end;
		}
		if (e <= s)
			continue;
		all->start[n] = s;
		all->end[n] = e;
		all->name[n] = t->ops.name[i];
		kernel[n++] = t->ops.kind[i] == OP_KERNEL;
	}
	all->n = n;
	uint32_t *v = spans_order(all);
	if (v)
		spans_permute(all, kernel, v);
	free(v);
	for (size_t i = 0; i < n; i++)
		nk += kernel[i];
	spans_alloc(kernels, nk);
	for (size_t i = 0; i < n; i++) {
		if (!kernel[i])
			continue;
		int64_t d = sat_sub(all->end[i], all->start[i]);
		kernels->start[kernels->n] = all->start[i];
		kernels->end[kernels->n] = all->end[i];
		kernels->name[kernels->n++] = all->name[i];
		kernels->longest = d > kernels->longest ? d : kernels->longest;
	}
	free(kernel);
}

/* The union of the spans, as disjoint spans by start (in place). */
static void spans_unite(struct spans *s)
{
	size_t k = 0;
	for (size_t i = 0; i < s->n; i++) {
		if (k > 0 && s->start[i] <= s->end[k - 1]) {
			s->end[k - 1] = s->end[i] > s->end[k - 1] ? s->end[i] : s->end[k - 1];
			continue;
		}
		s->start[k] = s->start[i];
		s->end[k++] = s->end[i];
	}
	s->n = k;
}

static void spans_free(struct spans *s)
{
	free(s->start);
	free(s->end);
	free(s->name);
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
 * times. acc is zero per string id and left so. */
static uint32_t top_in(const struct trace *t, const struct spans *k, int64_t a, int64_t b, int64_t *acc,
		       uint32_t *touched)
{
	size_t nt = 0;
	uint32_t best = TRACE_NONE;
	for (size_t i = lower_bound_i64(k->start, 0, k->n, sat_sub(a, k->longest));
	     i < k->n && k->start[i] < b; i++) {
		int64_t s = k->start[i] > a ? k->start[i] : a, e = k->end[i] < b ? k->end[i] : b;
		if (e <= s)
			continue;
		if (!acc[k->name[i]])
			touched[nt++] = k->name[i];
		acc[k->name[i]] = sat_add(acc[k->name[i]], sat_sub(e, s));
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

void steps_find(const struct trace *t, const struct selection *sel, const uint32_t *rows, size_t n,
		struct steps *out)
{
	struct spans all, kernels;
	memset(out, 0, sizeof(*out));
	spans_make(t, sel, &all, &kernels);
	spans_unite(&all);
	int64_t *acc = xcalloc(t->strings.count ? t->strings.count : 1, sizeof(*acc));
	uint32_t *touched = xmalloc_array(kernels.n ? kernels.n : 1, sizeof(*touched));
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
		r->top_kernel = top_in(t, &kernels, r->start, t->apis.end[api], acc, touched);
	}
	free(touched);
	free(acc);
	spans_free(&kernels);
	spans_free(&all);
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
	struct step_marks m = { 0 };
	/* --step chooses by text alone. */
	if (!analysis_params_step(ap))
		step_marks_of(t, NULL, &m);
	uint8_t *pass = steps_pass(t, ap, &m, pattern, size);
	step_marks_free(&m);
	uint32_t *rows = named_marker_rows(t, pass, n);
	free(pass);
	return rows;
}
