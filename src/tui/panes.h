/* The views there are; each lives in a file of its own. */
#ifndef RPDTOP_PANES_H
#define RPDTOP_PANES_H

#include <stdint.h>

#include "analysis/profile.h"
#include "analysis/search.h"
#include "tui/view.h"

struct app;

struct view pane_profile_new(struct app *app, enum profile_scope scope);
struct view pane_busy_new(struct app *app);
struct view pane_timeline_new(struct app *app);
/* The diff of the session's two traces (--diff), by name. */
struct view pane_diff_new(struct app *app);
/* Both runs' instances of a name as the diff compares it. */
struct view view_diff_ops_new(struct app *app, const char *name);
/* Details of a profile row; percent is its share of the scope's time. */
struct view view_detail_new(struct app *app, enum profile_scope scope, const struct profile_row *row,
			    double percent);
struct view view_help_new(struct app *app);
/* The instances a query keeps (title: what they are), made again when
 * the selection changes; the query's pattern is copied. found: what the
 * query found in the current selection (copied), or NULL. */
struct view view_results_new(struct app *app, const char *title, const struct search_query *q,
			     const struct search_result *found);
/* The gaps of the GPUs' busy sets in the selection, with each GPU's
 * breakdown and idle time (as -r gaps, breakdown and idle). */
struct view view_gaps_new(struct app *app);
/* Ask for the gap threshold (} and {, kernel waits); the timeline and the
 * gaps view follow it. */
unsigned view_gaps_ask_threshold(struct app *app);
/* What [t0, t1) holds. */
struct view view_range_new(struct app *app, int64_t t0, int64_t t1);

#endif
