/* The views there are; each lives in a file of its own. */
#ifndef RPDTOP_PANES_H
#define RPDTOP_PANES_H

#include "analysis/profile.h"
#include "tui/view.h"

struct app;

struct view pane_profile_new(struct app *app, enum profile_scope scope);
struct view pane_busy_new(struct app *app);
struct view pane_timeline_new(struct app *app);
/* Details of a profile row; percent is its share of the scope's time. */
struct view view_detail_new(struct app *app, enum profile_scope scope, const struct profile_row *row,
			    double percent);
struct view view_help_new(struct app *app);

#endif
