/* graph-gap: idle inside graph replays, per GPU and launch site: the gaps
 * whose cause is graph (analysis/gaps.h: both ops either side are nodes of
 * one replay) grouped by the graph the replay ran (analysis/graphs.h: as
 * the input names it, rpd's graphExec, else the launching call's name).
 * Their time, reported when it is graph_gap_pct of the GPU's span or more;
 * the worst instance is the longest gap. */
#include "config.h"
#include "analysis/findings.h"

#include <stdlib.h>

#include "analysis/graphs.h"
#include "analysis/params.h"
#include "util/i18n.h"
#include "util/satmath.h"
#include "util/units.h"
#include "util/xalloc.h"

static int by_u32(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	return (a > b) - (a < b);
}

/* One graph's gaps on one GPU: all[idx[0..n)], by start. */
static void group(struct findings_ctx *c, const struct gap_item *all, const uint32_t *idx, size_t n,
		  int64_t span, struct findings *out)
{
	const struct gap_item *worst;
	int64_t sum = gap_items_sum(all, idx, n, &worst);
	if (findings_percent(sum, span) < c->ap->findings.graph_gap_pct)
		return;
	uint32_t *calls = xmalloc_array(n, sizeof(*calls));
	for (size_t i = 0; i < n; i++)
		calls[i] = all[idx[i]].call;
	qsort(calls, n, sizeof(*calls), by_u32);
	size_t replays = 0;
	for (size_t i = 0; i < n; i++)
		replays += i == 0 || calls[i] != calls[i - 1];
	free(calls);
	struct finding *f = findings_add(out, FINDING_graph_gap);
	f->gpu = worst->gpu;
	f->name = worst->key;
	f->time_ns = sum;
	f->share = findings_percent(sum, span);
	f->count = n;
	f->start = worst->start;
	f->end = worst->end;
	char w[32];
	finding_say(f, _("%zu gaps inside %zu replays of the graph, the longest %s"), n, replays,
		    units_format_ns(sat_sub(worst->end, worst->start), w, sizeof(w)));
}

void finding_graph_gap(struct findings_ctx *c, struct findings *out)
{
	const struct trace *t = c->t;
	const struct gaps *g = findings_ctx_gaps(c);
	struct graph_calls graphs;
	graph_calls_init(&graphs, t);
	struct gap_item *v = xmalloc_array(g->n ? g->n : 1, sizeof(*v));
	size_t n = 0;
	for (size_t i = 0; i < g->n; i++) {
		const struct gap *x = &g->gaps[i];
		uint32_t call = x->cause == GAP_GRAPH ? graph_call_of(t, &graphs, x->after) : TRACE_NONE;
		if (call != TRACE_NONE)
			v[n++] = (struct gap_item){ x->lane, graph_name_of(t, call), call, x->start, x->end };
	}
	findings_gap_groups(c, v, n, group, out);
	free(v);
	graph_calls_free(&graphs);
}
