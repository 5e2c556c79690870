/* Idle's partial result: the gaps' lanes, one per GPU, each whole in its
 * part. */
#include "config.h"
#include "analysis/gaps.h"

#include <stdlib.h>
#include <string.h>

#include "util/satmath.h"
#include "util/sort.h"
#include "util/xalloc.h"

void idle_part_init(struct idle_part *p)
{
	memset(p, 0, sizeof(*p));
}

void idle_part_free(struct idle_part *p)
{
	free(p->lanes);
	free(p->gpus.v);
	memset(p, 0, sizeof(*p));
}

void idle_part_add(struct idle_part *p, const struct trace *t, const struct selection *sel, int64_t threshold)
{
	struct gaps g;
	struct part_gpus f;
	struct gaps_params gp = { .threshold = threshold, .per_queue = 0, .keep = 0 };
	gaps_find(t, sel, &gp, &g);
	part_gpus_of(t, &f);
	p->ops = t->ops.n;
	p->first = t->op_first_start;
	p->last = t->op_last_end;
	/* Every GPU that ran an op, its lane empty when the selection keeps
	 * none of them: the whole load orders its lanes among all its GPUs. */
	const struct gap_lane **lane = xcalloc(t->ngpus ? t->ngpus : 1, sizeof(*lane));
	for (size_t i = 0; i < g.nlanes; i++)
		lane[g.lanes[i].lane] = &g.lanes[i];
	for (size_t k = 0; k < t->ngpus; k++) {
		if (!part_gpu_ran(&f, (uint32_t)k))
			continue;
		static const struct gap_lane none;
		struct part_gpu pg = part_gpu_of(t, &f, (uint32_t)k);
		p->lanes = xgrow(p->lanes, &p->cap, p->n + 1, sizeof(*p->lanes));
		p->lanes[p->n++] = lane[k] ? *lane[k] : none;
		part_gpu_list_add(&p->gpus, &pg);
	}
	free(lane);
	part_gpus_free(&f);
	gaps_free(&g);
}

void idle_part_encode(const struct idle_part *p, struct bytes_out *b)
{
	bytes_put_u64(b, p->ops);
	bytes_put_i64(b, p->first);
	bytes_put_i64(b, p->last);
	bytes_put_u64(b, p->n);
	for (size_t i = 0; i < p->n; i++) {
		const struct gap_lane *l = &p->lanes[i];
		part_put_gpu(b, &p->gpus.v[i]);
		bytes_put_u64(b, l->ops);
		bytes_put_i64(b, l->first);
		bytes_put_i64(b, l->last);
		bytes_put_i64(b, l->busy);
		bytes_put_u64(b, l->ngaps);
		for (int c = 0; c < GAP_NCAUSES; c++)
			bytes_put_i64(b, l->cause_ns[c]);
		bytes_put_i64(b, l->max_gap);
		for (int h = 0; h < GAPS_NBUCKETS; h++)
			bytes_put_u64(b, l->hist[h]);
	}
}

int idle_part_merge(struct idle_part *p, const struct part_in *in)
{
	struct bytes_in *r = in->in;
	uint64_t ops = bytes_get_u64(r);
	int64_t first = bytes_get_i64(r), last = bytes_get_i64(r);
	if (ops && (!p->ops || first < p->first))
		p->first = first;
	if (ops && (!p->ops || last > p->last))
		p->last = last;
	p->ops += ops;
	uint64_t count = bytes_get_count(r, PART_GPU_BYTES + 8 * (6 + GAP_NCAUSES + GAPS_NBUCKETS));
	for (uint64_t i = 0; i < count && !r->bad; i++) {
		struct part_gpu g;
		if (part_get_gpu(in, &g))
			break;
		part_gpu_list_add(&p->gpus, &g);
		p->lanes = xgrow(p->lanes, &p->cap, p->n + 1, sizeof(*p->lanes));
		struct gap_lane *l = &p->lanes[p->n++];
		memset(l, 0, sizeof(*l));
		l->ops = bytes_get_u64(r);
		l->first = bytes_get_i64(r);
		l->last = bytes_get_i64(r);
		l->busy = bytes_get_i64(r);
		l->ngaps = bytes_get_u64(r);
		for (int c = 0; c < GAP_NCAUSES; c++)
			l->cause_ns[c] = bytes_get_i64(r);
		l->max_gap = bytes_get_i64(r);
		for (int h = 0; h < GAPS_NBUCKETS; h++)
			l->hist[h] = bytes_get_u64(r);
	}
	return r->bad ? -1 : 0;
}

/* The lanes in the idle report's order: by GPU (trace_gpu_cmp), then by
 * index, as lane_ops_report_order sorts them. */
static int by_lane_gpu(const void *a, const void *b, void *ctx)
{
	const struct trace *t = ctx;
	uint32_t x = ((const struct gap_lane *)a)->lane, y = ((const struct gap_lane *)b)->lane;
	int c = trace_gpu_cmp(t, x, y);
	return c ? c : (x > y) - (x < y);
}

void idle_part_finish(struct idle_part *p, struct trace *whole, const struct window *window, struct gaps *out)
{
	memset(out, 0, sizeof(*out));
	if (p->ops) {
		out->range_start = p->first;
		out->range_end = p->last;
	}
	if (window && window->active) {
		out->range_start = window->start;
		out->range_end = window->end;
	}
	uint32_t *gpu = xcalloc(p->n ? p->n : 1, sizeof(*gpu));
	size_t *order = part_make_gpus(whole, p->gpus.v, p->n, gpu);
	out->lanes = xcalloc(p->n ? p->n : 1, sizeof(*out->lanes));
	for (size_t i = 0; i < p->n; i++) {
		out->lanes[i] = p->lanes[order[i]];
		out->lanes[i].lane = gpu[order[i]];
	}
	sort_with(out->lanes, p->n, sizeof(*out->lanes), by_lane_gpu, whole);
	/* Lanes of no op in the selection are not listed. */
	for (size_t i = 0; i < p->n; i++) {
		struct gap_lane *l = &out->lanes[i];
		if (!l->ops)
			continue;
		l->leading = sat_sub(l->first, out->range_start);
		l->trailing = sat_sub(out->range_end, l->last);
		out->lanes[out->nlanes++] = *l;
	}
	free(order);
	free(gpu);
	idle_part_free(p);
}
