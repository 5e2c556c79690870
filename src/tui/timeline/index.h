/* The lanes' index, built on a thread of its own (analysis/timeline_job.h)
 * whenever the selection, the dimming or the API rows change, and shown
 * once it is done; the previous one is shown until then. And the pane's
 * work between events, which waits for it. */
#ifndef RPDTOP_TIMELINE_INDEX_H
#define RPDTOP_TIMELINE_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "tui/timeline/state.h"

struct app;

/* The index taken when its job is done, and a job started when the
 * selection, the dimming or the API rows changed. */
void tl_ensure_ready(struct timeline_pane *p, struct app *app);
/* Are the lanes those of the current filter, window and dimming? They
 * are waited for, unless a script holds background work back. */
int tl_lanes_current(struct timeline_pane *p, struct app *app);
/* tl_lanes_current for a key that acts on the lanes: when they are not,
 * says so and returns 0 (the key does nothing). */
int tl_need_lanes(struct timeline_pane *p, struct app *app);
/* Is the next index being built (enum view_busy)? */
int tl_index_busy(const struct timeline_pane *p);
/* The index and the job building the next one (waited for) freed. */
void tl_index_free(struct timeline_pane *p);

#endif
