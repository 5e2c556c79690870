#include "config.h"
#include "present/report.h"

#include <stdio.h>

#include "analysis/markers.h"
#include "present/report_cells.h"
#include "present/report_rows.h"
#include "util/i18n.h"
#include "util/units.h"

static const struct table_col marker_cols[] = {
	{ "name", N_("NAME"), COL_NAME },    { "calls", N_("CALLS"), COL_COUNT },
	{ "total_ns", N_("TOTAL"), COL_NS }, { "avg_ns", N_("AVG"), COL_NS },
	{ "min_ns", N_("MIN"), COL_NS },     { "max_ns", N_("MAX"), COL_NS },
	{ "p50_ns", N_("P50"), COL_NS },     { "gpu_ns", N_("GPU"), COL_NS },
	{ "ops", N_("OPS"), COL_COUNT },
};

void report_marker_cells(const struct marker_row *r, struct table_cell *c)
{
	c[1].num = (int64_t)r->calls;
	c[2].num = r->total;
	c[3].num = marker_row_avg(r);
	c[4].num = r->min;
	c[5].num = r->max;
	c[6].num = r->p50;
	c[7].num = r->gpu;
	c[8].num = (int64_t)r->ops;
}

static void markers_table(const struct trace *t, const struct report_params *p, const struct marker_table *mt,
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
		report_marker_cells(r, x);
	}
}

static void build(const struct trace *t, const struct report_params *p, const struct selection *sel,
		  struct table *out)
{
	struct api_order own;
	struct marker_table mt;
	markers_by_name(t, report_api_order(t, p, &own), sel, &mt);
	api_order_free(&own);
	markers_table(t, p, &mt, out);
	marker_table_free(&mt);
}

/* Node group by node group: each text's ranges, whole in its group (a
 * range's ops are launched on its own thread). */
static void part_add(void *part, const struct trace *t, const struct selection *sel,
		     const struct report_params *p, struct call_asks **asks)
{
	struct api_order own;
	(void)asks;
	markers_part_add(part, t, report_api_order(t, p, &own), sel);
	api_order_free(&own);
}

static void part_table(void *part, struct trace *whole, const struct window *window,
		       const struct report_params *p, struct table *out)
{
	struct marker_table mt;
	(void)window;
	markers_part_finish(part, whole, &mt);
	markers_table(whole, p, &mt, out);
	marker_table_free(&mt);
}

static const struct report_merge merge = {
	NULL,       report_names_new, part_add, report_names_encode, report_names_merge,
	part_table, report_names_free
};

const struct report_def report_markers = { .name = "markers",
					   .help = N_("roctx ranges by text"),
					   .cols = marker_cols,
					   .ncols = NCOLS(marker_cols),
					   .apis = API_NEED_ALL,
					   .uses = REPORT_USES_CALL_ORDER,
					   .build = build,
					   .merge = &merge };
