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
#include "util/satmath.h"
#include "util/sort.h"
#include "util/units.h"
#include "util/xalloc.h"

struct launch_inst {
	uint32_t gpu, name, row;
	int64_t kernel, call, lost; /* durations; lost < 0: the call was shorter */
};

/* Each op's gap before it: (op row, length) pairs sorted by row. */
struct gap_before {
	uint64_t *key; /* row << 32 | index into len */
	int64_t *len;
	size_t n;
};

#define FLIP (UINT64_C(1) << 63)

static void gaps_before(const struct gaps *g, struct gap_before *out)
{
	out->key = xmalloc_array(g->n ? g->n : 1, sizeof(*out->key));
	out->len = xmalloc_array(g->n ? g->n : 1, sizeof(*out->len));
	out->n = g->n;
	for (size_t i = 0; i < g->n; i++) {
		/* Unsigned order as the signed radix sort's: the top bit flipped. */
		out->key[i] = ((uint64_t)g->gaps[i].after << 32 | i) ^ FLIP;
		out->len[i] = sat_sub(g->gaps[i].end, g->gaps[i].start);
	}
	sort_int64((int64_t *)out->key, out->n);
	for (size_t i = 0; i < out->n; i++)
		out->key[i] ^= FLIP;
}

static int64_t gap_of(const struct gap_before *b, uint32_t row)
{
	size_t lo = 0, hi = b->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if ((b->key[mid] >> 32) < row)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < b->n && (b->key[lo] >> 32) == row ? b->len[(uint32_t)b->key[lo]] : 0;
}

static int64_t median(int64_t *v, size_t n)
{
	sort_int64(v, n);
	return v[(n + 1) / 2 - 1];
}

/* One name's launched instances on one GPU, v[0..n). */
static void group(struct findings_ctx *c, const struct launch_inst *all, const uint32_t *idx, size_t n,
		  int64_t span, struct findings *out)
{
	const struct findings_thresholds *th = &c->ap->findings;
	size_t count = 0;
	int64_t lost = 0;
	const struct launch_inst *worst = NULL;
	for (size_t i = 0; i < n; i++) {
		const struct launch_inst *x = &all[idx[i]];
		if (x->lost < 0)
			continue;
		count++;
		lost = sat_add(lost, x->lost);
		if (!worst || x->lost > worst->lost)
			worst = x;
	}
	if (count == 0 || count < th->launch_bound_min || findings_percent(lost, span) < th->launch_bound_pct)
		return;
	int64_t *k = xmalloc_array(count, sizeof(*k)), *a = xmalloc_array(count, sizeof(*a));
	for (size_t i = 0, j = 0; i < n; i++)
		if (all[idx[i]].lost >= 0) {
			k[j] = all[idx[i]].kernel;
			a[j++] = all[idx[i]].call;
		}
	struct finding *f = findings_add(out, FINDING_launch_bound);
	f->gpu = worst->gpu;
	f->name = worst->name;
	f->time_ns = lost;
	f->share = findings_percent(lost, span);
	f->count = count;
	f->start = c->t->ops.start[worst->row];
	f->end = c->t->ops.end[worst->row];
	char km[32], cm[32];
	finding_say(
		f, _("%zu of %zu launches took longer than the kernel ran: kernel median %s, call median %s"),
		count, n, units_format_ns(median(k, count), km, sizeof(km)),
		units_format_ns(median(a, count), cm, sizeof(cm)));
	free(k);
	free(a);
}

void finding_launch_bound(struct findings_ctx *c, struct findings *out)
{
	const struct trace *t = c->t;
	const struct gaps *g = findings_ctx_gaps(c);
	struct gap_before before;
	gaps_before(g, &before);
	const int64_t *span = findings_ctx_spans(c);
	struct graph_calls graphs;
	graph_calls_init(&graphs, t);
	struct launch_inst *v = xmalloc_array(t->ops.n ? t->ops.n : 1, sizeof(*v));
	size_t n = 0;
	for (size_t i = 0; i < t->ops.n; i++) {
		uint32_t api = trace_op_launch(t, (uint32_t)i);
		if ((c->sel && !selection_bit(c->sel->op_bits, i)) || t->ops.kind[i] != OP_KERNEL ||
		    api == TRACE_NONE || graph_call_of(t, &graphs, (uint32_t)i) != TRACE_NONE)
			continue;
		int64_t kernel = sat_sub(t->ops.end[i], t->ops.start[i]);
		int64_t call = sat_sub(t->apis.end[api], t->apis.start[api]),
			gap = gap_of(&before, (uint32_t)i);
		v[n++] = (struct launch_inst){ trace_op_gpu(t, i),
					       t->ops.name[i],
					       (uint32_t)i,
					       kernel,
					       call,
					       call > kernel ? (gap < call ? gap : call) : -1 };
	}
	uint64_t *key = xmalloc_array(n ? n : 1, sizeof(*key));
	for (size_t i = 0; i < n; i++)
		key[i] = (uint64_t)v[i].gpu << 32 | v[i].name;
	struct findings_groups gr;
	findings_group(key, n, &gr);
	for (size_t k = 0; k < gr.n; k++)
		group(c, v, gr.rows + gr.first[k], gr.first[k + 1] - gr.first[k],
		      span[v[gr.rows[gr.first[k]]].gpu], out);
	findings_groups_free(&gr);
	free(key);
	free(v);
	graph_calls_free(&graphs);
	free(before.key);
	free(before.len);
}
