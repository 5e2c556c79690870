/* Instances found by a query (a pattern, a name, durations, a span of
 * time) on the generated trace, against a brute-force walk that judges
 * every event by itself and sorts with qsort. */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/search.h"
#include "check.h"
#include "demo/demo.h"
#include "session/select.h"
#include "util/search.h"
#include "util/xalloc.h"

static const struct trace *sort_trace;

/* Start, then ops before calls, then row: the order search_run promises. */
static int by_start(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int64_t sx = search_start(sort_trace, x), sy = search_start(sort_trace, y);
	if (sx != sy)
		return sx < sy ? -1 : 1;
	if (search_is_call(x) != search_is_call(y))
		return search_is_call(x) ? 1 : -1;
	return (x > y) - (x < y);
}

static int event_in(const struct search_query *q, int64_t s, int64_t e)
{
	if (q->has_duration && !(e - s >= q->min_duration && e - s < q->max_duration))
		return 0;
	if (!q->has_span)
		return 1;
	return e > s ? (s < q->to && e > q->from) : (s >= q->from && s < q->to);
}

static int name_in(const struct trace *t, const struct search_query *q, uint32_t id, int op)
{
	if (q->name != TRACE_NONE)
		return id == q->name;
	if (!q->pattern)
		return 1;
	const char *s = op && q->op_name ? q->op_name(q->ctx, id) : trace_str(t, id);
	return filter_passes(q->pattern, s, strlen(s));
}

/* Every event judged alone. */
static uint32_t *brute(const struct trace *t, const struct selection *sel, const struct search_query *q,
		       size_t *n, size_t *nops)
{
	uint32_t *v = xmalloc_array(t->ops.n + t->apis.n + 1, sizeof(*v));
	*n = 0;
	for (size_t i = 0; q->ops && i < t->ops.n; i++)
		if (selected_op(sel, i) && (!q->kernels_only || t->ops.kind[i] == OP_KERNEL) &&
		    event_in(q, t->ops.start[i], t->ops.end[i]) && name_in(t, q, t->ops.name[i], 1))
			v[(*n)++] = (uint32_t)i;
	*nops = *n;
	for (size_t i = 0; q->calls && i < t->apis.n; i++)
		if (selected_api(sel, i) && event_in(q, t->apis.start[i], t->apis.end[i]) &&
		    name_in(t, q, trace_api_shown_name(t, i), 0))
			v[(*n)++] = (uint32_t)i | SEARCH_CALL;
	sort_trace = t;
	qsort(v, *n, sizeof(*v), by_start);
	return v;
}

static int calls_to_name;

/* An op's shown name, upper-cased: a pattern in capitals matches only
 * through it. Counts its calls: once per distinct name. */
static const char *upper(void *ctx, uint32_t id)
{
	const struct trace *t = ctx;
	static char buf[4096];
	snprintf(buf, sizeof(buf), "%s", trace_str(t, id));
	for (char *p = buf; *p; p++)
		*p = (char)toupper((unsigned char)*p);
	calls_to_name++;
	return buf;
}

static void same(const struct trace *t, const struct selection *sel, const struct search_query *q,
		 const char *what)
{
	struct search_result r;
	size_t n, nops, cops, ccalls;
	uint32_t *want = brute(t, sel, q, &n, &nops);
	CHECK(search_run(t, sel, q, &r) == 0);
	CHECK(search_count(t, sel, q, &cops, &ccalls) == 0);
	if (r.n != n || memcmp(r.refs, want, n * sizeof(*want)) != 0)
		fprintf(stderr, "%s: %zu instances, %zu wanted\n", what, r.n, n);
	CHECK_INT(r.n, n);
	CHECK(r.n == n && memcmp(r.refs, want, n * sizeof(*want)) == 0);
	CHECK_INT(r.nops, nops);
	CHECK_INT(r.ncalls, n - nops);
	CHECK_INT(cops, nops);
	CHECK_INT(ccalls, n - nops);

	/* Next and previous from any time: the first starting after it, the
	 * last starting before it. */
	for (int k = 0; k < 200 && n > 0; k++) {
		int64_t lo = search_start(t, want[0]) - 10, hi = search_start(t, want[n - 1]) + 10;
		int64_t time =
			k < 100 ? lo + (hi - lo) * k / 100 : search_start(t, want[(size_t)k * 7919 % n]);
		size_t after = n, before = n;
		for (size_t i = 0; i < n; i++) {
			if (after == n && search_start(t, want[i]) > time)
				after = i;
			if (search_start(t, want[i]) < time)
				before = i;
		}
		CHECK_INT(search_next(t, &r, time, 1), after);
		CHECK_INT(search_next(t, &r, time, -1), before);
	}
	free(want);
	search_free(&r);
}

static void test_queries(const struct trace *t, const struct selection *sel)
{
	char err[256];
	struct filter f;
	filter_init(&f);
	CHECK(filter_push(&f, "copy|nccl|step", err, sizeof(err)) == 0);
	struct search_query q = search_query_all(1, 1);
	same(t, sel, &q, "everything");
	q.pattern = &f;
	same(t, sel, &q, "a pattern");
	q.ops = 0;
	same(t, sel, &q, "calls only");
	q.ops = 1;
	q.calls = 0;
	q.kernels_only = 1;
	same(t, sel, &q, "kernels only");
	q.kernels_only = 0;
	q.calls = 1;
	q.has_span = 1;
	q.from = t->op_first_start + (t->op_last_end - t->op_first_start) / 3;
	q.to = q.from + (t->op_last_end - t->op_first_start) / 5;
	same(t, sel, &q, "a span");
	q.has_duration = 1;
	q.min_duration = 2000;
	q.max_duration = 200000;
	same(t, sel, &q, "durations in a span");
	q.pattern = NULL;
	q.name = t->ops.name[t->ops.n / 2];
	q.has_span = 0;
	same(t, sel, &q, "one name");
	filter_free(&f);

	/* A leading ! keeps what does not match; capitals make it exact. */
	CHECK(filter_push(&f, "!Memcpy", err, sizeof(err)) == 0);
	q = search_query_all(1, 1);
	q.pattern = &f;
	same(t, sel, &q, "not matching");
	filter_free(&f);

	/* Ops by the name they are shown by, matched once per name. */
	CHECK(filter_push(&f, "GEMM|COPY", err, sizeof(err)) == 0);
	q = search_query_all(1, 0);
	q.pattern = &f;
	q.op_name = upper;
	q.ctx = (void *)t;
	same(t, sel, &q, "shown names");
	calls_to_name = 0;
	size_t nops, ncalls, names = 0;
	CHECK(search_count(t, sel, &q, &nops, &ncalls) == 0);
	CHECK(nops > 0);
	uint8_t *seen = xcalloc(t->strings.count, 1);
	for (size_t i = 0; i < t->ops.n; i++)
		if (selected_op(sel, i) && !seen[t->ops.name[i]]) {
			seen[t->ops.name[i]] = 1;
			names++;
		}
	CHECK_INT(calls_to_name, names);
	free(seen);
	filter_free(&f);
}

/* Longest first; equal durations keep their order by start. */
static void test_sorts(const struct trace *t)
{
	struct search_result r;
	struct search_query q = search_query_all(1, 1);
	CHECK(search_run(t, NULL, &q, &r) == 0);
	CHECK_INT(r.n, t->ops.n + t->apis.n);
	uint32_t *by_dur = xmalloc_array(r.n, sizeof(*by_dur));
	memcpy(by_dur, r.refs, r.n * sizeof(*by_dur));
	search_sort_by_duration(t, by_dur, r.n);
	int ordered = 1;
	size_t *place = xmalloc_array(t->ops.n + 1, sizeof(*place));
	size_t *cplace = xmalloc_array(t->apis.n + 1, sizeof(*cplace));
	for (size_t i = 0; i < r.n; i++) {
		uint32_t x = r.refs[i];
		(search_is_call(x) ? cplace : place)[search_row(x)] = i;
	}
	for (size_t i = 1; i < r.n; i++) {
		uint32_t a = by_dur[i - 1], b = by_dur[i];
		int64_t da = search_end(t, a) - search_start(t, a),
			db = search_end(t, b) - search_start(t, b);
		size_t pa = (search_is_call(a) ? cplace : place)[search_row(a)];
		size_t pb = (search_is_call(b) ? cplace : place)[search_row(b)];
		if (da < db || (da == db && pa > pb))
			ordered = 0;
	}
	CHECK(ordered);
	/* And back by start. */
	search_sort_by_start(t, by_dur, r.n);
	ordered = 1;
	for (size_t i = 1; i < r.n; i++)
		if (search_start(t, by_dur[i - 1]) > search_start(t, by_dur[i]))
			ordered = 0;
	CHECK(ordered);
	free(place);
	free(cplace);
	free(by_dur);
	search_free(&r);
}

/* search_from: from every place to start at, in sorted values with
 * runs of equal ones, the place lower_bound_i64 finds. */
struct at_least {
	const int64_t *v;
	int64_t x;
};

static int reaches(const void *ctx, size_t i)
{
	const struct at_least *a = ctx;
	return a->v[i] >= a->x;
}

static void test_search_from(void)
{
	enum { N = 300 };
	int64_t v[N];
	for (size_t i = 0; i < N; i++)
		v[i] = (int64_t)(i / 3) * 2 + (int64_t)(i / 90);
	for (int64_t x = -2; x < 2 * N / 3 + 3 && !check_failures; x++)
		for (size_t near = 0; near <= N + 2 && !check_failures; near += 1 + near / 40) {
			struct at_least a = { v, x };
			CHECK_INT(search_from(0, N, near, reaches, &a), lower_bound_i64(v, 0, N, x));
			CHECK_INT(search_from(50, 120, near, reaches, &a), lower_bound_i64(v, 50, 120, x));
		}
}

int main(void)
{
	test_search_from();
	struct trace t;
	struct gen_params p = { .seed = 11, .ops = 6000, .gpus = 2 };
	demo_trace_build(&t, &p);
	CHECK(t.apis.n > 0 && trace_api_texts(&t) > 0);

	test_queries(&t, NULL);
	/* In a selection: a filter and a window. */
	struct filter f;
	struct window w = { 1, t.op_first_start + (t.op_last_end - t.op_first_start) / 4,
			    t.op_first_start + (t.op_last_end - t.op_first_start) / 2 };
	char err[256];
	filter_init(&f);
	CHECK(filter_push(&f, "!barrier", err, sizeof(err)) == 0);
	struct selection sel;
	selection_build(&t, &f, &w, NULL, &sel);
	CHECK(sel.nops > 0 && sel.nops < t.ops.n);
	test_queries(&t, &sel);
	test_sorts(&t);
	selection_free(&sel);
	filter_free(&f);
	trace_free(&t);
	return check_done();
}
