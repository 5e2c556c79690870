#include "config.h"
#include "analysis/profile.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util/satmath.h"
#include "util/sort.h"
#include "util/threads.h"
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

/* Of n sorted durations, the run [*lo, *hi) whose |z-score| is at most z
 * (z-scores over all n, whose variance is var; all of them for z <= 0 or
 * when they are equal). */
static void kept_run(const int64_t *v, size_t n, long double var, double z, size_t *lo, size_t *hi)
{
	*lo = 0;
	*hi = n;
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

/* What each name's sums hold. */
enum { SUM_TOTAL, SUM_WHOLE };

void profile_part_init(struct profile_part *a)
{
	namestat_init(&a->ns);
	a->all = 0;
}

void profile_part_free(struct profile_part *a)
{
	namestat_free(&a->ns);
	a->all = 0;
}

/* Host copies (trace/host_copies.h) count with every op: in scope
 * without kernels only. */
static int host_in_scope(size_t i, enum profile_scope scope, const struct selection *sel)
{
	return scope == PROFILE_ALL_OPS && selected_host_copy(sel, i);
}

/* All the ops' time in the window, whatever the filter keeps (with the
 * host copies): the base of a name's share of it. */
static __int128 all_time(const struct trace *t, const struct selection *sel)
{
	__int128 all = 0;
	const struct window *w = sel ? &sel->window : NULL;
	for (size_t i = 0; i < t->ops.n; i++)
		if (selected_place(sel, i))
			all += select_clipped(w, t->ops.start[i], t->ops.end[i]);
	const struct trace_host_copies *h = &t->host_copies;
	for (size_t i = 0; i < h->n; i++)
		if (selected_host_place(sel, i))
			all += select_clipped(w, h->start[i], h->end[i]);
	return all;
}

static void add_one(struct profile_part *a, const struct trace *t, const struct window *w, uint32_t name,
		    int64_t start, int64_t end)
{
	struct namestat_row *r = namestat_row(&a->ns, name, t->strings.count);
	int64_t d = sat_sub(end, start);
	namestat_add(&a->ns, r, d, select_clipped(w, start, end));
	r->sum[SUM_WHOLE] += d;
}

/* The ops [from, to) in scope into a. */
static void add_ops(struct profile_part *a, const struct trace *t, enum profile_scope scope,
		    const struct selection *sel, size_t from, size_t to)
{
	const struct window *w = sel ? &sel->window : NULL;
	for (size_t i = from; i < to; i++)
		if (in_scope(t, i, scope, sel))
			add_one(a, t, w, t->ops.name[i], t->ops.start[i], t->ops.end[i]);
}

/* The later half of the ops, summed on a second core. */
struct half {
	struct profile_part part;
	const struct trace *t;
	enum profile_scope scope;
	const struct selection *sel;
	size_t from, to;
};

static void *add_half(void *arg)
{
	struct half *h = arg;
	add_ops(&h->part, h->t, h->scope, h->sel, h->from, h->to);
	return NULL;
}

/* Below this many ops a second thread costs more than it saves. */
#define PROFILE_SPLIT_OPS (1u << 20)

void profile_part_add(struct profile_part *a, const struct trace *t, enum profile_scope scope,
		      const struct selection *sel)
{
	const struct window *w = sel ? &sel->window : NULL;
	size_t n = t->ops.n, mid = n;
	struct half h = { .t = t, .scope = scope, .sel = sel, .from = n / 2, .to = n };
	pthread_t th;
	int slot = n >= PROFILE_SPLIT_OPS ? threads_acquire(1) : 0;
	profile_part_init(&h.part);
	if (slot && pthread_create(&th, NULL, add_half, &h) == 0)
		mid = h.from;
	add_ops(a, t, scope, sel, 0, mid);
	if (mid < n) {
		pthread_join(th, NULL);
		/* The later ops' names after the earlier's, as one pass has
		 * them; a statistic depends on its durations alone. */
		namestat_merge_rows(&a->ns, &h.part.ns, t->strings.count);
	}
	threads_release(slot);
	profile_part_free(&h.part);
	const struct trace_host_copies *hc = &t->host_copies;
	for (size_t i = 0; i < hc->n; i++)
		if (host_in_scope(i, scope, sel))
			add_one(a, t, w, hc->name[i], hc->start[i], hc->end[i]);
	a->all += all_time(t, sel);
}

#define PROFILE_BYTES_VERSION 1

void profile_part_encode(const struct profile_part *a, const struct trace *t, struct bytes_out *b)
{
	bytes_put_u8(b, PROFILE_BYTES_VERSION);
	namestat_encode(&a->ns, t, b);
	bytes_put_i128(b, a->all);
}

int profile_part_merge(struct profile_part *a, const struct part_in *in)
{
	struct bytes_in *b = in->in;
	if (bytes_get_u8(b) != PROFILE_BYTES_VERSION || namestat_merge(&a->ns, in))
		return -1;
	a->all += bytes_get_i128(b);
	return b->bad ? -1 : 0;
}

/* With --outliers: each name's statistic of its kept durations only,
 * those whose |z-score| over all of them is at most z. */
static void keep_within(struct profile_part *a, const struct trace *t, enum profile_scope scope,
			const struct selection *sel, double z, uint64_t *outliers)
{
	size_t *at = xmalloc_array(a->ns.n + 1, sizeof(*at));
	at[0] = 0;
	for (size_t r = 0; r < a->ns.n; r++)
		at[r + 1] = at[r] + a->ns.rows[r].calls;
	int64_t *dur = xmalloc_huge(at[a->ns.n] ? at[a->ns.n] : 1, sizeof(*dur));
	size_t *fill = xmalloc_array(a->ns.n ? a->ns.n : 1, sizeof(*fill));
	memcpy(fill, at, a->ns.n * sizeof(*fill));
	for (size_t i = 0; i < t->ops.n; i++)
		if (in_scope(t, i, scope, sel))
			dur[fill[a->ns.map.row_of[t->ops.name[i]]]++] =
				sat_sub(t->ops.end[i], t->ops.start[i]);
	const struct trace_host_copies *h = &t->host_copies;
	for (size_t i = 0; i < h->n; i++)
		if (host_in_scope(i, scope, sel))
			dur[fill[a->ns.map.row_of[h->name[i]]]++] = sat_sub(h->end[i], h->start[i]);
	for (size_t r = 0; r < a->ns.n; r++) {
		size_t n = at[r + 1] - at[r], lo, hi;
		int64_t *v = dur + at[r];
		sort_int64(v, n);
		kept_run(v, n, durstat_variance(&a->ns.rows[r].st), z, &lo, &hi);
		durstat_free(&a->ns.rows[r].st);
		durstat_init(&a->ns.rows[r].st);
		for (size_t i = lo; i < hi; i++)
			durstat_add(&a->ns.rows[r].st, v[i]);
		outliers[r] = n - (hi - lo);
	}
	free(fill);
	free(dur);
	free(at);
}

static void row_stats(struct profile_row *r, struct durstat *st)
{
	durstat_finish(st);
	r->kept = st->n;
	r->kept_whole = durstat_sum(st);
	r->min = st->min;
	r->max = st->max;
	r->avg = durstat_avg(st);
	r->std = durstat_std(st);
	r->p50 = durstat_percentile(st, 50);
	r->p90 = durstat_percentile(st, 90);
	r->p99 = durstat_percentile(st, 99);
	r->var = durstat_excess(st);
}

static void finish_rows(struct profile_part *a, const struct trace *t, const uint64_t *outliers,
			struct profile *out)
{
	memset(out, 0, sizeof(*out));
	out->rows = xmalloc_array(a->ns.n ? a->ns.n : 1, sizeof(*out->rows));
	out->n = a->ns.n;
	for (size_t i = 0; i < a->ns.n; i++) {
		struct namestat_row *ar = &a->ns.rows[i];
		struct profile_row *r = &out->rows[i];
		*r = (struct profile_row){ .name = ar->name,
					   .calls = ar->calls,
					   .total = sat_from128(ar->sum[SUM_TOTAL]),
					   .whole = sat_from128(ar->sum[SUM_WHOLE]),
					   .outliers = outliers ? outliers[i] : 0 };
		row_stats(r, &ar->st);
	}
	out->calls = a->ns.calls;
	out->total = sat_from128(a->ns.total);
	out->all = sat_from128(a->all);
	profile_part_free(a);
	if (out->n)
		sort_with(out->rows, out->n, sizeof(*out->rows), by_total_then_name, (void *)t);
}

void profile_part_finish(struct profile_part *a, const struct trace *t, struct profile *out)
{
	finish_rows(a, t, NULL, out);
}

void profile_by_name_z(const struct trace *t, enum profile_scope scope, const struct selection *sel, double z,
		       struct profile *out)
{
	struct profile_part a;
	uint64_t *outliers = NULL;
	profile_part_init(&a);
	profile_part_add(&a, t, scope, sel);
	if (z > 0) {
		outliers = xcalloc(a.ns.n ? a.ns.n : 1, sizeof(*outliers));
		keep_within(&a, t, scope, sel, z, outliers);
	}
	finish_rows(&a, t, outliers, out);
	free(outliers);
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
	return r->avg;
}

double profile_row_percent(const struct profile *p, const struct profile_row *r)
{
	return p->total ? 100.0 * (double)r->total / (double)p->total : 0.0;
}

double profile_row_share(const struct profile *p, const struct profile_row *r)
{
	return p->all ? 100.0 * (double)r->total / (double)p->all : 0.0;
}
