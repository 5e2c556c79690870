/* Distribution of durations: quantiles and a histogram for the detail view. */
#ifndef RPDTOP_HISTOGRAM_H
#define RPDTOP_HISTOGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/profile.h"
#include "trace/trace.h"

#define HIST_MAX_BUCKETS 64

struct histogram {
	size_t n; /* instances */
	int64_t min, max, median, p90, p99;
	int64_t std;   /* population standard deviation, to the nearest ns */
	int log_scale; /* buckets grow geometrically */
	size_t nbuckets;
	int64_t lo[HIST_MAX_BUCKETS], hi[HIST_MAX_BUCKETS]; /* [lo, hi] */
	uint64_t count[HIST_MAX_BUCKETS];
};

/* Durations of the ops named name in scope and selection (with the host
 * copies, as the profile has them), sorted ascending; *n is their number. */
int64_t *profile_durations(const struct trace *t, enum profile_scope scope, const struct selection *sel,
			   uint32_t name, size_t *n);

/* Summarise sorted durations into at most nbuckets buckets. Log-spaced
 * buckets are used when the range spans more than a factor of 20. The
 * percentiles are top's (analysis/durstat.h). */
void histogram_build(const int64_t *sorted, size_t n, size_t nbuckets, struct histogram *h);

#endif
