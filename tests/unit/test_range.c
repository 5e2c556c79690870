/* Range statistics: by hand on a small trace whose ops straddle both
 * edges, then on the generated trace against a brute-force count (each
 * event judged alone, busy as the union of clipped intervals sorted with
 * qsort), and merged from two halves of the GPUs. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/range.h"
#include "check.h"
#include "demo/demo.h"
#include "util/xalloc.h"

static uint32_t s(struct trace *t, const char *str)
{
	return strtab_intern(&t->strings, str);
}

static const struct range_row *row_of(const struct range_part *p, uint32_t key)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->rows[i].key == key)
			return &p->rows[i];
	return NULL;
}

/* gpu 0 queue 0: a [0,100) b [150,170) a [180,300); queue 1: c [50,250).
 * gpu 1: d [90,95), a mark at 100, e [400,500). Calls on one thread: a
 * launch [80,120), a roctx range "step" [0,1000), a mark "tick" at 200. */
static void small(struct trace *t)
{
	trace_init(t);
	uint32_t in = trace_add_input(t, "a.rpd", INPUT_RPD, 2);
	uint32_t g0 = trace_gpu(t, in, 0), g1 = trace_gpu(t, in, 1);
	uint32_t q00 = trace_queue(t, g0, 0), q01 = trace_queue(t, g0, 1), q10 = trace_queue(t, g1, 0);
	uint32_t kx = s(t, "KernelExecution");
	trace_add_op(t, 1, 0, 100, s(t, "a"), kx, q00);
	trace_add_op(t, 2, 150, 170, s(t, "b"), kx, q00);
	trace_add_op(t, 3, 180, 300, s(t, "a"), kx, q00);
	trace_add_op(t, 4, 50, 250, s(t, "c"), kx, q01);
	trace_add_op(t, 5, 90, 95, s(t, "d"), kx, q10);
	trace_add_op(t, 6, 100, 100, s(t, "m"), kx, q10);
	trace_add_op(t, 7, 400, 500, s(t, "e"), kx, q10);
	uint32_t th = trace_thread(t, in, 1, 1), marker = s(t, TRACE_MARKER_NAME);
	trace_add_api(t, 1, 0, 1000, marker, s(t, "step"), th);
	trace_add_api(t, 2, 80, 120, s(t, "hipLaunchKernel"), TRACE_NONE, th);
	trace_add_api(t, 3, 200, 200, marker, s(t, "tick"), th);
	trace_finish(t);
}

static void test_small(void)
{
	struct trace t;
	struct range_stats r;
	small(&t);
	/* [100, 200): a's first ends at 100 (out), its second starts at 180
	 * (20 in); b 20; c 100; d is out; the mark at 100 is in, e out. */
	range_build(&t, NULL, 100, 200, &r);
	CHECK_INT(r.ops.n, 4);
	CHECK_STR(trace_str(&t, r.ops.rows[0].key), "c");
	CHECK_INT(r.ops.rows[0].time, 100);
	CHECK_INT(row_of(&r.ops, s(&t, "a"))->count, 1);
	CHECK_INT(row_of(&r.ops, s(&t, "a"))->time, 20);
	CHECK_INT(row_of(&r.ops, s(&t, "b"))->time, 20);
	CHECK_INT(row_of(&r.ops, s(&t, "m"))->count, 1);
	CHECK_INT(row_of(&r.ops, s(&t, "m"))->time, 0);
	CHECK(row_of(&r.ops, s(&t, "d")) == NULL);
	CHECK_INT(r.ops.count, 4);
	CHECK_INT(r.ops.time, 140);
	/* GPU 0 is busy all of it (c covers it); GPU 1 holds only the mark. */
	CHECK_INT(r.busy.n, 2);
	CHECK_INT(r.busy.rows[0].key, 0);
	CHECK_INT(r.busy.rows[0].count, 3);
	CHECK_INT(r.busy.rows[0].time, 100);
	CHECK_INT(r.busy.rows[1].time, 0);
	CHECK(range_share(&r, r.busy.rows[0].time) == 100.0);
	/* The launch 20 ns in; the range "step" the whole 100; "tick" at 200
	 * is not in [100, 200). */
	CHECK_INT(r.calls.n, 1);
	CHECK_INT(r.calls.rows[0].time, 20);
	CHECK_INT(r.markers.n, 1);
	CHECK_STR(trace_str(&t, r.markers.rows[0].key), "step");
	CHECK_INT(r.markers.rows[0].time, 100);
	range_free(&r);

	/* [60, 90): a 30, c 30; d starts at its end: out. GPU 0 busy 30 (a
	 * and c overlap: once). */
	range_build(&t, NULL, 60, 90, &r);
	CHECK_INT(r.ops.count, 2);
	CHECK_INT(r.ops.time, 60);
	CHECK_INT(r.busy.n, 1);
	CHECK_INT(r.busy.rows[0].time, 30);
	CHECK_INT(r.busy.time, 30);
	range_free(&r);
	trace_free(&t);
}

struct want_row {
	uint64_t count;
	int64_t time;
};

static int64_t clip(int64_t a, int64_t b, int64_t t0, int64_t t1)
{
	a = a > t0 ? a : t0;
	b = b < t1 ? b : t1;
	return b > a ? b - a : 0;
}

static int overlaps(int64_t a, int64_t b, int64_t t0, int64_t t1)
{
	return b > a ? a < t1 && b > t0 : a >= t0 && a < t1;
}

struct iv {
	int64_t a, b;
};

static int by_a(const void *x, const void *y)
{
	const struct iv *p = x, *q = y;
	return (p->a > q->a) - (p->a < q->a);
}

/* The rows a part should have, key by key. */
static void same_part(const struct range_part *got, const struct want_row *want, size_t keys,
		      const char *what)
{
	size_t n = 0;
	uint64_t count = 0;
	int64_t time = 0;
	int bad = 0;
	for (size_t k = 0; k < keys; k++) {
		if (!want[k].count)
			continue;
		n++;
		count += want[k].count;
		time += want[k].time;
		const struct range_row *r = row_of(got, (uint32_t)k);
		if (!r || r->count != want[k].count || r->time != want[k].time)
			bad = 1;
	}
	if (bad || got->n != n)
		fprintf(stderr, "%s: rows differ\n", what);
	CHECK(!bad);
	CHECK_INT(got->n, n);
	CHECK_INT(got->count, count);
	CHECK_INT(got->time, time);
}

static void brute(const struct trace *t, const struct selection *sel, int64_t t0, int64_t t1,
		  const struct range_stats *r)
{
	size_t keys = t->strings.count;
	struct want_row *ops = xcalloc(keys, sizeof(*ops)), *calls = xcalloc(keys, sizeof(*calls));
	struct want_row *marks = xcalloc(keys, sizeof(*marks)), *busy = xcalloc(t->ngpus, sizeof(*busy));
	struct iv *iv = xmalloc_array(t->ops.n + 1, sizeof(*iv));
	for (size_t i = 0; i < t->ops.n; i++) {
		int64_t a = t->ops.start[i], b = t->ops.end[i];
		if (!selected_op(sel, i) || !overlaps(a, b, t0, t1))
			continue;
		ops[t->ops.name[i]].count++;
		ops[t->ops.name[i]].time += clip(a, b, t0, t1);
	}
	for (uint32_t g = 0; g < t->ngpus; g++) {
		size_t n = 0;
		for (size_t i = 0; i < t->ops.n; i++)
			if (selected_op(sel, i) && trace_op_gpu(t, i) == g &&
			    overlaps(t->ops.start[i], t->ops.end[i], t0, t1)) {
				iv[n++] = (struct iv){ t->ops.start[i] > t0 ? t->ops.start[i] : t0,
						       t->ops.end[i] < t1 ? t->ops.end[i] : t1 };
			}
		qsort(iv, n, sizeof(*iv), by_a);
		busy[g].count = n;
		int64_t s0 = 0, e0 = 0;
		for (size_t k = 0; k < n; k++) {
			if (k == 0 || iv[k].a > e0) {
				busy[g].time += e0 - s0;
				s0 = iv[k].a;
				e0 = iv[k].b > iv[k].a ? iv[k].b : iv[k].a;
			} else if (iv[k].b > e0) {
				e0 = iv[k].b;
			}
		}
		busy[g].time += e0 - s0;
	}
	for (size_t i = 0; i < t->apis.n; i++) {
		int64_t a = t->apis.start[i], b = t->apis.end[i];
		if (!selected_api(sel, i) || !overlaps(a, b, t0, t1))
			continue;
		int marker = strcmp(trace_str(t, trace_api_name(t, i)), TRACE_MARKER_NAME) == 0;
		struct want_row *w = &(marker ? marks : calls)[trace_api_shown_name(t, i)];
		w->count++;
		w->time += clip(a, b, t0, t1);
	}
	same_part(&r->ops, ops, keys, "ops by name");
	same_part(&r->busy, busy, t->ngpus, "busy");
	same_part(&r->calls, calls, keys, "calls");
	same_part(&r->markers, marks, keys, "markers");
	free(ops);
	free(calls);
	free(marks);
	free(busy);
	free(iv);
}

static void test_generated(const struct trace *t, const struct selection *sel)
{
	int64_t span = t->op_last_end - t->op_first_start;
	for (int k = 0; k < 12; k++) {
		int64_t t0 = t->op_first_start - span / 20 + span * k / 11;
		int64_t t1 = t0 + (k % 3 == 0 ? span / 2000 + 1 : k % 3 == 1 ? span / 30 : span / 3);
		struct range_stats r;
		range_build(t, sel, t0, t1, &r);
		brute(t, sel, t0, t1, &r);
		CHECK(k == 0 || r.ops.count > 0);
		for (size_t i = 1; i < r.ops.n; i++)
			CHECK(r.ops.rows[i - 1].time >= r.ops.rows[i].time);
		range_free(&r);
	}
}

int main(void)
{
	test_small();
	struct trace t;
	struct gen_params p = { .seed = 3, .ops = 5000, .gpus = 3 };
	demo_trace_build(&t, &p);
	test_generated(&t, NULL);
	struct filter f;
	char err[256];
	filter_init(&f);
	CHECK(filter_push(&f, "!copy", err, sizeof(err)) == 0);
	struct selection sel;
	selection_build(&t, &f, &(struct window){ 0 }, NULL, &sel);
	test_generated(&t, &sel);
	selection_free(&sel);
	filter_free(&f);
	trace_free(&t);
	return check_done();
}
