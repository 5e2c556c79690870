/* Filters and the window from the keyboard: / replaces the filter, &
 * stacks a rule, \ removes the last, W sets the window. A bad pattern
 * keeps the prompt open with PCRE2's message; what was in force stays. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "tui/app.h"
#include "util/i18n.h"

void app_select(struct app *app)
{
	selection_free(&app->sel);
	selection_build(app->trace, &app->filter, &app->window, &app->sel);
	app->generation++;
}

static void say_selected(struct app *app)
{
	if (app->sel.filtered && app->sel.nops == 0)
		app_message(app, 1, "%s", _("No GPU op passes the filter"));
	else if (app->sel.filtered)
		app_message(app, 0, _("%zu of %zu GPU ops pass"), app->sel.nops, app->trace->ops.n);
	else
		app_message(app, 0, "%s", _("No filter"));
}

/* ctx is non-NULL for "add" (stack a rule on those in force). */
static int filter_done(struct app *app, const char *text, int accepted, void *ctx)
{
	char err[512];
	if (!accepted)
		return 0;
	struct filter next;
	filter_init(&next);
	if (ctx) {
		for (size_t i = 0; i < app->filter.n; i++)
			filter_push(&next, app->filter.rules[i].text, err, sizeof(err));
	}
	if (*text && filter_push(&next, text, err, sizeof(err))) {
		filter_free(&next);
		prompt_error(&app->prompt, err);
		return 1;
	}
	filter_free(&app->filter);
	app->filter = next;
	app_select(app);
	say_selected(app);
	return 0;
}

static int window_done(struct app *app, const char *text, int accepted, void *ctx)
{
	char err[512];
	struct window w = { 0 };
	(void)ctx;
	if (!accepted)
		return 0;
	if (*text &&
	    window_parse(text, app->trace->op_first_start, app->trace->op_last_end, &w, err, sizeof(err))) {
		prompt_error(&app->prompt, err);
		return 1;
	}
	app->window = w;
	app_select(app);
	say_selected(app);
	return 0;
}

unsigned app_prompt_filter(struct app *app, int add)
{
	static int adding = 1;
	struct prompt_owner owner = { NULL, filter_done, add ? &adding : NULL };
	prompt_open(&app->prompt, add ? _("And filter: ") : _("Filter: "), NULL, &owner);
	return ACT_REDRAW;
}

unsigned app_prompt_window(struct app *app)
{
	struct prompt_owner owner = { NULL, window_done, NULL };
	prompt_open(&app->prompt, _("Window: "), NULL, &owner);
	return ACT_REDRAW;
}

unsigned app_pop_filter(struct app *app)
{
	if (!filter_pop(&app->filter)) {
		app_message(app, 0, "%s", _("No filter to remove"));
		return ACT_REDRAW;
	}
	app_select(app);
	say_selected(app);
	return ACT_REDRAW;
}
