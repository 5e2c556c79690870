#include "config.h"
#include "present/report_waits.h"

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

/* The host's call at each of g's gaps, from t's rows: t holds every call
 * (order: its API order, made here when it is not of these rows). */
static void cpu_from_rows(const struct trace *t, const struct api_order *order, const struct gaps *g,
			  uint32_t *name)
{
	struct api_order own = { 0 };
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

/* The moments to ask the loader about, all gaps at once: t holds its
 * launching calls alone. */
static void cpu_asks(const struct trace *t, const struct gaps *g, struct call_asks *asks)
{
	asks->probe = xmalloc_array(g->n ? g->n : 1, sizeof(*asks->probe));
	asks->at = xmalloc_array(g->n ? g->n : 1, sizeof(*asks->at));
	asks->n = 0;
	for (size_t i = 0; i < g->n; i++)
		if (gap_cpu_moment(t, &g->gaps[i], &asks->probe[asks->n]))
			asks->at[asks->n++] = (uint32_t)i;
}

void gap_names_find(const struct trace *t, const struct api_order *order, const struct gaps *g,
		    struct gap_names *out)
{
	size_t n = g->n ? g->n : 1;
	memset(out, 0, sizeof(*out));
	out->before = xmalloc_array(n, sizeof(*out->before));
	out->after = xmalloc_array(n, sizeof(*out->after));
	out->cpu = xmalloc_array(n, sizeof(*out->cpu));
	for (size_t i = 0; i < g->n; i++) {
		out->before[i] = t->ops.name[g->gaps[i].before];
		out->after[i] = t->ops.name[g->gaps[i].after];
		out->cpu[i] = TRACE_NONE;
	}
	if (launches_only(t))
		cpu_asks(t, g, &out->asks);
	else
		cpu_from_rows(t, order, g, out->cpu);
}

void gap_names_answered(struct gap_names *n)
{
	for (size_t k = 0; k < n->asks.n; k++)
		n->cpu[n->asks.at[k]] = n->asks.probe[k].name;
}

void gap_names_free(struct gap_names *n)
{
	free(n->before);
	free(n->after);
	free(n->cpu);
	free(n->asks.probe);
	free(n->asks.at);
	memset(n, 0, sizeof(*n));
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

int64_t gaps_idle_time(const struct gaps *g)
{
	int64_t idle = 0;
	for (size_t k = 0; k < g->nlanes; k++)
		idle = sat_add(idle, sat_sub(gap_lane_span(&g->lanes[k]), g->lanes[k].busy));
	return idle;
}

/* The gaps found and their names, between report_gaps_start and
 * report_gaps_finish. */
struct gaps_job {
	struct gaps g;
	struct gap_names names;
};

void *report_gaps_start(const struct trace *t, const struct report_params *p, const struct selection *sel,
			struct call_asks **asks)
{
	struct gaps_job *j = xmalloc(sizeof(*j));
	struct gaps_params gp = { .threshold = p->gap_threshold,
				  .per_queue = p->per_queue,
				  .keep = p->limit ? p->limit : SIZE_MAX };
	gaps_find(t, sel, &gp, &j->g);
	gap_names_find(t, p->order, &j->g, &j->names);
	*asks = &j->names.asks;
	return j;
}

void report_gaps_finish(void *job, const struct trace *t, const struct report_params *p, struct table *out)
{
	struct gaps_job *j = job;
	gap_names_answered(&j->names);
	report_gaps_table(t, p, &j->g, &j->names, gaps_idle_time(&j->g), out);
	report_gaps_drop(j);
}

void report_gaps_drop(void *job)
{
	struct gaps_job *j = job;
	gap_names_free(&j->names);
	gaps_free(&j->g);
	free(j);
}
