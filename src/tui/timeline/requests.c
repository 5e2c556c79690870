/* The timeline's requests: each one's handling, and what a move in time
 * that moved nothing says. */
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

/* Requests that act on the lanes, which must be those of the current
 * filter and window (Enter must not answer from the lanes being
 * replaced). */
static int acts_on_lanes(enum request req)
{
	switch (req) {
	case REQ_MOVE_UP:
	case REQ_MOVE_DOWN:
	case REQ_PAGE_UP:
	case REQ_PAGE_DOWN:
	case REQ_MOVE_FIRST:
	case REQ_MOVE_LAST:
	case REQ_TOGGLE_LANE:
	case REQ_FOLD_ALL:
	case REQ_HIDE_CPU:
	case REQ_LANE_FILTER:
	case REQ_ENTER:
	case REQ_FIND_NEXT:
	case REQ_FIND_PREV:
	case REQ_ZOOM_EVENT:
	case REQ_MARK_SET:
	case REQ_JUMP_BACK:
	case REQ_JUMP_FORWARD:
	case REQ_GAP_NEXT:
	case REQ_GAP_PREV:
		return 1;
	default:
		return 0;
	}
}

static unsigned dispatch(struct timeline_pane *p, struct app *app, enum request req)
{
	int64_t dt = tl_bucket(p);
	switch (req) {
	case REQ_MOVE_LEFT:
		p->cursor = sat_sub(p->cursor, dt);
		if (p->cursor < p->view_start)
			p->view_start = sat_sub(p->view_start, dt);
		break;
	case REQ_MOVE_RIGHT:
		p->cursor = sat_add(p->cursor, dt);
		if (p->cursor >= sat_add(p->view_start, p->view_span))
			p->view_start = sat_add(p->view_start, dt);
		break;
	case REQ_PAN_LEFT:
		p->view_start = sat_sub(p->view_start, p->view_span);
		p->cursor = sat_sub(p->cursor, p->view_span);
		break;
	case REQ_PAN_RIGHT:
		p->view_start = sat_add(p->view_start, p->view_span);
		p->cursor = sat_add(p->cursor, p->view_span);
		break;
	case REQ_ZOOM_IN:
		tl_zoom(p, 500);
		return ACT_REDRAW;
	case REQ_ZOOM_OUT:
		tl_zoom(p, 2000);
		return ACT_REDRAW;
	case REQ_ZOOM_ALL:
		p->view_start = p->tl.start;
		p->view_span = sat_sub(p->tl.end, p->tl.start);
		break;
	case REQ_ZOOM_EVENT:
		tl_zoom_event(p, app);
		return ACT_REDRAW;
	case REQ_FIND:
		return tl_find_open(p->find, app, p->cursor);
	case REQ_FIND_NEXT:
	case REQ_FIND_PREV:
		if (tl_find_active(p->find))
			return tl_walk_matches(
				p, app, tl_find_step(p->find, app, p->cursor, req == REQ_FIND_NEXT ? 1 : -1),
				req == REQ_FIND_NEXT ? 1 : -1);
		tl_step_event(p, app, req == REQ_FIND_NEXT ? 1 : -1);
		return ACT_REDRAW;
	case REQ_FIND_LIST:
		return tl_find_list(p->find, app);
	case REQ_GAP_NEXT:
	case REQ_GAP_PREV:
		return tl_step_gap(p, app, req == REQ_GAP_NEXT ? 1 : -1);
	case REQ_RANGE_MARK:
		return tl_range_mark(&p->range, app, p->cursor);
	case REQ_RANGE_SHOW:
		return tl_range_show(&p->range, app);
	case REQ_QUIT:
		/* q and Escape step back: out of a search, then the range. */
		if (tl_find_end(p->find, app) || tl_range_clear(&p->range, app))
			return ACT_REDRAW;
		return ACT_UNHANDLED;
	case REQ_TIME_START:
	case REQ_TIME_END:
		tl_to_end(p, req == REQ_TIME_END);
		break;
	case REQ_MARK_SET:
	case REQ_MARK_GO:
		return tl_ask_mark(p, app, req == REQ_MARK_GO);
	case REQ_JUMP_BACK:
	case REQ_JUMP_FORWARD:
		return tl_walk_history(p, app, req == REQ_JUMP_BACK);
	case REQ_MOVE_UP:
		return tl_move_lane(p, -1);
	case REQ_MOVE_DOWN:
		return tl_move_lane(p, 1);
	case REQ_PAGE_UP:
		return tl_move_lane(p, -(p->rows > 1 ? p->rows - 1 : 1));
	case REQ_PAGE_DOWN:
		return tl_move_lane(p, p->rows > 1 ? p->rows - 1 : 1);
	case REQ_MOVE_FIRST:
		p->lane = p->nvis ? p->vis[0] : 0;
		return ACT_REDRAW;
	case REQ_MOVE_LAST:
		p->lane = p->nvis ? p->vis[p->nvis - 1] : 0;
		return ACT_REDRAW;
	case REQ_TOGGLE_LANE:
		return tl_fold(p, app);
	case REQ_FOLD_ALL:
		return tl_fold_every(p, app);
	case REQ_HIDE_CPU:
		return tl_toggle_cpu(p, app);
	case REQ_LANE_FILTER:
		return tl_ask_lanes(p, app);
	case REQ_ENTER:
		return tl_follow_link(p, app);
	case REQ_TOGGLE_DIM:
		p->dim = !p->dim;
		p->generation = app_generation(app) - 1; /* build again */
		app_message(app, 0, "%s",
			    p->dim ? _("Events the filter drops are dimmed")
				   : _("Events the filter drops are hidden"));
		return ACT_REDRAW;
	case REQ_WINDOW_START:
		return set_window(p, app, 0);
	case REQ_WINDOW_END:
		return set_window(p, app, 1);
	case REQ_WINDOW_CLEAR:
		return app_set_window_ns(app, 0, 0);
	default:
		return ACT_UNHANDLED;
	}
	tl_clamp_view(p);
	return ACT_REDRAW;
}

/* Why a key that moves in time left the view and the cursor as they were
 * (at an end of the trace, at most zoom), or NULL. */
static const char *no_move(enum request req)
{
	switch (req) {
	case REQ_MOVE_LEFT:
	case REQ_PAN_LEFT:
	case REQ_TIME_START:
		return _("At the start of the trace");
	case REQ_MOVE_RIGHT:
	case REQ_PAN_RIGHT:
	case REQ_TIME_END:
		return _("At the end of the trace");
	case REQ_ZOOM_IN:
		return _("Zoomed in as far as the timeline goes");
	case REQ_ZOOM_OUT:
	case REQ_ZOOM_ALL:
		return _("The whole trace is in view");
	default:
		return NULL;
	}
}

/* A request of the timeline's own (its scope, or one that acts on lanes). */
static int own_request(enum request req)
{
	return acts_on_lanes(req) || request_scope(req) == REQ_SCOPE_TIMELINE;
}

unsigned tl_request(struct timeline_pane *p, struct app *app, enum request req)
{
	tl_ensure_ready(p, app);
	/* Until the first index is there, the application's keys (filter,
	 * export, panes, quit) still work; the timeline's say why they wait. */
	if (!p->ready && own_request(req)) {
		app_message(app, 0, "%s", _("Indexing the timeline..."));
		return ACT_REDRAW;
	}
	if (!p->ready)
		return ACT_UNHANDLED;
	if (acts_on_lanes(req) && !tl_need_lanes(p, app))
		return ACT_REDRAW;
	int64_t start = p->view_start, span = p->view_span, cursor = p->cursor;
	unsigned act = dispatch(p, app, req);
	const char *why = no_move(req);
	if (why && start == p->view_start && span == p->view_span && cursor == p->cursor)
		app_message(app, 0, "%s", why);
	return act;
}
