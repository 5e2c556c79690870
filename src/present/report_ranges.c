#include "config.h"
#include "present/report.h"

#include <stdio.h>

#include "analysis/markers.h"
#include "present/report_cells.h"
#include "util/i18n.h"
#include "util/satmath.h"

static const struct table_col range_cols[] = {
	{ "name", N_("NAME"), COL_NAME },          { "start_ns", N_("START"), COL_COUNT },
	{ "dur_ns", N_("DURATION"), COL_NS },      { "depth", N_("DEPTH"), COL_COUNT },
	{ "pid", N_("PID"), COL_COUNT },           { "tid", N_("TID"), COL_COUNT },
	{ "gpu_ns", N_("GPU"), COL_NS },           { "ops", N_("OPS"), COL_COUNT },
	{ "gpu_span_ns", N_("GPU SPAN"), COL_NS },
};

static void build(const struct trace *t, const struct report_params *p, const struct selection *sel,
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

/* Every instance, in time order: no node group's merge yet, the whole
 * load is read. */
const struct report_def report_ranges = { .name = "ranges",
					  .help = N_("every roctx range"),
					  .cols = range_cols,
					  .ncols = NCOLS(range_cols),
					  .apis = API_NEED_ALL,
					  .uses = REPORT_USES_CALL_ORDER,
					  .build = build,
					  .merge = &report_whole_load };
