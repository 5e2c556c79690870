#include "config.h"
#include "present/report.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/busy.h"
#include "analysis/counters.h"
#include "analysis/profile.h"
#include "present/report_cpu.h"
#include "present/report_ranks.h"
#include "present/report_waits.h"
#include "util/i18n.h"
#include "util/natcmp.h"
#include "util/satmath.h"
#include "util/sort.h"
#include "util/units.h"
#include "util/xalloc.h"

#define NCOLS(a) (sizeof(a) / sizeof((a)[0]))

static const struct table_col profile_cols[] = {
	{ "name", N_("NAME"), COL_NAME },
	{ "calls", N_("CALLS"), COL_COUNT },
	{ "total_ns", N_("TOTAL"), COL_NS },
	{ "avg_ns", N_("AVG"), COL_NS },
	{ "min_ns", N_("MIN"), COL_NS },
	{ "max_ns", N_("MAX"), COL_NS },
	{ "percent", N_("%"), COL_PERCENT },
	{ "std_ns", N_("STD"), COL_NS },
	{ "p50_ns", N_("P50"), COL_NS },
	{ "p90_ns", N_("P90"), COL_NS },
	{ "p99_ns", N_("P99"), COL_NS },
	{ "var_ns", N_("VAR"), COL_NS },
	{ "share_percent", N_("SHARE%"), COL_PERCENT },
};

/* With --outliers: their count before the share, which stays last (a
 * script takes it as $NF however many commas the names hold). */
static const struct table_col profile_outlier_cols[] = {
	{ "name", N_("NAME"), COL_NAME },          { "calls", N_("CALLS"), COL_COUNT },
	{ "total_ns", N_("TOTAL"), COL_NS },       { "avg_ns", N_("AVG"), COL_NS },
	{ "min_ns", N_("MIN"), COL_NS },           { "max_ns", N_("MAX"), COL_NS },
	{ "percent", N_("%"), COL_PERCENT },       { "std_ns", N_("STD"), COL_NS },
	{ "p50_ns", N_("P50"), COL_NS },           { "p90_ns", N_("P90"), COL_NS },
	{ "p99_ns", N_("P99"), COL_NS },           { "var_ns", N_("VAR"), COL_NS },
	{ "outliers", N_("OUTLIERS"), COL_COUNT }, { "share_percent", N_("SHARE%"), COL_PERCENT },
};

static const struct table_col busy_cols[] = {
	{ "gpu", N_("GPU"), COL_LABEL },
	{ "ops", N_("OPS"), COL_COUNT },
	{ "sum_ns", N_("SUM"), COL_NS },
	{ "busy_ns", N_("BUSY"), COL_NS },
	{ "wall_ns", N_("WALL"), COL_NS },
	{ "busy_percent", N_("BUSY%"), COL_PERCENT },
	{ "input", N_("INPUT"), COL_LABEL },
	{ "first_ns", N_("FIRST"), COL_COUNT },
	{ "last_ns", N_("LAST"), COL_COUNT },
	{ "span_ns", N_("SPAN"), COL_NS },
	{ "span_busy_percent", N_("SPAN BUSY%"), COL_PERCENT },
};

static const struct table_col counter_cols[] = {
	{ "gpu", N_("GPU"), COL_LABEL },         { "counter", N_("COUNTER"), COL_LABEL },
	{ "samples", N_("SAMPLES"), COL_COUNT }, { "min", N_("MIN"), COL_VALUE },
	{ "max", N_("MAX"), COL_VALUE },         { "avg_time_weighted", N_("AVG(TIME)"), COL_VALUE },
};

static const char *const report_names[] = { "top",    "ktop",      "busy",       "gaps",     "idle",
					    "launch", "breakdown", "categories", "counters", "ranks",
					    "api",    "markers",   "ranges",     "steps" };
static const char *const format_names[] = { "text", "csv", "json", "md" };

static int index_of(const char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return (int)i;
	return -1;
}

int report_parse(const char *name, enum report_kind *kind)
{
	int i = index_of(report_names, NCOLS(report_names), name);
	if (i >= 0)
		*kind = (enum report_kind)i;
	return i < 0 ? -1 : 0;
}

int report_parse_format(const char *name, enum table_format *format)
{
	int i = index_of(format_names, NCOLS(format_names), name);
	if (i >= 0)
		*format = (enum table_format)i;
	return i < 0 ? -1 : 0;
}

void report_profile_table(const struct trace *t, enum report_kind kind, const struct report_params *rp,
			  const struct profile *pp, struct table *out)
{
	const struct profile p = *pp;
	char total[UNITS_BUFSZ];
	int kernels = kind == REPORT_KTOP, outliers = rp->outlier_z > 0;
	size_t limit = rp->limit;
	if (outliers)
		table_init(out, kernels ? "ktop" : "top", profile_outlier_cols, NCOLS(profile_outlier_cols));
	else
		table_init(out, kernels ? "ktop" : "top", profile_cols, NCOLS(profile_cols));
	snprintf(out->caption, sizeof(out->caption),
		 kernels ? _("Kernels by name: %llu kernels, %zu names, %s GPU time")
			 : _("GPU ops by name: %llu ops, %zu names, %s GPU time"),
		 (unsigned long long)p.calls, p.n, units_format_ns(p.total, total, sizeof(total)));
	for (size_t i = 0; i < p.n && (!limit || i < limit); i++) {
		const struct profile_row *r = &p.rows[i];
		struct table_cell *c = table_add_row(out);
		names_set_cell(&c[0], rp->names, t, r->name);
		c[1].num = (int64_t)r->calls;
		c[2].num = r->total;
		c[3].num = profile_row_avg(r);
		c[4].num = r->min;
		c[5].num = r->max;
		c[6].pct = profile_row_percent(&p, r);
		c[7].num = r->std;
		c[8].num = r->p50;
		c[9].num = r->p90;
		c[10].num = r->p99;
		c[11].num = r->var;
		if (outliers)
			c[12].num = (int64_t)r->outliers;
		c[out->ncols - 1].pct = profile_row_share(&p, r);
	}
	/* Totals of every row, those past the limit too. */
	struct table_cell *tot = table_totals(out);
	tot[1].num = (int64_t)p.calls;
	tot[2].num = p.total;
	tot[6].pct = p.total ? 100.0 : 0.0;
	tot[out->ncols - 1].pct = p.all ? 100.0 * (double)p.total / (double)p.all : 0.0;
	out->totals_cols = 1u << 1 | 1u << 2 | 1u << 6 | (uint64_t)1 << (out->ncols - 1);
	if (outliers) {
		for (size_t i = 0; i < p.n; i++)
			tot[12].num += (int64_t)p.rows[i].outliers;
		out->totals_cols |= 1u << 12;
	}
}

void report_profile(const struct trace *t, enum report_kind kind, const struct report_params *rp,
		    const struct selection *sel, struct table *out)
{
	struct profile p;
	profile_by_name_z(t, kind == REPORT_KTOP ? PROFILE_KERNELS : PROFILE_ALL_OPS, sel, rp->outlier_z, &p);
	report_profile_table(t, kind, rp, &p, out);
	profile_free(&p);
}

void report_busy_table(const struct trace *t, size_t limit, const struct busy *bp, struct table *out)
{
	const struct busy b = *bp;
	char wall[UNITS_BUFSZ], label[256];
	table_init(out, "busy", busy_cols, NCOLS(busy_cols));
	if (b.disjoint)
		snprintf(out->caption, sizeof(out->caption), "%s",
			 _("GPU busy: the inputs do not overlap in time, so each GPU's wall time "
			   "is its input's span"));
	else
		snprintf(out->caption, sizeof(out->caption),
			 P_("GPU busy: %zu GPU over %s of wall time",
			    "GPU busy: %zu GPUs over %s of wall time", b.n),
			 b.n, units_format_ns(b.wall, wall, sizeof(wall)));
	for (size_t i = 0; i < b.n && (!limit || i < limit); i++) {
		const struct busy_row *r = &b.rows[i];
		struct table_cell *c = table_add_row(out);
		trace_gpu_label(t, r->gpu, label, sizeof(label));
		table_set_text(&c[0], label, strlen(label));
		c[1].num = (int64_t)r->ops;
		c[2].num = r->sum;
		c[3].num = r->busy;
		c[4].num = r->wall;
		c[5].pct = busy_row_percent(&b, r);
		const char *place = trace_gpu_place(t, r->gpu);
		table_set_text(&c[6], place, strlen(place));
		c[7].num = r->first;
		c[8].num = r->last;
		c[9].num = sat_sub(r->last, r->first);
		c[10].pct = busy_row_span_percent(r);
	}
}

void report_busy(const struct trace *t, size_t limit, const struct selection *sel, struct table *out)
{
	struct busy b;
	busy_per_gpu(t, sel, &b);
	report_busy_table(t, limit, &b, out);
	busy_free(&b);
}

/* Rows by GPU in the natural order of their labels, then by counter name. */
struct counter_row {
	char gpu[128];
	const char *name;
	const struct counter_summary *sum;
};

static int by_gpu_name(const void *a, const void *b, void *ctx)
{
	const struct counter_row *x = a, *y = b;
	(void)ctx;
	int c = natcmp(x->gpu, y->gpu);
	c = c ? c : natcmp(x->name, y->name);
	return c ? c : (x->sum->series > y->sum->series) - (x->sum->series < y->sum->series);
}

/* Every counter series: the window applies, the filter does not (counters
 * have no name it matches). */
void report_counters(const struct trace *t, size_t limit, const struct selection *sel, struct table *out)
{
	size_t n;
	struct counter_summary *rows = counter_summarize(&t->counters, sel ? &sel->window : NULL, &n);
	table_init(out, "counters", counter_cols, NCOLS(counter_cols));
	snprintf(out->caption, sizeof(out->caption), P_("Counters: %zu series", "Counters: %zu series", n),
		 n);
	struct counter_row *order = xmalloc_array(n ? n : 1, sizeof(*order));
	for (size_t i = 0; i < n; i++) {
		const struct trace_counter *s = &t->counters.series[rows[i].series];
		trace_device_label(t, s->domain, s->input, s->device, order[i].gpu, sizeof(order[i].gpu));
		order[i].name = trace_str(t, s->name);
		order[i].sum = &rows[i];
	}
	sort_with(order, n, sizeof(*order), by_gpu_name, NULL);
	for (size_t i = 0; i < n && (!limit || i < limit); i++) {
		const struct counter_summary *r = order[i].sum;
		struct table_cell *c = table_add_row(out);
		table_set_text(&c[0], order[i].gpu, strlen(order[i].gpu));
		table_set_text(&c[1], order[i].name, strlen(order[i].name));
		c[2].num = (int64_t)r->samples;
		c[3].val = r->min;
		c[4].val = r->max;
		c[5].val = r->avg;
	}
	free(order);
	free(rows);
}

enum api_need report_needs_apis(enum report_kind kind)
{
	switch (kind) {
	case REPORT_IDLE:
	case REPORT_LAUNCH:
		return API_NEED_LAUNCHES;
	case REPORT_GAPS: /* its cpu column reads the other calls again */
		return API_NEED_LAUNCHES;
	case REPORT_COUNTERS: /* read with the API rows */
	case REPORT_API:
	case REPORT_MARKERS:
	case REPORT_RANGES:
	case REPORT_STEPS:
		return API_NEED_ALL;
	default:
		return API_NEED_NONE;
	}
}

int report_build(const struct trace *t, enum report_kind kind, const struct report_params *p,
		 const struct selection *sel, struct table *out)
{
	switch (kind) {
	case REPORT_TOP:
	case REPORT_KTOP:
		report_profile(t, kind, p, sel, out);
		break;
	case REPORT_BUSY:
		report_busy(t, p->limit, sel, out);
		break;
	case REPORT_GAPS:
		return report_gaps(t, p, sel, out);
	case REPORT_IDLE:
		report_idle(t, p, sel, out);
		break;
	case REPORT_LAUNCH:
		report_launch(t, p, sel, out);
		break;
	case REPORT_BREAKDOWN:
		report_breakdown(t, p, sel, out);
		break;
	case REPORT_CATEGORIES:
		report_categories(t, p, sel, out);
		break;
	case REPORT_COUNTERS:
		report_counters(t, p->limit, sel, out);
		break;
	case REPORT_RANKS:
		report_ranks(t, p, sel, out);
		break;
	case REPORT_API:
		report_api(t, p, sel, out);
		break;
	case REPORT_MARKERS:
		report_markers(t, p, sel, out);
		break;
	case REPORT_RANGES:
		report_ranges(t, p, sel, out);
		break;
	case REPORT_STEPS:
		report_steps(t, p, sel, out);
		break;
	}
	return 0;
}

void report_write(const struct table *tb, const struct trace *t, enum table_format format, FILE *out)
{
	switch (format) {
	case FORMAT_TEXT:
		table_write_text(tb, out);
		break;
	case FORMAT_CSV:
		table_write_csv(tb, out);
		break;
	case FORMAT_MD:
		table_write_md(tb, out);
		break;
	case FORMAT_JSON: {
		const char **paths = xmalloc_array(t->ninputs, sizeof(*paths));
		for (size_t i = 0; i < t->ninputs; i++)
			paths[i] = t->inputs[i].path;
		table_write_json(tb, paths, t->ninputs, out);
		free(paths);
		break;
	}
	}
}
