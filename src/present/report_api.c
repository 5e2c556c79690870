#include "config.h"
#include "present/report_cpu.h"

#include <stdio.h>

#include "analysis/api_calls.h"
#include "present/report_cells.h"
#include "util/i18n.h"
#include "util/units.h"

#define NCOLS(a) (sizeof(a) / sizeof((a)[0]))

static const struct table_col api_cols[] = {
	{ "name", N_("NAME"), COL_NAME },    { "calls", N_("CALLS"), COL_COUNT },
	{ "total_ns", N_("TOTAL"), COL_NS }, { "self_ns", N_("SELF"), COL_NS },
	{ "avg_ns", N_("AVG"), COL_NS },     { "min_ns", N_("MIN"), COL_NS },
	{ "max_ns", N_("MAX"), COL_NS },     { "p50_ns", N_("P50"), COL_NS },
	{ "p99_ns", N_("P99"), COL_NS },     { "percent", N_("%"), COL_PERCENT },
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
