/* outlier: instances far slower than their name's usual time, per kernel
 * name and GPU. Over the kernels in view (whole durations, as the
 * per-instance statistics take them): an instance is an outlier when its
 * z-score (against the mean and the population standard deviation of its
 * name's instances on its GPU) is above outlier_z and its duration above
 * outlier_ratio times the median (nearest rank); the time at stake is the
 * sum of the outliers' durations minus the median, reported when it is
 * outlier_pct or more of the GPU's time (the sum of its ops' durations in
 * view). The worst instance is the slowest. */
#include "config.h"
#include "analysis/findings.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/params.h"
#include "util/i18n.h"
#include "util/idmap.h"
#include "util/satmath.h"
#include "util/sort.h"
#include "util/units.h"
#include "util/xalloc.h"

/* The kernels in view grouped by name and GPU, as the rule reads them:
 * group k's durations are d[first[k] .. first[k + 1]), in op order; its
 * slowest instance (the last of equals) is worst[k]. */
struct kernel_groups {
	int64_t *d;
	size_t *first;
	uint32_t *worst;
	size_t n;
};

/* One name's instances on one GPU: d[0..n) in op order, reordered here.
 * An outlier's test holds of every duration above one that passes it, so
 * the outliers are found by a pass over them, not by sorting them all. */
static void group(struct findings_ctx *c, int64_t *d, size_t n, uint32_t worst, const int64_t *gpu_time,
		  struct findings *out)
{
	long double sum = 0, sq = 0;
	const struct trace *t = c->t;
	int64_t worst_dur = sat_sub(t->ops.end[worst], t->ops.start[worst]);
	for (size_t i = 0; i < n; i++)
		sum += d[i];
	long double mean = sum / n;
	for (size_t i = 0; i < n; i++)
		sq += (d[i] - mean) * (d[i] - mean);
	double std = (double)sqrtl(sq / n);
	/* Nearest rank: the smallest value with half of them at or below it. */
	int64_t median = select_int64(d, n, (n + 1) / 2 - 1);
	const struct findings_thresholds *th = &c->ap->findings;
	size_t count = 0;
	for (size_t i = 0; i < n; i++) {
		double z = std > 0 ? (double)((d[i] - mean) / std) : 0;
		if (z > th->outlier_z && (double)d[i] > th->outlier_ratio * (double)median)
			d[count++] = d[i];
	}
	/* Summed from the slowest down, as saturating sums depend on order. */
	sort_int64(d, count);
	int64_t excess = 0;
	for (size_t i = count; i-- > 0;)
		excess = sat_add(excess, sat_sub(d[i], median));
	uint32_t gpu = trace_op_gpu(t, worst);
	if (count == 0 || findings_percent(excess, gpu_time[gpu]) < th->outlier_pct)
		return;
	struct finding *f = findings_add(out, FINDING_outlier);
	f->gpu = gpu;
	f->name = t->ops.name[worst];
	f->time_ns = excess;
	f->share = findings_percent(excess, gpu_time[gpu]);
	f->count = count;
	f->start = t->ops.start[worst];
	f->end = t->ops.end[worst];
	char w[32], m[32];
	finding_say(f, _("%zu of %zu instances far slower than the median %s; the worst %s (z %.1f)"), count,
		    n, units_format_ns(median, m, sizeof(m)), units_format_ns(worst_dur, w, sizeof(w)),
		    std > 0 ? (double)((worst_dur - mean) / std) : 0.0);
}

/* Two passes over the ops, 4 bytes per op and 8 per kernel between them:
 * each kernel's group (hashed by GPU and name) and each GPU's time, then
 * the durations placed group by group. */
static void kernel_groups(const struct findings_ctx *c, int64_t *gpu_time, struct kernel_groups *g)
{
	const struct trace *t = c->t;
	uint32_t *of = xmalloc_huge(t->ops.n ? t->ops.n : 1, sizeof(*of));
	size_t cap = 0, kernels = 0;
	struct idmap ids;
	idmap_init(&ids);
	memset(g, 0, sizeof(*g));
	for (size_t i = 0; i < t->ops.n; i++) {
		of[i] = UINT32_MAX;
		if (c->sel && !selection_bit(c->sel->op_bits, i))
			continue;
		uint32_t gpu = trace_op_gpu(t, i), id;
		gpu_time[gpu] = sat_add(gpu_time[gpu], select_clipped(c->sel ? &c->sel->window : NULL,
								      t->ops.start[i], t->ops.end[i]));
		if (t->ops.kind[i] != OP_KERNEL)
			continue;
		uint64_t key = (uint64_t)gpu << 32 | t->ops.name[i];
		if (!idmap_get(&ids, key, &id)) {
			id = (uint32_t)g->n++;
			idmap_put(&ids, key, id);
			g->first = xgrow(g->first, &cap, g->n + 2, sizeof(*g->first));
			g->first[id + 2] = 0;
			g->worst = xrealloc_array(g->worst, cap, sizeof(*g->worst));
			g->worst[id] = (uint32_t)i;
		}
		of[i] = id;
		g->first[id + 2]++;
		if (sat_sub(t->ops.end[i], t->ops.start[i]) >=
		    sat_sub(t->ops.end[g->worst[id]], t->ops.start[g->worst[id]]))
			g->worst[id] = (uint32_t)i;
		kernels++;
	}
	idmap_free(&ids);
	if (!g->first)
		g->first = xcalloc(2, sizeof(*g->first));
	g->first[0] = g->first[1] = 0;
	for (size_t k = 2; k < g->n + 2; k++)
		g->first[k] += g->first[k - 1];
	/* first[k + 1] is group k's fill point as it fills: then its end. */
	g->d = xmalloc_huge(kernels ? kernels : 1, sizeof(*g->d));
	for (size_t i = 0; i < t->ops.n; i++)
		if (of[i] != UINT32_MAX)
			g->d[g->first[of[i] + 1]++] = sat_sub(t->ops.end[i], t->ops.start[i]);
	free(of);
}

void finding_outlier(struct findings_ctx *c, struct findings *out)
{
	const struct trace *t = c->t;
	int64_t *gpu_time = xcalloc(t->ngpus ? t->ngpus : 1, sizeof(*gpu_time));
	struct kernel_groups g;
	kernel_groups(c, gpu_time, &g);
	for (size_t k = 0; k < g.n; k++)
		group(c, g.d + g.first[k], g.first[k + 1] - g.first[k], g.worst[k], gpu_time, out);
	free(g.d);
	free(g.first);
	free(g.worst);
	free(gpu_time);
}
