/* The gaps of each GPU's busy set (analysis/gaps.h) as the timeline moves
 * from one to the next and tells which one the cursor is in: every gap of
 * the selection, by GPU and start, made again when the selection changes
 * (between keys, never while drawing). No drawing here. */
#ifndef RPDTOP_TIMELINE_GAPS_H
#define RPDTOP_TIMELINE_GAPS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/gaps.h"

struct tl_gaps {
	struct gaps g;
	uint32_t *by_start; /* indexes into g.gaps by GPU, then start */
	unsigned generation;
	int64_t threshold;
	int ready;
};

/* The gaps of this selection (whose generation it is), with causes by
 * the threshold; nothing is done when they are those already. */
void tl_gaps_update(struct tl_gaps *x, const struct trace *t, const struct selection *sel,
		    unsigned generation, int64_t threshold);
/* Are they those of this selection and threshold? */
int tl_gaps_current(const struct tl_gaps *x, unsigned generation, int64_t threshold);
/* The gap of GPU gpu with start <= time < end, or NULL. */
const struct gap *tl_gaps_at(const struct tl_gaps *x, uint32_t gpu, int64_t time);
/* GPU gpu's span and idle ends, or NULL when it has no op in view. */
const struct gap_lane *tl_gaps_lane(const struct tl_gaps *x, uint32_t gpu);
/* The first gap of GPU gpu starting after time (dir > 0), or the last one
 * starting before it (dir < 0), at least least ns long; NULL when none. */
const struct gap *tl_gaps_step(const struct tl_gaps *x, uint32_t gpu, int64_t time, int dir, int64_t least);
void tl_gaps_free(struct tl_gaps *x);

#endif
