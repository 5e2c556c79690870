/* The mergeable statistic of durations: exact below the limit, within
 * its bound above it against a sort, and the same however the durations
 * are split, merged and sent as bytes. */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "analysis/durstat.h"
#include "analysis/histogram.h"
#include "check.h"
#include "util/sort.h"

static uint64_t rng = 88172645463325252ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Durations of a few shapes: uniform, log-uniform over 1 ns .. 2^40 ns,
 * a few values repeated, and some negative (ops ending before they start). */
static int64_t draw(int shape)
{
	switch (shape) {
	case 0:
		return (int64_t)(next() % 1000000);
	case 1:
		return (int64_t)(next() >> (24 + next() % 40));
	case 2:
		return 1000 + (int64_t)(next() % 3) * 7;
	default:
		return (int64_t)(next() % 2000000) - 1000000;
	}
}

/* Through bytes and back, as a partial travels. */
static void roundtrip(struct durstat *s)
{
	struct bytes_out out = { 0 };
	struct bytes_in in;
	struct durstat back;
	durstat_encode(s, &out);
	bytes_in_init(&in, out.p, out.n);
	CHECK(durstat_decode(&back, &in) == 0);
	CHECK(in.at == out.n);
	durstat_free(s);
	*s = back;
	free(out.p);
}

static const unsigned pcts[] = { 0, 1, 50, 90, 99, 100 };

/* One shape and size: the whole against a sort, and a split into parts
 * merged in another order equal to the whole. */
static void check_shape(int shape, size_t n, size_t parts)
{
	int64_t *v = malloc(n * sizeof(*v));
	struct durstat whole, merged, *part = calloc(parts, sizeof(*part));
	durstat_init(&whole);
	durstat_init(&merged);
	for (size_t p = 0; p < parts; p++)
		durstat_init(&part[p]);
	long double sum = 0;
	for (size_t i = 0; i < n; i++) {
		v[i] = draw(shape);
		sum += (long double)v[i];
		durstat_add(&whole, v[i]);
		durstat_add(&part[next() % parts], v[i]);
	}
	for (size_t p = parts; p-- > 0;) {
		roundtrip(&part[p]);
		durstat_merge(&merged, &part[p]);
	}
	durstat_finish(&whole);
	durstat_finish(&merged);
	sort_int64(v, n);
	CHECK_INT(whole.n, n);
	CHECK_INT(whole.min, v[0]);
	CHECK_INT(whole.max, v[n - 1]);
	CHECK(durstat_exact(&whole) == (n <= DURSTAT_EXACT_MAX));
	long double mean = sum / (long double)n, m2 = 0;
	for (size_t i = 0; i < n; i++)
		m2 += ((long double)v[i] - mean) * ((long double)v[i] - mean);
	CHECK(fabsl(sqrtl(m2 / (long double)n) - (long double)durstat_std(&whole)) <= 1.0L);
	for (size_t k = 0; k < sizeof(pcts) / sizeof(pcts[0]); k++) {
		int64_t exact = percentile_nearest_rank(v, n, pcts[k]),
			got = durstat_percentile(&whole, pcts[k]);
		double bound = ldexp(1.0, -(DURSTAT_BITS + 1)) * fabs((double)exact);
		if (durstat_exact(&whole))
			CHECK_INT(got, exact);
		else if (fabs((double)got - (double)exact) > bound) {
			fprintf(stderr, "shape %d n %zu p%u: %lld against %lld\n", shape, n, pcts[k],
				(long long)got, (long long)exact);
			CHECK(0);
		}
		CHECK_INT(durstat_percentile(&merged, pcts[k]), got);
	}
	CHECK_INT(durstat_std(&merged), durstat_std(&whole));
	CHECK_INT(durstat_avg(&merged), durstat_avg(&whole));
	CHECK_INT(durstat_excess(&merged), durstat_excess(&whole));
	CHECK_INT(merged.min, whole.min);
	CHECK_INT(merged.max, whole.max);
	for (size_t p = 0; p < parts; p++)
		durstat_free(&part[p]);
	free(part);
	durstat_free(&whole);
	durstat_free(&merged);
	free(v);
}

/* The extremes of the range: sums and squares never overflow. */
static void check_extremes(void)
{
	struct durstat s;
	durstat_init(&s);
	for (int i = 0; i < 5000; i++)
		durstat_add(&s, i % 2 ? INT64_MAX : INT64_MIN);
	durstat_finish(&s);
	CHECK_INT(durstat_avg(&s), -1 + 1); /* (2500 * MAX + 2500 * MIN) / 5000 rounds to 0 */
	CHECK(durstat_std(&s) == INT64_MAX || durstat_std(&s) > (int64_t)9.2e18);
	CHECK_INT(durstat_percentile(&s, 0), INT64_MIN);
	CHECK_INT(durstat_percentile(&s, 100), INT64_MAX);
	CHECK_INT(durstat_excess(&s), INT64_MAX);
	durstat_free(&s);
}

/* A damaged partial is refused, not read past its end. */
static void check_damaged(void)
{
	struct durstat s, back;
	struct bytes_out out = { 0 };
	struct bytes_in in;
	durstat_init(&s);
	for (int i = 0; i < 5000; i++)
		durstat_add(&s, i);
	durstat_encode(&s, &out);
	for (size_t cut = 0; cut < out.n; cut += 97) {
		bytes_in_init(&in, out.p, cut);
		CHECK(durstat_decode(&back, &in) == -1);
		durstat_free(&back);
	}
	free(out.p);
	durstat_free(&s);
}

/* The viewer's details of a name show top's percentiles, past the limit
 * too. */
static void check_details(void)
{
	size_t n = 3 * DURSTAT_EXACT_MAX;
	int64_t *v = malloc(n * sizeof(*v));
	struct durstat s;
	struct histogram h;
	durstat_init(&s);
	for (size_t i = 0; i < n; i++) {
		v[i] = draw(1);
		durstat_add(&s, v[i]);
	}
	sort_int64(v, n);
	durstat_finish(&s);
	histogram_build(v, n, 20, &h);
	CHECK_INT(h.median, durstat_percentile(&s, 50));
	CHECK_INT(h.p90, durstat_percentile(&s, 90));
	CHECK_INT(h.p99, durstat_percentile(&s, 99));
	durstat_free(&s);
	free(v);
}

int main(void)
{
	const size_t sizes[] = { 1, 7, 100, DURSTAT_EXACT_MAX, DURSTAT_EXACT_MAX + 1, 20000, 100000 };
	for (int shape = 0; shape < 4; shape++)
		for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++)
			check_shape(shape, sizes[k], 1 + (size_t)(next() % 9));
	check_extremes();
	check_damaged();
	check_details();
	return check_done();
}
