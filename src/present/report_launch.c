#include "config.h"
#include "present/report.h"

#include <stdio.h>
#include <stdlib.h>

#include "analysis/launch.h"
#include "display/names.h"
#include "present/report_cells.h"
#include "util/i18n.h"
#include "util/xalloc.h"

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

static void launch_table(const struct trace *t, const struct report_params *p, const struct launch_stats *sp,
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

static void build(const struct trace *t, const struct report_params *p, const struct selection *sel,
		  struct table *out)
{
	struct launch_stats s;
	launch_stats_by_name(t, sel, &s);
	launch_table(t, p, &s, out);
	launch_stats_free(&s);
}

/* Node group by node group: each name's latencies, merged. */
static void *part_new(const struct report_params *p)
{
	struct launch_part *part = xmalloc(sizeof(*part));
	(void)p;
	launch_part_init(part);
	return part;
}

static void part_add(void *part, const struct trace *t, const struct selection *sel,
		     const struct report_params *p, struct call_asks **asks)
{
	(void)p;
	(void)asks;
	launch_part_add(part, t, sel);
}

static void part_encode(void *part, const struct trace *t, struct bytes_out *b)
{
	launch_part_encode(part, t, b);
}

static int part_merge(void *part, const struct part_in *in)
{
	return launch_part_merge(part, in);
}

static void part_table(void *part, struct trace *whole, const struct window *window,
		       const struct report_params *p, struct table *out)
{
	struct launch_stats s;
	(void)window;
	launch_part_finish(part, whole, &s);
	launch_table(whole, p, &s, out);
	launch_stats_free(&s);
}

static void part_free(void *part)
{
	launch_part_free(part);
	free(part);
}

static const struct report_merge merge = { NULL,       part_new,   part_add, part_encode,
					   part_merge, part_table, part_free };

const struct report_def report_launch = { .name = "launch",
					  .help = N_("launch latency by name"),
					  .cols = launch_cols,
					  .ncols = NCOLS(launch_cols),
					  .apis = API_NEED_LAUNCHES,
					  .build = build,
					  .merge = &merge };
