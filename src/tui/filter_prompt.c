/* Filters and the window from the keyboard: \ (F4) replaces the filter,
 * & stacks a rule, Delete removes the last, W sets the window, @ and #
 * the GPU and input filters. A bad pattern
 * keeps the prompt open with PCRE2's message; what was in force stays.
 * The session takes each change; the loop remakes the selection. */
#include "config.h"
#include "tui/filter_prompt.h"

#include <stdio.h>
#include <string.h>

#include "session/named.h"
#include "util/i18n.h"

static void say_selected(struct app *app)
{
	const struct selection *sel = app_sel(app);
	char err[512];
	if (filter_limit_hit(&app->session->filter, err, sizeof(err)))
		app_message(app, 1, "%s", err);
	else if (app->announce == ANNOUNCE_WINDOW)
		app_message(app, 0, _("%zu of %zu GPU ops are in the window"), sel->nops, app->trace->ops.n);
	else if (session_filtered(app->session) && sel->nops == 0)
		app_message(app, 1, "%s", _("No GPU op passes the filter"));
	else if (session_filtered(app->session))
		app_message(app, 0, _("%zu of %zu GPU ops pass"), sel->nops, app->trace->ops.n);
	else
		app_message(app, 0, "%s", _("No filter"));
}

void app_reselect(struct app *app)
{
	if (session_refresh(app->session) && app->announce)
		say_selected(app);
	app->announce = ANNOUNCE_NONE;
}

/* The loop remakes the selection and says what it keeps. */
static unsigned reselect(struct app *app, int announce)
{
	app->announce = announce;
	return ACT_REDRAW | ACT_RESELECT;
}

/* ctx is non-NULL for "add" (stack a rule on those in force). */
static unsigned filter_done(struct app *app, const char *text, int accepted, void *ctx)
{
	char err[512];
	if (!accepted)
		return ACT_REDRAW;
	int rc;
	if (ctx)
		rc = *text ? session_add_filter(app->session, text, err, sizeof(err)) : 0;
	else
		rc = session_set_filter(app->session, (const char *const[]){ text }, *text ? 1 : 0, err,
					sizeof(err));
	if (rc) {
		prompt_error(&app->prompt, err);
		return ACT_STAY;
	}
	return reselect(app, ANNOUNCE_PASS);
}

static unsigned window_done(struct app *app, const char *text, int accepted, void *ctx)
{
	char err[512];
	(void)ctx;
	if (!accepted)
		return ACT_REDRAW;
	/* roctx ranges are API rows: taken in when they have been read. */
	if (window_names_markers(text))
		app_need_apis(app);
	if (session_set_window(app->session, text, err, sizeof(err))) {
		prompt_error(&app->prompt, err);
		return ACT_STAY;
	}
	return reselect(app, ANNOUNCE_PASS);
}

unsigned app_prompt_filter(struct app *app, int add)
{
	static int adding = 1;
	struct prompt_owner owner = { NULL, filter_done, add ? &adding : NULL };
	prompt_open(&app->prompt, add ? _("And filter: ") : _("Filter: "), NULL, &owner);
	return ACT_REDRAW;
}

/* ctx is non-NULL for the GPU filter; the other place filter stays. */
static unsigned place_done(struct app *app, const char *text, int accepted, void *ctx)
{
	char err[512];
	const struct session *s = app->session;
	const char *gpu = s->gpus.n ? s->gpus.rules[0].text : NULL;
	const char *input = s->inputs.n ? s->inputs.rules[0].text : NULL;
	if (!accepted)
		return ACT_REDRAW;
	if (session_set_places(app->session, ctx ? text : gpu, ctx ? input : text, err, sizeof(err))) {
		prompt_error(&app->prompt, err);
		return ACT_STAY;
	}
	return reselect(app, ANNOUNCE_PASS);
}

unsigned app_prompt_place(struct app *app, int gpu)
{
	static int gpus = 1;
	const struct filter *f = gpu ? &app->session->gpus : &app->session->inputs;
	struct prompt_owner owner = { NULL, place_done, gpu ? &gpus : NULL };
	prompt_open(&app->prompt, gpu ? _("GPUs: ") : _("Inputs: "), f->n ? f->rules[0].text : NULL, &owner);
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
	if (!session_pop_filter(app->session)) {
		app_message(app, 0, "%s", _("No filter to remove"));
		return ACT_REDRAW;
	}
	return reselect(app, ANNOUNCE_PASS);
}

unsigned app_set_window_ns(struct app *app, int64_t start, int64_t end)
{
	if (end <= start) {
		session_clear_window(app->session);
		return reselect(app, ANNOUNCE_NONE);
	}
	session_set_window_ns(app->session, start, end);
	return reselect(app, ANNOUNCE_WINDOW);
}
