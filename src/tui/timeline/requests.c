/* The timeline's requests: a table of handlers indexed by request, each
 * with what it needs (the lanes of the current selection) and what it
 * says when it moves neither the view nor the cursor. */
#include "config.h"
#include "tui/timeline/requests.h"

#include "tui/app.h"
#include "tui/filter_prompt.h"
#include "tui/timeline/find.h"
#include "tui/timeline/index.h"
#include "tui/timeline/jumps.h"
#include "tui/timeline/navigate.h"
#include "tui/timeline/range.h"
#include "tui/timeline/state.h"
#include "tui/timeline/visible.h"
#include "util/i18n.h"
#include "util/satmath.h"

/* A request's handler: fn, given arg, which tells the requests it
 * handles apart (a direction, an end), or act. */
struct handling {
	unsigned (*fn)(struct timeline_pane *p, struct app *app, int arg);
	int arg;
	unsigned (*act)(struct timeline_pane *p, struct app *app);
	/* Acts on the lanes, which must be those of the current filter and
	 * window (Enter must not answer from the lanes being replaced). */
	int lanes;
	/* Said when the view and the cursor stayed as they were (at an end
	 * of the trace, at most zoom), N_(). */
	const char *still;
};

/* Left and Right: a column. */
static unsigned cursor_by(struct timeline_pane *p, struct app *app, int dir)
{
	int64_t dt = tl_bucket(p);
	(void)app;
	if (dir < 0) {
		p->cursor = sat_sub(p->cursor, dt);
		if (p->cursor < p->view_start)
			p->view_start = sat_sub(p->view_start, dt);
	} else {
		p->cursor = sat_add(p->cursor, dt);
		if (p->cursor >= sat_add(p->view_start, p->view_span))
			p->view_start = sat_add(p->view_start, dt);
	}
	tl_clamp_view(p);
	return ACT_REDRAW;
}

/* A screen to the left or right, the cursor with it. */
static unsigned pan(struct timeline_pane *p, struct app *app, int dir)
{
	(void)app;
	p->view_start = dir < 0 ? sat_sub(p->view_start, p->view_span) : sat_add(p->view_start, p->view_span);
	p->cursor = dir < 0 ? sat_sub(p->cursor, p->view_span) : sat_add(p->cursor, p->view_span);
	tl_clamp_view(p);
	return ACT_REDRAW;
}

static unsigned zoom_by(struct timeline_pane *p, struct app *app, int per_mille)
{
	(void)app;
	tl_zoom(p, per_mille);
	return ACT_REDRAW;
}

static unsigned zoom_all(struct timeline_pane *p, struct app *app)
{
	(void)app;
	p->view_start = p->tl.start;
	p->view_span = sat_sub(p->tl.end, p->tl.start);
	tl_clamp_view(p);
	return ACT_REDRAW;
}

static unsigned zoom_event(struct timeline_pane *p, struct app *app)
{
	tl_zoom_event(p, app);
	return ACT_REDRAW;
}

/* Z: the view over the marked range, else over the time window; the
 * cursor goes to its start unless it is in it already. */
static unsigned zoom_range(struct timeline_pane *p, struct app *app)
{
	const struct window *w = session_window(app->session);
	int64_t start, end;
	if (p->range.state == TL_RANGE_MARKED) {
		start = p->range.start;
		end = p->range.end;
		app_message(app, 0, "%s", _("The marked range in view"));
	} else if (w->active) {
		start = w->start;
		end = w->end;
		app_message(app, 0, "%s", _("The time window in view"));
	} else {
		app_message(app, 1, "%s",
			    _("No range marked and no time window (r marks a range, W sets a window)"));
		return ACT_REDRAW;
	}
	p->view_start = start;
	p->view_span = end > start ? sat_sub(end, start) : 1;
	if (p->cursor < start || p->cursor >= end)
		p->cursor = start;
	tl_clamp_view(p);
	return ACT_REDRAW;
}

static unsigned time_end(struct timeline_pane *p, struct app *app, int end)
{
	(void)app;
	tl_to_end(p, end);
	tl_clamp_view(p);
	return ACT_REDRAW;
}

static unsigned find_open(struct timeline_pane *p, struct app *app)
{
	return tl_find_open(p->find, app, p->cursor);
}

/* n and N: from match to match while a search is on, else along the lane. */
static unsigned find_step(struct timeline_pane *p, struct app *app, int dir)
{
	if (tl_find_active(p->find))
		return tl_walk_matches(p, app, tl_find_step(p->find, app, p->cursor, dir), dir);
	tl_step_event(p, app, dir);
	return ACT_REDRAW;
}

static unsigned find_list(struct timeline_pane *p, struct app *app)
{
	return tl_find_list(p->find, app);
}

static unsigned range_mark(struct timeline_pane *p, struct app *app)
{
	return tl_range_mark(&p->range, app, p->cursor);
}

static unsigned range_show(struct timeline_pane *p, struct app *app)
{
	return tl_range_show(&p->range, app);
}

/* q and Escape step back: out of a search, then the range; then the
 * frame's q. */
static unsigned step_back(struct timeline_pane *p, struct app *app)
{
	if (tl_find_end(p->find, app) || tl_range_clear(&p->range, app))
		return ACT_REDRAW;
	return ACT_UNHANDLED;
}

static unsigned lane_by(struct timeline_pane *p, struct app *app, int by)
{
	(void)app;
	return tl_move_lane(p, by);
}

static unsigned page(struct timeline_pane *p, struct app *app, int dir)
{
	(void)app;
	return tl_move_lane(p, dir * (p->rows > 1 ? p->rows - 1 : 1));
}

/* g and G: the first or last lane shown. */
static unsigned lane_end(struct timeline_pane *p, struct app *app, int last)
{
	(void)app;
	p->lane = !p->nvis ? 0 : last ? p->vis[p->nvis - 1] : p->vis[0];
	return ACT_REDRAW;
}

/* f: what the filter drops hidden, or dimmed; the lanes are built again. */
static unsigned toggle_dim(struct timeline_pane *p, struct app *app)
{
	p->dim = !p->dim;
	p->generation = app_generation(app) - 1;
	app_message(app, 0, "%s",
		    p->dim ? _("Events the filter drops are dimmed")
			   : _("Events the filter drops are hidden"));
	return ACT_REDRAW;
}

/* [ and ]: the time window starts or ends at the cursor. */
static unsigned set_window(struct timeline_pane *p, struct app *app, int end)
{
	struct window w = *session_window(app->session);
	if (!w.active) {
		w.start = p->tl.start < p->tl.origin ? p->tl.start : p->tl.origin;
		w.end = sat_add(p->tl.end, 1);
	}
	if (end)
		w.end = sat_add(p->cursor, 1);
	else
		w.start = p->cursor;
	if (w.end <= w.start) {
		app_message(app, 1, "%s", _("The window would end before it starts"));
		return ACT_REDRAW;
	}
	return app_set_window_ns(app, w.start, w.end);
}

static unsigned clear_window(struct timeline_pane *p, struct app *app)
{
	(void)p;
	return app_set_window_ns(app, 0, 0);
}

#define AT_START N_("At the start of the trace")
#define AT_END N_("At the end of the trace")
#define WHOLE N_("The whole trace is in view")

static const struct handling handlings[REQ_COUNT] = {
	[REQ_MOVE_LEFT] = { .fn = cursor_by, .arg = -1, .still = AT_START },
	[REQ_MOVE_RIGHT] = { .fn = cursor_by, .arg = 1, .still = AT_END },
	[REQ_PAN_LEFT] = { .fn = pan, .arg = -1, .still = AT_START },
	[REQ_PAN_RIGHT] = { .fn = pan, .arg = 1, .still = AT_END },
	[REQ_ZOOM_IN] = { .fn = zoom_by, .arg = 500, .still = N_("Zoomed in as far as the timeline goes") },
	[REQ_ZOOM_OUT] = { .fn = zoom_by, .arg = 2000, .still = WHOLE },
	[REQ_ZOOM_ALL] = { .act = zoom_all, .still = WHOLE },
	[REQ_ZOOM_EVENT] = { .act = zoom_event, .lanes = 1 },
	[REQ_ZOOM_RANGE] = { .act = zoom_range },
	[REQ_TIME_START] = { .fn = time_end, .still = AT_START },
	[REQ_TIME_END] = { .fn = time_end, .arg = 1, .still = AT_END },
	[REQ_FIND] = { .act = find_open },
	[REQ_FIND_NEXT] = { .fn = find_step, .arg = 1, .lanes = 1 },
	[REQ_FIND_PREV] = { .fn = find_step, .arg = -1, .lanes = 1 },
	[REQ_FIND_LIST] = { .act = find_list },
	[REQ_GAP_NEXT] = { .fn = tl_step_gap, .arg = 1, .lanes = 1 },
	[REQ_GAP_PREV] = { .fn = tl_step_gap, .arg = -1, .lanes = 1 },
	[REQ_RANGE_MARK] = { .act = range_mark },
	[REQ_RANGE_SHOW] = { .act = range_show },
	[REQ_QUIT] = { .act = step_back },
	[REQ_ESCAPE] = { .act = step_back },
	[REQ_MARK_SET] = { .fn = tl_ask_mark, .lanes = 1 },
	[REQ_MARK_GO] = { .fn = tl_ask_mark, .arg = 1 }, /* waits for the lanes once it has the letter */
	[REQ_JUMP_BACK] = { .fn = tl_walk_history, .arg = 1, .lanes = 1 },
	[REQ_JUMP_FORWARD] = { .fn = tl_walk_history, .lanes = 1 },
	[REQ_MOVE_UP] = { .fn = lane_by, .arg = -1, .lanes = 1 },
	[REQ_MOVE_DOWN] = { .fn = lane_by, .arg = 1, .lanes = 1 },
	[REQ_PAGE_UP] = { .fn = page, .arg = -1, .lanes = 1 },
	[REQ_PAGE_DOWN] = { .fn = page, .arg = 1, .lanes = 1 },
	[REQ_MOVE_FIRST] = { .fn = lane_end, .lanes = 1 },
	[REQ_MOVE_LAST] = { .fn = lane_end, .arg = 1, .lanes = 1 },
	[REQ_TOGGLE_LANE] = { .act = tl_fold, .lanes = 1 },
	[REQ_FOLD_ALL] = { .act = tl_fold_every, .lanes = 1 },
	[REQ_HIDE_CPU] = { .act = tl_toggle_cpu, .lanes = 1 },
	[REQ_LANE_FILTER] = { .act = tl_ask_lanes, .lanes = 1 },
	[REQ_ENTER] = { .act = tl_follow_link, .lanes = 1 },
	[REQ_TOGGLE_DIM] = { .act = toggle_dim },
	[REQ_WINDOW_START] = { .fn = set_window },
	[REQ_WINDOW_END] = { .fn = set_window, .arg = 1 },
	[REQ_WINDOW_CLEAR] = { .act = clear_window },
};

unsigned tl_request(struct timeline_pane *p, struct app *app, enum request req)
{
	static const struct handling none;
	const struct handling *h = req > REQ_NONE && req < REQ_COUNT ? &handlings[req] : &none;
	tl_ensure_ready(p, app);
	/* Until the first index is there, the application's keys (filter,
	 * export, panes, quit) still work; the timeline's say why they wait. */
	if (!p->ready && (h->lanes || request_scope(req) == REQ_SCOPE_TIMELINE)) {
		app_message(app, 0, "%s", _("Indexing the timeline..."));
		return ACT_REDRAW;
	}
	if (!p->ready || (!h->fn && !h->act))
		return ACT_UNHANDLED;
	if (h->lanes && !tl_need_lanes(p, app))
		return ACT_REDRAW;
	int64_t start = p->view_start, span = p->view_span, cursor = p->cursor;
	unsigned act = h->fn ? h->fn(p, app, h->arg) : h->act(p, app);
	if (h->still && start == p->view_start && span == p->view_span && cursor == p->cursor)
		app_message(app, 0, "%s", _(h->still));
	return act;
}
