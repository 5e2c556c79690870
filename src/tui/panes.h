/* The views there are; each lives in a file of its own. */
#ifndef RPDTOP_PANES_H
#define RPDTOP_PANES_H

#include "analysis/profile.h"
#include "tui/view.h"

struct app;

struct view pane_profile_new(struct app *app, enum profile_scope scope);
struct view pane_busy_new(struct app *app);
struct view view_detail_new(struct app *app, enum profile_scope scope, uint32_t name);
struct view view_help_new(struct app *app);

#endif
