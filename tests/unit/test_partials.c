/* The partial results of api, markers, ranks and findings: two files (two groups'
 * inputs, two ranks of a job, one late) reduced apart, sent as bytes and
 * merged give the figures of the two loaded as one trace, and bytes cut
 * short anywhere are refused, never read past. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/api_calls.h"
#include "analysis/findings.h"
#include "analysis/markers.h"
#include "analysis/params.h"
#include "analysis/ranks.h"
#include "analysis/steps.h"
#include "check.h"
#include "demo/demo.h"
#include "load/load.h"

/* A rank's collectives late by delay: input's comm kernels moved. */
static void delay_input(struct trace *t, uint32_t input, int64_t delay)
{
	const struct trace_input *in = &t->inputs[input];
	for (size_t i = in->op_first; i < in->op_first + in->op_count; i++) {
		const char *name = trace_str(t, t->ops.name[i]);
		if (strstr(name, "nccl") || strstr(name, "cross_device")) {
			t->ops.start[i] += delay;
			t->ops.end[i] += delay;
		}
	}
}

static void load(struct trace *t, const char *const *paths, size_t n)
{
	struct load_options all = { .what = LOAD_ALL };
	struct rpd_error err;
	CHECK(trace_load(t, paths, n, &all, &err) == 0);
}

/* Every cut of the bytes short of their end is refused. */
static void check_cuts(const struct bytes_out *b, int (*decode)(struct bytes_in *in, struct trace *t),
		       struct trace *t)
{
	size_t step = b->n > 4000 ? b->n / 2000 : 1, refused = 0, tried = 0;
	for (size_t cut = 0; cut < b->n; cut += step) {
		struct bytes_in in;
		bytes_in_init(&in, b->p, cut);
		refused += decode(&in, t) != 0;
		tried++;
	}
	CHECK_INT(refused, tried);
}

static int decode_names(struct bytes_in *in, struct trace *t)
{
	struct namestat a;
	namestat_init(&a);
	struct part_in pin = { in, t, NULL, 0 };
	int rc = namestat_merge(&a, &pin);
	namestat_free(&a);
	return rc;
}

static int decode_ranks(struct bytes_in *in, struct trace *t)
{
	struct ranks_part p;
	size_t global = 0;
	ranks_part_init(&p);
	struct part_in pin = { in, t, &global, 1 };
	int rc = ranks_part_merge(&p, &pin);
	ranks_part_free(&p);
	return rc;
}

static int decode_findings(struct bytes_in *in, struct trace *t)
{
	struct findings_part p;
	size_t global = 0;
	findings_part_init(&p);
	struct part_in pin = { in, t, &global, 1 };
	int rc = findings_part_merge(&p, &pin);
	findings_part_free(&p);
	return rc;
}

/* The partial of one part (its API calls, or its roctx ranges, by name). */
typedef void (*part_fn)(const struct trace *t, struct namestat *a);

static void api_of(const struct trace *t, struct namestat *a)
{
	struct api_order o;
	api_order_build(t, &o);
	api_calls_part_add(a, t, &o, NULL);
	api_order_free(&o);
}

static void markers_of(const struct trace *t, struct namestat *a)
{
	struct api_order o;
	api_order_build(t, &o);
	markers_part_add(a, t, &o, NULL);
	api_order_free(&o);
}

/* Each part reduced by fn, sent as bytes and merged into merged (names
 * interned in whole's strings); the first part's bytes cut everywhere. */
static void merge_parts(struct trace *parts, struct trace *whole, part_fn fn, struct namestat *merged)
{
	namestat_init(merged);
	for (int k = 0; k < 2; k++) {
		struct namestat a;
		struct bytes_out b = { 0 };
		struct bytes_in in;
		namestat_init(&a);
		fn(&parts[k], &a);
		namestat_encode(&a, &parts[k], &b);
		namestat_free(&a);
		bytes_in_init(&in, b.p, b.n);
		struct part_in pin = { &in, whole, NULL, 0 };
		CHECK(namestat_merge(merged, &pin) == 0);
		CHECK_INT(in.at, b.n);
		if (k == 0)
			check_cuts(&b, decode_names, whole);
		free(b.p);
	}
}

static void test_api(struct trace *parts, struct trace *whole)
{
	struct api_order o;
	struct api_calls want, got;
	struct namestat merged;
	api_order_build(whole, &o);
	api_calls_by_name(whole, &o, NULL, &want);
	api_order_free(&o);
	merge_parts(parts, whole, api_of, &merged);
	api_calls_part_finish(&merged, whole, &got);
	CHECK_INT(got.n, want.n);
	CHECK_INT(got.calls, want.calls);
	CHECK_INT(got.total, want.total);
	CHECK(want.n > 3);
	for (size_t i = 0; i < want.n && i < got.n; i++)
		CHECK(memcmp(&got.rows[i], &want.rows[i], sizeof(want.rows[i])) == 0);
	api_calls_free(&want);
	api_calls_free(&got);
}

static void test_markers(struct trace *parts, struct trace *whole)
{
	struct api_order o;
	struct marker_table want, got;
	struct namestat merged;
	api_order_build(whole, &o);
	markers_by_name(whole, &o, NULL, &want);
	api_order_free(&o);
	merge_parts(parts, whole, markers_of, &merged);
	markers_part_finish(&merged, whole, &got);
	CHECK_INT(got.n, want.n);
	CHECK_INT(got.total, want.total);
	CHECK(want.n > 3);
	for (size_t i = 0; i < want.n && i < got.n; i++)
		CHECK(memcmp(&got.rows[i], &want.rows[i], sizeof(want.rows[i])) == 0);
	marker_table_free(&want);
	marker_table_free(&got);
}

static void test_ranks(struct trace *parts, struct trace *whole)
{
	struct filter comm;
	char msg[256];
	struct ranks want, got;
	struct ranks_part merged;
	filter_init(&comm);
	CHECK(filter_push(&comm, "nccl|cross_device", msg, sizeof(msg)) == 0);
	ranks_per_input(whole, NULL, &comm, &want);
	ranks_part_init(&merged);
	for (int k = 0; k < 2; k++) {
		struct ranks_part p;
		struct bytes_out b = { 0 };
		struct bytes_in in;
		size_t global = (size_t)k; /* part k's input is the whole's input k */
		ranks_part_init(&p);
		ranks_part_add(&p, &parts[k], NULL, &comm);
		ranks_part_encode(&p, &parts[k], &b);
		ranks_part_free(&p);
		bytes_in_init(&in, b.p, b.n);
		struct part_in pin = { &in, whole, &global, 1 };
		CHECK(ranks_part_merge(&merged, &pin) == 0);
		CHECK_INT(in.at, b.n);
		if (k == 1)
			check_cuts(&b, decode_ranks, whole);
		/* An input the part does not have is refused. */
		bytes_in_init(&in, b.p, b.n);
		struct ranks_part other;
		ranks_part_init(&other);
		pin.ninputs = 0;
		CHECK(ranks_part_merge(&other, &pin) != 0);
		ranks_part_free(&other);
		free(b.p);
	}
	ranks_part_finish(&merged, whole, &got);
	CHECK_INT(got.n, 2);
	CHECK_INT(got.n, want.n);
	CHECK_INT(got.collectives, want.collectives);
	CHECK_INT(got.instances, want.instances);
	CHECK_INT(got.straggler, want.straggler);
	CHECK(want.collectives > 0);
	/* The late rank (the second input) is waited for. */
	CHECK(want.straggler < want.n && want.rows[want.straggler].input == 1);
	for (size_t i = 0; i < want.n && i < got.n; i++)
		CHECK(memcmp(&got.rows[i], &want.rows[i], sizeof(want.rows[i])) == 0);
	ranks_free(&want);
	ranks_free(&got);
	filter_free(&comm);
}

/* Two findings alike, their names compared by text (each trace its own). */
static int same_finding(const struct trace *ta, const struct finding *a, const struct trace *tb,
			const struct finding *b)
{
	const char *na = a->name != TRACE_NONE ? trace_str(ta, a->name) : "";
	const char *nb = b->name != TRACE_NONE ? trace_str(tb, b->name) : "";
	return a->id == b->id && a->time_ns == b->time_ns && a->share == b->share && a->count == b->count &&
	       a->gpu == b->gpu && a->input == b->input && strcmp(na, nb) == 0 && a->start == b->start &&
	       a->end == b->end && strcmp(a->evidence, b->evidence) == 0;
}

/* Every rule's threshold lowered: the findings of each part merged are
 * the whole's, every rule firing on these two ranks. */
static void test_findings(struct trace *parts, struct trace *whole)
{
	struct analysis_params ap;
	char msg[256];
	analysis_params_init(&ap);
	CHECK(analysis_params_set_comm(&ap, "nccl|cross_device", msg, sizeof(msg)) == 0);
	struct findings_thresholds *th = &ap.findings;
	th->host_wait_pct = th->sync_call_pct = th->launch_bound_pct = th->outlier_pct = 0;
	th->exposed_comm_pct = th->straggler_pct = th->low_util_pct = th->imbalance_points = 0;
	th->launch_bound_min = 1;
	th->outlier_z = 1;
	th->outlier_ratio = 1.1;
	th->slow_step_ratio = 1;
	th->warmup_ratio = 0;
	th->low_util_busy_pct = 90;
	struct api_order o;
	struct findings want, got;
	api_order_build(whole, &o);
	findings_find(whole, NULL, &ap, &o, &want);
	api_order_free(&o);
	struct findings_part merged;
	findings_part_init(&merged);
	for (int k = 0; k < 2; k++) {
		struct findings_part p;
		struct bytes_out b = { 0 };
		struct bytes_in in;
		size_t global = (size_t)k;
		findings_part_init(&p);
		api_order_build(&parts[k], &o);
		findings_part_add(&p, &parts[k], NULL, &ap, &o);
		api_order_free(&o);
		findings_part_encode(&p, &parts[k], &b);
		findings_part_free(&p);
		bytes_in_init(&in, b.p, b.n);
		struct part_in pin = { &in, whole, &global, 1 };
		CHECK(findings_part_merge(&merged, &pin) == 0);
		CHECK_INT(in.at, b.n);
		if (k == 0)
			check_cuts(&b, decode_findings, whole);
		free(b.p);
	}
	findings_part_finish(&merged, whole, NULL, &ap, &got);
	findings_part_free(&merged);
	unsigned fired = 0;
	for (size_t i = 0; i < want.n; i++)
		fired |= 1u << want.v[i].id;
	/* graph-gap wants graphs, which these ranks do not replay. */
	CHECK_INT(fired, ((1u << FINDING_NIDS) - 1) & ~(1u << FINDING_graph_gap));
	CHECK_INT(got.n, want.n);
	CHECK_INT(got.run_start, want.run_start);
	CHECK_INT(got.run_end, want.run_end);
	size_t same = 0;
	for (size_t i = 0; i < want.n && i < got.n; i++)
		same += same_finding(whole, &got.v[i], whole, &want.v[i]);
	CHECK_INT(same, want.n);
	findings_free(&want);
	findings_free(&got);
	analysis_params_free(&ap);
}

/* The step texts summed from a trace's ranges equal those summed from
 * its instances (step_marks_of), which node groups merge: both choose the
 * same steps. */
static void test_step_texts(const struct trace *t)
{
	struct step_marks m;
	struct step_texts a, b;
	step_marks_of(t, NULL, &m);
	step_texts_of_marks(t, &m, &a);
	step_texts_of_trace(t, &b);
	CHECK(m.n > 0);
	CHECK(a.n > 1);
	CHECK_INT(a.n, b.n);
	size_t count = 0;
	for (size_t j = 0; j < a.n && j < b.n; j++) {
		CHECK_INT(a.v[j].text, b.v[j].text);
		CHECK_INT(a.v[j].count, b.v[j].count);
		CHECK_INT(a.v[j].time, b.v[j].time);
		CHECK_INT(step_mark_cmp(&a.v[j].earliest, &b.v[j].earliest), 0);
		count += a.v[j].count;
	}
	CHECK_INT(count, m.n);
	step_texts_free(&a);
	step_texts_free(&b);
	step_marks_free(&m);
}

int main(void)
{
	/* Two ranks of one job (one seed), each its own file. */
	char dir[] = "/tmp/rpdtop-partials.XXXXXX", a[64], b[64];
	CHECK(mkdtemp(dir) != NULL);
	snprintf(a, sizeof(a), "%s/a.rpd", dir);
	snprintf(b, sizeof(b), "%s/b.rpd", dir);
	struct gen_params p = { .seed = 7, .ops = 6000, .gpus = 1, .collectives = 1, .pid_base = 100 };
	struct demo_output rpd = { .format = INPUT_RPD };
	struct rpd_error err;
	CHECK(demo_write_file(a, &p, &rpd, &err) == 0);
	p.pid_base = 200;
	CHECK(demo_write_file(b, &p, &rpd, &err) == 0);
	struct trace parts[2], whole;
	const char *both[] = { a, b };
	load(&parts[0], both, 1);
	load(&parts[1], both + 1, 1);
	load(&whole, both, 2);
	delay_input(&parts[1], 0, 50000);
	delay_input(&whole, 1, 50000);
	test_api(parts, &whole);
	test_markers(parts, &whole);
	test_ranks(parts, &whole);
	test_findings(parts, &whole);
	test_step_texts(&whole);
	trace_free(&whole);
	trace_free(&parts[0]);
	trace_free(&parts[1]);
	unlink(a);
	unlink(b);
	rmdir(dir);
	return check_done();
}
