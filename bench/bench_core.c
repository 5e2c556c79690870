/* Core timings on one trace, for make bench: load, filter apply (selection
 * build), profile and busy over the selection. Prints one line each. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "analysis/busy.h"
#include "analysis/filter.h"
#include "analysis/profile.h"
#include "analysis/select.h"
#include "load/load.h"

#define RUNS 5

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: bench_core FILE PATTERN\n");
		return 2;
	}
	struct trace t;
	struct rpd_error err;
	struct load_options lo = { .what = LOAD_OPS };
	const char *paths[] = { argv[1] };
	double t0 = now();
	if (trace_load(&t, paths, 1, &lo, &err)) {
		fprintf(stderr, "bench_core: %s\n", err.msg);
		return 1;
	}
	printf("ops=%zu load_s=%.3f\n", t.ops.n, now() - t0);

	struct filter f;
	char msg[256];
	filter_init(&f);
	if (filter_push(&f, argv[2], msg, sizeof(msg))) {
		fprintf(stderr, "bench_core: %s\n", msg);
		return 2;
	}
	struct window w = { 0 };
	double filt[RUNS], prof[RUNS], busy[RUNS];
	size_t kept = 0;
	for (int i = 0; i < RUNS; i++) {
		struct selection sel;
		struct profile p;
		struct busy b;
		double a = now();
		selection_build(&t, &f, &w, &sel);
		double c = now();
		profile_by_name(&t, PROFILE_ALL_OPS, &sel, &p);
		double d = now();
		busy_per_gpu(&t, &sel, &b);
		double e = now();
		filt[i] = (c - a) * 1e3;
		prof[i] = (d - c) * 1e3;
		busy[i] = (e - d) * 1e3;
		kept = sel.nops;
		profile_free(&p);
		busy_free(&b);
		selection_free(&sel);
	}
	qsort(filt, RUNS, sizeof(double), by_double);
	qsort(prof, RUNS, sizeof(double), by_double);
	qsort(busy, RUNS, sizeof(double), by_double);
	printf("ops=%zu filter='%s' kept=%zu filter_apply_ms=%.1f profile_ms=%.1f busy_ms=%.1f (medians of %d)\n",
	       t.ops.n, argv[2], kept, filt[RUNS / 2], prof[RUNS / 2], busy[RUNS / 2], RUNS);
	filter_free(&f);
	trace_free(&t);
	return 0;
}
