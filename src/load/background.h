/* The API rows of a trace read on a thread of their own, so that the
 * viewer shows the ops at once and the timeline's CPU lanes follow. */
#ifndef RPDTOP_LOAD_BACKGROUND_H
#define RPDTOP_LOAD_BACKGROUND_H

#include "trace/api_order.h"
#include "trace/trace.h"
#include "util/error.h"

struct bg_apis;

/* Start reading t's API rows; t is only read meanwhile (its op ids) and
 * must not change until bg_apis_finish or bg_apis_cancel. NULL when
 * there is nothing to read in the background. */
struct bg_apis *bg_apis_start(const struct trace *t);
/* Has the reading ended (then bg_apis_finish does not wait)? */
int bg_apis_done(const struct bg_apis *b);
/* Wait for the reading, move its rows into t and free b; *order (freed
 * first) becomes t's API order, made on the reading thread. */
int bg_apis_finish(struct bg_apis *b, struct trace *t, struct api_order *order, struct rpd_error *err);
/* Wait for the reading and drop its rows. */
void bg_apis_cancel(struct bg_apis *b);

#endif
