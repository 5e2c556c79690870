/* The lanes' index, built on a thread of its own (analysis/timeline_job.h)
 * whenever the selection, the dimming or the API rows change, and shown
 * once it is done; the previous one is shown until then. */
#ifndef RPDTOP_TIMELINE_INDEX_H
#define RPDTOP_TIMELINE_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "tui/timeline/state.h"

struct app;
struct view;

/* Wait for the job's index; the trace may change again. */
void finish_job(struct timeline_pane *p, struct timeline *tl);
/* The index taken when its job is done, and a job started when the
 * selection, the dimming or the API rows changed. */
void tl_ensure_ready(struct timeline_pane *p, struct app *app);
/* Are the lanes those of the current filter, window and dimming (waited
 * for)? Else says so and returns 0: the key acts on nothing. */
int tl_need_lanes(struct timeline_pane *p, struct app *app);
/* An op to show (Enter in a table) once the index is there, and the
 * launch sizes of the kernel under the cursor. */
unsigned timeline_idle(struct view *v, struct app *app);

#endif
