/* The timeline: a ruler, a minimap of the whole trace, and one lane per GPU
 * queue in which each cell is a time bucket. A cell an op fills shows the
 * op (its name when the op is long enough); a cell shared by many shows how
 * busy the bucket is, in shades. The cursor is a time and a lane.
 * Here the pane is made and freed and its view ops lead to its parts
 * (state.h): the mouse and the status line are its own. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "analysis/timeline.h"
#include "trace/trace_mem.h"
#include "tui/app.h"
#include "tui/panes.h"
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
#include "tui/timeline/requests.h"
#include "tui/timeline/ruler.h"
#include "tui/timeline/state.h"
#include "tui/timeline/visible.h"
#include "util/i18n.h"
#include "util/satmath.h"
#include "util/units.h"
#include "util/xalloc.h"

/* A click sets the cursor (on the minimap, the view goes there); the
 * wheel zooms. */
static unsigned handle_click(struct timeline_pane *p, struct app *app, int row, int col, int button)
{
	tl_ensure_ready(p, app);
	if (!p->ready)
		return ACT_NONE;
	if (button == 4 || button == 5) {
		tl_zoom(p, button == 4 ? 500 : 2000);
		return ACT_REDRAW;
	}
	int c = col - p->label_w - 1;
	if (button != 1 || c >= p->cols)
		return ACT_NONE;
	if (row == 0 && c >= 0)
		return tl_centre_on(p, tl_minimap_time(p, c));
	/* A click on lanes being replaced points at what is no longer there:
	 * they are brought up to date and drawn first. */
	if (row >= 2 && (!p->ready || p->generation != app_generation(app))) {
		if (tl_need_lanes(p, app))
			app_message(app, 0, "%s", _("The lanes were rebuilt: click again"));
		return ACT_REDRAW;
	}
	int on_lane = row >= 2 && p->top + (size_t)(row - 2) < p->nvis;
	if (on_lane)
		p->lane = p->vis[p->top + (size_t)(row - 2)];
	if (row == 1 && c >= 0) /* a drag on the ruler may begin */
		tl_range_press(&p->range, c);
	if (c < 0) /* on a label: the lane, and a thread's rows fold */
		return on_lane && p->tl.lanes[p->lane].kind == TL_CPU ? tl_fold(p, app) : ACT_REDRAW;
	p->cursor = sat_add(p->view_start, sat_mul(c, tl_bucket(p)));
	tl_clamp_view(p);
	return ACT_REDRAW;
}

static void timeline_draw(struct view *v, struct app *app, int y, int height, int width)
{
	tl_draw(v->data, app, y, height, width);
}

static unsigned timeline_request(struct view *v, struct app *app, enum request req)
{
	return tl_request(v->data, app, req);
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
	return tl_range_release(&p->range, app, c, p->view_start, tl_bucket(p));
}

static void timeline_free_view(struct view *v)
{
	struct timeline_pane *p = v->data;
	tl_index_free(p);
	free(p->minimap);
	free(p->folded);
	tl_lane_rules_free(&p->rules);
	free(p->vis);
	tl_find_free(p->find);
	tl_gaps_free(&p->gaps);
	tl_marker_free(&p->marker);
	if (p->graphs)
		graph_index_free(p->graphs);
	free(p->graphs);
	free(p);
}

/* The span on screen, always in sight; before it the search, if one is on. */
static void timeline_status(struct view *v, struct app *app, char *buf, size_t size)
{
	struct timeline_pane *p = v->data;
	char span[UNITS_BUFSZ], from[UNITS_BUFSZ + 2], find[128];
	if (!p->ready)
		return;
	tl_find_status(p->find, app, p->cursor, find, sizeof(find));
	int n = snprintf(buf, size, "%s%s", find, *find ? "  " : "");
	if (n >= 0 && (size_t)n < size)
		n += snprintf(buf + n, size - (size_t)n, _("view %s"),
			      units_format_ns(p->view_span, span, sizeof(span)));
	/* How far the cursor is from the mark last set or gone to. */
	int last = p->marks.last - 1;
	if (last >= 0 && n >= 0 && (size_t)n < size)
		n += snprintf(buf + n, size - (size_t)n, _("  from '%c %s"), tl_mark_letter(last),
			      units_format_relative(p->cursor - p->marks.mark[last].cursor, tl_bucket(p),
						    from, sizeof(from)));
	/* The lanes kept out of sight, so that an empty screen is explained. */
	if (p->rules.cpu_hidden && n >= 0 && (size_t)n < size)
		n += snprintf(buf + n, size - (size_t)n, "%s", _("  no CPU lanes"));
	/* The counters of GPUs that ran no op, after a message has gone (it
	 * needs the room; the lane list says so too where it ends). */
	size_t idle = tl_idle_hidden(p);
	if (idle && !app->message[0] && n >= 0 && (size_t)n < size)
		n += snprintf(buf + n, size - (size_t)n,
			      P_("  %zu idle GPU lane hidden", "  %zu idle GPU lanes hidden", idle), idle);
	if (p->rules.only.n && n >= 0 && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, _("  lanes |%s"), p->rules.text);
}

static void timeline_prepare(struct view *v, struct app *app)
{
	tl_ensure_ready(v->data, app);
}

static int timeline_busy_view(struct view *v)
{
	return tl_index_busy(v->data);
}

static unsigned idle_work(struct timeline_pane *p, struct app *app)
{
	tl_ensure_ready(p, app);
	if (!p->ready)
		return ACT_NONE;
	unsigned act = tl_take_jumps(p, app);
	/* The search follows the selection; the prompt chose a match, shown
	 * in the lanes of the current selection. */
	tl_find_refresh(p->find, app);
	uint32_t match = tl_lanes_current(p, app) ? tl_find_take(p->find) : TRACE_NONE;
	if (match != TRACE_NONE)
		act |= tl_walk_matches(p, app, match, 1);
	/* The detail line's facts (the gap, the GPU time under a range, the
	 * launch sizes, the place in a graph replay) may take a pass over
	 * every op or call: new lanes are shown first, the facts next. */
	p->details_waiting = !app->sync && !p->lanes_drawn;
	if (p->details_waiting)
		return act | ACT_REDRAW;
	/* In idle time on a GPU's lane the detail line tells the gap. */
	if (tl_cursor_gpu(p, app->trace) != TRACE_NONE && tl_op_under_cursor(p) == TRACE_NONE &&
	    !tl_gaps_current(&p->gaps, app_generation(app), app->analysis.gap_threshold)) {
		tl_gaps_update(&p->gaps, app->trace, app_sel(app), app_generation(app),
			       app->analysis.gap_threshold);
		act |= ACT_REDRAW;
	}
	/* On a roctx range: the GPU time under it. */
	if (tl_marker_update(&p->marker, app->trace, app_order(app), app_sel(app), app_generation(app),
			     tl_call_under_cursor(p)))
		act |= ACT_REDRAW;
	uint32_t before = p->dims_op_set ? p->dims_op : TRACE_NONE;
	tl_read_dims(p, app);
	if (tl_read_place(p, app))
		act |= ACT_REDRAW;
	return act | (p->dims_op_set && p->dims_op != before ? ACT_REDRAW : ACT_NONE);
}

static unsigned timeline_idle(struct view *v, struct app *app)
{
	return idle_work(v->data, app);
}

static void timeline_memory_view(struct view *v, struct mem_report *r)
{
	struct timeline_pane *p = v->data;
	timeline_memory(&p->tl, r);
	const struct call_ops *c = &p->marker.calls;
	if (c->first)
		mem_add(r, "timeline's ranges: ", "ops of each call",
			(c->napis + 1 + c->first[c->napis]) * sizeof(uint32_t));
	if (p->graphs)
		graph_index_memory(p->graphs, r);
}

/* Marks and a range are a person's work: quitting asks first. */
static int timeline_keeps(struct view *v)
{
	const struct timeline_pane *p = v->data;
	if (p->range.state == TL_RANGE_MARKED)
		return 1;
	for (int i = 0; i < TL_MARKS; i++)
		if (p->marks.set[i])
			return 1;
	return 0;
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
	.keeps = timeline_keeps,
};

struct view pane_timeline_new(struct app *app)
{
	struct timeline_pane *p = xcalloc(1, sizeof(*p));
	(void)app;
	p->came_from = TRACE_NONE;
	p->find = tl_find_new();
	tl_lane_rules_init(&p->rules);
	tl_range_init(&p->range);
	tl_marker_init(&p->marker);
	return (struct view){ &timeline_ops, p };
}
