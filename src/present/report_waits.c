#include "config.h"
#include "present/report_waits.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/breakdown.h"
#include "analysis/gaps.h"
#include "analysis/launch.h"
#include "display/names.h"
#include "present/report_cells.h"
#include "util/i18n.h"
#include "util/satmath.h"
#include "util/units.h"
#include "util/xalloc.h"

#define NCOLS(a) (sizeof(a) / sizeof((a)[0]))

static const struct table_col gaps_cols[] = {
	{ "gpu", N_("GPU"), COL_LABEL },     { "start_ns", N_("START"), COL_COUNT },
	{ "end_ns", N_("END"), COL_COUNT },  { "gap_ns", N_("GAP"), COL_NS },
	{ "cause", N_("CAUSE"), COL_LABEL }, { "before", N_("BEFORE"), COL_NAME },
	{ "after", N_("AFTER"), COL_NAME },  { "cpu", N_("CPU"), COL_NAME },
};

static const struct table_col idle_cols[] = {
	{ "gpu", N_("GPU"), COL_LABEL },
	{ "span_ns", N_("SPAN"), COL_NS },
	{ "busy_ns", N_("BUSY"), COL_NS },
	{ "idle_ns", N_("IDLE"), COL_NS },
	{ "leading_ns", N_("LEADING"), COL_NS },
	{ "trailing_ns", N_("TRAILING"), COL_NS },
	{ "gaps", N_("GAPS"), COL_COUNT },
	{ "host_wait_ns", N_("HOST WAIT"), COL_NS },
	{ "kernel_wait_ns", N_("KERNEL WAIT"), COL_NS },
	{ "other_ns", N_("OTHER"), COL_NS },
	{ "max_gap_ns", N_("MAX GAP"), COL_NS },
};

static const struct table_col launch_cols[] = {
	{ "name", N_("NAME"), COL_NAME },
	{ "ops", N_("OPS"), COL_COUNT },
	{ "launch_p50_ns", N_("LAUNCH P50"), COL_NS },
	{ "launch_p90_ns", N_("LAUNCH P90"), COL_NS },
	{ "launch_max_ns", N_("LAUNCH MAX"), COL_NS },
	{ "queue_p50_ns", N_("QUEUE P50"), COL_NS },
	{ "queue_p90_ns", N_("QUEUE P90"), COL_NS },
	{ "queue_max_ns", N_("QUEUE MAX"), COL_NS },
	{ "call_avg_ns", N_("CALL AVG"), COL_NS },
};

static const struct table_col breakdown_cols[] = {
	{ "gpu", N_("GPU"), COL_LABEL },
	{ "span_ns", N_("SPAN"), COL_NS },
	{ "compute_ns", N_("COMPUTE"), COL_NS },
	{ "comm_ns", N_("COMM"), COL_NS },
	{ "copy_ns", N_("COPY"), COL_NS },
	{ "idle_ns", N_("IDLE"), COL_NS },
	{ "exposed_comm_ns", N_("EXPOSED COMM"), COL_NS },
	{ "exposed_copy_ns", N_("EXPOSED COPY"), COL_NS },
	{ "overlap_ratio", N_("OVERLAP"), COL_PERCENT },
};

static const struct table_col category_cols[] = {
	{ "category", N_("CATEGORY"), COL_LABEL },
	{ "calls", N_("CALLS"), COL_COUNT },
	{ "total_ns", N_("TOTAL"), COL_NS },
	{ "percent", N_("%"), COL_PERCENT },
};

/* Has t only the launching calls of some input? */
static int launches_only(const struct trace *t)
{
	for (size_t i = 0; i < t->ninputs; i++)
		if (t->inputs[i].launches_only)
			return 1;
	return 0;
}

/* The cpu column of a trace holding every call: from its rows. */
static void cpu_from_rows(const struct trace *t, const struct report_params *p, const struct gaps *g,
			  uint32_t *name)
{
	struct api_order own = { 0 };
	const struct api_order *order = p->order;
	if (!order || order->napis != t->apis.n) {
		api_order_build(t, &own);
		order = &own;
	}
	struct gap_cpu *cpu = gap_cpu_new(t, order);
	for (size_t i = 0; i < g->n; i++) {
		uint32_t api = gap_cpu_find(cpu, &g->gaps[i]);
		name[i] = api == TRACE_NONE ? TRACE_NONE : trace_api_shown_name(t, api);
	}
	gap_cpu_free(cpu);
	api_order_free(&own);
}

/* The cpu column of a trace holding its launching calls alone: asked of
 * the loader, all gaps at once. */
static int cpu_from_files(const struct trace *t, const struct report_params *p, const struct gaps *g,
			  uint32_t *name)
{
	struct call_probe *probe = xmalloc_array(g->n ? g->n : 1, sizeof(*probe));
	uint32_t *at = xmalloc_array(g->n ? g->n : 1, sizeof(*at));
	size_t n = 0;
	for (size_t i = 0; i < g->n; i++) {
		name[i] = TRACE_NONE;
		if (gap_cpu_moment(t, &g->gaps[i], &probe[n]))
			at[n++] = (uint32_t)i;
	}
	int rc = p->probe_calls(p->probe_ctx, probe, n);
	for (size_t k = 0; rc == 0 && k < n; k++)
		name[at[k]] = probe[k].name;
	free(probe);
	free(at);
	return rc;
}

int report_gaps_cpu(const struct trace *t, const struct report_params *p, const struct gaps *g, uint32_t *cpu)
{
	if (launches_only(t) && p->probe_calls)
		return cpu_from_files(t, p, g, cpu);
	cpu_from_rows(t, p, g, cpu);
	return 0;
}

void report_gaps_table(const struct trace *t, const struct report_params *p, const struct gaps *g,
		       const struct gap_names *names, int64_t idle, struct table *out)
{
	char total[UNITS_BUFSZ];
	table_init(out, "gaps", gaps_cols, NCOLS(gaps_cols));
	snprintf(out->caption, sizeof(out->caption),
		 _("GPU gaps, longest first: %llu gaps, %s idle between ops"), (unsigned long long)g->total,
		 units_format_ns(idle, total, sizeof(total)));
	if (p->csv_stream)
		table_stream_csv(out, p->csv_stream);
	for (size_t i = 0; i < g->n; i++) {
		const struct gap *x = &g->gaps[i];
		struct table_cell *c = table_add_row(out);
		report_set_lane(t, g, &c[0], x->lane);
		c[1].num = x->start;
		c[2].num = x->end;
		c[3].num = sat_sub(x->end, x->start);
		report_set_str(&c[4], gap_cause_name(x->cause));
		names_set_cell(&c[5], p->names, t, names->before[i]);
		names_set_cell(&c[6], p->names, t, names->after[i]);
		names_set_cell(&c[7], p->names, t, names->cpu[i]);
	}
}

int64_t report_gaps_idle(const struct gaps *g)
{
	int64_t idle = 0;
	for (size_t k = 0; k < g->nlanes; k++)
		idle = sat_add(idle, sat_sub(gap_lane_span(&g->lanes[k]), g->lanes[k].busy));
	return idle;
}

int report_gaps(const struct trace *t, const struct report_params *p, const struct selection *sel,
		struct table *out)
{
	struct gaps g;
	struct gaps_params gp = { .threshold = p->gap_threshold,
				  .per_queue = p->per_queue,
				  .keep = p->limit ? p->limit : SIZE_MAX };
	gaps_find(t, sel, &gp, &g);
	struct gap_names names = { xmalloc_array(g.n ? g.n : 1, sizeof(uint32_t)),
				   xmalloc_array(g.n ? g.n : 1, sizeof(uint32_t)),
				   xmalloc_array(g.n ? g.n : 1, sizeof(uint32_t)) };
	/* Names are read before the rows are made: asking the loader may
	 * add strings to the trace. */
	int rc = report_gaps_cpu(t, p, &g, names.cpu);
	for (size_t i = 0; i < g.n; i++) {
		names.before[i] = t->ops.name[g.gaps[i].before];
		names.after[i] = t->ops.name[g.gaps[i].after];
	}
	if (rc == 0)
		report_gaps_table(t, p, &g, &names, report_gaps_idle(&g), out);
	else
		table_init(out, "gaps", gaps_cols, NCOLS(gaps_cols));
	free(names.before);
	free(names.after);
	free(names.cpu);
	gaps_free(&g);
	return rc;
}

/* The histogram of gap lengths under the idle table. */
static char *gap_histogram(const struct gaps *g)
{
	static const char *const labels[GAPS_NBUCKETS] = { "< 5 us",    "5-10 us",  "10-20 us",
							   "20-100 us", "0.1-1 ms", ">= 1 ms" };
	uint64_t count[GAPS_NBUCKETS] = { 0 }, most = 0;
	size_t size = 4096, o = 0;
	char *buf = xmalloc(size);
	for (size_t k = 0; k < g->nlanes; k++)
		for (int b = 0; b < GAPS_NBUCKETS; b++)
			count[b] += g->lanes[k].hist[b];
	for (int b = 0; b < GAPS_NBUCKETS; b++)
		most = count[b] > most ? count[b] : most;
	o += (size_t)snprintf(buf + o, size - o, "%s\n", _("Gap lengths:"));
	for (int b = 0; b < GAPS_NBUCKETS; b++) {
		int bar = most ? (int)((40 * count[b] + most - 1) / most) : 0;
		o += (size_t)snprintf(buf + o, size - o, "  %-10s %10llu  ", labels[b],
				      (unsigned long long)count[b]);
		for (int i = 0; i < bar && o + 2 < size; i++)
			buf[o++] = '#';
		buf[o++] = '\n';
		buf[o] = '\0';
	}
	return buf;
}

void report_idle_table(const struct trace *t, const struct report_params *p, const struct gaps *gp,
		       struct table *out)
{
	const struct gaps g = *gp;
	char range[UNITS_BUFSZ];
	table_init(out, "idle", idle_cols, NCOLS(idle_cols));
	snprintf(out->caption, sizeof(out->caption),
		 P_("GPU idle: %zu GPU over %s of wall time", "GPU idle: %zu GPUs over %s of wall time",
		    g.nlanes),
		 g.nlanes, units_format_ns(sat_sub(g.range_end, g.range_start), range, sizeof(range)));
	for (size_t i = 0; i < g.nlanes && report_want_row(p, i); i++) {
		const struct gap_lane *l = &g.lanes[i];
		struct table_cell *c = table_add_row(out);
		report_set_lane(t, &g, &c[0], l->lane);
		c[1].num = gap_lane_span(l);
		c[2].num = l->busy;
		c[3].num = gap_lane_span(l) - l->busy;
		c[4].num = l->leading;
		c[5].num = l->trailing;
		c[6].num = (int64_t)l->ngaps;
		c[7].num = l->cause_ns[GAP_HOST_WAIT];
		c[8].num = l->cause_ns[GAP_KERNEL_WAIT];
		c[9].num = l->cause_ns[GAP_OTHER];
		c[10].num = l->max_gap;
	}
	out->footer = gap_histogram(&g);
}

void report_idle(const struct trace *t, const struct report_params *p, const struct selection *sel,
		 struct table *out)
{
	struct gaps g;
	/* The lanes' sums are all it shows: no gap is kept. */
	struct gaps_params gp = { .threshold = p->gap_threshold, .per_queue = p->per_queue, .keep = 0 };
	gaps_find(t, sel, &gp, &g);
	report_idle_table(t, p, &g, out);
	gaps_free(&g);
}

void report_launch_table(const struct trace *t, const struct report_params *p, const struct launch_stats *sp,
			 struct table *out)
{
	const struct launch_stats s = *sp;
	table_init(out, "launch", launch_cols, NCOLS(launch_cols));
	snprintf(out->caption, sizeof(out->caption),
		 _("Launch latency by name: %llu ops with a known launch, %zu names"),
		 (unsigned long long)s.ops, s.n);
	for (size_t i = 0; i < s.n && report_want_row(p, i); i++) {
		const struct launch_row *r = &s.rows[i];
		struct table_cell *c = table_add_row(out);
		names_set_cell(&c[0], p->names, t, r->name);
		c[1].num = (int64_t)r->ops;
		c[2].num = r->launch_p50;
		c[3].num = r->launch_p90;
		c[4].num = r->launch_max;
		c[5].num = r->queue_p50;
		c[6].num = r->queue_p90;
		c[7].num = r->queue_max;
		c[8].num = r->call_avg;
	}
}

void report_launch(const struct trace *t, const struct report_params *p, const struct selection *sel,
		   struct table *out)
{
	struct launch_stats s;
	launch_stats_by_name(t, sel, &s);
	report_launch_table(t, p, &s, out);
	launch_stats_free(&s);
}

void report_breakdown_table(const struct trace *t, const struct report_params *p, const struct breakdown *bp,
			    struct table *out)
{
	const struct breakdown b = *bp;
	char pattern[256];
	filter_describe(p->comm, pattern, sizeof(pattern));
	table_init(out, "breakdown", breakdown_cols, NCOLS(breakdown_cols));
	snprintf(out->caption, sizeof(out->caption),
		 P_("GPU time breakdown: %zu GPU, communication %s",
		    "GPU time breakdown: %zu GPUs, communication %s", b.n),
		 b.n, pattern);
	for (size_t i = 0; i < b.n && report_want_row(p, i); i++) {
		const struct breakdown_row *r = &b.rows[i];
		struct table_cell *c = table_add_row(out);
		report_set_gpu(t, &c[0], r->gpu);
		c[1].num = r->span;
		c[2].num = r->compute;
		c[3].num = r->comm;
		c[4].num = r->copy;
		c[5].num = r->idle;
		c[6].num = r->exposed_comm;
		c[7].num = r->exposed_copy;
		c[8].pct = r->overlap_ratio;
	}
}

void report_breakdown(const struct trace *t, const struct report_params *p, const struct selection *sel,
		      struct table *out)
{
	struct breakdown b;
	breakdown_per_gpu(t, sel, p->comm, &b);
	report_breakdown_table(t, p, &b, out);
	breakdown_free(&b);
}

void report_categories_table(const struct report_params *p, const struct category_times *ctp,
			     struct table *out)
{
	const struct category_times ct = *ctp;
	char total[UNITS_BUFSZ];
	table_init(out, "categories", category_cols, NCOLS(category_cols));
	snprintf(out->caption, sizeof(out->caption),
		 _("Kernel time by category: %zu categories, %s GPU time"), ct.n,
		 units_format_ns(ct.total, total, sizeof(total)));
	for (size_t i = 0; i < ct.n && report_want_row(p, i); i++) {
		const struct category_row *r = &ct.rows[i];
		struct table_cell *c = table_add_row(out);
		report_set_str(&c[0], category_row_name(p->cats, r));
		c[1].num = (int64_t)r->calls;
		c[2].num = r->total;
		c[3].pct = ct.total > 0 ? 100.0 * (double)r->total / (double)ct.total : 0.0;
	}
}

void report_categories(const struct trace *t, const struct report_params *p, const struct selection *sel,
		       struct table *out)
{
	struct category_times ct;
	categories_by_kernel(t, sel, p->cats, &ct);
	report_categories_table(p, &ct, out);
	category_times_free(&ct);
}
