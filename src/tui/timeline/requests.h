/* The timeline's requests: each one's handling, and what a move in time
 * that moved nothing says. */
#ifndef RPDTOP_TIMELINE_REQUESTS_H
#define RPDTOP_TIMELINE_REQUESTS_H

#include <stddef.h>
#include <stdint.h>

#include "tui/request.h"
#include "tui/timeline/state.h"

struct app;

/* A request to the timeline; ACT_UNHANDLED when it is not one of its own. */
unsigned tl_request(struct timeline_pane *p, struct app *app, enum request req);

#endif
