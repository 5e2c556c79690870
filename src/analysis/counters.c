#include "config.h"
#include "analysis/counters.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace.h"
#include "util/satmath.h"
#include "util/search.h"
#include "util/sort.h"
#include "util/xalloc.h"

/* One sample of a series, while its steps are made. */
struct sample {
	int64_t start, end;
	double value;
};

static int by_start(const void *a, const void *b, void *ctx)
{
	const struct sample *x = a, *y = b;
	(void)ctx;
	return (x->start > y->start) - (x->start < y->start);
}

/* The samples still open while the steps are walked: a heap with the
 * highest value on top (ended ones leave when they come up). */
struct heap {
	struct sample *v;
	size_t n;
};

static void heap_push(struct heap *h, struct sample s)
{
	size_t i = h->n++;
	while (i > 0 && h->v[(i - 1) / 2].value < s.value) {
		h->v[i] = h->v[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->v[i] = s;
}

static void heap_pop(struct heap *h)
{
	struct sample last = h->v[--h->n];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && h->v[c + 1].value > h->v[c].value)
			c++;
		if (h->v[c].value <= last.value)
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	if (h->n)
		h->v[i] = last;
}

/* Steps of the collected index: appended as a series is walked. */
struct steps {
	int64_t *start, *end;
	double *value;
	size_t n;
};

static void add_step(struct steps *st, size_t first, int64_t start, int64_t end, double value)
{
	/* A step going on at the same value is one step. */
	if (st->n > first && st->end[st->n - 1] == start && st->value[st->n - 1] == value) {
		st->end[st->n - 1] = end;
		return;
	}
	st->start[st->n] = start;
	st->end[st->n] = end;
	st->value[st->n++] = value;
}

/* The upper envelope of samples sorted by start: at each time the most
 * any sample covering it holds. 2n - 1 steps at most. */
static void envelope(const struct sample *v, size_t n, struct steps *st, struct heap *h)
{
	size_t first = st->n, i = 0;
	int64_t at = 0;
	h->n = 0;
	while (i < n || h->n) {
		if (h->n == 0)
			at = v[i].start;
		while (i < n && v[i].start <= at)
			heap_push(h, v[i++]);
		while (h->n && h->v[0].end <= at)
			heap_pop(h);
		if (h->n == 0)
			continue;
		/* The top holds until it ends or another sample starts. */
		int64_t next = h->v[0].end;
		if (i < n && v[i].start < next)
			next = v[i].start;
		add_step(st, first, at, next, h->v[0].value);
		at = next;
	}
}

static void build_tree(double *tree, const double *value, size_t n)
{
	for (size_t i = 0; i < n; i++)
		tree[n + i] = value[i];
	for (size_t k = n - 1; k >= 1; k--)
		tree[k] = tree[2 * k] > tree[2 * k + 1] ? tree[2 * k] : tree[2 * k + 1];
}

/* Samples grouped by series (a counting sort); first[s] .. first[s + 1]. */
static struct sample *by_series(const struct trace_counters *c, size_t *first)
{
	for (size_t i = 0; i < c->n; i++)
		first[c->of[i] + 1]++;
	for (size_t s = 0; s < c->nseries; s++)
		first[s + 1] += first[s];
	size_t *fill = xmalloc_array(c->nseries, sizeof(*fill));
	memcpy(fill, first, c->nseries * sizeof(*fill));
	struct sample *v = xmalloc_array(c->n, sizeof(*v));
	for (size_t i = 0; i < c->n; i++) {
		/* Without a duration, a sample holds for the clock's tick. */
		int64_t end = c->end[i] > c->start[i] ? c->end[i] : c->start[i] + 1;
		v[fill[c->of[i]]++] = (struct sample){ c->start[i], end, c->value[i] };
	}
	free(fill);
	return v;
}

static void range_of(struct counter_steps *cs, const double *value)
{
	cs->min = cs->max = cs->n ? value[0] : 0;
	for (size_t k = 1; k < cs->n; k++) {
		if (value[k] < cs->min)
			cs->min = value[k];
		if (value[k] > cs->max)
			cs->max = value[k];
	}
}

void counter_index_build(const struct trace_counters *c, struct counter_index *ix)
{
	memset(ix, 0, sizeof(*ix));
	if (c->nseries == 0)
		return;
	ix->nseries = c->nseries;
	ix->series = xcalloc(c->nseries, sizeof(*ix->series));
	size_t *first = xcalloc(c->nseries + 1, sizeof(*first));
	struct sample *v = by_series(c, first);
	size_t cap = 2 * c->n + 1;
	struct steps st = { xmalloc_array(cap, sizeof(int64_t)), xmalloc_array(cap, sizeof(int64_t)),
			    xmalloc_array(cap, sizeof(double)), 0 };
	struct heap h = { xmalloc_array(c->n + 1, sizeof(struct sample)), 0 };
	for (size_t s = 0; s < c->nseries; s++) {
		size_t n = first[s + 1] - first[s];
		sort_with(v + first[s], n, sizeof(*v), by_start, NULL);
		ix->series[s].first = st.n;
		envelope(v + first[s], n, &st, &h);
		ix->series[s].n = st.n - ix->series[s].first;
		range_of(&ix->series[s], st.value + ix->series[s].first);
	}
	ix->start = st.start;
	ix->end = st.end;
	ix->tree = xcalloc(2 * st.n + 1, sizeof(*ix->tree));
	for (size_t s = 0; s < c->nseries; s++)
		if (ix->series[s].n)
			build_tree(ix->tree + 2 * ix->series[s].first, st.value + ix->series[s].first,
				   ix->series[s].n);
	free(st.value);
	free(h.v);
	free(v);
	free(first);
}

void counter_index_free(struct counter_index *ix)
{
	free(ix->series);
	free(ix->start);
	free(ix->end);
	free(ix->tree);
	memset(ix, 0, sizeof(*ix));
}

/* The steps of series s that overlap [from, to): [*lo, *hi) of its run.
 * Steps do not overlap, so their ends rise with their starts. */
static void overlapping(const struct counter_index *ix, uint32_t s, int64_t from, int64_t to, size_t *lo,
			size_t *hi)
{
	const struct counter_steps *cs = &ix->series[s];
	*lo = lower_bound_i64(ix->end, cs->first, cs->first + cs->n, from + 1) - cs->first;
	*hi = lower_bound_i64(ix->start, cs->first, cs->first + cs->n, to) - cs->first;
}

int counter_max(const struct counter_index *ix, uint32_t s, int64_t from, int64_t to, double *value)
{
	size_t lo, hi;
	if (s >= ix->nseries || to <= from)
		return 0;
	overlapping(ix, s, from, to, &lo, &hi);
	if (lo >= hi)
		return 0;
	const struct counter_steps *cs = &ix->series[s];
	const double *tree = ix->tree + 2 * cs->first;
	double best = tree[cs->n + lo];
	/* Bottom-up over the leaves [lo, hi). */
	for (size_t l = lo + cs->n, r = hi + cs->n; l < r; l /= 2, r /= 2) {
		if (l & 1) {
			best = tree[l] > best ? tree[l] : best;
			l++;
		}
		if (r & 1) {
			r--;
			best = tree[r] > best ? tree[r] : best;
		}
	}
	*value = best;
	return 1;
}

int counter_at(const struct counter_index *ix, uint32_t s, int64_t time, double *value)
{
	size_t lo, hi;
	if (s >= ix->nseries || time == INT64_MAX)
		return 0;
	overlapping(ix, s, time, time + 1, &lo, &hi);
	if (lo >= hi)
		return 0;
	const struct counter_steps *cs = &ix->series[s];
	*value = ix->tree[2 * cs->first + cs->n + lo];
	return 1;
}

/* Two series of one kind: the same counter, unit and source. */
static int same_kind(const struct trace_counter *a, const struct trace_counter *b)
{
	return a->name == b->name && a->unit == b->unit && a->source == b->source;
}

void counter_scales(const struct trace *t, struct counter_scale *out)
{
	const struct trace_counters *c = &t->counters;
	uint8_t *seen = xcalloc(c->nseries ? c->nseries : 1, 1);
	for (size_t s = 0; s < c->nseries; s++)
		out[s] = (struct counter_scale){ 0, 0 };
	/* Each series' own range first, from 0 (a series without samples
	 * adds nothing). */
	for (size_t i = 0; i < c->n; i++) {
		struct counter_scale *sc = &out[c->of[i]];
		if (c->value[i] < sc->lo)
			sc->lo = c->value[i];
		if (c->value[i] > sc->hi)
			sc->hi = c->value[i];
	}
	/* Then each kind's: the widest of its series', given to them all. */
	for (size_t s = 0; s < c->nseries; s++) {
		if (seen[s])
			continue;
		struct counter_scale k = out[s];
		for (size_t o = s + 1; o < c->nseries; o++)
			if (!seen[o] && same_kind(&c->series[s], &c->series[o])) {
				k.lo = out[o].lo < k.lo ? out[o].lo : k.lo;
				k.hi = out[o].hi > k.hi ? out[o].hi : k.hi;
			}
		const char *unit = c->series[s].unit == TRACE_NONE ? "" : trace_str(t, c->series[s].unit);
		if (strcmp(unit, "%") == 0 && k.hi < 100)
			k.hi = 100;
		for (size_t o = s; o < c->nseries; o++)
			if (!seen[o] && same_kind(&c->series[s], &c->series[o])) {
				out[o] = k;
				seen[o] = 1;
			}
	}
	free(seen);
}

int counter_level(const struct counter_scale *sc, double value, int levels)
{
	if (!(sc->hi > sc->lo))
		return 0;
	int k = (int)((value - sc->lo) / (sc->hi - sc->lo) * levels);
	return k < 0 ? 0 : k >= levels ? levels - 1 : k;
}

/* A number in four significant digits at most, thousands as k, M, G, T
 * from 10000 on ("2100", "12.5k", "0.25"). */
static const char *compact(double v, char *buf, size_t size)
{
	static const char *const suffix[] = { "", "k", "M", "G", "T" };
	size_t k = 0;
	while (fabs(v) >= 10000 && k + 1 < sizeof(suffix) / sizeof(suffix[0])) {
		v /= 1000;
		k++;
	}
	snprintf(buf, size, "%.4g%s", v, suffix[k]);
	return buf;
}

const char *counter_scale_format(const struct counter_scale *sc, const char *unit, char *buf, size_t size)
{
	char lo[32], hi[32];
	snprintf(buf, size, "%s%s%s%s%s", compact(sc->lo, lo, sizeof(lo)), sc->lo < 0 ? ".." : "-",
		 compact(sc->hi, hi, sizeof(hi)), unit && *unit ? " " : "", unit ? unit : "");
	return buf;
}

const char *counter_format(double value, const char *unit, char *buf, size_t size)
{
	const char *sp = unit && *unit ? " " : "";
	if (value == floor(value) && fabs(value) < 1e15)
		snprintf(buf, size, "%.0f%s%s", value, sp, unit ? unit : "");
	else
		snprintf(buf, size, "%.4g%s%s", value, sp, unit ? unit : "");
	return buf;
}

void counter_clip(const struct trace_counters *c, const struct window *w, struct trace_counters *out)
{
	memset(out, 0, sizeof(*out));
	out->series = c->series;
	out->nseries = c->nseries;
	size_t cap = c->n ? c->n : 1;
	out->of = xmalloc_array(cap, sizeof(*out->of));
	out->start = xmalloc_array(cap, sizeof(*out->start));
	out->end = xmalloc_array(cap, sizeof(*out->end));
	out->value = xmalloc_array(cap, sizeof(*out->value));
	for (size_t i = 0; i < c->n; i++) {
		int64_t s = c->start[i], e = c->end[i];
		if (w && w->active) {
			if (e <= s ? !(s >= w->start && s < w->end) : !(s < w->end && e > w->start))
				continue;
			if (e > s) {
				s = s > w->start ? s : w->start;
				e = e < w->end ? e : w->end;
			}
		}
		out->of[out->n] = c->of[i];
		out->start[out->n] = s;
		out->end[out->n] = e;
		out->value[out->n++] = c->value[i];
	}
}

void counter_clip_free(struct trace_counters *out)
{
	free(out->of);
	free(out->start);
	free(out->end);
	free(out->value);
	memset(out, 0, sizeof(*out));
}

struct counter_summary *counter_summarize(const struct trace_counters *c, const struct window *w, size_t *n)
{
	struct trace_counters in;
	struct counter_index ix;
	counter_clip(c, w, &in);
	counter_index_build(&in, &ix);
	struct counter_summary *rows = xcalloc(c->nseries ? c->nseries : 1, sizeof(*rows));
	for (size_t s = 0; s < c->nseries; s++)
		rows[s].series = (uint32_t)s;
	for (size_t i = 0; i < in.n; i++) {
		struct counter_summary *r = &rows[in.of[i]];
		if (r->samples == 0 || in.value[i] < r->min)
			r->min = in.value[i];
		if (r->samples == 0 || in.value[i] > r->max)
			r->max = in.value[i];
		r->samples++;
	}
	for (size_t s = 0; s < c->nseries && s < ix.nseries; s++) {
		const struct counter_steps *cs = &ix.series[s];
		double sum = 0, time = 0;
		for (size_t k = 0; k < cs->n; k++) {
			double d = (double)ix.end[cs->first + k] - (double)ix.start[cs->first + k];
			sum += ix.tree[2 * cs->first + cs->n + k] * d;
			time += d;
		}
		rows[s].avg = time > 0 ? sum / time : 0;
	}
	counter_index_free(&ix);
	counter_clip_free(&in);
	*n = c->nseries;
	return rows;
}
