/* The lane rules: CPU lanes hidden, the counters of GPUs that ran no op
 * hidden unless a lane filter keeps them, a lane filter on the owners'
 * labels, and folding every thread at once. */
#include "config.h"
#include "tui/timeline/lanes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void tl_lane_rules_init(struct tl_lane_rules *r)
{
	memset(r, 0, sizeof(*r));
	filter_init(&r->only);
}

void tl_lane_rules_free(struct tl_lane_rules *r)
{
	filter_free(&r->only);
	free(r->off);
	memset(r, 0, sizeof(*r));
}

size_t tl_lane_rules_apply(struct tl_lane_rules *r, const struct timeline *tl, tl_owner_label_fn label,
			   const void *ctx)
{
	if (r->noff != tl->nlanes) {
		free(r->off);
		r->noff = tl->nlanes;
		r->off = xcalloc(r->noff ? r->noff : 1, 1);
	}
	size_t shown = 0;
	/* A thread's rows share its label: it is matched once, on its first
	 * row, and its nesting rows follow it. */
	int owner_off = 0;
	for (size_t i = 0; i < tl->nlanes; i++) {
		const struct tl_lane *l = &tl->lanes[i];
		if (l->kind == TL_CPU && l->depth > 0) {
			r->off[i] = (uint8_t)owner_off;
		} else {
			/* A GPU that ran no op: its counters only when a lane
			 * filter keeps them. */
			int off = (r->cpu_hidden && l->kind == TL_CPU) || (l->idle && !r->only.n);
			if (!off && r->only.n) {
				char buf[256];
				label(ctx, l, buf, sizeof(buf));
				off = !filter_passes(&r->only, buf, strlen(buf));
			}
			r->off[i] = (uint8_t)off;
			owner_off = off;
		}
		shown += !r->off[i];
	}
	return shown;
}

int tl_lane_rules_set(struct tl_lane_rules *r, const char *text, struct filter *old, char *err,
		      size_t errsize)
{
	struct filter next;
	filter_init(&next);
	if (*text && filter_push(&next, text, err, errsize) < 0) {
		filter_free(&next);
		return -1;
	}
	*old = r->only;
	r->only = next;
	snprintf(r->text, sizeof(r->text), "%s", text);
	return 0;
}

void tl_lane_rules_restore(struct tl_lane_rules *r, struct filter *old, const char *text)
{
	filter_free(&r->only);
	r->only = *old;
	filter_init(old);
	snprintf(r->text, sizeof(r->text), "%s", text);
}

int tl_fold_all(uint8_t *folded, size_t nthreads, const struct timeline *tl)
{
	int all = 1;
	for (size_t i = 0; i < tl->nlanes && all; i++) {
		const struct tl_lane *l = &tl->lanes[i];
		if (l->kind == TL_CPU && l->depth > 0 && l->thread < nthreads && !folded[l->thread])
			all = 0;
	}
	for (size_t i = 0; i < tl->nlanes; i++) {
		const struct tl_lane *l = &tl->lanes[i];
		if (l->kind == TL_CPU && l->depth > 0 && l->thread < nthreads)
			folded[l->thread] = (uint8_t)!all;
	}
	return !all;
}
