/* The application as its views see it: messages, names, views pushed
 * over the panes, the API rows asked for, a switch to the timeline. */
#include "config.h"
#include "tui/app.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "analysis/search.h"
#include "util/i18n.h"

void app_free_view(struct view *v)
{
	if (v->ops && v->ops->free)
		v->ops->free(v);
	v->ops = NULL;
}

struct view *app_top_view(struct app *app)
{
	return app->depth ? &app->stack[app->depth - 1] : &app->panes[app->active];
}

void app_push(struct app *app, struct view v)
{
	if (app->depth == APP_MAX_DEPTH) {
		app_free_view(&v);
		return;
	}
	app->stack[app->depth++] = v;
}

void app_message(struct app *app, int error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(app->message, sizeof(app->message), fmt, ap);
	va_end(ap);
	app->message_error = error;
	app->message_progress = 0;
}

/* The panes' own indexes (the timeline's lanes) are built meanwhile. */
static void prepare_panes(struct app *app)
{
	app->prepared = 1;
	for (size_t i = 0; i < app->npanes; i++)
		if (app->panes[i].ops->prepare && !app->sync)
			app->panes[i].ops->prepare(&app->panes[i], app);
}

void app_prepare_whole(struct app *app)
{
	if (!app->prepared && app->trace->apis_read && workspace_apis(app->ws) == WORKSPACE_APIS_NONE)
		prepare_panes(app);
}

void app_start_apis(struct app *app)
{
	workspace_read_apis(app->ws);
	/* A trace read whole in one pass is whole now. */
	app_prepare_whole(app);
}

/* The API rows moved in (or could not be read): say so, unless the user
 * is reading a message. */
void app_took_apis(struct app *app, int rc, const struct rpd_error *err)
{
	if (rc < 0)
		app_message(app, 1, "%s", err->msg);
	else if (!app->message[0])
		app_message(app, 0, _("%zu API calls"), app->trace->apis.n);
	prepare_panes(app);
}

int app_panes_busy(struct app *app)
{
	int most = VIEW_IDLE;
	for (size_t i = 0; i < app->npanes; i++) {
		int b = app->panes[i].ops->busy ? app->panes[i].ops->busy(&app->panes[i]) : VIEW_IDLE;
		most = b > most ? b : most;
	}
	return most;
}

void app_need_apis(struct app *app)
{
	struct rpd_error err;
	struct workspace *w = app->ws;
	if (workspace_apis(w) == WORKSPACE_APIS_READING) {
		if (app->held)
			return;
		/* A script waits for them, when no job reads the trace. */
		int rc = workspace_take_apis(w, app->sync && app_panes_busy(app) == VIEW_IDLE, &err);
		if (rc != 0)
			app_took_apis(app, rc, &err);
		return;
	}
	const struct trace *t = app->trace;
	if (t->apis.n > 0 || t->no_op_ids || app->apis_asked)
		return;
	/* Once only, even when drawing the message below asks again. */
	app->apis_asked = 1;
	app_message(app, 0, "%s", _("Reading the API calls..."));
	if (app->flush)
		app->flush(app);
	if (workspace_load_apis(w, &err))
		app_message(app, 1, "%s", err.msg);
	else
		app_message(app, 0, _("%zu API calls"), t->apis.n);
}

const struct api_order *app_order(struct app *app)
{
	/* Safe while a job reads the trace: a job uses the order only when
	 * it was made for the trace's calls, and then it is not remade. */
	session_order_calls(app->session);
	return &app->session->views[0].order;
}

const char *app_name(struct app *app, uint32_t id)
{
	return name_cache_get(&app->names, app->trace, id);
}

unsigned app_show_pane(struct app *app, size_t i)
{
	while (app->depth > 0)
		app_free_view(&app->stack[--app->depth]);
	if (i >= app->npanes)
		return ACT_NONE;
	app->active = i;
	return ACT_REDRAW;
}

unsigned app_show_in_timeline(struct app *app, uint32_t op)
{
	app->jump_op = op;
	app->jump_walk = 0;
	return app_show_pane(app, (size_t)(REQ_VIEW_TIMELINE - REQ_VIEW_PROFILE));
}

unsigned app_show_time_in_timeline(struct app *app, uint32_t queue, int64_t time, int64_t span)
{
	app->jump_queue = queue;
	app->jump_time = time;
	app->jump_span = span;
	app->jump_walk = 0;
	return app_show_pane(app, (size_t)(REQ_VIEW_TIMELINE - REQ_VIEW_PROFILE));
}

unsigned app_show_call_in_timeline(struct app *app, uint32_t api)
{
	app->jump_call = api;
	app->jump_walk = 0;
	return app_show_pane(app, (size_t)(REQ_VIEW_TIMELINE - REQ_VIEW_PROFILE));
}

unsigned app_walk_in_timeline(struct app *app, uint32_t ref)
{
	unsigned act = search_is_call(ref) ? app_show_call_in_timeline(app, search_row(ref))
					   : app_show_in_timeline(app, ref);
	app->jump_walk = 1;
	return act;
}
