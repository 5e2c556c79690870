/* The model and the analyses on small hand-made traces whose answers are
 * worked out by hand in the comments. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "analysis/breakdown.h"
#include "analysis/busy.h"
#include "analysis/gaps.h"
#include "analysis/graphs.h"
#include "analysis/lane_ops.h"
#include "analysis/markers.h"
#include "analysis/profile.h"
#include "analysis/timeline.h"
#include "check.h"
#include "trace/trace.h"
#include "util/satmath.h"
#include "util/threads.h"

static uint32_t s(struct trace *t, const char *str)
{
	return strtab_intern(&t->strings, str);
}

/* gpu 0: queue 0 runs gemm [0,100) and add [150,170); queue 1 runs an
 * all-reduce [50,250) that overlaps both. gpu 1: a copy [100,140), a
 * barrier [140,141) and a fill [300,310) with no description. */
static void build(struct trace *t)
{
	trace_init(t);
	uint32_t in = trace_add_input(t, "a.rpd", INPUT_RPD, 2);
	uint32_t g0 = trace_gpu(t, in, 0), g1 = trace_gpu(t, in, 1);
	uint32_t q00 = trace_queue(t, g0, 0), q01 = trace_queue(t, g0, 1);
	uint32_t q10 = trace_queue(t, g1, 0);
	uint32_t kx = s(t, "KernelExecution");
	trace_add_op(t, 1, 0, 100, s(t, "gemm"), kx, q00);
	trace_add_op(t, 2, 150, 170, s(t, "add"), kx, q00);
	trace_add_op(t, 3, 50, 250, s(t, "allreduce"), kx, q01);
	trace_add_op(t, 4, 100, 140, s(t, ""), s(t, "CopyHostToDevice"), q10);
	trace_add_op(t, 5, 140, 141, s(t, ""), s(t, "BarrierAnd"), q10);
	trace_add_op(t, 6, 300, 310, s(t, ""), s(t, "FillBuffer"), q10);
	trace_add_op(t, 7, 180, 190, s(t, "add"), kx, q00);
	uint32_t th = trace_thread(t, in, 10, 11);
	uint32_t launch = trace_add_api(t, 100, -10, -5, s(t, "hipLaunchKernel"), 0, th);
	trace_add_link(t, launch, 0);
	trace_finish(t);
}

static void test_model(void)
{
	struct trace t;
	build(&t);
	CHECK_INT(t.ops.n, 7);
	CHECK_INT(t.ngpus, 2);
	CHECK_INT(t.nqueues, 3);
	CHECK_INT(trace_queue(&t, 0, 1), 1); /* existing lane is found */
	CHECK_INT(t.ops.kind[0], OP_KERNEL);
	CHECK_INT(t.ops.kind[3], OP_COPY);
	CHECK_INT(t.ops.kind[4], OP_BARRIER);
	CHECK_INT(t.ops.kind[5], OP_OTHER);
	CHECK_STR(trace_str(&t, t.ops.name[3]), "CopyHostToDevice");
	CHECK_STR(trace_str(&t, t.ops.name[0]), "gemm");
	CHECK_INT(t.op_launch[0], 0);
	CHECK_INT(t.op_launch[1], TRACE_NONE);
	CHECK_INT(t.op_first_start, 0);
	CHECK_INT(t.op_last_end, 310);
	char buf[64];
	CHECK_STR(trace_gpu_label(&t, 1, buf, sizeof(buf)), "1");
	trace_add_input(&t, "/x/b.rpd", INPUT_RPD, 2);
	uint32_t other = trace_gpu(&t, 1, 1);
	CHECK(other != 1); /* gpu 1 of another input is another GPU */
	CHECK_STR(trace_gpu_label(&t, other, buf, sizeof(buf)), "b.rpd:1");
	trace_free(&t);
}

static void test_profile(void)
{
	struct trace t;
	struct profile p;
	build(&t);
	profile_by_name(&t, PROFILE_ALL_OPS, NULL, &p);
	/* allreduce 200, gemm 100, CopyHostToDevice 40, add 30 (20 + 10),
	 * FillBuffer 10, BarrierAnd 1: total 381. */
	CHECK_INT(p.n, 6);
	CHECK_INT(p.total, 381);
	CHECK_INT(p.calls, 7);
	CHECK_STR(trace_str(&t, p.rows[0].name), "allreduce");
	CHECK_STR(trace_str(&t, p.rows[1].name), "gemm");
	CHECK_STR(trace_str(&t, p.rows[2].name), "CopyHostToDevice");
	CHECK_STR(trace_str(&t, p.rows[3].name), "add");
	CHECK_INT(p.rows[3].calls, 2);
	CHECK_INT(p.rows[3].total, 30);
	CHECK_INT(p.rows[3].min, 10);
	CHECK_INT(p.rows[3].max, 20);
	CHECK_INT(profile_row_avg(&p.rows[3]), 15);
	CHECK_STR(trace_str(&t, p.rows[4].name), "FillBuffer");
	CHECK(profile_row_percent(&p, &p.rows[0]) > 52.49 && profile_row_percent(&p, &p.rows[0]) < 52.50);
	profile_free(&p);

	profile_by_name(&t, PROFILE_KERNELS, NULL, &p);
	CHECK_INT(p.n, 3); /* allreduce, gemm, add */
	CHECK_INT(p.total, 330);
	CHECK_STR(trace_str(&t, p.rows[2].name), "add");
	profile_free(&p);
	trace_free(&t);
}

/* Past a million ops the profile is summed in two halves on two threads
 * and merged: the same rows, statistics and order as on one thread,
 * names first met in either half, a name past the exact durations' limit
 * in both (its percentiles from the sketch), an extreme in the later. */
static void test_profile_halves(void)
{
	enum { N = 1200000 };
	struct trace t;
	struct profile one, two;
	trace_init(&t);
	uint32_t in = trace_add_input(&t, "a.rpd", INPUT_RPD, 2);
	uint32_t q = trace_queue(&t, trace_gpu(&t, in, 0), 0), kx = s(&t, "KernelExecution");
	uint32_t name[40];
	char buf[16];
	for (int k = 0; k < 40; k++) {
		snprintf(buf, sizeof(buf), "k%d", k);
		name[k] = s(&t, buf);
	}
	uint64_t x = 88172645463325252u;
	for (int64_t i = 0; i < N; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		/* Names 30-39 only in the later half, 20-29 rare. */
		int k = i < N / 2 ? (int)(x % 30) : (int)(x % 40);
		if (k >= 20 && k < 30 && (x >> 20) % 1000 != 0)
			k -= 20;
		int64_t d = (int64_t)(x >> 40) % 5000 + (i == N - 3 ? 10000000 : 0);
		trace_add_op(&t, i + 1, i * 10, i * 10 + d, name[k], kx, q);
	}
	trace_finish(&t);
	threads_set_limit(1);
	profile_by_name(&t, PROFILE_ALL_OPS, NULL, &one);
	threads_set_limit(2);
	profile_by_name(&t, PROFILE_ALL_OPS, NULL, &two);
	threads_set_limit(0);
	CHECK_INT(two.n, 40);
	CHECK_INT(one.n, two.n);
	CHECK_INT(one.calls, two.calls);
	CHECK_INT(one.total, two.total);
	for (size_t i = 0; i < one.n && i < two.n; i++) {
		const struct profile_row *a = &one.rows[i], *b = &two.rows[i];
		CHECK_INT(a->name, b->name);
		CHECK_INT(a->calls, b->calls);
		CHECK_INT(a->total, b->total);
		CHECK_INT(a->min, b->min);
		CHECK_INT(a->max, b->max);
		CHECK_INT(a->std, b->std);
		CHECK_INT(a->p50, b->p50);
		CHECK_INT(a->p90, b->p90);
		CHECK_INT(a->p99, b->p99);
		CHECK_INT(a->var, b->var);
	}
	profile_free(&one);
	profile_free(&two);
	trace_free(&t);
}

static void test_busy(void)
{
	struct trace t;
	struct busy b;
	build(&t);
	busy_per_gpu(&t, NULL, &b);
	CHECK_INT(b.n, 2);
	CHECK_INT(b.wall, 310);
	/* gpu 0: union of [0,100) [50,250) [150,170) [180,190) = [0,250). */
	CHECK_INT(b.rows[0].ops, 4);
	CHECK_INT(b.rows[0].sum, 330);
	CHECK_INT(b.rows[0].busy, 250);
	/* gpu 1: [100,140) [140,141) [300,310) = 51. */
	CHECK_INT(b.rows[1].busy, 51);
	CHECK_INT(b.rows[1].sum, 51);
	double pct = busy_row_percent(&b, &b.rows[0]);
	CHECK(pct > 80.64 && pct < 80.65);
	busy_free(&b);
	trace_free(&t);
}

/* A queue whose ops are not in start order, and a gap between queues:
 * [300,400) [100,200) on queue 0, [150,250) on queue 1 -> 250 busy. */
static void test_busy_unsorted(void)
{
	struct trace t;
	struct busy b;
	trace_init(&t);
	uint32_t in = trace_add_input(&t, "u.rpd", INPUT_RPD, 2);
	uint32_t g = trace_gpu(&t, in, 3);
	uint32_t q0 = trace_queue(&t, g, 0), q1 = trace_queue(&t, g, 1);
	uint32_t k = s(&t, "k"), kx = s(&t, "KernelExecution");
	trace_add_op(&t, 1, 300, 400, k, kx, q0);
	trace_add_op(&t, 2, 100, 200, k, kx, q0);
	trace_add_op(&t, 3, 150, 250, k, kx, q1);
	trace_finish(&t);
	busy_per_gpu(&t, NULL, &b);
	CHECK_INT(b.n, 1);
	CHECK_INT(b.rows[0].busy, 250);
	CHECK_INT(b.rows[0].sum, 300);
	CHECK_INT(b.wall, 300);
	busy_free(&b);
	trace_free(&t);
}

/* Busy time of [a, b) on a lane, by brute force over its rows. */
static int64_t busy_brute(const struct trace *t, const struct tl_lane *l, int64_t a, int64_t b)
{
	int64_t sum = 0;
	for (size_t k = 0; k < l->n; k++) {
		int64_t s0 = timeline_start(l, k), e0 = timeline_end(l, k);
		int64_t from = s0 > a ? s0 : a, to = e0 < b ? e0 : b;
		if (to > from)
			sum += to - from;
	}
	(void)t;
	return sum > b - a ? b - a : sum;
}

static size_t at_brute(const struct tl_lane *l, int64_t time)
{
	size_t k = 0;
	while (k < l->n && timeline_start(l, k) <= time)
		k++;
	return k > 0 && timeline_end(l, k - 1) > time ? k - 1 : k;
}

/* The row under a cursor, as timeline_under defines it. */
static size_t under_brute(const struct tl_lane *l, int64_t time, int64_t from, int64_t to)
{
	size_t upto = 0;
	while (upto < l->n && timeline_start(l, upto) <= time)
		upto++;
	if (upto > 0 && timeline_end(l, upto - 1) > time)
		return upto - 1;
	for (size_t k = 0; k < l->n; k++)
		if (timeline_start(l, k) == time)
			return k;
	for (size_t k = 0; k < l->n; k++)
		if (timeline_end(l, k) == timeline_start(l, k) && timeline_start(l, k) >= from &&
		    timeline_start(l, k) < to)
			return k;
	return l->n;
}

static size_t before_brute(const struct tl_lane *l, int64_t time)
{
	size_t k = 0;
	while (k < l->n && timeline_start(l, k) < time)
		k++;
	return k;
}

/* Queue 0: 1000 ops 1 us apart, a few recorded out of order. Queue 1:
 * 600 ops 10 s apart (a prefix of their lengths is summed over rows far
 * apart). A thread: one call around 50 nested
 * ones recorded before it, and 20 marks (calls without a duration)
 * between them. Every busy time and row lookup agrees with brute force. */
static void test_timeline(void)
{
	struct trace t;
	struct timeline tl;
	trace_init(&t);
	uint32_t in = trace_add_input(&t, "t.rpd", INPUT_RPD, 2);
	uint32_t g = trace_gpu(&t, in, 0);
	uint32_t q0 = trace_queue(&t, g, 0), q1 = trace_queue(&t, g, 1);
	uint32_t k = s(&t, "k"), kx = s(&t, "KernelExecution");
	int64_t id = 1;
	for (int64_t i = 0; i < 1000; i++) {
		int64_t at = (i % 97 == 5 ? i + 3 : i % 97 == 8 ? i - 3 : i) * 1000;
		trace_add_op(&t, id++, at, at + 600, k, kx, q0);
	}
	for (int64_t i = 0; i < 600; i++)
		trace_add_op(&t, id++, i * 10000000000LL, i * 10000000000LL + 5, k, kx, q1);
	uint32_t th = trace_thread(&t, in, 1, 1);
	for (int64_t i = 0; i < 50; i++)
		trace_add_api(&t, id++, 100 + i * 1000, 200 + i * 1000, s(&t, "inner"), 0, th);
	for (int64_t i = 0; i < 20; i++)
		trace_add_api(&t, id++, 500 + i * 1000, 500 + i * 1000, s(&t, "mark"), 0, th);
	trace_add_api(&t, id++, 0, 60000, s(&t, "outer"), 0, th);
	trace_finish(&t);
	timeline_build(&t, NULL, &tl);
	CHECK_INT(tl.nlanes, 4);
	for (size_t i = 0; i < tl.nlanes && !check_failures; i++) {
		const struct tl_lane *l = &tl.lanes[i];
		for (size_t b = 0; b << TL_BLOCK_BITS < l->n; b++)
			CHECK_INT(l->block_start[b], timeline_start(l, b << TL_BLOCK_BITS));
		for (size_t r = 1; r < l->n; r++)
			CHECK(timeline_start(l, r - 1) <= timeline_start(l, r));
		uint64_t seed = 11;
		int64_t span = timeline_start(l, l->n - 1) + 1000;
		for (int n = 0; n < 2000 && !check_failures; n++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			int64_t a = (int64_t)((seed >> 16) % (uint64_t)span);
			int64_t w = 1 + (int64_t)((seed >> 8) % (uint64_t)(n % 2 ? 3000 : span));
			CHECK_INT(timeline_busy(l, a, a + w), busy_brute(&t, l, a, a + w));
			CHECK_INT(timeline_at(l, a), at_brute(l, a));
			CHECK_INT(timeline_under(l, a, a - w / 2, a + w),
				  under_brute(l, a, a - w / 2, a + w));
			CHECK_INT(timeline_before(l, a), before_brute(l, a));
		}
		/* A frame's columns at once equal the columns one by one. */
		for (int z = 0; z < 6 && !check_failures; z++) {
			int64_t dt = 1 + span / (1 << (3 * z)) / 40, from = (span / 7) * (z % 3) - dt / 3;
			uint32_t dom[40], inst[40];
			int64_t busy[40];
			timeline_columns(l, from, dt, 40, dom, busy, inst);
			for (int c = 0; c < 40; c++) {
				int64_t a = from + c * dt;
				CHECK_INT(dom[c], timeline_dominant(l, a, a + dt));
				CHECK_INT(busy[c], timeline_busy(l, a, a + dt));
				CHECK_INT(inst[c], timeline_instant(l, a, a + dt));
			}
		}
		/* Exactly at each row's start: that row or one starting there. */
		for (size_t r = 0; r < l->n; r++)
			CHECK_INT(timeline_start(l, timeline_under(l, timeline_start(l, r), 0, 0)),
				  timeline_start(l, r));
	}
	/* The outer call alone on depth 0, the nested ones on depth 1. */
	CHECK_INT(tl.lanes[2].kind, TL_CPU);
	CHECK_INT(tl.lanes[2].n, 1);
	CHECK_INT(tl.lanes[3].depth, 1);
	CHECK_INT(tl.lanes[3].n, 70);
	/* A mark under the cursor at its time, and anywhere in its column;
	 * a call starting in the column is not (it has a length to be under
	 * the cursor in). */
	const struct tl_lane *marks = &tl.lanes[3];
	size_t m = timeline_under(marks, 1500, 1500, 1501);
	CHECK(m < marks->n && timeline_start(marks, m) == 1500 && timeline_end(marks, m) == 1500);
	m = timeline_under(marks, 1450, 1400, 1600);
	CHECK(m < marks->n && timeline_start(marks, m) == 1500);
	CHECK_INT(timeline_under(marks, 1450, 1400, 1500), marks->n);
	CHECK_INT(timeline_under(marks, 1050, 1000, 1150), marks->n);
	timeline_free(&tl);
	trace_free(&t);
}

/* Gaps of each queue: queue 0 of gpu 0 runs gemm [0,100), add [150,170),
 * add [180,190): gaps [100,150) and [170,180); its queue 1 none; gpu 1's
 * one queue: [141,300) between the barrier and the fill. Per GPU, gpu 0
 * has none (the all-reduce covers them). Only gemm has a launch, so no
 * gap is the host's wait: each, shorter than the threshold, is a kernel
 * wait (Holistic Trace Analysis's rule). */
static void test_gaps_per_queue(void)
{
	struct trace t;
	struct gaps g;
	struct gaps_params p = { .threshold = GAPS_DEFAULT_THRESHOLD, .per_queue = 1, .keep = SIZE_MAX };
	build(&t);
	gaps_find(&t, NULL, &p, &g);
	CHECK_INT(g.n, 3);
	CHECK_INT(g.gaps[0].start, 141);
	CHECK_INT(g.gaps[0].end, 300);
	CHECK_INT(g.gaps[0].lane, 2);
	CHECK_INT(g.gaps[0].before, 4);
	CHECK_INT(g.gaps[0].after, 5);
	CHECK_INT(g.gaps[1].start, 100);
	CHECK_INT(g.gaps[1].end, 150);
	CHECK_INT(g.gaps[1].lane, 0);
	CHECK_INT(g.gaps[2].start, 170);
	CHECK_INT(g.gaps[2].end, 180);
	CHECK_INT(g.gaps[2].cause, GAP_KERNEL_WAIT);
	CHECK_INT(g.nlanes, 3);
	CHECK_INT(g.lanes[0].lane, 0);
	CHECK_INT(g.lanes[0].busy, 130);
	CHECK_INT(g.lanes[0].ngaps, 2);
	CHECK_INT(g.lanes[0].leading, 0);
	CHECK_INT(g.lanes[0].trailing, 120);
	CHECK_INT(g.lanes[1].lane, 1);
	CHECK_INT(g.lanes[1].first, 50);
	CHECK_INT(g.lanes[1].ngaps, 0);
	CHECK_INT(g.lanes[2].cause_ns[GAP_KERNEL_WAIT], 159);
	gaps_free(&g);
	p.per_queue = 0;
	gaps_find(&t, NULL, &p, &g);
	CHECK_INT(g.n, 1);
	CHECK_INT(g.gaps[0].lane, 1);
	CHECK_INT(g.nlanes, 2);
	CHECK_INT(g.lanes[0].busy, 250);
	CHECK_INT(g.lanes[0].trailing, 60);
	CHECK_INT(g.lanes[1].leading, 100);
	gaps_free(&g);
	trace_free(&t);
}

/* gpu 0: compute gemm, add, add = 130; comm the all-reduce = 200, of
 * which 120 outside compute: overlap 80 / 200. gpu 1: compute is the
 * barrier and the fill (11), the copy 40 exposed, idle 159 of 210. */
static void test_breakdown(void)
{
	struct trace t;
	struct breakdown b;
	struct filter comm;
	char err[256];
	build(&t);
	filter_init(&comm);
	CHECK(filter_push(&comm, BREAKDOWN_DEFAULT_COMM, err, sizeof(err)) == 0);
	breakdown_per_gpu(&t, NULL, &comm, &b);
	CHECK_INT(b.n, 2);
	CHECK_INT(b.rows[0].span, 250);
	CHECK_INT(b.rows[0].compute, 130);
	CHECK_INT(b.rows[0].comm, 200);
	CHECK_INT(b.rows[0].exposed_comm, 120);
	CHECK_INT(b.rows[0].idle, 0);
	CHECK(b.rows[0].overlap_ratio > 0.3999 && b.rows[0].overlap_ratio < 0.4001);
	CHECK_INT(b.rows[1].span, 210);
	CHECK_INT(b.rows[1].compute, 11);
	CHECK_INT(b.rows[1].copy, 40);
	CHECK_INT(b.rows[1].exposed_copy, 40);
	CHECK_INT(b.rows[1].idle, 159);
	CHECK(b.rows[1].overlap_ratio == 0.0);
	breakdown_free(&b);
	filter_free(&comm);
	trace_free(&t);
}

/* A trace of one queue with a gap [100,300) between its ops a and b (its
 * midpoint 200): the API calls are the test's. */
static uint32_t gap_trace(struct trace *t)
{
	trace_init(t);
	uint32_t in = trace_add_input(t, "a.rpd", INPUT_RPD, 2);
	uint32_t q = trace_queue(t, trace_gpu(t, in, 0), 0), kx = s(t, "KernelExecution");
	trace_add_op(t, 1, 0, 100, s(t, "a"), kx, q);
	trace_add_op(t, 2, 300, 400, s(t, "b"), kx, q);
	return in;
}

/* The host's call at t's one gap (its cause and whether the host was past
 * the call in *cause and *after); t is freed. */
static uint32_t host_call_at_gap(struct trace *t, int *cause, int *after)
{
	struct gaps g;
	struct api_order o;
	struct gaps_params p = { .threshold = GAPS_DEFAULT_THRESHOLD, .keep = SIZE_MAX };
	trace_finish(t);
	api_order_build(t, &o);
	gaps_find(t, NULL, &p, &g);
	CHECK_INT(g.n, 1);
	uint32_t found = TRACE_NONE;
	*after = -1;
	*cause = -1;
	if (g.n == 1) {
		struct gap_cpu *cpu = gap_cpu_new(t, &o);
		*cause = g.gaps[0].cause;
		found = gap_cpu_find(cpu, &g.gaps[0], after);
		gap_cpu_free(cpu);
	}
	gaps_free(&g);
	api_order_free(&o);
	trace_free(t);
	return found;
}

/* The host during a gap [100,300) of one queue (midpoint 200), its op
 * after launched by L on thread 11 of process 10. On that thread C
 * [120,190) ended, D [160,170) too; R1 [150,500) and R2 [150,250) run,
 * R2 the inner (same start, ends first). Thread 12 of the process runs X
 * [140,260), which started earlier; process 20's Y [199,201) is not the
 * launching process's. L began after the gap did: a host wait. */
static void test_gap_cpu(void)
{
	struct trace t;
	uint32_t in = gap_trace(&t);
	uint32_t t11 = trace_thread(&t, in, 10, 11), t12 = trace_thread(&t, in, 10, 12);
	uint32_t t20 = trace_thread(&t, in, 20, 20), call = s(&t, "call");
	trace_add_api(&t, 1, 120, 190, call, TRACE_NONE, t11);
	trace_add_api(&t, 2, 150, 500, call, TRACE_NONE, t11);
	uint32_t r2 = trace_add_api(&t, 3, 150, 250, call, TRACE_NONE, t11);
	trace_add_api(&t, 4, 160, 170, call, TRACE_NONE, t11);
	uint32_t l = trace_add_api(&t, 5, 260, 270, call, TRACE_NONE, t11);
	trace_add_api(&t, 6, 140, 260, call, TRACE_NONE, t12);
	trace_add_api(&t, 7, 199, 201, call, TRACE_NONE, t20);
	trace_add_link(&t, l, 1);
	int cause, after;
	CHECK_INT(host_call_at_gap(&t, &cause, &after), r2);
	CHECK_INT(cause, GAP_HOST_WAIT); /* L began at 260, after 100 */
	CHECK_INT(after, 0);
}

/* Calls nested three deep at the gap's midpoint (200) on the launching
 * thread: A [110,1000) encloses B [115,600), which encloses B2 [116,250)
 * (around E [117,118)), C [120,180) (around F [121,122)) and G
 * [150,160). The last call to start by 200, G, ended, and so did C, the
 * enclosing call before it: the innermost still running is B2, the one
 * that ends later nearest before C, not B or A further up. */
static void test_gap_cpu_nested(void)
{
	struct trace t;
	uint32_t in = gap_trace(&t);
	uint32_t t11 = trace_thread(&t, in, 10, 11), call = s(&t, "call");
	static const int64_t span[][2] = { { 117, 118 }, { 116, 250 }, { 121, 122 }, { 120, 180 },
					   { 150, 160 }, { 260, 270 }, { 115, 600 }, { 110, 1000 } };
	uint32_t row[8];
	for (int i = 0; i < 8; i++)
		row[i] = trace_add_api(&t, i + 1, span[i][0], span[i][1], call, TRACE_NONE, t11);
	trace_add_link(&t, row[5], 1);
	int cause, after;
	CHECK_INT(host_call_at_gap(&t, &cause, &after), row[1]);
	CHECK_INT(after, 0);
}

/* The launching thread idle at the gap's midpoint (200): the call it had
 * finished last, P [110,198) (its inner Q [120,150) started later but
 * ended earlier), not thread 12's X [140,260) running then. An op of no
 * known launch after the gap: nothing. */
static void test_gap_cpu_after(void)
{
	for (int launched = 1; launched >= 0; launched--) {
		struct trace t;
		uint32_t in = gap_trace(&t);
		uint32_t t11 = trace_thread(&t, in, 10, 11), t12 = trace_thread(&t, in, 10, 12);
		uint32_t call = s(&t, "call");
		uint32_t pp = trace_add_api(&t, 1, 110, 198, call, TRACE_NONE, t11);
		trace_add_api(&t, 2, 120, 150, call, TRACE_NONE, t11);
		uint32_t l = trace_add_api(&t, 3, 260, 270, call, TRACE_NONE, t11);
		trace_add_api(&t, 4, 140, 260, call, TRACE_NONE, t12);
		if (launched)
			trace_add_link(&t, l, 1);
		int cause, after;
		CHECK_INT(host_call_at_gap(&t, &cause, &after), launched ? pp : TRACE_NONE);
		CHECK_INT(after, launched);
	}
}

/* Each queue's ops come out by start, then row, however they were stored:
 * in order, nearly in order (a few out of place, as real traces have
 * them), backwards, with equal starts, and at random. */
static void test_lane_order(void)
{
	static const char *const kinds[] = { "sorted", "nearly", "backwards", "ties", "random" };
	for (int kind = 0; kind < 5; kind++) {
		struct trace t;
		struct lane_ops l;
		trace_init(&t);
		uint32_t in = trace_add_input(&t, "o.rpd", INPUT_RPD, 2);
		uint32_t g = trace_gpu(&t, in, 0);
		uint32_t q[3] = { trace_queue(&t, g, 0), trace_queue(&t, g, 1), trace_queue(&t, g, 2) };
		uint32_t k = s(&t, "k"), kx = s(&t, "KernelExecution");
		uint64_t seed = 12345;
		for (int64_t i = 0; i < 3000; i++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			int64_t start = kind == 0 ? i * 10
					: kind == 1
						? i * 10 - (i % 97 == 0 ? 5000 : 0) + (i % 89 == 0 ? 7000 : 0)
					: kind == 2 ? 100000 - i * 10
					: kind == 3 ? (i / 7) * 10
						    : (int64_t)(seed >> 40) % 50000;
			trace_add_op(&t, i + 1, start, start + 5, k, kx, q[i % 3]);
		}
		trace_finish(&t);
		lane_ops_build(&t, NULL, 1, &l);
		fprintf(stderr, "lane order: %s\n", kinds[kind]);
		CHECK_INT(l.nlanes, 3);
		CHECK_INT(l.first[l.nlanes], 3000);
		unsigned char *seen = calloc(3000, 1);
		for (size_t lane = 0; lane < l.nlanes; lane++) {
			for (size_t j = l.first[lane]; j < l.first[lane + 1] && !check_failures; j++) {
				uint32_t op = l.ops[j];
				CHECK(op < 3000 && !seen[op]);
				seen[op] = 1;
				CHECK_INT(t.ops.queue[op], t.ops.queue[l.ops[l.first[lane]]]);
				if (j > l.first[lane]) {
					uint32_t prev = l.ops[j - 1];
					CHECK(t.ops.start[prev] < t.ops.start[op] ||
					      (t.ops.start[prev] == t.ops.start[op] && prev < op));
				}
			}
		}
		free(seen);
		lane_ops_free(&l);
		trace_free(&t);
	}
}

/* Graph replays' nodes, each replay's on two queues: in rows of a replay
 * ("runs"), or dealt one replay after another op by op, too many rows to
 * keep ("dealt"). Every op's place in its replay, and its replay's among
 * the graph's, agrees with a count over all ops and calls. */
static void test_graph_index(void)
{
	static const char *const kinds[] = { "runs", "dealt" };
	enum { CALLS = 12, OPS = 3000 };
	for (int kind = 0; kind < 2; kind++) {
		struct trace t;
		trace_init(&t);
		uint32_t in = trace_add_input(&t, "g.rpd", INPUT_RPD, 2);
		uint32_t g = trace_gpu(&t, in, 0);
		uint32_t q[2] = { trace_queue(&t, g, 0), trace_queue(&t, g, 1) };
		uint32_t th = trace_thread(&t, in, 1, 1);
		uint32_t launch = s(&t, "hipGraphLaunch"), k = s(&t, "k"), kx = s(&t, "KernelExecution");
		uint32_t call[CALLS], of[OPS];
		for (int c = 0; c < CALLS; c++)
			call[c] =
				trace_add_api(&t, c + 1, (CALLS - c) * 7, (CALLS - c) * 7 + 3, launch, 0, th);
		trace_add_api(&t, CALLS + 1, 0, 1, s(&t, "hipLaunchKernel"), 0, th);
		for (int i = 0; i < OPS; i++) {
			int c = kind == 0 ? i * CALLS / OPS : i % CALLS;
			int64_t start = 1000 + (i % 5 == 3 ? i - 40 : i) * 10;
			trace_add_op(&t, i + 1, start, start + 5, k, kx, q[i % 2]);
			trace_add_link(&t, call[c], (uint32_t)i);
			of[i] = (uint32_t)c;
		}
		trace_finish(&t);
		fprintf(stderr, "graph index: %s\n", kinds[kind]);
		struct graph_index x;
		graph_index_build(&x, &t);
		for (uint32_t i = 0; i < OPS && !check_failures; i++) {
			struct graph_place p;
			CHECK_INT(graph_index_place(&x, &t, i, &p), 1);
			uint64_t node = 1, nodes = 0, replay = 1;
			for (uint32_t j = 0; j < OPS; j++) {
				if (of[j] != of[i])
					continue;
				nodes++;
				node += t.ops.start[j] < t.ops.start[i] ||
					(t.ops.start[j] == t.ops.start[i] && j < i);
			}
			for (int c = 0; c < CALLS; c++)
				replay += t.apis.start[call[c]] < t.apis.start[call[of[i]]];
			CHECK_INT(p.call, call[of[i]]);
			CHECK_INT(p.node, node);
			CHECK_INT(p.nodes, nodes);
			CHECK_INT(p.replay, replay);
			CHECK_INT(p.replays, CALLS);
		}
		graph_index_free(&x);
		struct graph_stats st;
		graph_stats_find(&t, NULL, &st);
		CHECK_INT(st.n, 1);
		CHECK_INT(st.replays, CALLS);
		CHECK_INT(st.ops, OPS);
		graph_stats_free(&st);
		trace_free(&t);
	}
}

/* A trace of roctx ranges nested, overlapping in part, equal, empty and
 * reversed, on two threads, with calls launching 0 to 3 ops each (ops of
 * any length, some reversed); big: one op of a length near 2^62, twice,
 * past what instances summed in another order may hold. */
static void marked(struct trace *t, unsigned seed, int big)
{
	static const char *const texts[] = { "a", "b", "c", "d" };
	trace_init(t);
	uint32_t in = trace_add_input(t, "m.rpd", INPUT_RPD, 2);
	uint32_t q = trace_queue(t, trace_gpu(t, in, 0), 0), kx = s(t, "KernelExecution");
	uint32_t marker = s(t, TRACE_MARKER_NAME), launch = s(t, "hipLaunchKernel");
	uint32_t th[2] = { trace_thread(t, in, 1, 1), trace_thread(t, in, 1, 2) };
	int64_t op_id = 1;
	for (int64_t id = 1; id <= 400; id++) {
		int64_t start = rand_r(&seed) % 1000, len = rand_r(&seed) % 7 == 0 ? -5 : rand_r(&seed) % 300;
		uint32_t thread = th[rand_r(&seed) % 2];
		if (rand_r(&seed) % 2) {
			trace_add_api(t, id, start, start + len, marker, s(t, texts[rand_r(&seed) % 4]),
				      thread);
			continue;
		}
		uint32_t call = trace_add_api(t, id, start, start + len % 40, launch, TRACE_NONE, thread);
		for (int k = rand_r(&seed) % 4; k > 0; k--) {
			int64_t os = 2000 + rand_r(&seed) % 1000,
				ol = rand_r(&seed) % 9 == 0 ? -3 : rand_r(&seed) % 50;
			if (big && op_id <= 2)
				ol = (int64_t)1 << 62;
			trace_add_link(t, call, trace_add_op(t, op_id++, os, os + ol, s(t, "k"), kx, q));
		}
	}
	trace_finish(t);
}

/* The ranges by text (instances summed as they are done with, or through
 * a column per instance when the sums might not fit) equal the sums of
 * the instances markers_find gives one by one. */
static void test_markers_by_text(void)
{
	for (unsigned seed = 1; seed <= 40; seed++) {
		struct trace t;
		struct api_order o;
		struct markers m;
		struct marker_table tab;
		marked(&t, seed, seed % 8 == 0);
		api_order_build(&t, &o);
		markers_find(&t, &o, NULL, &m);
		markers_by_name(&t, &o, NULL, &tab);
		size_t rows = 0;
		for (size_t r = 0; r < tab.n; r++) {
			uint64_t calls = 0, ops = 0;
			__int128 gpu = 0;
			int64_t total = 0;
			for (size_t i = 0; i < m.n; i++) {
				if (m.v[i].name != tab.rows[r].name || !m.v[i].in_view)
					continue;
				calls++;
				ops += m.v[i].ops;
				gpu += m.v[i].gpu;
				total += t.apis.end[m.v[i].api] - t.apis.start[m.v[i].api];
			}
			CHECK_INT(tab.rows[r].calls, calls);
			CHECK_INT(tab.rows[r].ops, ops);
			CHECK_INT(tab.rows[r].gpu, sat_from128(gpu));
			CHECK_INT(tab.rows[r].total, total);
			rows += calls > 0;
		}
		CHECK_INT(rows, tab.n);
		CHECK(tab.n == 4);
		marker_table_free(&tab);
		markers_free(&m);
		api_order_free(&o);
		trace_free(&t);
	}
}

int main(void)
{
	test_graph_index();
	test_lane_order();
	test_gap_cpu();
	test_gap_cpu_after();
	test_gap_cpu_nested();
	test_gaps_per_queue();
	test_breakdown();
	test_timeline();
	test_busy_unsorted();
	test_model();
	test_profile();
	test_profile_halves();
	test_busy();
	test_markers_by_text();
	return check_done();
}
