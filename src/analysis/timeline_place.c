#include "config.h"
#include "analysis/timeline_place.h"

static uint32_t owner(const struct tl_lane *l)
{
	return l->kind == TL_GPU ? l->queue : l->kind == TL_COUNTER ? l->series : l->thread;
}

struct tl_place timeline_place(const struct timeline *tl, size_t i, size_t k)
{
	const struct tl_lane *l = &tl->lanes[i];
	struct tl_place p = { l->kind, owner(l), l->depth, TRACE_NONE };
	if (k < l->n)
		p.row = l->ops[k];
	return p;
}

static int owned_by(const struct tl_lane *l, int kind, uint32_t want)
{
	return l->kind == kind && owner(l) == want;
}

size_t timeline_find_row(const struct timeline *tl, int kind, uint32_t owner, uint32_t row, int64_t start,
			 size_t *k)
{
	for (size_t i = 0; i < tl->nlanes; i++) {
		const struct tl_lane *l = &tl->lanes[i];
		if (!owned_by(l, kind, owner))
			continue;
		/* Rows that start together: the first is found, then the row. */
		size_t r = timeline_before(l, start);
		while (r < l->n && timeline_start(l, r) <= start && l->ops[r] != row)
			r++;
		if (r < l->n && l->ops[r] == row) {
			*k = r;
			return i;
		}
	}
	return tl->nlanes;
}

size_t timeline_place_lane(const struct timeline *tl, const struct trace *t, const struct tl_place *p)
{
	size_t k, best = tl->nlanes;
	if (p->row != TRACE_NONE) {
		const int64_t *start = p->kind == TL_GPU ? t->ops.start : t->apis.start;
		size_t n = p->kind == TL_GPU ? t->ops.n : t->apis.n;
		size_t i = p->row < n ? timeline_find_row(tl, p->kind, p->owner, p->row, start[p->row], &k)
				      : tl->nlanes;
		if (i < tl->nlanes)
			return i;
	}
	for (size_t i = 0; i < tl->nlanes; i++) {
		const struct tl_lane *l = &tl->lanes[i];
		if (!owned_by(l, p->kind, p->owner))
			continue;
		if (l->kind != TL_CPU || l->depth == p->depth)
			return i;
		if (l->depth < p->depth && (best == tl->nlanes || l->depth > tl->lanes[best].depth))
			best = i;
	}
	return best;
}
