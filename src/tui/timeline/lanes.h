/* Which of the timeline's lanes are shown, beyond a thread's folded
 * nesting rows: the CPU lanes can be hidden as a whole, and a lane
 * filter keeps only the lanes whose owner's label passes it (a GPU's
 * queues by "GPU 2 q0", a thread's rows by "pid/tid"; with several
 * inputs the labels carry the node or file, so one rank can be looked at
 * alone). The counter lanes of a GPU that ran no op are hidden unless a
 * lane filter is set: then the filter alone decides. The rules are kept
 * here; the pane asks for each lane. */
#ifndef RPDTOP_TIMELINE_LANES_H
#define RPDTOP_TIMELINE_LANES_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/timeline.h"
#include "session/filter.h"

struct tl_lane_rules {
	int cpu_hidden;
	struct filter only; /* no rules: every lane */
	char text[256];     /* the lane filter as typed */
	uint8_t *off;       /* per lane: hidden by these rules */
	size_t noff;
};

/* A lane's owner label (its thread's for a nesting row). */
typedef void (*tl_owner_label_fn)(const void *ctx, const struct tl_lane *l, char *buf, size_t size);

void tl_lane_rules_init(struct tl_lane_rules *r);
void tl_lane_rules_free(struct tl_lane_rules *r);

/* Work out which lanes the rules hide; again after the lanes or the rules
 * change. Returns how many are left shown. */
size_t tl_lane_rules_apply(struct tl_lane_rules *r, const struct timeline *tl, tl_owner_label_fn label,
			   const void *ctx);

static inline int tl_lane_rules_hide(const struct tl_lane_rules *r, size_t lane)
{
	return r->off && lane < r->noff && r->off[lane];
}

/* Replace the lane filter by TEXT ("" for none; "!pattern" keeps the
 * lanes that do not match). On a bad pattern returns -1 with the reason
 * in err and the rules unchanged. The previous filter is kept in *old
 * (free it, or give it back with tl_lane_rules_restore). */
int tl_lane_rules_set(struct tl_lane_rules *r, const char *text, struct filter *old, char *err,
		      size_t errsize);
void tl_lane_rules_restore(struct tl_lane_rules *r, struct filter *old, const char *text);

/* Fold every thread's nesting rows, or unfold them all when every thread
 * with nesting rows is folded already. Returns 1 when it folded. */
int tl_fold_all(uint8_t *folded, size_t nthreads, const struct timeline *tl);

#endif
