/* A place in the timeline that outlives its index: a lane named by what
 * it shows (a GPU queue, a thread's nesting row) and the event on it.
 * Lanes are numbered anew whenever the index is rebuilt (another filter,
 * the API rows come in); a place finds its event, or its lane, again. */
#ifndef RPDTOP_TIMELINE_PLACE_H
#define RPDTOP_TIMELINE_PLACE_H

#include "analysis/timeline.h"

struct tl_place {
	int kind;       /* enum tl_kind */
	uint32_t owner; /* the queue (TL_GPU) or the thread (TL_CPU) */
	int depth;      /* TL_CPU: the nesting row */
	uint32_t row;   /* the op or call on it, or TRACE_NONE */
};

/* The place of lane i with its k-th row (k >= the lane's n: no row). */
struct tl_place timeline_place(const struct timeline *tl, size_t i, size_t k);
/* The lane of this kind and owner (any nesting row) that holds row, which
 * starts at start; *k is its place there. tl->nlanes when none does. */
size_t timeline_find_row(const struct timeline *tl, int kind, uint32_t owner, uint32_t row, int64_t start,
			 size_t *k);
/* Where a place is in tl: the lane holding its row when the row is still
 * there, else its own lane, else its thread's deepest row above it, else
 * tl->nlanes. */
size_t timeline_place_lane(const struct timeline *tl, const struct trace *t, const struct tl_place *p);

#endif
