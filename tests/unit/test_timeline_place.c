/* Places in the timeline found again after the lanes are rebuilt with
 * other rows, on a hand-made trace. */
#include "config.h"

#include <stdlib.h>

#include "analysis/timeline_place.h"
#include "check.h"
#include "trace/trace.h"
#include "util/xalloc.h"

static uint32_t s(struct trace *t, const char *str)
{
	return strtab_intern(&t->strings, str);
}

/* Queue 0 runs ops [0,10) and [20,30). Thread A (pid 1) has an outer call
 * [0,100) with a nested [10,20) and, nested in that, [12,14); thread B
 * (pid 2) has [0,50) with a nested [5,6). */
static uint32_t op1, api_a2, api_b0, api_b1;

static void build(struct trace *t)
{
	trace_init(t);
	uint32_t in = trace_add_input(t, "p.rpd", INPUT_RPD, 2);
	uint32_t q = trace_queue(t, trace_gpu(t, in, 0), 0);
	uint32_t kx = s(t, "KernelExecution");
	trace_add_op(t, 1, 0, 10, s(t, "a"), kx, q);
	op1 = trace_add_op(t, 2, 20, 30, s(t, "b"), kx, q);
	uint32_t a = trace_thread(t, in, 1, 1), b = trace_thread(t, in, 2, 2);
	trace_add_api(t, 10, 0, 100, s(t, "outer"), TRACE_NONE, a);
	trace_add_api(t, 11, 10, 20, s(t, "inner"), TRACE_NONE, a);
	api_a2 = trace_add_api(t, 12, 12, 14, s(t, "deep"), TRACE_NONE, a);
	api_b0 = trace_add_api(t, 13, 0, 50, s(t, "outer"), TRACE_NONE, b);
	api_b1 = trace_add_api(t, 14, 5, 6, s(t, "inner"), TRACE_NONE, b);
	trace_finish(t);
}

/* A selection of every row but the API rows in drop (-1 ends the list). */
static void keep_all_but(const struct trace *t, const int *drop, struct selection *sel)
{
	sel->op_bits = xcalloc(selection_words(t->ops.n), sizeof(uint64_t));
	sel->api_bits = xcalloc(selection_words(t->apis.n), sizeof(uint64_t));
	for (size_t i = 0; i < t->ops.n; i++)
		selection_set(sel->op_bits, i, 1);
	for (size_t i = 0; i < t->apis.n; i++)
		selection_set(sel->api_bits, i, 1);
	for (; *drop >= 0; drop++)
		selection_set(sel->api_bits, (size_t)*drop, 0);
}

int main(void)
{
	struct trace t;
	struct timeline all, fewer;
	struct selection sel = { 0 };
	size_t k;
	build(&t);
	timeline_build(&t, NULL, &all);
	/* q0; A at depths 0, 1, 2; B at depths 0, 1. */
	CHECK_INT(all.nlanes, 6);
	size_t b1 = timeline_find_row(&all, TL_CPU, t.apis.thread[api_b1], api_b1, 5, &k);
	CHECK_INT(b1, 5);
	CHECK_INT(all.lanes[b1].ops[k], api_b1);
	struct tl_place on_b1 = timeline_place(&all, b1, k);
	CHECK_INT(on_b1.depth, 1);
	struct tl_place on_a2 = timeline_place(&all, 3, all.lanes[3].n);
	CHECK_INT(on_a2.row, TRACE_NONE);
	CHECK_INT(on_a2.depth, 2);
	size_t q = timeline_find_row(&all, TL_GPU, t.ops.queue[op1], op1, 20, &k);
	CHECK_INT(q, 0);
	CHECK_INT(k, 1);
	struct tl_place on_op = timeline_place(&all, q, k);
	CHECK_INT(timeline_find_row(&all, TL_GPU, t.ops.queue[op1], op1, 21, &k), all.nlanes);

	/* Without A's deepest call its row goes: B's rows move up one lane,
	 * the place on B's nested call follows it; the place on A's deepest
	 * row goes to the deepest row A still has. */
	keep_all_but(&t, (const int[]){ (int)api_a2, -1 }, &sel);
	timeline_build(&t, &sel, &fewer);
	CHECK_INT(fewer.nlanes, 5);
	size_t at = timeline_place_lane(&fewer, &t, &on_b1);
	CHECK_INT(at, 4);
	CHECK_INT(fewer.lanes[at].ops[0], api_b1);
	at = timeline_place_lane(&fewer, &t, &on_a2);
	CHECK_INT(fewer.lanes[at].thread, t.apis.thread[api_a2]);
	CHECK_INT(fewer.lanes[at].depth, 1);
	CHECK_INT(timeline_place_lane(&fewer, &t, &on_op), 0);
	timeline_free(&fewer);
	free(sel.op_bits);
	free(sel.api_bits);

	/* Without B's nested call its lane goes: the place falls back to the
	 * deepest row B has left; without B's calls at all, to nothing. */
	keep_all_but(&t, (const int[]){ (int)api_b1, -1 }, &sel);
	timeline_build(&t, &sel, &fewer);
	at = timeline_place_lane(&fewer, &t, &on_b1);
	CHECK_INT(fewer.lanes[at].thread, t.apis.thread[api_b1]);
	CHECK_INT(fewer.lanes[at].depth, 0);
	timeline_free(&fewer);
	free(sel.op_bits);
	free(sel.api_bits);
	keep_all_but(&t, (const int[]){ (int)api_b0, (int)api_b1, -1 }, &sel);
	timeline_build(&t, &sel, &fewer);
	CHECK_INT(timeline_place_lane(&fewer, &t, &on_b1), fewer.nlanes);
	timeline_free(&fewer);
	free(sel.op_bits);
	free(sel.api_bits);

	timeline_free(&all);
	trace_free(&t);
	return check_done();
}
