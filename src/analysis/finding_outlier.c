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

#include "analysis/durstat.h"
#include "analysis/params.h"
#include "util/i18n.h"
#include "util/satmath.h"
#include "util/sort.h"
#include "util/units.h"
#include "util/xalloc.h"

struct inst {
	uint32_t gpu, name, row;
	int64_t dur;
};

/* One name's instances on one GPU: v[idx[0..n)], in op order. */
static void group(struct findings_ctx *c, const struct inst *v, const uint32_t *idx, size_t n,
		  const int64_t *gpu_time, struct findings *out)
{
	long double sum = 0, sq = 0;
	int64_t *d = xmalloc_array(n, sizeof(*d));
	const struct inst *worst = &v[idx[0]];
	for (size_t i = 0; i < n; i++) {
		const struct inst *x = &v[idx[i]];
		sum += x->dur;
		d[i] = x->dur;
		/* The slowest; of equals the last in op order. */
		if (x->dur >= worst->dur)
			worst = x;
	}
	long double mean = sum / n;
	for (size_t i = 0; i < n; i++)
		sq += (d[i] - mean) * (d[i] - mean);
	double std = (double)sqrtl(sq / n);
	sort_int64(d, n);
	/* Nearest rank: the smallest value with half of them at or below it. */
	int64_t median = d[(n + 1) / 2 - 1];
	const struct findings_thresholds *th = &c->ap->findings;
	int64_t excess = 0;
	size_t count = 0;
	for (size_t i = n; i-- > 0;) {
		double z = std > 0 ? (double)((d[i] - mean) / std) : 0;
		if (!(z > th->outlier_z && (double)d[i] > th->outlier_ratio * (double)median))
			break; /* by duration: the rest are not outliers either */
		excess = sat_add(excess, sat_sub(d[i], median));
		count++;
	}
	free(d);
	if (count == 0 || findings_percent(excess, gpu_time[worst->gpu]) < th->outlier_pct)
		return;
	struct finding *f = findings_add(out, FINDING_outlier);
	f->gpu = worst->gpu;
	f->name = worst->name;
	f->time_ns = excess;
	f->share = findings_percent(excess, gpu_time[worst->gpu]);
	f->count = count;
	f->start = c->t->ops.start[worst->row];
	f->end = c->t->ops.end[worst->row];
	char w[32], m[32];
	finding_say(f, _("%zu of %zu instances far slower than the median %s; the worst %s (z %.1f)"), count,
		    n, units_format_ns(median, m, sizeof(m)), units_format_ns(worst->dur, w, sizeof(w)),
		    std > 0 ? (double)((worst->dur - mean) / std) : 0.0);
}

void finding_outlier(struct findings_ctx *c, struct findings *out)
{
	const struct trace *t = c->t;
	struct inst *v = xmalloc_array(t->ops.n ? t->ops.n : 1, sizeof(*v));
	uint64_t *key = xmalloc_array(t->ops.n ? t->ops.n : 1, sizeof(*key));
	int64_t *gpu_time = xcalloc(t->ngpus ? t->ngpus : 1, sizeof(*gpu_time));
	size_t n = 0;
	for (size_t i = 0; i < t->ops.n; i++) {
		if (c->sel && !selection_bit(c->sel->op_bits, i))
			continue;
		uint32_t gpu = trace_op_gpu(t, i);
		int64_t dur = sat_sub(t->ops.end[i], t->ops.start[i]);
		gpu_time[gpu] = sat_add(gpu_time[gpu], select_clipped(c->sel ? &c->sel->window : NULL,
								      t->ops.start[i], t->ops.end[i]));
		if (t->ops.kind[i] == OP_KERNEL) {
			key[n] = (uint64_t)gpu << 32 | t->ops.name[i];
			v[n++] = (struct inst){ gpu, t->ops.name[i], (uint32_t)i, dur };
		}
	}
	struct findings_groups g;
	findings_group(key, n, &g);
	for (size_t k = 0; k < g.n; k++)
		group(c, v, g.rows + g.first[k], g.first[k + 1] - g.first[k], gpu_time, out);
	findings_groups_free(&g);
	free(key);
	free(gpu_time);
	free(v);
}
