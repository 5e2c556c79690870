#include "config.h"
#include "analysis/profile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/histogram.h"
#include "util/satmath.h"
#include "util/sort.h"
#include "util/xalloc.h"

static int in_scope(const struct trace *t, size_t op, enum profile_scope scope, const struct selection *sel)
{
	return (scope == PROFILE_ALL_OPS || t->ops.kind[op] == OP_KERNEL) && selected_op(sel, op);
}

static int by_total_then_name(const void *a, const void *b, void *ctx)
{
	const struct trace *t = ctx;
	const struct profile_row *x = a, *y = b;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return strcmp(trace_str(t, x->name), trace_str(t, y->name));
}

/* Population variance of n sorted values, exact in integers until the
 * division, (n * sum of squares - sum^2) / n^2, while n times the largest
 * magnitude stays below 2^63 (then nothing of it overflows 128 bits);
 * beyond, as the mean of the squared deviations in long double. */
static long double variance(const int64_t *v, size_t n)
{
	if (n == 0)
		return 0.0L;
	uint64_t a = v[0] < 0 ? 0 - (uint64_t)v[0] : (uint64_t)v[0];
	uint64_t b = v[n - 1] < 0 ? 0 - (uint64_t)v[n - 1] : (uint64_t)v[n - 1];
	if ((unsigned __int128)n * (a > b ? a : b) < ((unsigned __int128)1 << 63)) {
		__int128 s = 0, sq = 0;
		for (size_t i = 0; i < n; i++) {
			s += v[i];
			sq += (__int128)v[i] * v[i];
		}
		__int128 num = (__int128)n * sq - s * s;
		return (long double)num / ((long double)n * (long double)n);
	}
	long double mean = 0, m2 = 0;
	for (size_t i = 0; i < n; i++) {
		long double d = (long double)v[i] - mean;
		mean += d / (long double)(i + 1);
		m2 += d * ((long double)v[i] - mean);
	}
	return m2 / (long double)n;
}

/* Of n sorted durations, the run [*lo, *hi) whose |z-score| is at most z
 * (z-scores over all n; all of them for z <= 0 or when they are equal). */
static void kept_run(const int64_t *v, size_t n, double z, size_t *lo, size_t *hi)
{
	*lo = 0;
	*hi = n;
	long double var = variance(v, n);
	if (z <= 0 || var <= 0)
		return;
	long double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += (long double)v[i];
	long double mean = sum / (long double)n, reach = (long double)z * sqrtl(var);
	while (*lo < *hi && mean - (long double)v[*lo] > reach)
		(*lo)++;
	while (*hi > *lo && (long double)v[*hi - 1] - mean > reach)
		(*hi)--;
}

/* The statistics of a name from its sorted durations. */
static void row_stats(struct profile_row *r, const int64_t *v, size_t n, double z)
{
	size_t lo, hi;
	kept_run(v, n, z, &lo, &hi);
	const int64_t *k = v + lo;
	size_t nk = hi - lo;
	r->kept = nk;
	r->outliers = n - nk;
	r->kept_whole = 0;
	r->var = 0;
	if (nk == 0)
		return;
	r->min = k[0];
	r->max = k[nk - 1];
	for (size_t i = 0; i < nk; i++) {
		r->kept_whole = sat_add(r->kept_whole, k[i]);
		r->var = sat_add(r->var, sat_sub(k[i], k[0]));
	}
	r->std = (int64_t)llroundl(sqrtl(variance(k, nk)));
	r->p50 = histogram_percentile(k, nk, 50);
	r->p90 = histogram_percentile(k, nk, 90);
	r->p99 = histogram_percentile(k, nk, 99);
}

/* Every name's durations, sorted, side by side (a name's run starts where
 * the rows before it end), then its statistics. */
static void add_stats(const struct trace *t, enum profile_scope scope, const struct selection *sel,
		      const uint32_t *row_of, double z, struct profile *p)
{
	size_t *at = xmalloc_array(p->n + 1, sizeof(*at));
	at[0] = 0;
	for (size_t r = 0; r < p->n; r++)
		at[r + 1] = at[r] + p->rows[r].calls;
	int64_t *dur = xmalloc_huge(at[p->n] ? at[p->n] : 1, sizeof(*dur));
	size_t *fill = xmalloc_array(p->n ? p->n : 1, sizeof(*fill));
	memcpy(fill, at, p->n * sizeof(*fill));
	for (size_t i = 0; i < t->ops.n; i++)
		if (in_scope(t, i, scope, sel))
			dur[fill[row_of[t->ops.name[i]]]++] = sat_sub(t->ops.end[i], t->ops.start[i]);
	for (size_t r = 0; r < p->n; r++) {
		sort_int64(dur + at[r], at[r + 1] - at[r]);
		row_stats(&p->rows[r], dur + at[r], at[r + 1] - at[r], z);
	}
	free(fill);
	free(dur);
	free(at);
}

/* All GPU time in the window, whatever the filter keeps: the base of a
 * name's share of it. */
static int64_t all_time(const struct trace *t, const struct selection *sel)
{
	int64_t all = 0;
	const struct window *w = sel ? &sel->window : NULL;
	for (size_t i = 0; i < t->ops.n; i++)
		if (selected_place(sel, i))
			all = sat_add(all, select_clipped(w, t->ops.start[i], t->ops.end[i]));
	return all;
}

void profile_by_name_z(const struct trace *t, enum profile_scope scope, const struct selection *sel, double z,
		       struct profile *out)
{
	/* Row of each name, indexed by string id: a dense array is the fastest
	 * group-by there is, and names are string ids already. */
	uint32_t *row_of = xmalloc_array(t->strings.count, sizeof(*row_of));
	memset(row_of, 0xff, t->strings.count * sizeof(*row_of));
	size_t cap = 0;
	const struct window *w = sel ? &sel->window : NULL;
	memset(out, 0, sizeof(*out));

	for (size_t i = 0; i < t->ops.n; i++) {
		if (!in_scope(t, i, scope, sel))
			continue;
		uint32_t name = t->ops.name[i];
		int64_t d = sat_sub(t->ops.end[i], t->ops.start[i]);
		if (row_of[name] == UINT32_MAX) {
			out->rows = xgrow(out->rows, &cap, out->n + 1, sizeof(*out->rows));
			out->rows[out->n] = (struct profile_row){ .name = name };
			row_of[name] = (uint32_t)out->n++;
		}
		struct profile_row *r = &out->rows[row_of[name]];
		int64_t inside = select_clipped(w, t->ops.start[i], t->ops.end[i]);
		r->calls++;
		r->total = sat_add(r->total, inside);
		r->whole = sat_add(r->whole, d);
		out->calls++;
		out->total = sat_add(out->total, inside);
	}
	add_stats(t, scope, sel, row_of, z, out);
	out->all = all_time(t, sel);
	free(row_of);
	if (out->n)
		sort_with(out->rows, out->n, sizeof(*out->rows), by_total_then_name, (void *)t);
}

void profile_by_name(const struct trace *t, enum profile_scope scope, const struct selection *sel,
		     struct profile *out)
{
	profile_by_name_z(t, scope, sel, 0, out);
}

void profile_free(struct profile *p)
{
	free(p->rows);
	memset(p, 0, sizeof(*p));
}

int64_t profile_row_avg(const struct profile_row *r)
{
	return r->kept ? r->kept_whole / (int64_t)r->kept : 0;
}

double profile_row_percent(const struct profile *p, const struct profile_row *r)
{
	return p->total ? 100.0 * (double)r->total / (double)p->total : 0.0;
}

double profile_row_share(const struct profile *p, const struct profile_row *r)
{
	return p->all ? 100.0 * (double)r->total / (double)p->all : 0.0;
}
