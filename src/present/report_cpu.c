#include "config.h"
#include "present/report_cpu.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/api_calls.h"
#include "analysis/markers.h"
#include "analysis/steps.h"
#include "present/report_cells.h"
#include "session/named.h"
#include "util/i18n.h"
#include "util/satmath.h"
#include "util/units.h"
#include "util/xalloc.h"

#define NCOLS(a) (sizeof(a) / sizeof((a)[0]))

static const struct table_col api_cols[] = {
	{ "name", N_("NAME"), COL_NAME },    { "calls", N_("CALLS"), COL_COUNT },
	{ "total_ns", N_("TOTAL"), COL_NS }, { "self_ns", N_("SELF"), COL_NS },
	{ "avg_ns", N_("AVG"), COL_NS },     { "min_ns", N_("MIN"), COL_NS },
	{ "max_ns", N_("MAX"), COL_NS },     { "p50_ns", N_("P50"), COL_NS },
	{ "p99_ns", N_("P99"), COL_NS },     { "percent", N_("%"), COL_PERCENT },
};

static const struct table_col marker_cols[] = {
	{ "name", N_("NAME"), COL_NAME },    { "calls", N_("CALLS"), COL_COUNT },
	{ "total_ns", N_("TOTAL"), COL_NS }, { "avg_ns", N_("AVG"), COL_NS },
	{ "min_ns", N_("MIN"), COL_NS },     { "max_ns", N_("MAX"), COL_NS },
	{ "p50_ns", N_("P50"), COL_NS },     { "gpu_ns", N_("GPU"), COL_NS },
	{ "ops", N_("OPS"), COL_COUNT },
};

static const struct table_col range_cols[] = {
	{ "name", N_("NAME"), COL_NAME },          { "start_ns", N_("START"), COL_COUNT },
	{ "dur_ns", N_("DURATION"), COL_NS },      { "depth", N_("DEPTH"), COL_COUNT },
	{ "pid", N_("PID"), COL_COUNT },           { "tid", N_("TID"), COL_COUNT },
	{ "gpu_ns", N_("GPU"), COL_NS },           { "ops", N_("OPS"), COL_COUNT },
	{ "gpu_span_ns", N_("GPU SPAN"), COL_NS },
};

static const struct table_col step_cols[] = {
	{ "step", N_("STEP"), COL_COUNT },
	{ "start_ns", N_("START"), COL_COUNT },
	{ "dur_ns", N_("DURATION"), COL_NS },
	{ "gpu_busy_ns", N_("GPU BUSY"), COL_NS },
	{ "busy_percent", N_("BUSY%"), COL_PERCENT },
	{ "top_kernel", N_("TOP KERNEL"), COL_NAME },
};

void report_api(const struct trace *t, const struct report_params *p, const struct selection *sel,
		struct table *out)
{
	struct api_order own;
	struct api_calls c;
	api_calls_by_name(t, report_api_order(t, p, &own), sel, &c);
	api_order_free(&own);
	report_api_table(t, p, &c, out);
	api_calls_free(&c);
}

void report_api_table(const struct trace *t, const struct report_params *p, const struct api_calls *c,
		      struct table *out)
{
	char total[UNITS_BUFSZ];
	table_init(out, "api", api_cols, NCOLS(api_cols));
	snprintf(out->caption, sizeof(out->caption), _("API calls by name: %llu calls, %zu names, %s"),
		 (unsigned long long)c->calls, c->n, units_format_ns(c->total, total, sizeof(total)));
	for (size_t i = 0; i < c->n && report_want_row(p, i); i++) {
		const struct api_call_row *r = &c->rows[i];
		struct table_cell *x = table_add_row(out);
		report_set_name(t, &x[0], r->name);
		x[1].num = (int64_t)r->calls;
		x[2].num = r->total;
		x[3].num = r->self;
		x[4].num = api_call_row_avg(r);
		x[5].num = r->min;
		x[6].num = r->max;
		x[7].num = r->p50;
		x[8].num = r->p99;
		x[9].pct = api_call_row_percent(c, r);
	}
}

void report_markers(const struct trace *t, const struct report_params *p, const struct selection *sel,
		    struct table *out)
{
	struct api_order own;
	struct markers m;
	struct marker_table mt;
	markers_find_any(t, report_api_order(t, p, &own), sel, &m);
	api_order_free(&own);
	markers_by_name(t, &m, sel, &mt);
	markers_free(&m);
	report_markers_table(t, p, &mt, out);
	marker_table_free(&mt);
}

void report_markers_table(const struct trace *t, const struct report_params *p, const struct marker_table *mt,
			  struct table *out)
{
	char total[UNITS_BUFSZ];
	table_init(out, "markers", marker_cols, NCOLS(marker_cols));
	snprintf(out->caption, sizeof(out->caption), _("roctx ranges by text: %zu texts, %s"), mt->n,
		 units_format_ns(mt->total, total, sizeof(total)));
	for (size_t i = 0; i < mt->n && report_want_row(p, i); i++) {
		const struct marker_row *r = &mt->rows[i];
		struct table_cell *x = table_add_row(out);
		report_set_name(t, &x[0], r->name);
		x[1].num = (int64_t)r->calls;
		x[2].num = r->total;
		x[3].num = marker_row_avg(r);
		x[4].num = r->min;
		x[5].num = r->max;
		x[6].num = r->p50;
		x[7].num = r->gpu;
		x[8].num = (int64_t)r->ops;
	}
}

void report_ranges(const struct trace *t, const struct report_params *p, const struct selection *sel,
		   struct table *out)
{
	struct api_order own;
	struct markers m;
	markers_find(t, report_api_order(t, p, &own), sel, &m);
	api_order_free(&own);
	table_init(out, "ranges", range_cols, NCOLS(range_cols));
	size_t shown = 0, in_view = 0;
	for (size_t i = 0; i < m.n; i++)
		in_view += m.v[i].in_view;
	snprintf(out->caption, sizeof(out->caption),
		 P_("roctx ranges in time order: %zu range", "roctx ranges in time order: %zu ranges",
		    in_view),
		 in_view);
	for (size_t i = 0; i < m.n && report_want_row(p, shown); i++) {
		const struct marker_inst *r = &m.v[i];
		if (!r->in_view)
			continue;
		const struct trace_thread *th = &t->threads[t->apis.thread[r->api]];
		struct table_cell *x = table_add_row(out);
		report_set_name(t, &x[0], r->name);
		x[1].num = t->apis.start[r->api];
		x[2].num = sat_sub(t->apis.end[r->api], t->apis.start[r->api]);
		x[3].num = (int64_t)r->depth;
		x[4].num = th->pid;
		x[5].num = th->tid;
		x[6].num = r->gpu;
		x[7].num = (int64_t)r->ops;
		x[8].num = sat_sub(r->last, r->first);
		shown++;
	}
	markers_free(&m);
}

/* The instances that are steps: those whose text passes --step, or by
 * default those of the most frequent outermost text. */
static uint32_t *step_rows(const struct trace *t, const struct report_params *p, size_t *n, uint32_t *deflt)
{
	uint8_t *pass;
	*deflt = TRACE_NONE;
	if (p->step) {
		pass = filter_strings(p->step, t, NULL);
	} else {
		struct api_order own;
		struct markers m;
		markers_find_any(t, report_api_order(t, p, &own), NULL, &m);
		api_order_free(&own);
		*deflt = markers_default_step(t, &m);
		markers_free(&m);
		pass = xcalloc(t->strings.count ? t->strings.count : 1, 1);
		if (*deflt != TRACE_NONE)
			pass[*deflt] = 1;
	}
	uint32_t *rows = named_marker_rows(t, pass, n);
	free(pass);
	return rows;
}

void report_steps(const struct trace *t, const struct report_params *p, const struct selection *sel,
		  struct table *out)
{
	size_t n;
	uint32_t deflt;
	uint32_t *rows = step_rows(t, p, &n, &deflt);
	struct steps s;
	steps_find(t, sel, rows, n, &s);
	free(rows);
	table_init(out, "steps", step_cols, NCOLS(step_cols));
	char pattern[256];
	if (p->step)
		filter_describe(p->step, pattern, sizeof(pattern));
	else
		snprintf(pattern, sizeof(pattern), "%s", deflt != TRACE_NONE ? trace_str(t, deflt) : "-");
	snprintf(out->caption, sizeof(out->caption), P_("Steps %s: %zu step", "Steps %s: %zu steps", s.n),
		 pattern, s.n);
	for (size_t i = 0; i < s.n && report_want_row(p, i); i++) {
		const struct step_row *r = &s.rows[i];
		struct table_cell *x = table_add_row(out);
		x[0].num = (int64_t)r->number;
		x[1].num = r->start;
		x[2].num = r->dur;
		x[3].num = r->busy;
		x[4].pct = step_busy_percent(r);
		report_set_name(t, &x[5], r->top_kernel);
	}
	steps_free(&s);
}
