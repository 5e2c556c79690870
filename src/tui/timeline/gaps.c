#include "config.h"
#include "tui/timeline/gaps.h"

#include <stdlib.h>
#include <string.h>

#include "util/satmath.h"
#include "util/xalloc.h"

/* The gaps by GPU, each GPU's by start: gaps_find leaves them lane by lane
 * in start order, so a counting sort by lane keeps that order. */
static uint32_t *by_gpu_start(const struct gaps *g)
{
	uint32_t nl = 0;
	for (size_t i = 0; i < g->n; i++)
		nl = g->gaps[i].lane + 1 > nl ? g->gaps[i].lane + 1 : nl;
	size_t *first = xcalloc((size_t)nl + 1, sizeof(*first));
	for (size_t i = 0; i < g->n; i++)
		first[g->gaps[i].lane + 1]++;
	for (uint32_t k = 0; k < nl; k++)
		first[k + 1] += first[k];
	uint32_t *v = xmalloc_huge(g->n ? g->n : 1, sizeof(*v));
	for (size_t i = 0; i < g->n; i++)
		v[first[g->gaps[i].lane]++] = (uint32_t)i;
	free(first);
	return v;
}

int tl_gaps_current(const struct tl_gaps *x, unsigned generation, int64_t threshold)
{
	return x->ready && x->generation == generation && x->threshold == threshold;
}

void tl_gaps_update(struct tl_gaps *x, const struct trace *t, const struct selection *sel,
		    unsigned generation, int64_t threshold)
{
	if (tl_gaps_current(x, generation, threshold))
		return;
	tl_gaps_free(x);
	struct gaps_params p = { .threshold = threshold, .keep = SIZE_MAX, .in_lane_order = 1 };
	gaps_find(t, sel, &p, &x->g);
	x->by_start = by_gpu_start(&x->g);
	x->generation = generation;
	x->threshold = threshold;
	x->ready = 1;
}

static const struct gap *nth(const struct tl_gaps *x, size_t i)
{
	return &x->g.gaps[x->by_start[i]];
}

/* The first place whose gap is of a later GPU, or of gpu and starts after
 * time. */
static size_t after(const struct tl_gaps *x, uint32_t gpu, int64_t time)
{
	size_t lo = 0, hi = x->g.n;
	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;
		const struct gap *g = nth(x, m);
		if (g->lane < gpu || (g->lane == gpu && g->start <= time))
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}

const struct gap *tl_gaps_at(const struct tl_gaps *x, uint32_t gpu, int64_t time)
{
	if (!x->ready)
		return NULL;
	size_t i = after(x, gpu, time);
	if (i == 0)
		return NULL;
	const struct gap *g = nth(x, i - 1);
	return g->lane == gpu && g->start <= time && time < g->end ? g : NULL;
}

const struct gap_lane *tl_gaps_lane(const struct tl_gaps *x, uint32_t gpu)
{
	for (size_t k = 0; x->ready && k < x->g.nlanes; k++)
		if (x->g.lanes[k].lane == gpu)
			return &x->g.lanes[k];
	return NULL;
}

const struct gap *tl_gaps_step(const struct tl_gaps *x, uint32_t gpu, int64_t time, int dir, int64_t least)
{
	if (!x->ready)
		return NULL;
	if (dir > 0) {
		for (size_t i = after(x, gpu, time); i < x->g.n && nth(x, i)->lane == gpu; i++)
			if (sat_sub(nth(x, i)->end, nth(x, i)->start) >= least)
				return nth(x, i);
		return NULL;
	}
	for (size_t i = after(x, gpu, sat_sub(time, 1)); i > 0 && nth(x, i - 1)->lane == gpu; i--)
		if (sat_sub(nth(x, i - 1)->end, nth(x, i - 1)->start) >= least)
			return nth(x, i - 1);
	return NULL;
}

void tl_gaps_free(struct tl_gaps *x)
{
	gaps_free(&x->g);
	free(x->by_start);
	x->by_start = NULL;
	x->ready = 0;
}
