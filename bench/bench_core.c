/* Core timings on one trace, for make bench: load, filter apply (selection
 * build), profile and busy over the selection. Prints one line each. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "analysis/busy.h"
#include "analysis/profile.h"
#include "analysis/timeline.h"
#include "load/load.h"
#include "session/filter.h"
#include "session/select.h"

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
		selection_build(&t, &f, &w, NULL, &sel);
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
	printf("ops=%zu filter='%s' kept=%zu filter_apply_ms=%.1f profile_ms=%.1f busy_ms=%.1f (medians of "
	       "%d)\n",
	       t.ops.n, argv[2], kept, filt[RUNS / 2], prof[RUNS / 2], busy[RUNS / 2], RUNS);
	/* The timeline's CPU lanes need the API rows, read as the pane reads
	 * them: after the ops. */
	double a0 = now();
	if (trace_load_apis(&t, &err)) {
		fprintf(stderr, "bench_core: %s\n", err.msg);
		return 1;
	}
	printf("apis=%zu api_load_s=%.3f\n", t.apis.n, now() - a0);
	/* The filter again, now over the API rows too (as the viewer has them),
	 * with the calls' order by thread made once, as the session keeps it. */
	struct api_order order;
	double o0 = now();
	api_order_build(&t, &order);
	printf("apis=%zu api_order_ms=%.1f\n", t.apis.n, (now() - o0) * 1e3);
	for (int i = 0; i < RUNS; i++) {
		struct selection sel;
		double a = now();
		selection_build(&t, &f, &w, &order, &sel);
		filt[i] = (now() - a) * 1e3;
		kept = sel.napis;
		selection_free(&sel);
	}
	qsort(filt, RUNS, sizeof(double), by_double);
	printf("ops=%zu apis=%zu filter='%s' kept_apis=%zu filter_apply_with_apis_ms=%.1f (median of %d)\n",
	       t.ops.n, t.apis.n, argv[2], kept, filt[RUNS / 2], RUNS);
	api_order_free(&order);
	/* Timeline frames: every lane's 160 columns at random zooms, from the
	 * whole trace down to a microsecond, as the pane computes them. */
	struct timeline tl;
	double b0 = now();
	timeline_build(&t, NULL, &tl);
	double build = now() - b0;
	enum { FRAMES = 200, COLS = 160 };
	double frame[FRAMES];
	uint64_t seed = 7;
	int64_t span = tl.end - tl.start, sink = 0;
	for (int i = 0; i < FRAMES; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		int64_t view =
			(int64_t)((double)span / (double)(1ull << (seed >> 59)) / (i % 2 ? 1000.0 : 1.0)) +
			COLS;
		int64_t start = tl.start +
				(int64_t)((seed >> 20) % (uint64_t)(span - (view < span ? view : span) + 1));
		int64_t dt = view / COLS;
		double a = now();
		for (size_t l = 0; l < tl.nlanes; l++)
			for (int c = 0; c < COLS; c++) {
				sink += timeline_busy(&tl.lanes[l], start + c * dt, start + (c + 1) * dt);
				sink += timeline_dominant(&tl.lanes[l], start + c * dt, start + (c + 1) * dt);
			}
		frame[i] = (now() - a) * 1e3;
	}
	qsort(frame, FRAMES, sizeof(double), by_double);
	printf("ops=%zu timeline_build_s=%.2f lanes=%zu frame_ms_median=%.3f frame_ms_worst=%.3f (%d frames, "
	       "%d columns)%s\n",
	       t.ops.n, build, tl.nlanes, frame[FRAMES / 2], frame[FRAMES - 1], FRAMES, COLS,
	       sink == 42 ? " " : "");
	timeline_free(&tl);
	filter_free(&f);
	trace_free(&t);
	return 0;
}
