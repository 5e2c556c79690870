/* What is around each gap: the ops either side, and what the host was
 * doing (from the rows, or asked of the inputs). */
#include "config.h"
#include "analysis/gaps.h"

#include <stdlib.h>
#include <string.h>

#include "util/satmath.h"
#include "util/xalloc.h"

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
			  uint32_t *name, unsigned char *after)
{
	struct api_order own = { 0 };
	if (!order || order->napis != t->apis.n) {
		api_order_build(t, &own);
		order = &own;
	}
	struct gap_cpu *cpu = gap_cpu_new(t, order);
	for (size_t i = 0; i < g->n; i++) {
		int past;
		uint32_t api = gap_cpu_find(cpu, &g->gaps[i], &past);
		name[i] = api == TRACE_NONE ? TRACE_NONE : trace_api_shown_name(t, api);
		after[i] = (unsigned char)past;
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
	out->cpu_after = xcalloc(n, sizeof(*out->cpu_after));
	for (size_t i = 0; i < g->n; i++) {
		out->before[i] = t->ops.name[g->gaps[i].before];
		out->after[i] = t->ops.name[g->gaps[i].after];
		out->cpu[i] = TRACE_NONE;
	}
	if (launches_only(t))
		cpu_asks(t, g, &out->asks);
	else
		cpu_from_rows(t, order, g, out->cpu, out->cpu_after);
}

void gap_names_answered(struct gap_names *n)
{
	for (size_t k = 0; k < n->asks.n; k++) {
		n->cpu[n->asks.at[k]] = n->asks.probe[k].name;
		n->cpu_after[n->asks.at[k]] = (unsigned char)n->asks.probe[k].after;
	}
}

void gap_names_free(struct gap_names *n)
{
	free(n->before);
	free(n->after);
	free(n->cpu);
	free(n->cpu_after);
	free(n->asks.probe);
	free(n->asks.at);
	memset(n, 0, sizeof(*n));
}

int64_t gaps_idle_time(const struct gaps *g)
{
	int64_t idle = 0;
	for (size_t k = 0; k < g->nlanes; k++)
		idle = sat_add(idle, sat_sub(gap_lane_span(&g->lanes[k]), g->lanes[k].busy));
	return idle;
}
