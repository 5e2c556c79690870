/* The lanes' index, built on a thread of its own (analysis/timeline_job.h)
 * whenever the selection, the dimming or the API rows change, and shown
 * once it is done; the previous one is shown until then. */
#ifndef RPDTOP_TIMELINE_INDEX_H
#define RPDTOP_TIMELINE_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "tui/timeline/state.h"

struct app;

/* Wait for the job's index; the trace may change again. */
void finish_job(struct timeline_pane *p, struct timeline *tl);
void ensure_ready(struct timeline_pane *p, struct app *app);
/* Lanes of the current filter, window and dimming for a key that acts on
 * them: they are waited for, unless a script holds background work back
 * (then the key says so and does nothing). */
int lanes_current(struct timeline_pane *p, struct app *app);
int need_lanes(struct timeline_pane *p, struct app *app);

#endif
