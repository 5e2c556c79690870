#include "config.h"
#include "present/report_waits.h"

#include <stdio.h>

#include "analysis/launch.h"
#include "display/names.h"
#include "present/report_cells.h"
#include "util/i18n.h"

#define NCOLS(a) (sizeof(a) / sizeof((a)[0]))

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
