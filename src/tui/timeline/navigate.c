/* Moving in time and over the lanes: what is under the cursor, the view
 * kept inside the trace, zoom about the cursor, a step along a lane, the
 * trace's ends; the cursor put on a row or a saved position. */
#include "config.h"
#include "tui/timeline/navigate.h"

#include "analysis/timeline.h"
#include "analysis/timeline_place.h"
#include "tui/app.h"
#include "tui/timeline/lanes.h"
#include "tui/timeline/marks.h"
#include "tui/timeline/state.h"
#include "tui/timeline/visible.h"
#include "util/i18n.h"
#include "util/satmath.h"

int64_t tl_bucket(const struct timeline_pane *p)
{
	int64_t dt = p->view_span / (p->cols > 0 ? p->cols : 1);
	return dt > 0 ? dt : 1;
}

size_t tl_under_cursor(const struct timeline_pane *p, const struct tl_lane *l)
{
	int64_t dt = tl_bucket(p), from = sat_add(p->view_start, sat_sub(p->cursor, p->view_start) / dt * dt);
	return timeline_under(l, p->cursor, from, sat_add(from, dt));
}

/* The row under the cursor on a lane of this kind, or TRACE_NONE. */
static uint32_t row_under_cursor(const struct timeline_pane *p, int kind)
{
	if (!p->ready || p->lane >= p->tl.nlanes || p->tl.lanes[p->lane].kind != kind)
		return TRACE_NONE;
	const struct tl_lane *l = &p->tl.lanes[p->lane];
	size_t k = tl_under_cursor(p, l);
	return k < l->n ? l->ops[k] : TRACE_NONE;
}

uint32_t tl_call_under_cursor(const struct timeline_pane *p)
{
	return row_under_cursor(p, TL_CPU);
}

uint32_t tl_op_under_cursor(const struct timeline_pane *p)
{
	return row_under_cursor(p, TL_GPU);
}

/* The view's span: at most the trace's, at least MIN_SPAN. */
static void clamp_span(struct timeline_pane *p)
{
	int64_t full = p->tl.end > p->tl.start ? sat_sub(p->tl.end, p->tl.start) : 1;
	if (p->view_span > full)
		p->view_span = full;
	if (p->view_span < MIN_SPAN)
		p->view_span = MIN_SPAN;
}

void tl_clamp_view(struct timeline_pane *p)
{
	clamp_span(p);
	if (sat_add(p->view_start, p->view_span) > p->tl.end)
		p->view_start = sat_sub(p->tl.end, p->view_span);
	if (p->view_start < p->tl.start)
		p->view_start = p->tl.start;
	if (p->cursor < p->view_start)
		p->cursor = p->view_start;
	if (p->cursor >= sat_add(p->view_start, p->view_span))
		p->cursor = sat_add(p->view_start, p->view_span) - 1;
}

void tl_zoom(struct timeline_pane *p, int64_t per_mille)
{
	/* Saturated: a span near the range's end must not wrap to a tiny one. */
	int64_t span = p->view_span > INT64_MAX / 2000 ? sat_mul(p->view_span / 1000, per_mille)
						       : p->view_span * per_mille / 1000;
	if (span == p->view_span)
		span = sat_add(span, per_mille > 1000 ? 1 : -1);
	int64_t dt = tl_bucket(p), off = sat_sub(p->cursor, p->view_start);
	int64_t col = off / dt, within = off - col * dt;
	p->view_span = span;
	clamp_span(p); /* not the cursor: it must not move */
	int64_t dt2 = tl_bucket(p);
	p->view_start = sat_sub(sat_sub(p->cursor, sat_mul(col, dt2)),
				(int64_t)((double)within * (double)dt2 / (double)dt));
	tl_clamp_view(p);
}

void tl_step_event(struct timeline_pane *p, struct app *app, int dir)
{
	if (p->lane >= p->tl.nlanes)
		return;
	const struct tl_lane *l = &p->tl.lanes[p->lane];
	/* Forward: the first row starting after the cursor; back: the last
	 * starting before it (rows without a duration are stops too). */
	size_t k;
	if (dir > 0) {
		k = timeline_before(l, sat_add(p->cursor, 1));
	} else {
		k = timeline_before(l, p->cursor);
		k = k > 0 ? k - 1 : l->n;
	}
	if (k >= l->n) {
		app_message(app, 0, "%s",
			    dir > 0 ? _("No later event on this lane") : _("No earlier event on this lane"));
		return;
	}
	p->cursor = timeline_start(l, k);
	if (p->cursor < p->view_start || p->cursor >= sat_add(p->view_start, p->view_span))
		p->view_start = sat_sub(p->cursor, p->view_span / 2);
	tl_clamp_view(p);
}

void tl_zoom_event(struct timeline_pane *p, struct app *app)
{
	if (p->lane >= p->tl.nlanes)
		return;
	const struct tl_lane *l = &p->tl.lanes[p->lane];
	size_t k = tl_under_cursor(p, l);
	if (k >= l->n) {
		app_message(app, 0, "%s", _("No event under the cursor"));
		return;
	}
	int64_t s = timeline_start(l, k), d = sat_sub(timeline_end(l, k), s);
	if (d > 0) {
		p->view_span = sat_add(sat_add(d, d / 5), 1);
		p->view_start = sat_sub(s, d / 10);
	} else {
		/* A mark has no length to zoom to: the view centres on it. */
		p->view_start = sat_sub(s, p->view_span / 2);
	}
	p->cursor = s;
	tl_clamp_view(p);
}

struct tl_pos tl_here(const struct timeline_pane *p)
{
	struct tl_pos pos = { { TL_GPU, TRACE_NONE, 0, TRACE_NONE }, p->cursor, p->view_start, p->view_span };
	if (p->lane < p->tl.nlanes)
		pos.place = timeline_place(&p->tl, p->lane, tl_under_cursor(p, &p->tl.lanes[p->lane]));
	return pos;
}

void tl_jumped_from(struct timeline_pane *p)
{
	struct tl_pos from = tl_here(p);
	tl_history_push(&p->marks, &from);
}

int tl_go_to(struct timeline_pane *p, struct app *app, const struct tl_pos *pos, int view)
{
	size_t lane = timeline_place_lane(&p->tl, app->trace, &pos->place);
	p->cursor = pos->cursor;
	if (view) {
		p->view_start = pos->view_start;
		p->view_span = pos->view_span;
	} else if (p->cursor < p->view_start || p->cursor >= sat_add(p->view_start, p->view_span)) {
		p->view_start = sat_sub(p->cursor, p->view_span / 2);
	}
	tl_clamp_view(p);
	if (lane >= p->tl.nlanes)
		return 0;
	if (tl_lane_hidden(p, &p->tl.lanes[lane])) {
		p->folded[p->tl.lanes[lane].thread] = 0;
		tl_update_visible(p);
	}
	if (tl_lane_hidden(p, &p->tl.lanes[lane]))
		return 0;
	p->lane = lane;
	return 1;
}

int tl_goto_row(struct timeline_pane *p, int kind, uint32_t owner, uint32_t row, int64_t start)
{
	size_t k, i = timeline_find_row(&p->tl, kind, owner, row, start, &k);
	if (i >= p->tl.nlanes)
		return 0;
	if (tl_lane_rules_hide(&p->rules, i))
		return -1;
	if (tl_lane_hidden(p, &p->tl.lanes[i])) {
		p->folded[p->tl.lanes[i].thread] = 0;
		tl_update_visible(p);
	}
	p->lane = i;
	p->cursor = start;
	if (start < p->view_start || start >= sat_add(p->view_start, p->view_span))
		p->view_start = sat_sub(start, p->view_span / 2);
	tl_clamp_view(p);
	return 1;
}

uint32_t tl_cursor_gpu(const struct timeline_pane *p, const struct trace *t)
{
	if (p->lane >= p->tl.nlanes || p->tl.lanes[p->lane].kind != TL_GPU)
		return TRACE_NONE;
	return t->queues[p->tl.lanes[p->lane].queue].gpu;
}

void tl_to_end(struct timeline_pane *p, int end)
{
	tl_jumped_from(p);
	p->cursor = end ? p->tl.end - 1 : p->tl.start;
	p->view_start = end ? p->tl.end - p->view_span : p->tl.start;
}

unsigned tl_centre_on(struct timeline_pane *p, int64_t at)
{
	tl_jumped_from(p);
	p->cursor = at;
	p->view_start = sat_sub(at, p->view_span / 2);
	tl_clamp_view(p);
	return ACT_REDRAW;
}
