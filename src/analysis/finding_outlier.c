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
#include "util/units.h"
#include "util/xalloc.h"

struct inst {
	uint32_t gpu, name, row;
	int64_t dur;
};

static int by_group(const void *pa, const void *pb)
{
	const struct inst *a = pa, *b = pb;
	if (a->gpu != b->gpu)
		return a->gpu < b->gpu ? -1 : 1;
	if (a->name != b->name)
		return a->name < b->name ? -1 : 1;
	if (a->dur != b->dur)
		return a->dur < b->dur ? -1 : 1;
	return (a->row > b->row) - (a->row < b->row);
}

/* One name's instances on one GPU, v[0..n) by duration. */
static void group(struct findings_ctx *c, const struct inst *v, size_t n, const int64_t *gpu_time,
		  struct findings *out)
{
	long double sum = 0, sq = 0;
	for (size_t i = 0; i < n; i++)
		sum += v[i].dur;
	long double mean = sum / n;
	for (size_t i = 0; i < n; i++)
		sq += (v[i].dur - mean) * (v[i].dur - mean);
	double std = (double)sqrtl(sq / n);
	/* Nearest rank: the smallest value with half of them at or below it. */
	int64_t median = v[(n + 1) / 2 - 1].dur;
	const struct findings_thresholds *th = &c->ap->findings;
	int64_t excess = 0;
	size_t count = 0;
	for (size_t i = n; i-- > 0;) {
		double z = std > 0 ? (double)((v[i].dur - mean) / std) : 0;
		if (!(z > th->outlier_z && (double)v[i].dur > th->outlier_ratio * (double)median))
			break; /* by duration: the rest are slower still, or not outliers */
		excess = sat_add(excess, v[i].dur - median);
		count++;
	}
	if (count == 0 || findings_percent(excess, gpu_time[v[0].gpu]) < th->outlier_pct)
		return;
	const struct inst *worst = &v[n - 1];
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
	int64_t *gpu_time = xcalloc(t->ngpus ? t->ngpus : 1, sizeof(*gpu_time));
	size_t n = 0;
	for (size_t i = 0; i < t->ops.n; i++) {
		if (c->sel && !selection_bit(c->sel->op_bits, i))
			continue;
		uint32_t gpu = trace_op_gpu(t, i);
		int64_t dur = t->ops.end[i] - t->ops.start[i];
		gpu_time[gpu] = sat_add(gpu_time[gpu], select_clipped(c->sel ? &c->sel->window : NULL,
								      t->ops.start[i], t->ops.end[i]));
		if (t->ops.kind[i] == OP_KERNEL)
			v[n++] = (struct inst){ gpu, t->ops.name[i], (uint32_t)i, dur };
	}
	qsort(v, n, sizeof(*v), by_group);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && v[j].gpu == v[i].gpu && v[j].name == v[i].name; j++)
			;
		group(c, v + i, j - i, gpu_time, out);
	}
	free(gpu_time);
	free(v);
}
