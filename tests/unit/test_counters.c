/* Counter series: the index's answers (most in a span, value at a time,
 * range, level) against brute force over the samples themselves, on
 * random series with gaps, overlaps and samples without a duration; the
 * scales shared by a kind across GPUs; the trace's series kept per GPU
 * and counter, through a merge; sampled values held until the next;
 * copies' facts found by op. */
#include "config.h"

#include <stdlib.h>

#include "analysis/counters.h"
#include "check.h"
#include "trace/merge.h"
#include "trace/trace.h"

static uint64_t rng = 12345;

static uint64_t rnd(void)
{
	rng = rng * 6364136223846793005ull + 1442695040888963407ull;
	return rng >> 33;
}

/* A sample without a duration holds for 1 ns. */
static int64_t end_of(const struct trace_counters *c, size_t i)
{
	return c->end[i] > c->start[i] ? c->end[i] : c->start[i] + 1;
}

/* The most of the samples of series s overlapping [from, to). */
static int brute_max(const struct trace_counters *c, uint32_t s, int64_t from, int64_t to, double *v)
{
	int any = 0;
	for (size_t i = 0; i < c->n; i++) {
		if (c->of[i] != s || c->start[i] >= to || end_of(c, i) <= from)
			continue;
		if (!any || c->value[i] > *v)
			*v = c->value[i];
		any = 1;
	}
	return any;
}

static int brute_at(const struct trace_counters *c, uint32_t s, int64_t t, double *v)
{
	return brute_max(c, s, t, t + 1, v);
}

/* The least the series holds at any time: the value changes only where
 * a sample starts or ends, so those times are all to look at. */
static int brute_min(const struct trace_counters *c, uint32_t s, double *least)
{
	int any = 0;
	for (size_t i = 0; i < c->n; i++) {
		if (c->of[i] != s)
			continue;
		int64_t at[2] = { c->start[i], end_of(c, i) };
		for (int k = 0; k < 2; k++) {
			double v;
			if (brute_at(c, s, at[k], &v) && (!any || v < *least)) {
				*least = v;
				any = 1;
			}
		}
	}
	return any;
}

/* Three series: 0 steps with gaps (as rocpd_monitor's), 1 overlapping
 * spans (dispatches on several queues), 2 mostly instants; values drawn
 * from a few levels so that ties happen. */
static void random_series(struct trace *t, size_t n)
{
	trace_init(t);
	uint32_t in = trace_add_input(t, "a.rpd", INPUT_RPD, 2);
	uint32_t name = strtab_intern(&t->strings, "sclk");
	for (int s = 0; s < 3; s++)
		CHECK_INT(trace_counter_series(t, in, s, name, TRACE_NONE, COUNTER_MONITOR), s);
	int64_t at[3] = { 1000, 1000, 1000 };
	for (size_t i = 0; i < n; i++) {
		uint32_t s = (uint32_t)(rnd() % 3);
		int64_t len = s == 2 ? (rnd() % 4 == 0 ? 5 : 0) : (int64_t)(rnd() % 200);
		int64_t start =
			s == 1 ? at[s] + (int64_t)(rnd() % 300) - 150 : at[s] + (int64_t)(rnd() % 3) * 20;
		trace_add_counter(t, s, start, start + len, (double)(rnd() % 7) * 100.0);
		at[s] = s == 1 ? start : start + len;
	}
}

static void test_against_brute_force(void)
{
	struct trace t;
	random_series(&t, 3000);
	struct counter_index ix;
	counter_index_build(&t.counters, &ix);
	CHECK_INT(ix.nseries, 3);
	int64_t lo = 0, hi = 0;
	for (size_t i = 0; i < t.counters.n; i++)
		if (end_of(&t.counters, i) > hi)
			hi = end_of(&t.counters, i);
	lo = 900;
	int bad = 0;
	for (int k = 0; k < 20000 && bad < 5; k++) {
		uint32_t s = (uint32_t)(rnd() % 3);
		int64_t from = lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 200)) - 100;
		int64_t to = from + 1 + (int64_t)(rnd() % (k % 2 ? 50 : 5000));
		double a = -1, b = -1;
		int ga = counter_max(&ix, s, from, to, &a), gb = brute_max(&t.counters, s, from, to, &b);
		if (ga != gb || (ga && a != b)) {
			fprintf(stderr, "max of %u over [%lld, %lld): %d %g, brute %d %g\n", s,
				(long long)from, (long long)to, ga, a, gb, b);
			bad++;
		}
		ga = counter_at(&ix, s, from, &a);
		gb = brute_at(&t.counters, s, from, &b);
		if (ga != gb || (ga && a != b)) {
			fprintf(stderr, "value of %u at %lld: %d %g, brute %d %g\n", s, (long long)from, ga,
				a, gb, b);
			bad++;
		}
	}
	CHECK_INT(bad, 0);
	for (uint32_t s = 0; s < 3; s++) {
		double most = 0, least = 0;
		CHECK(brute_max(&t.counters, s, INT64_MIN / 2, INT64_MAX / 2, &most));
		CHECK(brute_min(&t.counters, s, &least));
		CHECK(ix.series[s].max == most);
		CHECK(ix.series[s].min == least);
		/* Steps never overlap and go by time. */
		for (size_t k = ix.series[s].first + 1; k < ix.series[s].first + ix.series[s].n; k++)
			CHECK(ix.start[k] >= ix.end[k - 1] && ix.end[k] > ix.start[k]);
	}
	counter_index_free(&ix);
	trace_free(&t);
}

/* Worked by hand: 800 over [0, 100), 1500 over [50, 80) on top of it, a
 * gap, 1200 at 200 (no duration). */
static void test_by_hand(void)
{
	struct trace t;
	trace_init(&t);
	uint32_t in = trace_add_input(&t, "a.rpd", INPUT_RPD, 2);
	uint32_t s = trace_counter_series(&t, in, 2, strtab_intern(&t.strings, "sclk"),
					  strtab_intern(&t.strings, "MHz"), COUNTER_MONITOR);
	trace_add_counter(&t, s, 0, 100, 800);
	trace_add_counter(&t, s, 50, 80, 1500);
	trace_add_counter(&t, s, 200, 200, 1200);
	struct counter_index ix;
	counter_index_build(&t.counters, &ix);
	/* Steps: 800 [0,50), 1500 [50,80), 800 [80,100), 1200 [200,201). */
	CHECK_INT(ix.series[0].n, 4);
	double v = 0;
	CHECK(counter_max(&ix, 0, 0, 50, &v) && v == 800);
	CHECK(counter_max(&ix, 0, 79, 81, &v) && v == 1500);
	CHECK(!counter_max(&ix, 0, 100, 200, &v));
	CHECK(counter_max(&ix, 0, 100, 201, &v) && v == 1200);
	CHECK(counter_at(&ix, 0, 80, &v) && v == 800);
	CHECK(!counter_at(&ix, 0, 150, &v));
	CHECK(counter_at(&ix, 0, 200, &v) && v == 1200);
	CHECK(!counter_at(&ix, 0, 201, &v));
	CHECK(ix.series[0].min == 800 && ix.series[0].max == 1500);
	/* Levels over its scale [0, 1500] in 8: 800 at (800 / 1500) * 8 =
	 * 4.27, 1500 the highest, 1200 at 6.4, 0 the lowest. */
	struct counter_scale sc;
	counter_scales(&t, &sc);
	CHECK(sc.lo == 0 && sc.hi == 1500);
	CHECK_INT(counter_level(&sc, 800, 8), 4);
	CHECK_INT(counter_level(&sc, 1500, 8), 7);
	CHECK_INT(counter_level(&sc, 1200, 8), 6);
	CHECK_INT(counter_level(&sc, 0, 8), 0);
	char buf[64];
	CHECK_STR(counter_scale_format(&sc, "MHz", buf, sizeof(buf)), "0-1500 MHz");
	CHECK_STR(counter_format(1615.0, "MHz", buf, sizeof(buf)), "1615 MHz");
	CHECK_STR(counter_format(0.123456, NULL, buf, sizeof(buf)), "0.1235");
	CHECK_STR(counter_format(123456789.0, "", buf, sizeof(buf)), "123456789");
	CHECK_STR(trace_counter_label(&t, 0, buf, sizeof(buf)), "GPU 2 sclk");
	counter_index_free(&ix);
	trace_free(&t);
}

/* A constant series stands at the top of its scale (from 0); one without
 * samples has no value anywhere. */
static void test_flat_and_empty(void)
{
	struct trace t;
	trace_init(&t);
	uint32_t in = trace_add_input(&t, "a.rpd", INPUT_RPD, 2);
	uint32_t name = strtab_intern(&t.strings, "mclk");
	uint32_t flat = trace_counter_series(&t, in, 0, name, TRACE_NONE, COUNTER_MONITOR);
	uint32_t empty = trace_counter_series(&t, in, 1, name, TRACE_NONE, COUNTER_MONITOR);
	trace_add_counter(&t, flat, 10, 20, 1600);
	trace_add_counter(&t, flat, 30, 40, 1600);
	struct counter_index ix;
	counter_index_build(&t.counters, &ix);
	struct counter_scale sc[2];
	counter_scales(&t, sc);
	CHECK_INT(counter_level(&sc[flat], 1600, 8), 7);
	/* Of one kind with the empty one: the same scale. */
	CHECK(sc[empty].lo == 0 && sc[empty].hi == 1600);
	double v;
	CHECK(!counter_max(&ix, empty, 0, 100, &v));
	CHECK(!counter_at(&ix, empty, 10, &v));
	CHECK(counter_max(&ix, flat, 0, 100, &v) && v == 1600);
	counter_index_free(&ix);
	trace_free(&t);
}

/* One scale per kind (name, unit, source) across GPUs: equal values
 * stand at equal levels whatever else each GPU reached; another kind has
 * its own; below 0 the scale starts at the least value; a percentage
 * reaches 100; the numbers in few characters. */
static void test_scales(void)
{
	struct trace t;
	trace_init(&t);
	uint32_t in = trace_add_input(&t, "a.rpd", INPUT_RPD, 2);
	uint32_t sclk = strtab_intern(&t.strings, "sclk"), mhz = strtab_intern(&t.strings, "MHz");
	uint32_t a = trace_counter_series(&t, in, 0, sclk, mhz, COUNTER_MONITOR);
	uint32_t b = trace_counter_series(&t, in, 1, sclk, mhz, COUNTER_MONITOR);
	uint32_t p = trace_counter_series(&t, in, 0, strtab_intern(&t.strings, "power"),
					  strtab_intern(&t.strings, "W"), COUNTER_MONITOR);
	uint32_t u = trace_counter_series(&t, in, 0, strtab_intern(&t.strings, "busy"),
					  strtab_intern(&t.strings, "%"), COUNTER_SAMPLED);
	uint32_t big =
		trace_counter_series(&t, in, 0, strtab_intern(&t.strings, "waves"), TRACE_NONE, COUNTER_PMC);
	trace_add_counter(&t, a, 0, 10, 132);
	trace_add_counter(&t, a, 10, 20, 2100);
	trace_add_counter(&t, b, 0, 20, 132);
	trace_add_counter(&t, p, 0, 10, -3);
	trace_add_counter(&t, p, 10, 20, 40);
	trace_add_counter(&t, u, 0, 10, 12.5);
	trace_add_counter(&t, big, 0, 10, 12500);
	struct counter_scale sc[5];
	counter_scales(&t, sc);
	CHECK(sc[a].lo == 0 && sc[a].hi == 2100 && sc[b].lo == 0 && sc[b].hi == 2100);
	CHECK_INT(counter_level(&sc[a], 132, 8), counter_level(&sc[b], 132, 8));
	CHECK_INT(counter_level(&sc[b], 132, 8), 0);
	CHECK(sc[p].lo == -3 && sc[p].hi == 40);
	CHECK(sc[u].lo == 0 && sc[u].hi == 100);
	char buf[64];
	CHECK_STR(counter_scale_format(&sc[a], "MHz", buf, sizeof(buf)), "0-2100 MHz");
	CHECK_STR(counter_scale_format(&sc[p], "W", buf, sizeof(buf)), "-3..40 W");
	CHECK_STR(counter_scale_format(&sc[u], "%", buf, sizeof(buf)), "0-100 %");
	CHECK_STR(counter_scale_format(&sc[big], NULL, buf, sizeof(buf)), "0-12.5k");
	struct counter_scale huge = { 0, 123456789 };
	CHECK_STR(counter_scale_format(&huge, "B", buf, sizeof(buf)), "0-123.5M B");
	trace_free(&t);
}

/* Series are per GPU and counter: two inputs of one node recording the
 * same clock add to one series; another node's GPU 0 is another GPU.
 * Merged traces keep them so. */
static void test_series_and_merge(void)
{
	struct trace a, b, m;
	trace_init(&a);
	a.same_node = 1;
	uint32_t i0 = trace_add_input(&a, "r0.rpd", INPUT_RPD, 2),
		 i1 = trace_add_input(&a, "r1.rpd", INPUT_RPD, 2);
	uint32_t sclk = strtab_intern(&a.strings, "sclk"), mhz = strtab_intern(&a.strings, "MHz");
	uint32_t s0 = trace_counter_series(&a, i0, 0, sclk, TRACE_NONE, COUNTER_MONITOR);
	CHECK_INT(trace_counter_series(&a, i1, 0, sclk, mhz, COUNTER_MONITOR), s0);
	CHECK_INT(a.counters.series[s0].unit, mhz); /* the unit one input knew */
	CHECK_INT(trace_counter_series(&a, i1, 0, sclk, mhz, COUNTER_SAMPLED), 1);
	trace_add_counter(&a, s0, 0, 10, 100);
	trace_add_counter(&a, 1, 5, 6, 7);
	trace_init(&b);
	uint32_t j = trace_add_input(&b, "other.rpd", INPUT_RPD, 2);
	trace_input_set_node(&b, j, "node-b");
	uint32_t t0 = trace_counter_series(&b, j, 0, strtab_intern(&b.strings, "sclk"), TRACE_NONE,
					   COUNTER_MONITOR);
	trace_add_counter(&b, t0, 20, 30, 200);
	trace_init(&m);
	m.same_node = 1;
	trace_merge(&m, &a, NULL);
	trace_merge(&m, &b, NULL);
	CHECK_INT(m.counters.nseries, 3);
	CHECK_INT(m.counters.n, 3);
	char buf[96];
	CHECK_STR(trace_counter_label(&m, 1, buf, sizeof(buf)), "GPU 0 sclk (sampled)");
	CHECK_STR(trace_str(&m, m.counters.series[2].name), "sclk");
	CHECK(m.counters.series[2].domain != m.counters.series[0].domain);
	CHECK_INT(m.counters.of[2], 2);
	CHECK(m.counters.value[2] == 200);
	trace_free(&a);
	trace_free(&b);
	trace_free(&m);
}

/* Sampled values hold until the next of their series, the last for 1 ns;
 * other series' samples are left as they are. */
static void test_hold(void)
{
	struct trace t;
	trace_init(&t);
	uint32_t in = trace_add_input(&t, "x.db", INPUT_ROCPD, 3), name = strtab_intern(&t.strings, "SQ");
	uint32_t a = trace_counter_series(&t, in, 0, name, TRACE_NONE, COUNTER_SAMPLED);
	uint32_t b = trace_counter_series(&t, in, 1, name, TRACE_NONE, COUNTER_SAMPLED);
	uint32_t p = trace_counter_series(&t, in, 0, name, TRACE_NONE, COUNTER_PMC);
	trace_add_counter(&t, a, 30, 30, 3);
	trace_add_counter(&t, b, 15, 15, 9);
	trace_add_counter(&t, a, 10, 10, 1);
	trace_add_counter(&t, p, 12, 18, 5);
	trace_add_counter(&t, a, 20, 20, 2);
	trace_counters_hold(&t.counters, 0);
	CHECK_INT(t.counters.end[0], 31); /* the last of a */
	CHECK_INT(t.counters.end[1], 16); /* b's only one */
	CHECK_INT(t.counters.end[2], 20);
	CHECK_INT(t.counters.end[3], 18); /* not sampled */
	CHECK_INT(t.counters.end[4], 30);
	trace_free(&t);
}

/* A copy's facts by op: sorted, the first of repeats kept, merged with op
 * rows and strings mapped. */
static void test_copies(void)
{
	struct trace t, m;
	trace_init(&t);
	uint32_t x = strtab_intern(&t.strings, "0x10"), y = strtab_intern(&t.strings, "0x20");
	trace_add_copy(&t, 7, 700, x, y);
	trace_add_copy(&t, 2, 200, TRACE_NONE, TRACE_NONE);
	trace_add_copy(&t, 7, 701, y, x);
	CHECK_INT(trace_copy_find(&t.copies, 7), TRACE_NONE); /* not sorted yet */
	trace_copies_sort(&t.copies);
	CHECK_INT(t.copies.n, 2);
	uint32_t k = trace_copy_find(&t.copies, 7);
	CHECK(k != TRACE_NONE && t.copies.bytes[k] == 700 && t.copies.src[k] == x);
	CHECK_INT(trace_copy_find(&t.copies, 3), TRACE_NONE);
	trace_init(&m);
	strtab_intern(&m.strings, "other");
	size_t op[8] = { SIZE_MAX, SIZE_MAX, 0, SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX, 1 };
	uint32_t *str = calloc(t.strings.count, sizeof(*str));
	for (uint32_t i = 0; i < t.strings.count; i++)
		str[i] = strtab_intern(&m.strings, strtab_get(&t.strings, i));
	trace_copies_merge(&m, &t.copies, op, str);
	free(str);
	trace_copies_sort(&m.copies);
	k = trace_copy_find(&m.copies, 1);
	CHECK(k != TRACE_NONE && m.copies.bytes[k] == 700);
	CHECK_STR(trace_str(&m, m.copies.dst[k]), "0x20");
	trace_free(&t);
	trace_free(&m);
}

int main(void)
{
	test_hold();
	test_copies();
	test_by_hand();
	test_flat_and_empty();
	test_scales();
	test_against_brute_force();
	test_series_and_merge();
	return check_done();
}
