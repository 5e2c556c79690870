#include "config.h"
#include "present/report.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/gaps.h"
#include "display/names.h"
#include "present/report_cells.h"
#include "util/i18n.h"
#include "util/satmath.h"
#include "util/units.h"
#include "util/xalloc.h"

static const struct table_col gaps_cols[] = {
	{ "gpu", N_("GPU"), COL_LABEL },     { "start_ns", N_("START"), COL_COUNT },
	{ "end_ns", N_("END"), COL_COUNT },  { "gap_ns", N_("GAP"), COL_NS },
	{ "cause", N_("CAUSE"), COL_LABEL }, { "before", N_("BEFORE"), COL_NAME },
	{ "after", N_("AFTER"), COL_NAME },  { "cpu", N_("CPU"), COL_NAME },
};

static void gaps_table(const struct trace *t, const struct report_params *p, const struct gaps *g,
		       const struct gap_names *names, int64_t idle, struct table *out)
{
	char total[UNITS_BUFSZ];
	table_init(out, "gaps", gaps_cols, NCOLS(gaps_cols));
	snprintf(out->caption, sizeof(out->caption),
		 _("GPU gaps, longest first: %llu gaps, %s idle between ops"), (unsigned long long)g->total,
		 units_format_ns(idle, total, sizeof(total)));
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
		if (names->cpu_after[i] && names->cpu[i] != TRACE_NONE)
			names_set_cell_after(&c[7], p->names, t, names->cpu[i]);
		else
			names_set_cell(&c[7], p->names, t, names->cpu[i]);
	}
}

/* The gaps found and their names, between start and finish: the names
 * of a trace holding its launching calls alone are asked of the inputs. */
struct gaps_job {
	struct gaps g;
	struct gap_names names;
};

static void *start(const struct trace *t, const struct report_params *p, const struct selection *sel,
		   struct call_asks **asks)
{
	struct gaps_job *j = xmalloc(sizeof(*j));
	struct gaps_params gp = { .threshold = p->analysis->gap_threshold,
				  .per_queue = p->analysis->per_queue,
				  .keep = p->limit ? p->limit : SIZE_MAX };
	gaps_find(t, sel, &gp, &j->g);
	gap_names_find(t, p->order, &j->g, &j->names);
	*asks = &j->names.asks;
	return j;
}

static void drop(void *job)
{
	struct gaps_job *j = job;
	gap_names_free(&j->names);
	gaps_free(&j->g);
	free(j);
}

static void finish(void *job, const struct trace *t, const struct report_params *p, struct table *out)
{
	struct gaps_job *j = job;
	gap_names_answered(&j->names);
	gaps_table(t, p, &j->g, &j->names, gaps_idle_time(&j->g), out);
	drop(j);
}

/* Node group by node group: every group's gaps, the longest kept. Of
 * each queue, a lane's label would need the queues' names. */
static int can_merge(const struct report_params *p)
{
	return !p->analysis->per_queue;
}

static void *part_new(const struct report_params *p)
{
	struct gaps_part *part = xmalloc(sizeof(*part));
	(void)p;
	gaps_part_init(part);
	return part;
}

static void part_add(void *part, const struct trace *t, const struct selection *sel,
		     const struct report_params *p, struct call_asks **asks)
{
	struct gaps_part *x = part;
	struct gaps_params gp = { .threshold = p->analysis->gap_threshold,
				  .per_queue = 0,
				  .keep = p->limit ? p->limit : SIZE_MAX };
	gaps_part_add(x, t, sel, &gp, p->order);
	*asks = &x->made.asks;
}

static void part_encode(void *part, const struct trace *t, struct bytes_out *b)
{
	gaps_part_encode(part, t, b);
}

static int part_merge(void *part, const struct part_in *in)
{
	return gaps_part_merge(part, in);
}

static void part_table(void *part, struct trace *whole, const struct window *window,
		       const struct report_params *p, struct table *out)
{
	struct gaps g;
	struct gap_names names;
	(void)window;
	int64_t idle = gaps_part_finish(part, whole, p->limit, &g, &names);
	gaps_table(whole, p, &g, &names, idle, out);
	gap_names_free(&names);
	gaps_free(&g);
}

static void part_free(void *part)
{
	gaps_part_free(part);
	free(part);
}

static const struct report_merge merge = { can_merge,  part_new,   part_add, part_encode,
					   part_merge, part_table, part_free };

const struct report_def report_gaps = { .name = "gaps",
					.help = N_("idle gaps, longest first"),
					.cols = gaps_cols,
					.ncols = NCOLS(gaps_cols),
					/* its cpu column reads the other calls again */
					.apis = API_NEED_LAUNCHES,
					.start = start,
					.finish = finish,
					.drop = drop,
					.merge = &merge };
