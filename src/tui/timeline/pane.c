/* The timeline: a ruler, a minimap of the whole trace, and one lane per GPU
 * queue in which each cell is a time bucket. A cell an op fills shows the
 * op (its name when the op is long enough); a cell shared by many shows how
 * busy the bucket is, in shades. The cursor is a time and a lane. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/search.h"
#include "analysis/timeline.h"
#include "analysis/timeline_job.h"
#include "trace/trace_mem.h"
#include "tui/app.h"
#include "tui/draw.h"
#include "tui/filter_prompt.h"
#include "tui/panes.h"
#include "tui/theme.h"
#include "tui/timeline/cells.h"
#include "tui/timeline/detail.h"
#include "tui/timeline/find.h"
#include "tui/timeline/gaps.h"
#include "tui/timeline/index.h"
#include "tui/timeline/jumps.h"
#include "tui/timeline/lanes.h"
#include "tui/timeline/marker.h"
#include "tui/timeline/marks.h"
#include "tui/timeline/navigate.h"
#include "tui/timeline/range.h"
#include "tui/timeline/ruler.h"
#include "tui/timeline/state.h"
#include "tui/timeline/visible.h"
#include "util/i18n.h"
#include "util/satmath.h"
#include "util/units.h"
#include "util/xalloc.h"

static void timeline_draw(struct view *v, struct app *app, int y, int height, int width)
{
	struct timeline_pane *p = v->data;
	ensure_ready(p, app);
	if (!p->ready) {
		draw_text(stdscr, y, 0, width, _("Indexing the timeline..."), theme_attr(THEME_DIM));
		return;
	}
	p->label_w = p->label_need;
	if (p->label_w > LABEL_MIN && p->label_w > width / 3)
		p->label_w = width / 3 > LABEL_MIN ? width / 3 : LABEL_MIN;
	int x0 = p->label_w + 1;
	p->cols = width - x0;
	p->rows = height - 3;
	if (p->cols < 1 || p->rows < 1)
		return;
	draw_text(stdscr, y, 0, p->label_w, _("whole trace"), theme_attr(THEME_DIM));
	draw_minimap(p, y, x0);
	draw_text(stdscr, y + 1, 0, p->label_w, "", theme_attr(THEME_NORMAL));
	draw_ruler(p, y + 1, x0);
	draw_window_marks(p, session_window(app->session), y + 1, x0);
	draw_marks(p, y + 1, x0);
	tl_range_draw(&p->range, p->cursor, p->view_start, bucket(p), p->cols, y + 1, x0);
	size_t pos = visible_pos(p);
	if (pos < p->top)
		p->top = pos;
	if (pos >= p->top + (size_t)p->rows)
		p->top = pos - (size_t)p->rows + 1;
	int64_t launch_at = 0;
	size_t launch = launch_lane(p, app->trace, &launch_at);
	for (int r = 0; r < p->rows && p->top + (size_t)r < p->nvis; r++) {
		size_t i = p->vis[p->top + (size_t)r];
		char label[160];
		lane_label(app, &p->tl.lanes[i], label, sizeof(label));
		if (p->tl.lanes[i].kind == TL_CPU && p->folded[p->tl.lanes[i].thread] &&
		    i + 1 < p->tl.nlanes && lane_hidden(p, &p->tl.lanes[i + 1]))
			strncat(label, " +", sizeof(label) - strlen(label) - 1);
		draw_text(stdscr, y + 2 + r, 0, p->label_w, label,
			  theme_attr(i == p->lane ? THEME_CURSOR : THEME_LABEL));
		draw_text(stdscr, y + 2 + r, p->label_w, 1, glyphs()->vline, theme_attr(THEME_DIM));
		draw_lane(p, app, &p->tl.lanes[i], y + 2 + r, x0, i == p->lane);
		if (i == launch)
			draw_launch_mark(p, y + 2 + r, x0, launch_at);
	}
	draw_detail(p, app, y + height - 1, width);
}

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
	int64_t dt = bucket(p);
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
		zoom(p, 500);
		return ACT_REDRAW;
	case REQ_ZOOM_OUT:
		zoom(p, 2000);
		return ACT_REDRAW;
	case REQ_ZOOM_ALL:
		p->view_start = p->tl.start;
		p->view_span = sat_sub(p->tl.end, p->tl.start);
		break;
	case REQ_ZOOM_EVENT:
		zoom_event(p, app);
		return ACT_REDRAW;
	case REQ_FIND:
		return tl_find_open(p->find, app, p->cursor);
	case REQ_FIND_NEXT:
	case REQ_FIND_PREV:
		if (tl_find_active(p->find))
			return walk_matches(
				p, app, tl_find_step(p->find, app, p->cursor, req == REQ_FIND_NEXT ? 1 : -1),
				req == REQ_FIND_NEXT ? 1 : -1);
		jump(p, app, req == REQ_FIND_NEXT ? 1 : -1);
		return ACT_REDRAW;
	case REQ_FIND_LIST:
		return tl_find_list(p->find, app);
	case REQ_GAP_NEXT:
	case REQ_GAP_PREV:
		return step_gap(p, app, req == REQ_GAP_NEXT ? 1 : -1);
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
		to_end(p, req == REQ_TIME_END);
		break;
	case REQ_MARK_SET:
	case REQ_MARK_GO:
		return ask_mark(p, app, req == REQ_MARK_GO);
	case REQ_JUMP_BACK:
	case REQ_JUMP_FORWARD:
		return walk_history(p, app, req == REQ_JUMP_BACK);
	case REQ_MOVE_UP:
		return move_lane(p, -1);
	case REQ_MOVE_DOWN:
		return move_lane(p, 1);
	case REQ_PAGE_UP:
		return move_lane(p, -(p->rows > 1 ? p->rows - 1 : 1));
	case REQ_PAGE_DOWN:
		return move_lane(p, p->rows > 1 ? p->rows - 1 : 1);
	case REQ_MOVE_FIRST:
		p->lane = p->nvis ? p->vis[0] : 0;
		return ACT_REDRAW;
	case REQ_MOVE_LAST:
		p->lane = p->nvis ? p->vis[p->nvis - 1] : 0;
		return ACT_REDRAW;
	case REQ_TOGGLE_LANE:
		return fold(p, app);
	case REQ_FOLD_ALL:
		return fold_all(p, app);
	case REQ_HIDE_CPU:
		return toggle_cpu(p, app);
	case REQ_LANE_FILTER:
		return ask_lanes(p, app);
	case REQ_ENTER:
		return follow_link(p, app);
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
	clamp_view(p);
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

static unsigned handle_request(struct timeline_pane *p, struct app *app, enum request req)
{
	ensure_ready(p, app);
	/* Until the first index is there, the application's keys (filter,
	 * export, panes, quit) still work; the timeline's say why they wait. */
	if (!p->ready && own_request(req)) {
		app_message(app, 0, "%s", _("Indexing the timeline..."));
		return ACT_REDRAW;
	}
	if (!p->ready)
		return ACT_UNHANDLED;
	if (acts_on_lanes(req) && !need_lanes(p, app))
		return ACT_REDRAW;
	int64_t start = p->view_start, span = p->view_span, cursor = p->cursor;
	unsigned act = dispatch(p, app, req);
	const char *why = no_move(req);
	if (why && start == p->view_start && span == p->view_span && cursor == p->cursor)
		app_message(app, 0, "%s", why);
	return act;
}

/* A click sets the cursor (on the minimap, the view goes there); the
 * wheel zooms. */
static unsigned handle_click(struct timeline_pane *p, struct app *app, int row, int col, int button)
{
	ensure_ready(p, app);
	if (!p->ready)
		return ACT_NONE;
	if (button == 4 || button == 5) {
		zoom(p, button == 4 ? 500 : 2000);
		return ACT_REDRAW;
	}
	int c = col - p->label_w - 1;
	if (button != 1 || c >= p->cols)
		return ACT_NONE;
	if (row == 0 && c >= 0)
		return centre_on(p, minimap_time(p, c));
	/* A click on lanes being replaced points at what is no longer there:
	 * they are brought up to date and drawn first. */
	if (row >= 2 && (!p->ready || p->generation != app_generation(app))) {
		if (need_lanes(p, app))
			app_message(app, 0, "%s", _("The lanes were rebuilt: click again"));
		return ACT_REDRAW;
	}
	int on_lane = row >= 2 && p->top + (size_t)(row - 2) < p->nvis;
	if (on_lane)
		p->lane = p->vis[p->top + (size_t)(row - 2)];
	if (row == 1 && c >= 0) /* a drag on the ruler may begin */
		tl_range_press(&p->range, c);
	if (c < 0) /* on a label: the lane, and a thread's rows fold */
		return on_lane && p->tl.lanes[p->lane].kind == TL_CPU ? fold(p, app) : ACT_REDRAW;
	p->cursor = sat_add(p->view_start, sat_mul(c, bucket(p)));
	clamp_view(p);
	return ACT_REDRAW;
}

static unsigned timeline_request(struct view *v, struct app *app, enum request req)
{
	return handle_request(v->data, app, req);
}

static unsigned timeline_click(struct view *v, struct app *app, int row, int col, int button)
{
	return handle_click(v->data, app, row, col, button);
}

/* The end of a drag on the ruler (anywhere: the column counts). */
static unsigned timeline_release(struct view *v, struct app *app, int row, int col, int button)
{
	struct timeline_pane *p = v->data;
	int c = col - p->label_w - 1;
	(void)row;
	if (!p->ready || button != 1 || p->cols < 1)
		return ACT_NONE;
	c = c < 0 ? 0 : c >= p->cols ? p->cols - 1 : c;
	return tl_range_release(&p->range, app, c, p->view_start, bucket(p));
}

/* An op to show (Enter in a table) once the index is there, and the
 * launch sizes of the kernel under the cursor. */
static unsigned timeline_idle(struct view *v, struct app *app)
{
	struct timeline_pane *p = v->data;
	ensure_ready(p, app);
	if (!p->ready)
		return ACT_NONE;
	unsigned act = ACT_NONE;
	/* The op is looked for in the lanes of the current selection. */
	if (app->jump_op != TRACE_NONE && lanes_current(p, app)) {
		show_op(p, app, app->jump_op);
		tl_find_locate(p->find, app, app->jump_op);
		app->jump_op = TRACE_NONE;
		act = ACT_REDRAW;
	}
	if (app->jump_queue != TRACE_NONE && lanes_current(p, app)) {
		show_time(p, app, app->jump_queue, app->jump_time, app->jump_span);
		app->jump_queue = TRACE_NONE;
		act = ACT_REDRAW;
	}
	if (app->jump_call != TRACE_NONE && lanes_current(p, app)) {
		show_call(p, app, app->jump_call);
		tl_find_locate(p->find, app, app->jump_call | SEARCH_CALL);
		app->jump_call = TRACE_NONE;
		act = ACT_REDRAW;
	}
	/* The search follows the selection; the prompt chose a match, shown
	 * in the lanes of the current selection. */
	tl_find_refresh(p->find, app);
	uint32_t match = lanes_current(p, app) ? tl_find_take(p->find) : TRACE_NONE;
	if (match != TRACE_NONE)
		act |= walk_matches(p, app, match, 1);
	/* In idle time on a GPU's lane the detail line tells the gap. */
	if (cursor_gpu(p, app->trace) != TRACE_NONE && op_under_cursor(p) == TRACE_NONE &&
	    !tl_gaps_current(&p->gaps, app_generation(app), app->gap_threshold)) {
		tl_gaps_update(&p->gaps, app->trace, app_sel(app), app_generation(app), app->gap_threshold);
		act |= ACT_REDRAW;
	}
	/* On a roctx range: the GPU time under it. */
	if (tl_marker_update(&p->marker, app->trace, app_order(app), app_sel(app), app_generation(app),
			     call_under_cursor(p)))
		act |= ACT_REDRAW;
	uint32_t before = p->dims_op_set ? p->dims_op : TRACE_NONE;
	read_dims(p, app);
	return act | (p->dims_op_set && p->dims_op != before ? ACT_REDRAW : ACT_NONE);
}

static void timeline_free_view(struct view *v)
{
	struct timeline_pane *p = v->data;
	if (p->job) {
		struct timeline tl;
		finish_job(p, &tl);
		timeline_free(&tl);
	}
	timeline_free(&p->tl);
	free(p->minimap);
	free(p->folded);
	tl_lane_rules_free(&p->rules);
	free(p->vis);
	tl_find_free(p->find);
	tl_gaps_free(&p->gaps);
	tl_marker_free(&p->marker);
	free(p);
}

/* The span on screen, always in sight; before it the search, if one is on. */
static void timeline_status(struct view *v, struct app *app, char *buf, size_t size)
{
	struct timeline_pane *p = v->data;
	char span[UNITS_BUFSZ], from[UNITS_BUFSZ + 2], find[96];
	if (!p->ready)
		return;
	tl_find_status(p->find, app->trace, p->cursor, find, sizeof(find));
	int n = snprintf(buf, size, "%s%s", find, *find ? "  " : "");
	if (n >= 0 && (size_t)n < size)
		n += snprintf(buf + n, size - (size_t)n, _("view %s"),
			      units_format_ns(p->view_span, span, sizeof(span)));
	/* How far the cursor is from the mark last set or gone to. */
	int last = p->marks.last - 1;
	if (last >= 0 && n >= 0 && (size_t)n < size)
		n += snprintf(buf + n, size - (size_t)n, _("  from '%c %s"), tl_mark_letter(last),
			      units_format_relative(p->cursor - p->marks.mark[last].cursor, bucket(p), from,
						    sizeof(from)));
	/* The lanes kept out of sight, so that an empty screen is explained. */
	if (p->rules.cpu_hidden && n >= 0 && (size_t)n < size)
		n += snprintf(buf + n, size - (size_t)n, "%s", _("  no CPU lanes"));
	if (p->rules.only.n && n >= 0 && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, _("  lanes |%s"), p->rules.text);
}

static void timeline_prepare(struct view *v, struct app *app)
{
	ensure_ready(v->data, app);
}

static int timeline_busy_view(struct view *v)
{
	struct timeline_pane *p = v->data;
	return !p->job ? VIEW_IDLE : timeline_job_done(p->job) ? VIEW_DONE : VIEW_WORKING;
}

static void timeline_memory_view(struct view *v, struct mem_report *r)
{
	struct timeline_pane *p = v->data;
	timeline_memory(&p->tl, r);
	const struct call_ops *c = &p->marker.calls;
	if (c->first)
		mem_add(r, "timeline's ranges: ", "ops of each call",
			(c->napis + 1 + c->first[c->napis]) * sizeof(uint32_t));
}

static const struct view_ops timeline_ops = {
	.name = "timeline",
	.title = N_("Timeline"),
	.draw = timeline_draw,
	.request = timeline_request,
	.click = timeline_click,
	.release = timeline_release,
	.free = timeline_free_view,
	.status = timeline_status,
	.busy = timeline_busy_view,
	.prepare = timeline_prepare,
	.idle = timeline_idle,
	.memory = timeline_memory_view,
};

struct view pane_timeline_new(struct app *app)
{
	struct timeline_pane *p = xcalloc(1, sizeof(*p));
	(void)app;
	p->came_from = TRACE_NONE;
	p->find = tl_find_new();
	tl_range_init(&p->range);
	tl_marker_init(&p->marker);
	return (struct view){ &timeline_ops, p };
}
