#include "config.h"
#include "present/report.h"

#include <stdio.h>

#include "analysis/api_calls.h"
#include "present/report_cells.h"
#include "present/report_rows.h"
#include "util/i18n.h"
#include "util/units.h"

static const struct table_col api_cols[] = {
	{ "name", N_("NAME"), COL_NAME },    { "calls", N_("CALLS"), COL_COUNT },
	{ "total_ns", N_("TOTAL"), COL_NS }, { "self_ns", N_("SELF"), COL_NS },
	{ "avg_ns", N_("AVG"), COL_NS },     { "min_ns", N_("MIN"), COL_NS },
	{ "max_ns", N_("MAX"), COL_NS },     { "p50_ns", N_("P50"), COL_NS },
	{ "p99_ns", N_("P99"), COL_NS },     { "percent", N_("%"), COL_PERCENT },
};

void report_api_cells(const struct api_calls *a, const struct api_call_row *r, struct table_cell *c)
{
	c[1].num = (int64_t)r->calls;
	c[2].num = r->total;
	c[3].num = r->self;
	c[4].num = api_call_row_avg(r);
	c[5].num = r->min;
	c[6].num = r->max;
	c[7].num = r->p50;
	c[8].num = r->p99;
	c[9].pct = api_call_row_percent(a, r);
}

static void api_table(const struct trace *t, const struct report_params *p, const struct api_calls *c,
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
		report_api_cells(c, r, x);
	}
}

static void build(const struct trace *t, const struct report_params *p, const struct selection *sel,
		  struct table *out)
{
	struct api_order own;
	struct api_calls c;
	api_calls_by_name(t, report_api_order(t, p, &own), sel, &c);
	api_order_free(&own);
	api_table(t, p, &c, out);
	api_calls_free(&c);
}

/* Node group by node group: each name's calls, whole in its group (a
 * call's parent is on its own thread). */
static void part_add(void *part, const struct trace *t, const struct selection *sel,
		     const struct report_params *p, struct call_asks **asks)
{
	struct api_order own;
	(void)asks;
	api_calls_part_add(part, t, report_api_order(t, p, &own), sel);
	api_order_free(&own);
}

static void part_table(void *part, struct trace *whole, const struct window *window,
		       const struct report_params *p, struct table *out)
{
	struct api_calls c;
	(void)window;
	api_calls_part_finish(part, whole, &c);
	api_table(whole, p, &c, out);
	api_calls_free(&c);
}

static const struct report_merge merge = {
	NULL,       report_names_new, part_add, report_names_encode, report_names_merge,
	part_table, report_names_free
};

const struct report_def report_api = { .name = "api",
				       .help = N_("API calls by name"),
				       .cols = api_cols,
				       .ncols = NCOLS(api_cols),
				       .apis = API_NEED_CALLS,
				       .uses = REPORT_USES_CALL_ORDER | REPORT_USES_NO_OPS,
				       .build = build,
				       .merge = &merge };
