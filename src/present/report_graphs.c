#include "config.h"
#include "present/report.h"

#include <stdio.h>
#include <stdlib.h>

#include "analysis/graphs.h"
#include "display/names.h"
#include "present/report_cells.h"
#include "util/i18n.h"
#include "util/xalloc.h"

static const struct table_col graph_cols[] = {
	{ "graph", N_("GRAPH"), COL_NAME },
	{ "replays", N_("REPLAYS"), COL_COUNT },
	{ "nodes", N_("NODES"), COL_COUNT },
	{ "ops", N_("OPS"), COL_COUNT },
	{ "launch_p50_ns", N_("LAUNCH P50"), COL_NS },
	{ "duration_p50_ns", N_("DURATION P50"), COL_NS },
	{ "duration_max_ns", N_("DURATION MAX"), COL_NS },
	{ "gpu_ns", N_("GPU"), COL_NS },
	{ "busy_percent", N_("BUSY%"), COL_PERCENT },
	{ "inner_gap_ns", N_("INNER GAP"), COL_NS },
};

static void graph_table(const struct trace *t, const struct report_params *p, const struct graph_stats *sp,
			struct table *out)
{
	const struct graph_stats s = *sp;
	table_init(out, "graphs", graph_cols, NCOLS(graph_cols));
	snprintf(out->caption, sizeof(out->caption),
		 _("Graph replays: %llu replays of %zu graphs ran %llu ops"), (unsigned long long)s.replays,
		 s.n, (unsigned long long)s.ops);
	for (size_t i = 0; i < s.n && report_want_row(p, i); i++) {
		const struct graph_row *r = &s.rows[i];
		struct table_cell *c = table_add_row(out);
		names_set_cell(&c[0], p->names, t, r->name);
		c[1].num = (int64_t)r->replays;
		c[2].num = (int64_t)r->nodes;
		c[3].num = (int64_t)r->ops;
		c[4].num = r->launch_p50;
		c[5].num = r->duration_p50;
		c[6].num = r->duration_max;
		c[7].num = r->gpu;
		c[8].pct = r->busy_percent;
		c[9].num = r->inner_gap;
	}
}

static void build(const struct trace *t, const struct report_params *p, const struct selection *sel,
		  struct table *out)
{
	struct graph_stats s;
	graph_stats_find(t, sel, &s);
	graph_table(t, p, &s, out);
	graph_stats_free(&s);
}

/* Node group by node group: each graph's replays, merged. */
static void *part_new(const struct report_params *p)
{
	struct graph_part *part = xmalloc(sizeof(*part));
	(void)p;
	graph_part_init(part);
	return part;
}

static void part_add(void *part, const struct trace *t, const struct selection *sel,
		     const struct report_params *p, struct call_asks **asks)
{
	(void)p;
	(void)asks;
	graph_part_add(part, t, sel);
}

static void part_encode(void *part, const struct trace *t, struct bytes_out *b)
{
	graph_part_encode(part, t, b);
}

static int part_merge(void *part, const struct part_in *in)
{
	return graph_part_merge(part, in);
}

static void part_table(void *part, struct trace *whole, const struct window *window,
		       const struct report_params *p, struct table *out)
{
	struct graph_stats s;
	(void)window;
	graph_part_finish(part, whole, &s);
	graph_table(whole, p, &s, out);
	graph_stats_free(&s);
}

static void part_free(void *part)
{
	graph_part_free(part);
	free(part);
}

static const struct report_merge merge = { NULL,       part_new,   part_add, part_encode,
					   part_merge, part_table, part_free };

const struct report_def report_graphs = { .name = "graphs",
					  .help = N_("graph replays: launches, durations, idle inside"),
					  .cols = graph_cols,
					  .ncols = NCOLS(graph_cols),
					  .apis = API_NEED_LAUNCHES,
					  .build = build,
					  .merge = &merge };
