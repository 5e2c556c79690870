#include "config.h"
#include "analysis/histogram.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/durstat.h"
#include "util/satmath.h"
#include "util/xalloc.h"

static int by_value(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

int64_t *profile_durations(const struct trace *t, enum profile_scope scope, const struct selection *sel,
			   uint32_t name, size_t *n)
{
	size_t cap = 0;
	int64_t *d = NULL;
	*n = 0;
	for (size_t i = 0; i < t->ops.n; i++) {
		if (t->ops.name[i] != name)
			continue;
		if ((scope == PROFILE_KERNELS && t->ops.kind[i] != OP_KERNEL) || !selected_op(sel, i))
			continue;
		d = xgrow(d, &cap, *n + 1, sizeof(*d));
		d[(*n)++] = sat_sub(t->ops.end[i], t->ops.start[i]);
	}
	/* Host copies are in the profile of every op. */
	const struct trace_host_copies *h = &t->host_copies;
	for (size_t i = 0; scope == PROFILE_ALL_OPS && i < h->n; i++) {
		if (h->name[i] != name || !selected_host_copy(sel, i))
			continue;
		d = xgrow(d, &cap, *n + 1, sizeof(*d));
		d[(*n)++] = sat_sub(h->end[i], h->start[i]);
	}
	if (*n)
		qsort(d, *n, sizeof(*d), by_value);
	return d;
}

static void set_bounds(struct histogram *h)
{
	double lo = (double)h->min, hi = (double)h->max;
	h->log_scale = lo > 0 && hi / lo > 20.0;
	for (size_t b = 0; b < h->nbuckets; b++) {
		double f0 = (double)b / (double)h->nbuckets, f1 = (double)(b + 1) / (double)h->nbuckets;
		if (h->log_scale) {
			h->lo[b] = (int64_t)(lo * pow(hi / lo, f0));
			h->hi[b] = (int64_t)(lo * pow(hi / lo, f1));
		} else {
			h->lo[b] = (int64_t)(lo + (hi - lo) * f0);
			h->hi[b] = (int64_t)(lo + (hi - lo) * f1);
		}
	}
	h->lo[0] = h->min;
	h->hi[h->nbuckets - 1] = h->max;
}

static size_t bucket_of(const struct histogram *h, int64_t v)
{
	size_t lo = 0, hi = h->nbuckets - 1;
	/* The last bucket whose lower bound is <= v. */
	while (lo < hi) {
		size_t mid = (lo + hi + 1) / 2;
		if (h->lo[mid] <= v)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

void histogram_build(const int64_t *v, size_t n, size_t nbuckets, struct histogram *h)
{
	memset(h, 0, sizeof(*h));
	h->n = n;
	if (n == 0)
		return;
	h->min = v[0];
	h->max = v[n - 1];
	/* The percentiles top shows of the same durations (exact up to its
	 * limit, past it from its summary): the details never disagree. */
	struct durstat st;
	durstat_init(&st);
	for (size_t i = 0; i < n; i++)
		durstat_add(&st, v[i]);
	durstat_finish(&st);
	h->median = durstat_percentile(&st, 50);
	h->p90 = durstat_percentile(&st, 90);
	h->p99 = durstat_percentile(&st, 99);
	/* Rounded to the ns as the reports' std is: the same figure. */
	h->std = durstat_std(&st);
	durstat_free(&st);
	if (nbuckets > HIST_MAX_BUCKETS)
		nbuckets = HIST_MAX_BUCKETS;
	/* Never more buckets than distinct values could fill. */
	if ((uint64_t)(h->max - h->min) + 1 < nbuckets)
		nbuckets = (size_t)(h->max - h->min) + 1;
	h->nbuckets = nbuckets ? nbuckets : 1;
	set_bounds(h);
	for (size_t i = 0; i < n; i++)
		h->count[bucket_of(h, v[i])]++;
}
