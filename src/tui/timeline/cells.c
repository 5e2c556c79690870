/* The lanes drawn: one row per lane shown, each column a time bucket with
 * the op that fills it (its name on a long run), how busy it is in
 * shades, or the mark of an event without a duration; a counter's bars;
 * the mark of the call that launched the op under the cursor. */
#include "config.h"
#include "tui/timeline/cells.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/timeline.h"
#include "analysis/timeline_place.h"
#include "display/names.h"
#include "tui/app.h"
#include "tui/draw.h"
#include "tui/theme.h"
#include "tui/timeline/detail.h"
#include "tui/timeline/index.h"
#include "tui/timeline/navigate.h"
#include "tui/timeline/rows.h"
#include "tui/timeline/ruler.h"
#include "tui/timeline/state.h"
#include "tui/timeline/visible.h"
#include "util/i18n.h"
#include "util/satmath.h"
#include "util/xalloc.h"

/* A colour per name, so that one kernel looks the same wherever it runs. */
static attr_t name_colour(const struct trace *t, const struct tl_lane *l, uint32_t row)
{
	uint32_t h = tl_row_name_id(t, l, row) * 2654435761u;
	return theme_attr((enum theme_elem)(THEME_EVENT0 + (h >> 16) % 6));
}

/* Whether the filter and window keep a row (all are drawn when dimming). */
static int kept(const struct app *app, const struct tl_lane *l, uint32_t row)
{
	return l->kind == TL_GPU ? selected_op(app_sel(app), row) : selected_api(app_sel(app), row);
}

/* A column of a lane: how busy its bucket is, or, where nothing covers
 * the bucket whole, the mark of an event without a duration in it. */
static void draw_cell(struct app *app, const struct tl_lane *l, int y, int x, uint32_t instant, double f,
		      attr_t at)
{
	if (f >= 0.99 || instant == TRACE_NONE) {
		draw_text(stdscr, y, x, 1, tl_shade(f), at);
		return;
	}
	attr_t mark = kept(app, l, instant) ? name_colour(app->trace, l, instant) : theme_attr(THEME_DIM);
	draw_text(stdscr, y, x, 1, glyphs()->instant, mark);
}

/* A counter lane: each column a bar as high as the most the counter
 * reaches in the column's span, against its kind's scale (the same on
 * every GPU); empty where it has no sample. */
static void draw_counter_lane(struct timeline_pane *p, const struct tl_lane *l, int y, int x0, int selected)
{
	int64_t dt = tl_bucket(p);
	int cursor_col = (int)(sat_sub(p->cursor, p->view_start) / dt);
	const struct counter_index *ix = &p->tl.counters;
	for (int c = 0; c < p->cols; c++) {
		int64_t a = sat_add(p->view_start, sat_mul(c, dt));
		double v;
		int has = counter_max(ix, l->series, a, sat_add(a, dt), &v);
		const char *g = has ? glyphs()->spark[counter_level(&l->scale, v, 8)] : " ";
		attr_t at = theme_attr(THEME_BAR);
		if (selected && c == cursor_col) {
			g = has ? g : "|";
			at = theme_attr(THEME_ERROR);
		}
		draw_text(stdscr, y, x0 + c, 1, g, at);
	}
}

/* The colour an op or call is drawn in (dimmed when the filter drops it);
 * the last one asked is remembered, as runs of columns ask for the same. */
struct colour_memo {
	uint32_t op;
	attr_t at;
};

static attr_t colour_of(struct app *app, const struct tl_lane *l, uint32_t op, struct colour_memo *m)
{
	if (op == TRACE_NONE)
		return theme_attr(THEME_NORMAL);
	if (op != m->op) {
		m->op = op;
		m->at = kept(app, l, op) ? name_colour(app->trace, l, op) : theme_attr(THEME_DIM);
	}
	return m->at;
}

/* How many columns from c the op of column c fills whole (1 when it
 * does not fill c). */
static int run_length(const uint32_t *dom, const int64_t *busy, int c, int n, int64_t dt)
{
	int run = 1;
	if (dom[c] != TRACE_NONE && (double)busy[c] / (double)dt > 0.99)
		while (c + run < n && dom[c + run] == dom[c] && busy[c + run] >= sat_mul(dt, 99) / 100)
			run++;
	return run;
}

/* A run of columns one op fills, long enough to carry its name: stripping
 * shortens C++ names; a roctx text is shown whole. */
static void draw_named_run(struct app *app, const struct tl_lane *l, uint32_t op, int y, int x, int run,
			   attr_t at)
{
	const char *name = tl_row_name(app, l, op);
	char *shown = l->kind == TL_GPU ? name_strip(name) : xstrdup(name);
	draw_fill(stdscr, y, x, run, at | A_REVERSE);
	draw_text(stdscr, y, x + 1, run - 2, shown, at | A_REVERSE);
	free(shown);
}

/* One lane: each column a bucket; runs of one op long enough carry its
 * name. The columns' facts are looked up once a frame (timeline_columns). */
static void draw_lane(struct timeline_pane *p, struct app *app, const struct tl_lane *l, int y, int x0,
		      int selected)
{
	int64_t dt = tl_bucket(p);
	int cursor_col = (int)(sat_sub(p->cursor, p->view_start) / dt);
	if (l->kind == TL_COUNTER) {
		draw_counter_lane(p, l, y, x0, selected);
		return;
	}
	int n = p->cols > 0 ? p->cols : 0;
	uint32_t *dom = xmalloc_array(n ? (size_t)n : 1, sizeof(*dom));
	uint32_t *inst = xmalloc_array(n ? (size_t)n : 1, sizeof(*inst));
	int64_t *busy = xmalloc_array(n ? (size_t)n : 1, sizeof(*busy));
	timeline_columns(l, p->view_start, dt, n, dom, busy, inst);
	struct colour_memo memo = { TRACE_NONE, 0 };
	for (int c = 0; c < n;) {
		uint32_t op = dom[c];
		double f = (double)busy[c] / (double)dt;
		int run = run_length(dom, busy, c, n, dt);
		attr_t at = colour_of(app, l, op, &memo);
		if (run >= 4)
			draw_named_run(app, l, op, y, x0 + c, run, at);
		else
			for (int k = 0; k < run; k++)
				draw_cell(app, l, y, x0 + c + k, inst[c + k], f, at);
		c += run;
	}
	if (selected && cursor_col >= 0 && cursor_col < n) {
		double f = (double)busy[cursor_col] / (double)dt;
		draw_text(stdscr, y, x0 + cursor_col, 1, f > 0 ? tl_shade(f) : "|", theme_attr(THEME_ERROR));
	}
	free(dom);
	free(inst);
	free(busy);
}

/* The lane shown for the call that launched the op under the cursor (its
 * thread's when its row is folded), and where the call starts; nlanes when
 * there is none or it is not in view. Once a frame: a search per lane. */
static size_t launch_lane(const struct timeline_pane *p, const struct trace *t, int64_t *at)
{
	uint32_t op = tl_op_under_cursor(p), api = op == TRACE_NONE ? TRACE_NONE : trace_op_launch(t, op);
	if (api == TRACE_NONE)
		return p->tl.nlanes;
	*at = t->apis.start[api];
	if (*at < p->view_start || sat_sub(*at, p->view_start) / tl_bucket(p) >= p->cols)
		return p->tl.nlanes;
	size_t k, i = timeline_find_row(&p->tl, TL_CPU, t->apis.thread[api], api, *at, &k);
	while (i < p->tl.nlanes && i > 0 && tl_lane_hidden(p, &p->tl.lanes[i]))
		i--;
	return i;
}

/* The launch's mark: a triangle at the call's start on its lane. */
static void draw_launch_mark(const struct timeline_pane *p, int y, int x0, int64_t at)
{
	int c = (int)(sat_sub(at, p->view_start) / tl_bucket(p));
	draw_text(stdscr, y, x0 + c, 1, glyphs()->sort_up, theme_attr(THEME_ERROR));
}

/* Row r of the lanes area: lane i's label (+ when its thread's rows are
 * folded away), then its cells. */
static void draw_row(struct timeline_pane *p, struct app *app, size_t i, int y, int x0)
{
	char label[160];
	const struct tl_lane *l = &p->tl.lanes[i];
	tl_lane_label(app, l, label, sizeof(label));
	if (l->kind == TL_CPU && p->folded[l->thread] && i + 1 < p->tl.nlanes &&
	    tl_lane_hidden(p, &p->tl.lanes[i + 1]))
		strncat(label, " +", sizeof(label) - strlen(label) - 1);
	draw_text(stdscr, y, 0, p->label_w, label, theme_attr(i == p->lane ? THEME_CURSOR : THEME_LABEL));
	draw_text(stdscr, y, p->label_w, 1, glyphs()->vline, theme_attr(THEME_DIM));
	draw_lane(p, app, l, y, x0, i == p->lane);
}

/* The lanes shown from p->top, scrolled so that the cursor's is in sight. */
static void draw_lanes(struct timeline_pane *p, struct app *app, int y, int x0)
{
	size_t pos = tl_visible_pos(p);
	if (pos < p->top)
		p->top = pos;
	if (pos >= p->top + (size_t)p->rows)
		p->top = pos - (size_t)p->rows + 1;
	int64_t launch_at = 0;
	size_t launch = launch_lane(p, app->trace, &launch_at);
	int r = 0;
	for (; r < p->rows && p->top + (size_t)r < p->nvis; r++) {
		size_t i = p->vis[p->top + (size_t)r];
		draw_row(p, app, i, y + r, x0);
		if (i == launch)
			draw_launch_mark(p, y + r, x0, launch_at);
	}
	/* Where the lanes end, the ones left out. */
	size_t idle = tl_idle_hidden(p);
	if (idle && r < p->rows) {
		char note[160];
		snprintf(note, sizeof(note),
			 P_("%zu counter lane of a GPU that ran no op hidden: | (the lane filter) shows it",
			    "%zu counter lanes of GPUs that ran no op hidden: | (the lane filter) shows them",
			    idle),
			 idle);
		draw_text(stdscr, y + r, 0, p->label_w + 1 + p->cols, note, theme_attr(THEME_DIM));
	}
}

void tl_draw(struct timeline_pane *p, struct app *app, int y, int height, int width)
{
	tl_ensure_ready(p, app);
	if (!p->ready) {
		draw_text(stdscr, y, 0, width, _("Indexing the timeline..."), theme_attr(THEME_DIM));
		return;
	}
	p->lanes_drawn = 1;
	p->label_w = p->label_need;
	if (p->label_w > LABEL_MIN && p->label_w > width / 3)
		p->label_w = width / 3 > LABEL_MIN ? width / 3 : LABEL_MIN;
	int x0 = p->label_w + 1;
	p->cols = width - x0;
	p->rows = height - 3;
	if (p->cols < 1 || p->rows < 1)
		return;
	tl_draw_ruler_lines(p, app, y, x0);
	draw_lanes(p, app, y + 2, x0);
	tl_draw_detail(p, app, y + height - 1, width);
}
