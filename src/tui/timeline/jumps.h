/* The jumps, each leaving a position in the history that < and > walk:
 * Enter from an op to its launch and back, to a search match, to a mark,
 * along the history, to the next gap; and to the op, call or gap another
 * view asked for. */
#ifndef RPDTOP_TIMELINE_JUMPS_H
#define RPDTOP_TIMELINE_JUMPS_H

#include <stddef.h>
#include <stdint.h>

#include "tui/timeline/state.h"

struct app;

/* Enter: from an op to the call that launched it, from a call to its op
 * (the one Enter came from when the call launched several). Each is a
 * jump: < comes back. */
unsigned tl_follow_link(struct timeline_pane *p, struct app *app);
/* To a match, or past it in direction dir to the first one on a lane
 * shown (the lane filter hides some). A jump: < comes back. */
unsigned tl_walk_matches(struct timeline_pane *p, struct app *app, uint32_t ref, int dir);
/* m, or ' with go set: the prompt for a mark's letter. */
unsigned tl_ask_mark(struct timeline_pane *p, struct app *app, int go);
/* < and >: along the jump history, each position with its view. */
unsigned tl_walk_history(struct timeline_pane *p, struct app *app, int back);
/* } and {: the next or previous gap of the cursor's GPU at least the gap
 * threshold long (shorter ones are the normal distance between launches),
 * the cursor at its start on its lane; a jump. */
unsigned tl_step_gap(struct timeline_pane *p, struct app *app, int dir);
/* The op, call or gap a table asked the timeline to show (app.h jump_*),
 * once the lanes are those of the current selection; a jump. Returns
 * ACT_* flags. */
unsigned tl_take_jumps(struct timeline_pane *p, struct app *app);

#endif
