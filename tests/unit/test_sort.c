/* Sorting by runs: indices into a column of values, in the patterns
 * traces give (recorded as calls end: a range after what it encloses;
 * jitter; already sorted) against a general sort of the same values; too
 * many runs are refused with the input untouched. */
#include "config.h"
#include "util/sort.h"

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "util/xalloc.h"

static int by_value(const void *ctx, uint32_t a, uint32_t b)
{
	const int64_t *x = ctx;
	return (x[a] > x[b]) - (x[a] < x[b]);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* Sort v by runs and check that the values come out ascending and are
 * those that went in. */
static void check_sorted(const char *what, const int64_t *x, uint32_t *v, size_t n, int expect)
{
	int64_t *want = xmalloc((n ? n : 1) * sizeof(*want));
	uint32_t *before = xmalloc((n ? n : 1) * sizeof(*before));
	for (size_t i = 0; i < n; i++)
		want[i] = x[v[i]];
	memcpy(before, v, n * sizeof(*v));
	qsort(want, n, sizeof(*want), cmp_i64);
	int rc = sort_by_runs(v, n, by_value, x, 64);
	fprintf(stderr, "%s: %d\n", what, rc);
	CHECK_INT(rc, expect);
	if (rc == 0)
		for (size_t i = 0; i < n; i++)
			CHECK_INT(x[v[i]], want[i]);
	else
		CHECK(memcmp(before, v, n * sizeof(*v)) == 0);
	free(before);
	free(want);
}

/* sort_nearly_int64 gives what sort_int64 gives: values a little out of
 * place (moved back one by one), far out of place (past the budget of
 * moves, then the radix sort), equal, negative, and none. */
static void check_nearly_int64(void)
{
	enum { N = 20000 };
	int64_t *a = xmalloc(N * sizeof(*a)), *b = xmalloc(N * sizeof(*b));
	unsigned seed = 5;
	for (int pattern = 0; pattern < 5; pattern++) {
		size_t n = pattern == 4 ? 0 : N;
		for (size_t i = 0; i < n; i++) {
			int64_t near = (int64_t)i * 3 - (rand_r(&seed) % 50 == 0 ? rand_r(&seed) % 400 : 0);
			a[i] = pattern == 0   ? near
			       : pattern == 1 ? (int64_t)rand_r(&seed) - RAND_MAX / 2
			       : pattern == 2 ? (int64_t)(i / 100) - 50
					      : (int64_t)4294967296 * (i % 3 == 0) + near;
		}
		memcpy(b, a, n * sizeof(*a));
		sort_nearly_int64(a, n);
		sort_int64(b, n);
		CHECK(memcmp(a, b, n * sizeof(*a)) == 0);
	}
	free(a);
	free(b);
}

/* select_int64 gives the value of each rank a sort gives, and leaves no
 * larger value before it nor smaller after it: random values, few
 * distinct ones, all equal, in order, reversed and organ pipes (pivots
 * that miss the middle). */
static void check_select_int64(void)
{
	enum { N = 3000 };
	int64_t *v = xmalloc(N * sizeof(*v)), *sorted = xmalloc(N * sizeof(*v)), *w = xmalloc(N * sizeof(*v));
	unsigned seed = 9;
	for (int pattern = 0; pattern < 6; pattern++) {
		for (size_t n = 1; n <= N; n = n < 40 ? n + 1 : n * 3) {
			for (size_t i = 0; i < n; i++)
				v[i] = pattern == 0   ? (int64_t)rand_r(&seed) - RAND_MAX / 2
				       : pattern == 1 ? rand_r(&seed) % 3
				       : pattern == 2 ? 7
				       : pattern == 3 ? (int64_t)i
				       : pattern == 4 ? -(int64_t)i
						      : (int64_t)(i < n / 2 ? i : n - i);
			memcpy(sorted, v, n * sizeof(*v));
			sort_int64(sorted, n);
			for (size_t k = 0; k < n; k += 1 + n / 7) {
				memcpy(w, v, n * sizeof(*v));
				int64_t x = select_int64(w, n, k);
				CHECK_INT(x, sorted[k]);
				CHECK_INT(w[k], x);
				for (size_t i = 0; i < n; i++)
					CHECK(i < k ? w[i] <= x : w[i] >= x);
				sort_int64(w, n);
				CHECK(memcmp(w, sorted, n * sizeof(*w)) == 0);
			}
		}
	}
	free(v);
	free(sorted);
	free(w);
}

/* Rows with a start (the key) and an end: by start, the longer first, as
 * calls are ordered; equal rows (same start and end) are left to the
 * sort, whose choice the keyed one must make too. */
struct rows {
	const int64_t *start, *end;
};

static int by_start_longer(const void *ctx, uint32_t a, uint32_t b)
{
	const struct rows *r = ctx;
	if (r->start[a] != r->start[b])
		return r->start[a] < r->start[b] ? -1 : 1;
	return (r->end[a] < r->end[b]) - (r->end[a] > r->end[b]);
}

/* sort_nearly_keyed gives what sort_nearly gives, index for index: in
 * order, a few runs, ties on the key and on both columns, and past 64
 * runs (the general sort). */
static void check_keyed(void)
{
	enum { N = 20000 };
	int64_t *start = xmalloc(N * sizeof(*start)), *end = xmalloc(N * sizeof(*end));
	uint32_t *a = xmalloc(N * sizeof(*a)), *b = xmalloc(N * sizeof(*b));
	struct rows r = { start, end };
	uint64_t seed = 88172645463325252u;
	for (int pattern = 0; pattern < 4; pattern++) {
		int runs = pattern == 0 ? 1 : pattern == 1 ? 7 : pattern == 2 ? 64 : 300;
		for (size_t i = 0; i < N; i++) {
			seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
			/* Dealt into runs, starts repeat (a tenth of the range) and
			 * so do whole rows. */
			start[i] = (int64_t)(i % (size_t)runs) * 7 + (int64_t)(i / (size_t)runs) / 10 * 1000;
			end[i] = start[i] + (int64_t)(seed % 3);
			a[i] = b[i] = (uint32_t)i;
		}
		sort_nearly(a, N, by_start_longer, &r);
		sort_nearly_keyed(b, N, start, by_start_longer, &r);
		fprintf(stderr, "keyed, %d runs\n", runs);
		CHECK(memcmp(a, b, N * sizeof(*a)) == 0);
		for (size_t i = 1; i < N; i++)
			CHECK(by_start_longer(&r, b[i - 1], b[i]) <= 0);
	}
	free(start);
	free(end);
	free(a);
	free(b);
}

/* Ascending stretches of len values each, stretch k spanning
 * [k * shift, k * shift + span) with every value twice (ties):
 * sort_nearly gives the values in order, a permutation of the rows, and
 * when stable each tie in the rows' order (the stretches' merge). */
static void check_stretches(const char *what, size_t k, size_t len, int64_t shift, int64_t span, int stable)
{
	size_t n = k * len;
	int64_t *x = xmalloc(n * sizeof(*x));
	uint32_t *v = xmalloc(n * sizeof(*v));
	uint8_t *seen = xcalloc(n, 1);
	for (size_t i = 0; i < n; i++) {
		x[i] = (int64_t)(i / len) * shift + (int64_t)(i % len / 2 * 2) * span / (int64_t)len;
		v[i] = (uint32_t)i;
	}
	sort_nearly(v, n, by_value, x);
	fprintf(stderr, "stretches: %s\n", what);
	for (size_t i = 0; i < n && !check_failures; i++) {
		CHECK(v[i] < n && !seen[v[i]]);
		seen[v[i]] = 1;
		if (i > 0)
			CHECK(x[v[i - 1]] < x[v[i]] ||
			      (x[v[i - 1]] == x[v[i]] && (!stable || v[i - 1] < v[i])));
	}
	free(x);
	free(v);
	free(seen);
}

/* Post-order of a complete tree of the given depth and fan-out: each
 * node's start after its children's in the order, as calls are recorded
 * as they end. */
static void post_order(int64_t *x, uint32_t *v, size_t *n, int depth, int fan, int64_t *clock)
{
	int64_t start = (*clock)++;
	for (int c = 0; depth > 0 && c < fan; c++)
		post_order(x, v, n, depth - 1, fan, clock);
	x[*n] = start;
	v[*n] = (uint32_t)*n;
	(*n)++;
}

int main(void)
{
	enum { N = 20000 };
	int64_t *x = xmalloc(N * sizeof(*x));
	uint32_t *v = xmalloc(N * sizeof(*v));
	size_t n = 0;
	int64_t clock = 0;
	/* Nesting 6 deep: a run per level. */
	while (n + 2000 < N)
		post_order(x, v, &n, 6, 3, &clock);
	check_sorted("nested, recorded as they end", x, v, n, 0);
	/* Sorted already: one run. */
	for (size_t i = 0; i < N; i++)
		x[i] = (int64_t)i * 3, v[i] = (uint32_t)i;
	check_sorted("sorted", x, v, N, 0);
	/* Jitter: each a few places off, many equal values. */
	srand(5);
	for (size_t i = 0; i < N; i++)
		x[i] = (int64_t)i / 4 + rand() % 3, v[i] = (uint32_t)i;
	check_sorted("jitter and ties", x, v, N, 0);
	/* Backwards: a run each, far too many. */
	for (size_t i = 0; i < N; i++)
		x[i] = N - (int64_t)i, v[i] = (uint32_t)i;
	check_sorted("backwards", x, v, N, -1);
	/* Random values: refused too. */
	for (size_t i = 0; i < N; i++)
		x[i] = rand(), v[i] = (uint32_t)i;
	check_sorted("random", x, v, N, -1);
	/* Sixty-four interleaved runs are taken, sixty-five are not. */
	for (size_t i = 0; i < 64 * 10; i++)
		x[i] = (int64_t)(i % 64) * 1000 + (int64_t)(i / 64), v[i] = (uint32_t)i;
	/* Values of run r rise within it and lie below run r + 1's: dealt
	 * one after another they need a run each. */
	for (size_t i = 0; i < 64 * 10; i++)
		x[i] = (int64_t)(63 - i % 64) * 1000 + (int64_t)(i / 64);
	check_sorted("64 runs", x, v, 64 * 10, 0);
	for (size_t i = 0; i < 65 * 10; i++)
		x[i] = (int64_t)(64 - i % 65) * 1000 + (int64_t)(i / 65), v[i] = (uint32_t)i;
	check_sorted("65 runs", x, v, 65 * 10, -1);
	CHECK_INT(sort_by_runs(v, 0, by_value, x, 64), 0);
	CHECK_INT(sort_by_runs(v, 1, by_value, x, 64), 0);
	free(x);
	free(v);
	check_keyed();
	check_nearly_int64();
	check_select_int64();
	/* A trace recorded in blocks, each overlapping the next by half
	 * (merged one after another), or two blocks over the same time. */
	check_stretches("blocks overlapping their neighbours", 700, 300, 1000, 2000, 1);
	check_stretches("two blocks over the same time", 2, 20000, 0, 100000, 1);
	/* Each overlapping every other: past the merging's budget, left to
	 * the runs or the general sort (in order, ties in any order). */
	check_stretches("blocks over the same time", 300, 200, 1, 5000, 0);
	/* Stretches too short to merge one by one. */
	check_stretches("short stretches", 5000, 4, 3, 8, 0);
	return check_done();
}
