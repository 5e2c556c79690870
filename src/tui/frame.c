/* The frame around the panes: they are made here, a request goes to the
 * top view and then to the application, the title, tab and status lines
 * are drawn, and work done in the background is taken between events. */
#include "config.h"
#include "tui/frame.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "analysis/diff.h"
#include "analysis/gaps.h"
#include "tui/draw.h"
#include "tui/export_prompt.h"
#include "tui/filter_prompt.h"
#include "tui/panes.h"
#include "tui/theme.h"
#include "util/i18n.h"
#include "util/satmath.h"
#include "util/units.h"

void app_init(struct app *app, struct workspace *w, size_t pane, unsigned name_style)
{
	memset(app, 0, sizeof(*app));
	app->ws = w;
	app->session = &w->session;
	app->trace = session_trace(app->session);
	app->jump_op = TRACE_NONE;
	app->jump_call = TRACE_NONE;
	app->jump_queue = TRACE_NONE;
	analysis_params_init(&app->analysis);
	name_cache_init(&app->names, name_style);
	app->panes[app->npanes++] = pane_profile_new(app, PROFILE_ALL_OPS);
	app->panes[app->npanes++] = pane_profile_new(app, PROFILE_KERNELS);
	app->panes[app->npanes++] = pane_busy_new(app);
	app->panes[app->npanes++] = pane_timeline_new(app);
	app->panes[app->npanes++] = pane_cpu_new(app, 0);
	app->panes[app->npanes++] = pane_cpu_new(app, 1);
	app->panes[app->npanes++] = pane_findings_new(app);
	app->findings = -1;
	app->active = pane < app->npanes ? pane : 0;
	/* Two runs to compare: their diff is what was asked for. */
	if (app->session->ntraces > 1) {
		app->panes[app->npanes++] = pane_diff_new(app);
		app->active = app->npanes - 1;
	}
	/* API rows loaded with the ops (from the cache) are said to be in as
	 * when they come later. */
	if (app->trace->apis_read && app->trace->apis.n > 0)
		app_message(app, 0, _("%zu API calls"), app->trace->apis.n);
}

void app_free(struct app *app)
{
	app_export_end(app);
	while (app->depth > 0)
		app_free_view(&app->stack[--app->depth]);
	for (size_t i = 0; i < app->npanes; i++)
		app_free_view(&app->panes[i]);
	name_cache_free(&app->names);
	analysis_params_free(&app->analysis);
	prompt_free(&app->prompt);
}

int app_busy(struct app *app)
{
	return workspace_apis(app->ws) == WORKSPACE_APIS_READING || app_panes_busy(app) != VIEW_IDLE ||
	       app->export || app->export_waiting;
}

unsigned app_poll(struct app *app)
{
	struct rpd_error err;
	if (app->held)
		return ACT_NONE;
	unsigned act = app_export_poll(app);
	int panes = app_panes_busy(app);
	/* A pane's work reads the trace: the API rows move in after it
	 * (the workspace holds them back while a job reads). */
	int rc = workspace_take_apis(app->ws, 0, &err);
	if (rc != 0) {
		app_took_apis(app, rc, &err);
		return act | ACT_REDRAW;
	}
	return act | (panes == VIEW_DONE ? ACT_REDRAW : ACT_NONE);
}

unsigned app_idle(struct app *app)
{
	struct view *v = app_top_view(app);
	return v->ops->idle ? v->ops->idle(v, app) : ACT_NONE;
}

void app_wait(struct app *app)
{
	int held = app->held;
	app->held = 0;
	/* A minute at most: a script must not hang on work that never ends. */
	for (int i = 0; i < 6000 && app_busy(app); i++) {
		app_poll(app);
		for (size_t k = 0; k < app->npanes; k++)
			if (app->panes[k].ops->idle)
				app->panes[k].ops->idle(&app->panes[k], app);
		if (app_busy(app))
			usleep(10000);
	}
	app->held = held;
}

/* A request the frame answers for every view (REQ_SCOPE_APP), when the
 * view on top does not: fn is given the request, to tell those it
 * handles apart; act needs only the application. */
struct app_handling {
	unsigned (*fn)(struct app *app, enum request req);
	unsigned (*act)(struct app *app);
};

static unsigned show_pane(struct app *app, enum request req)
{
	return app_show_pane(app, (size_t)(req - REQ_VIEW_PROFILE));
}

static unsigned show_diff(struct app *app, enum request req)
{
	if (app->npanes > (size_t)(REQ_VIEW_DIFF - REQ_VIEW_PROFILE))
		return show_pane(app, req);
	app_message(app, 1, "%s", _("No diff: start rpdtop with --diff=BASE to compare two runs"));
	return ACT_REDRAW;
}

static unsigned step_pane(struct app *app, enum request req)
{
	size_t by = req == REQ_NEXT_PANE ? 1 : app->npanes - 1;
	return app_show_pane(app, (app->active + by) % app->npanes);
}

static unsigned toggle_style(struct app *app, enum request req)
{
	unsigned bit = req == REQ_TOGGLE_DEMANGLE  ? NAME_DEMANGLE
		       : req == REQ_TOGGLE_TENSILE ? NAME_TENSILE
						   : NAME_STRIP;
	unsigned style = app->names.style ^ bit;
	name_cache_set_style(&app->names, style);
	if (bit == NAME_DEMANGLE)
		app_message(app, 0, "%s", style & bit ? _("Demangled names") : _("Raw (mangled) names"));
	else if (bit == NAME_TENSILE)
		app_message(app, 0, "%s",
			    style & bit ? _("Short Tensile names (the fields that tell them apart)")
					: _("Whole Tensile names"));
	else
		app_message(app, 0, "%s",
			    style & bit ? _("Templates and arguments stripped") : _("Full names"));
	return ACT_REDRAW;
}

static unsigned push_help(struct app *app)
{
	app_push(app, view_help_new(app));
	return ACT_REDRAW;
}

static unsigned push_gaps(struct app *app)
{
	app_push(app, view_gaps_new(app));
	return ACT_REDRAW;
}

/* Quitting while an export is written asks first: a second quit stops
 * the export (no file is left) and quits. */
static unsigned quit(struct app *app)
{
	if (!app->export || app->quit_asked)
		return ACT_QUIT;
	app->quit_asked = 1;
	app_message(app, 1, _("An export to %s is being written: q again stops it and quits"),
		    app->export_path);
	return ACT_REDRAW;
}

/* Does the session hold what a person made: a filter, a window, or a
 * pane's marks or range? */
static int keeps_work(struct app *app)
{
	if (session_filtered(app->session))
		return 1;
	for (size_t i = 0; i < app->npanes; i++)
		if (app->panes[i].ops->keeps && app->panes[i].ops->keeps(&app->panes[i]))
			return 1;
	return 0;
}

/* q from a pane: quit, asking once when that loses a filter, a window or
 * marks (q again quits, any other key stays). */
static unsigned quit_asking(struct app *app)
{
	if (app->export || app->quit_asked || !keeps_work(app))
		return quit(app);
	app->quit_asked = 1;
	app_message(app, 1, "%s", _("A filter, window or marks are set: q again quits"));
	return ACT_REDRAW;
}

/* q: back from a view pushed over the panes, else quit. */
static unsigned back(struct app *app)
{
	if (app->depth == 0)
		return quit_asking(app);
	app_free_view(&app->stack[--app->depth]);
	return ACT_REDRAW;
}

/* Escape: back from a view pushed over the panes; over a pane it closes
 * the message and never quits (a key pressed to dismiss something must
 * not lose the session). */
static unsigned escape(struct app *app)
{
	if (app->depth > 0)
		return back(app);
	if (app->closed_message)
		return ACT_REDRAW;
	app_message(app, 0, "%s", _("Escape never quits: q quits (Q at once)"));
	return ACT_REDRAW;
}

static unsigned suspend(struct app *app)
{
	(void)app;
	return ACT_SUSPEND;
}

/* Said, so that the text typed next is not taken for commands. */
static unsigned nothing_to_find(struct app *app)
{
	app_message(app, 1, "%s", _("Nothing to find in this view"));
	return ACT_REDRAW;
}

static unsigned ask_filter(struct app *app, enum request req)
{
	return app_prompt_filter(app, req == REQ_FILTER_ADD);
}

static unsigned ask_place(struct app *app, enum request req)
{
	return app_prompt_place(app, req == REQ_GPU_FILTER);
}

static unsigned redraw_all(struct app *app)
{
	(void)app;
	clearok(curscr, TRUE);
	return ACT_REDRAW;
}

/* Every request of scope REQ_SCOPE_APP has its handler here; a request
 * without one says it does nothing here. */
static const struct app_handling handlers[REQ_COUNT] = {
	[REQ_VIEW_PROFILE] = { .fn = show_pane },
	[REQ_VIEW_KERNELS] = { .fn = show_pane },
	[REQ_VIEW_BUSY] = { .fn = show_pane },
	[REQ_VIEW_TIMELINE] = { .fn = show_pane },
	[REQ_VIEW_API] = { .fn = show_pane },
	[REQ_VIEW_MARKERS] = { .fn = show_pane },
	[REQ_VIEW_FINDINGS] = { .fn = show_pane },
	[REQ_VIEW_DIFF] = { .fn = show_diff },
	[REQ_NEXT_PANE] = { .fn = step_pane },
	[REQ_PREV_PANE] = { .fn = step_pane },
	[REQ_TOGGLE_DEMANGLE] = { .fn = toggle_style },
	[REQ_TOGGLE_TEMPLATES] = { .fn = toggle_style },
	[REQ_TOGGLE_TENSILE] = { .fn = toggle_style },
	[REQ_HELP] = { .act = push_help },
	[REQ_GAPS_VIEW] = { .act = push_gaps },
	[REQ_GAP_THRESHOLD] = { .act = view_gaps_ask_threshold },
	[REQ_QUIT] = { .act = back },
	[REQ_ESCAPE] = { .act = escape },
	[REQ_QUIT_NOW] = { .act = quit },
	[REQ_SUSPEND] = { .act = suspend },
	[REQ_FIND] = { .act = nothing_to_find },
	[REQ_FILTER] = { .fn = ask_filter },
	[REQ_FILTER_ADD] = { .fn = ask_filter },
	[REQ_FILTER_POP] = { .act = app_pop_filter },
	[REQ_WINDOW] = { .act = app_prompt_window },
	[REQ_GPU_FILTER] = { .fn = ask_place },
	[REQ_INPUT_FILTER] = { .fn = ask_place },
	[REQ_EXPORT] = { .act = app_prompt_export },
	[REQ_REFRESH] = { .act = redraw_all },
};

/* What a key of the timeline does elsewhere: Space folds a lane there and
 * pages down elsewhere, Home and End go to the trace's start and end there
 * and to the first and last row elsewhere. */
static const enum request elsewhere[REQ_COUNT] = {
	[REQ_TOGGLE_LANE] = REQ_PAGE_DOWN,
	[REQ_TIME_START] = REQ_MOVE_FIRST,
	[REQ_TIME_END] = REQ_MOVE_LAST,
};

unsigned app_request(struct app *app, enum request req)
{
	struct view *v = app_top_view(app);
	if (req <= REQ_NONE || req >= REQ_COUNT)
		return ACT_UNHANDLED;
	/* "q again" is the very next key. */
	if (req != REQ_QUIT && req != REQ_QUIT_NOW)
		app->quit_asked = 0;
	unsigned act = v->ops->request ? v->ops->request(v, app, req) : ACT_UNHANDLED;
	if ((act & ACT_UNHANDLED) && elsewhere[req] != REQ_NONE && v->ops->request)
		act = v->ops->request(v, app, elsewhere[req]);
	if (!(act & ACT_UNHANDLED))
		return act;
	const struct app_handling *h = &handlers[req];
	return h->fn ? h->fn(app, req) : h->act ? h->act(app) : ACT_UNHANDLED;
}

static void draw_title(struct app *app, int cols)
{
	const struct trace *t = app->trace;
	char line[512], span[UNITS_BUFSZ];
	const char *path = t->ninputs ? t->inputs[0].path : "";
	const char *base = strrchr(path, '/');
	char inputs[256];
	if (t->ninputs > 1)
		snprintf(inputs, sizeof(inputs), _("%zu inputs"), t->ninputs);
	else
		snprintf(inputs, sizeof(inputs), "%s", base ? base + 1 : path);
	char gpus[64];
	snprintf(gpus, sizeof(gpus), P_("%zu GPU", "%zu GPUs", t->ngpus), t->ngpus);
	snprintf(line, sizeof(line), _("rpdtop  %s  %s span  %zu ops  %s"), inputs,
		 units_format_ns(sat_sub(t->op_last_end, t->op_first_start), span, sizeof(span)), t->ops.n,
		 gpus);
	/* The findings, once the pane made them for this selection. */
	if (app->findings >= 0 && app->findings_generation == app->session->generation) {
		size_t n = strlen(line);
		snprintf(line + n, sizeof(line) - n, P_("  %ld finding", "  %ld findings", app->findings),
			 app->findings);
	}
	/* Say what is still being read: the CPU lanes wait for it. */
	if (workspace_apis(app->ws) == WORKSPACE_APIS_READING) {
		size_t n = strlen(line);
		snprintf(line + n, sizeof(line) - n, "  %s", _("(reading API calls...)"));
	}
	draw_fill(stdscr, 0, 0, cols, theme_attr(THEME_TITLE));
	draw_text(stdscr, 0, 0, cols, line, theme_attr(THEME_TITLE));
}

/* Tabs: "1 Profile  2 Kernels  3 Busy"; a click on one selects it. */
static int tab_at(struct app *app, int col)
{
	int x = 0;
	for (size_t i = 0; i < app->npanes; i++) {
		char label[64];
		snprintf(label, sizeof(label), " %zu %s ", i + 1, _(app->panes[i].ops->title));
		int w = text_width(label);
		if (col >= x && col < x + w)
			return (int)i;
		x += w + 1;
	}
	return -1;
}

static void draw_tabs(struct app *app, int cols)
{
	int x = 0, room = cols;
	char top[64] = "";
	draw_fill(stdscr, 1, 0, cols, theme_attr(THEME_TAB));
	/* A view pushed over the panes keeps its tab: the panes' give way. */
	if (app->depth > 0) {
		snprintf(top, sizeof(top), " %s ", _(app_top_view(app)->ops->title));
		room = cols - text_width(top) - 1 > 0 ? cols - text_width(top) - 1 : 0;
	}
	for (size_t i = 0; i < app->npanes && x < room; i++) {
		char label[64];
		snprintf(label, sizeof(label), " %zu %s ", i + 1, _(app->panes[i].ops->title));
		int active = i == app->active && app->depth == 0;
		x += draw_text(stdscr, 1, x, room - x, label,
			       theme_attr(active ? THEME_TAB_ACTIVE : THEME_TAB)) +
		     1;
	}
	if (app->depth > 0 && x < cols)
		draw_text(stdscr, 1, x, cols - x, top, theme_attr(THEME_TAB_ACTIVE));
}

static void draw_status(struct app *app, int row, int cols)
{
	if (app->prompt.active) {
		prompt_draw(&app->prompt, row, cols);
		return;
	}
	const char *hint = _("?:help  q:quit");
	attr_t a = theme_attr(app->message_error ? THEME_ERROR : THEME_STATUS);
	draw_fill(stdscr, row, 0, cols, theme_attr(THEME_STATUS));
	int hw = text_width(hint);
	int room = cols - (cols > hw + 10 ? hw + 2 : 0);
	struct view *v = app_top_view(app);
	char extra[128] = "";
	if (v->ops->status)
		v->ops->status(v, app, extra, sizeof(extra));
	int ew = text_width(extra);
	if (ew && room - ew - 2 > 20) {
		room -= ew + 2;
		draw_text(stdscr, row, room, ew, extra, theme_attr(THEME_STATUS));
	}
	if (app->message[0]) {
		draw_text(stdscr, row, 0, room, app->message, a);
	} else if (session_filtered(app->session)) {
		char line[768], f[256] = "", w[128] = "", p[300] = "";
		session_describe(app->session, f, sizeof(f), w, sizeof(w));
		session_describe_places(app->session, p, sizeof(p));
		snprintf(line, sizeof(line), "%s%s%s%s%s%s%s", f[0] || p[0] ? _("Filter ") : "", f,
			 f[0] && p[0] ? " " : "", p, (f[0] || p[0]) && w[0] ? "  " : "",
			 w[0] ? _("Window ") : "", w);
		draw_text(stdscr, row, 0, room, line, theme_attr(THEME_STATUS));
	} else {
		draw_text(stdscr, row, 0, room, _("No filter, whole trace"), theme_attr(THEME_STATUS));
	}
	if (room < cols)
		draw_text(stdscr, row, cols - hw, hw, hint, theme_attr(THEME_STATUS));
}

static void draw_too_small(int rows, int cols)
{
	const char *msg = _("Terminal too small");
	erase();
	int w = text_width(msg);
	int y = rows / 2, x = cols > w ? (cols - w) / 2 : 0;
	draw_text(stdscr, y, x, cols, msg, theme_attr(THEME_MESSAGE));
	if (rows > 1) {
		char need[64];
		snprintf(need, sizeof(need), _("(needs %dx%d)"), APP_MIN_COLS, APP_MIN_ROWS);
		w = text_width(need);
		draw_text(stdscr, y + 1, cols > w ? (cols - w) / 2 : 0, cols, need, theme_attr(THEME_NORMAL));
	}
}

void app_draw(struct app *app)
{
	int rows = getmaxy(stdscr), cols = getmaxx(stdscr);
	if (rows < APP_MIN_ROWS || cols < APP_MIN_COLS) {
		draw_too_small(rows, cols);
		return;
	}
	erase();
	draw_title(app, cols);
	draw_tabs(app, cols);
	struct view *v = app_top_view(app);
	v->ops->draw(v, app, 2, rows - 3, cols);
	draw_status(app, rows - 1, cols);
}

unsigned app_click(struct app *app, int row, int col, int button)
{
	int rows = getmaxy(stdscr);
	if (row == 1 && button == 1) {
		int tab = tab_at(app, col);
		return tab >= 0 ? app_show_pane(app, (size_t)tab) : ACT_NONE;
	}
	struct view *v = app_top_view(app);
	if (row >= 2 && row < rows - 1 && v->ops->click)
		return v->ops->click(v, app, row - 2, col, button);
	return ACT_NONE;
}

unsigned app_release(struct app *app, int row, int col, int button)
{
	struct view *v = app_top_view(app);
	return v->ops->release ? v->ops->release(v, app, row - 2, col, button) : ACT_NONE;
}
