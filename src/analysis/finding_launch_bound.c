/* launch-bound: kernels that take less time to run than to launch, per
 * kernel name and GPU. Of the kernels in view launched by a call (not by a
 * graph launch: a replay's nodes pay no launch each), those whose call
 * lasted longer than the kernel ran (whole durations) count; the time at
 * stake is, summed over them, the lesser of the GPU's gap just before the
 * kernel (0 when the GPU was busy then) and the call's duration: the idle
 * the launches cost. Reported at launch_bound_min instances or more and
 * launch_bound_pct of the GPU's span or more; the worst instance is the
 * one of the most such time. */
#include "config.h"
#include "analysis/findings.h"

#include <stdlib.h>

#include "analysis/graphs.h"
#include "analysis/params.h"
#include "util/i18n.h"
#include "util/idmap.h"
#include "util/satmath.h"
#include "util/sort.h"
#include "util/units.h"
#include "util/xalloc.h"

/* A launch that took longer than its kernel ran: the others are only
 * counted (launch_group.total). */
struct launch_inst {
	uint32_t group, row;
	int64_t kernel, call, lost;
};

/* A kernel name on one GPU: its key (gpu << 32 | name) and launches. */
struct launch_group {
	uint64_t key;
	size_t total;
};

/* Each op's gap just before it (0 when none), by op row: the gaps come
 * lane by lane, so a dense array makes the ops' walk by row sequential. */
static int64_t *gaps_before(const struct gaps *g, size_t nops)
{
	int64_t *len = xcalloc(nops ? nops : 1, sizeof(*len));
	/* Backwards, so that of two gaps before one op the first is kept. */
	for (size_t i = g->n; i-- > 0;)
		if (g->gaps[i].after < nops)
			len[g->gaps[i].after] = sat_sub(g->gaps[i].end, g->gaps[i].start);
	return len;
}

static int64_t median(int64_t *v, size_t n)
{
	sort_int64(v, n);
	return v[(n + 1) / 2 - 1];
}

/* One name's launch-bound instances on one GPU, all[idx[0..n)], by row. */
static void group(struct findings_ctx *c, const struct launch_group *gr, const struct launch_inst *all,
		  const uint32_t *idx, size_t n, int64_t span, struct findings *out)
{
	const struct findings_thresholds *th = &c->ap->findings;
	int64_t lost = 0;
	const struct launch_inst *worst = NULL;
	for (size_t i = 0; i < n; i++) {
		const struct launch_inst *x = &all[idx[i]];
		lost = sat_add(lost, x->lost);
		if (!worst || x->lost > worst->lost)
			worst = x;
	}
	if (n == 0 || n < th->launch_bound_min || findings_percent(lost, span) < th->launch_bound_pct)
		return;
	int64_t *k = xmalloc_array(n, sizeof(*k)), *a = xmalloc_array(n, sizeof(*a));
	for (size_t i = 0; i < n; i++) {
		k[i] = all[idx[i]].kernel;
		a[i] = all[idx[i]].call;
	}
	struct finding *f = findings_add(out, FINDING_launch_bound);
	f->gpu = (uint32_t)(gr->key >> 32);
	f->name = (uint32_t)gr->key;
	f->time_ns = lost;
	f->share = findings_percent(lost, span);
	f->count = n;
	f->start = c->t->ops.start[worst->row];
	f->end = c->t->ops.end[worst->row];
	char km[32], cm[32];
	finding_say(
		f, _("%zu of %zu launches took longer than the kernel ran: kernel median %s, call median %s"),
		n, gr->total, units_format_ns(median(k, n), km, sizeof(km)),
		units_format_ns(median(a, n), cm, sizeof(cm)));
	free(k);
	free(a);
}

/* The kernels' groups, numbered as first launched, and the launch-bound
 * instances among the launches, by row. */
struct launches {
	struct launch_group *group;
	size_t ngroups, groups_cap;
	struct launch_inst *inst;
	size_t n, cap;
};

static uint32_t group_of(struct launches *l, struct idmap *ids, uint64_t key)
{
	uint32_t id;
	if (idmap_get(ids, key, &id))
		return id;
	l->group = xgrow(l->group, &l->groups_cap, l->ngroups + 1, sizeof(*l->group));
	l->group[l->ngroups] = (struct launch_group){ key, 0 };
	id = (uint32_t)l->ngroups++;
	idmap_put(ids, key, id);
	return id;
}

static void launches_find(struct findings_ctx *c, struct launches *l)
{
	const struct trace *t = c->t;
	int64_t *before = gaps_before(findings_ctx_gaps(c), t->ops.n);
	struct graph_calls graphs;
	graph_calls_init(&graphs, t);
	struct idmap ids;
	idmap_init(&ids);
	uint64_t last = UINT64_MAX;
	uint32_t id = 0;
	for (size_t i = 0; i < t->ops.n; i++) {
		uint32_t api = trace_op_launch(t, (uint32_t)i);
		if ((c->sel && !selection_bit(c->sel->op_bits, i)) || t->ops.kind[i] != OP_KERNEL ||
		    api == TRACE_NONE || graph_call_of(t, &graphs, (uint32_t)i) != TRACE_NONE)
			continue;
		uint64_t key = (uint64_t)trace_op_gpu(t, i) << 32 | t->ops.name[i];
		if (key != last)
			id = group_of(l, &ids, last = key);
		l->group[id].total++;
		int64_t kernel = sat_sub(t->ops.end[i], t->ops.start[i]);
		int64_t call = sat_sub(t->apis.end[api], t->apis.start[api]);
		if (call <= kernel)
			continue;
		l->inst = xgrow(l->inst, &l->cap, l->n + 1, sizeof(*l->inst));
		l->inst[l->n++] = (struct launch_inst){ id, (uint32_t)i, kernel, call,
							before[i] < call ? before[i] : call };
	}
	idmap_free(&ids);
	graph_calls_free(&graphs);
	free(before);
}

void finding_launch_bound(struct findings_ctx *c, struct findings *out)
{
	const int64_t *span = findings_ctx_spans(c);
	struct launches l = { 0 };
	launches_find(c, &l);
	uint32_t *of = xmalloc_array(l.n ? l.n : 1, sizeof(*of));
	for (size_t i = 0; i < l.n; i++)
		of[i] = l.inst[i].group;
	struct findings_groups gr;
	findings_group_ids(of, l.n, l.ngroups, &gr);
	for (size_t k = 0; k < gr.n; k++)
		group(c, &l.group[k], l.inst, gr.rows + gr.first[k], gr.first[k + 1] - gr.first[k],
		      span[(uint32_t)(l.group[k].key >> 32)], out);
	findings_groups_free(&gr);
	free(of);
	free(l.inst);
	free(l.group);
}
