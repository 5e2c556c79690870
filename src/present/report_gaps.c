#include "config.h"
#include "present/report_waits.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/gaps.h"
#include "display/names.h"
#include "present/report_cells.h"
#include "util/i18n.h"
#include "util/satmath.h"
#include "util/units.h"
#include "util/xalloc.h"

#define NCOLS(a) (sizeof(a) / sizeof((a)[0]))

static const struct table_col gaps_cols[] = {
	{ "gpu", N_("GPU"), COL_LABEL },     { "start_ns", N_("START"), COL_COUNT },
	{ "end_ns", N_("END"), COL_COUNT },  { "gap_ns", N_("GAP"), COL_NS },
	{ "cause", N_("CAUSE"), COL_LABEL }, { "before", N_("BEFORE"), COL_NAME },
	{ "after", N_("AFTER"), COL_NAME },  { "cpu", N_("CPU"), COL_NAME },
};

/* Has t only the launching calls of some input? */
static int launches_only(const struct trace *t)
{
	for (size_t i = 0; i < t->ninputs; i++)
		if (t->inputs[i].launches_only)
			return 1;
	return 0;
}

/* The cpu column of a trace holding every call: from its rows. */
static void cpu_from_rows(const struct trace *t, const struct report_params *p, const struct gaps *g,
			  uint32_t *name)
{
	struct api_order own = { 0 };
	const struct api_order *order = p->order;
	if (!order || order->napis != t->apis.n) {
		api_order_build(t, &own);
		order = &own;
	}
	struct gap_cpu *cpu = gap_cpu_new(t, order);
	for (size_t i = 0; i < g->n; i++) {
		uint32_t api = gap_cpu_find(cpu, &g->gaps[i]);
		name[i] = api == TRACE_NONE ? TRACE_NONE : trace_api_shown_name(t, api);
	}
	gap_cpu_free(cpu);
	api_order_free(&own);
}

/* The cpu column of a trace holding its launching calls alone: asked of
 * the loader, all gaps at once. */
static int cpu_from_files(const struct trace *t, const struct report_params *p, const struct gaps *g,
			  uint32_t *name)
{
	struct call_probe *probe = xmalloc_array(g->n ? g->n : 1, sizeof(*probe));
	uint32_t *at = xmalloc_array(g->n ? g->n : 1, sizeof(*at));
	size_t n = 0;
	for (size_t i = 0; i < g->n; i++) {
		name[i] = TRACE_NONE;
		if (gap_cpu_moment(t, &g->gaps[i], &probe[n]))
			at[n++] = (uint32_t)i;
	}
	int rc = p->probe_calls(p->probe_ctx, probe, n);
	for (size_t k = 0; rc == 0 && k < n; k++)
		name[at[k]] = probe[k].name;
	free(probe);
	free(at);
	return rc;
}

int report_gaps_cpu(const struct trace *t, const struct report_params *p, const struct gaps *g, uint32_t *cpu)
{
	if (launches_only(t) && p->probe_calls)
		return cpu_from_files(t, p, g, cpu);
	cpu_from_rows(t, p, g, cpu);
	return 0;
}

void report_gaps_table(const struct trace *t, const struct report_params *p, const struct gaps *g,
		       const struct gap_names *names, int64_t idle, struct table *out)
{
	char total[UNITS_BUFSZ];
	table_init(out, "gaps", gaps_cols, NCOLS(gaps_cols));
	snprintf(out->caption, sizeof(out->caption),
		 _("GPU gaps, longest first: %llu gaps, %s idle between ops"), (unsigned long long)g->total,
		 units_format_ns(idle, total, sizeof(total)));
	if (p->csv_stream)
		table_stream_csv(out, p->csv_stream);
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
		names_set_cell(&c[7], p->names, t, names->cpu[i]);
	}
}

int64_t report_gaps_idle(const struct gaps *g)
{
	int64_t idle = 0;
	for (size_t k = 0; k < g->nlanes; k++)
		idle = sat_add(idle, sat_sub(gap_lane_span(&g->lanes[k]), g->lanes[k].busy));
	return idle;
}

int report_gaps(const struct trace *t, const struct report_params *p, const struct selection *sel,
		struct table *out)
{
	struct gaps g;
	struct gaps_params gp = { .threshold = p->gap_threshold,
				  .per_queue = p->per_queue,
				  .keep = p->limit ? p->limit : SIZE_MAX };
	gaps_find(t, sel, &gp, &g);
	struct gap_names names = { xmalloc_array(g.n ? g.n : 1, sizeof(uint32_t)),
				   xmalloc_array(g.n ? g.n : 1, sizeof(uint32_t)),
				   xmalloc_array(g.n ? g.n : 1, sizeof(uint32_t)) };
	/* Names are read before the rows are made: asking the loader may
	 * add strings to the trace. */
	int rc = report_gaps_cpu(t, p, &g, names.cpu);
	for (size_t i = 0; i < g.n; i++) {
		names.before[i] = t->ops.name[g.gaps[i].before];
		names.after[i] = t->ops.name[g.gaps[i].after];
	}
	if (rc == 0)
		report_gaps_table(t, p, &g, &names, report_gaps_idle(&g), out);
	else
		table_init(out, "gaps", gaps_cols, NCOLS(gaps_cols));
	free(names.before);
	free(names.after);
	free(names.cpu);
	gaps_free(&g);
	return rc;
}
