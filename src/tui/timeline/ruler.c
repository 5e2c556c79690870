/* The two lines above the lanes: the minimap of the whole trace (how busy
 * the GPUs are, where the view is) and the ruler (ticks, the time window,
 * the marks' letters). */
#include "config.h"
#include "tui/timeline/ruler.h"

#include <stdio.h>
#include <stdlib.h>

#include "analysis/timeline.h"
#include "tui/app.h"
#include "tui/draw.h"
#include "tui/theme.h"
#include "tui/timeline/marks.h"
#include "tui/timeline/navigate.h"
#include "tui/timeline/range.h"
#include "tui/timeline/rows.h"
#include "tui/timeline/state.h"
#include "util/i18n.h"
#include "util/satmath.h"
#include "util/units.h"
#include "util/xalloc.h"

/* The smallest step of 1, 2 or 5 times a power of ten ns at least least. */
static int64_t round_step(int64_t least)
{
	static const int64_t m[] = { 1, 2, 5 };
	/* 5e18 is the last such step below 2^63: a larger need gets it. */
	for (int64_t p = 1;; p *= 10) {
		for (int i = 0; i < 3; i++)
			if (p * m[i] >= least)
				return p * m[i];
		if (p == (int64_t)1000000000000000000)
			return (int64_t)5000000000000000000;
	}
}

/* Ticks at 1, 2 or 5 times a power of ten ns, at least 16 columns apart
 * and wide enough for their labels, which carry the digits the step
 * needs (at fine zoom "+319.83051 ms"). */
static int64_t tick_step(int64_t dt, int64_t from, int64_t to)
{
	int64_t step = round_step(dt * 16);
	for (;;) {
		char a[UNITS_BUFSZ + 2], b[UNITS_BUFSZ + 2];
		int w = text_width(units_format_relative(from, step, a, sizeof(a)));
		int wb = text_width(units_format_relative(to, step, b, sizeof(b)));
		if ((w > wb ? w : wb) + 2 <= step / dt)
			return step;
		step = round_step(step + 1);
	}
}

/* The time window on the ruler: its columns highlighted, [ and ] at its
 * ends when they are in view. */
static void draw_window_marks(const struct timeline_pane *p, const struct window *w, int y, int x0)
{
	if (!w->active)
		return;
	int64_t dt = tl_bucket(p), v0 = p->view_start, v1 = sat_add(p->view_start, p->view_span);
	int64_t a = w->start > v0 ? w->start : v0, b = w->end < v1 ? w->end : v1;
	if (a >= b)
		return;
	int ca = (int)((a - v0) / dt), cb = (int)((b - 1 - v0) / dt);
	if (cb >= p->cols)
		cb = p->cols - 1;
	attr_t at = theme_attr(THEME_CURSOR);
	mvchgat(y, x0 + ca, cb - ca + 1, at & ~A_COLOR, (short)PAIR_NUMBER(at), NULL);
	if (w->start >= v0)
		draw_text(stdscr, y, x0 + ca, 1, "[", at);
	if (w->end <= v1)
		draw_text(stdscr, y, x0 + cb, 1, "]", at);
}

/* The marks in view: their letters on the ruler, at their columns. */
static void draw_marks(const struct timeline_pane *p, int y, int x0)
{
	int64_t dt = tl_bucket(p);
	for (int i = 0; i < TL_MARKS; i++) {
		int64_t at = p->marks.mark[i].cursor;
		if (!p->marks.set[i] || at < p->view_start || sat_sub(at, p->view_start) / dt >= p->cols)
			continue;
		char letter[2] = { tl_mark_letter(i), '\0' };
		draw_text(stdscr, y, x0 + (int)(sat_sub(at, p->view_start) / dt), 1, letter,
			  theme_attr(THEME_KEY));
	}
}

/* The ruler: ticks at round times from the origin, with their labels. */
static void draw_ruler(struct timeline_pane *p, int y, int x0)
{
	int64_t dt = tl_bucket(p), rel = sat_sub(p->view_start, p->tl.origin),
		stop = sat_add(rel, p->view_span);
	int64_t step = tick_step(dt, rel, stop);
	/* The first tick at or after the view's start, negative times too. */
	int64_t first = rel >= 0 ? sat_add(rel, step - 1) / step * step : rel / step * step;
	draw_fill(stdscr, y, x0, p->cols, theme_attr(THEME_HEADER));
	/* Times saturate at the end of their range: the loop ends there. */
	for (int64_t r = first; r < stop; r = sat_add(r, step)) {
		int c = (int)(sat_sub(r, rel) / dt);
		char label[UNITS_BUFSZ + 4], u[UNITS_BUFSZ + 2];
		snprintf(label, sizeof(label), "|%s", units_format_relative(r, step, u, sizeof(u)));
		if (c >= 0 && c < p->cols)
			draw_text(stdscr, y, x0 + c, p->cols - c, label, theme_attr(THEME_HEADER));
	}
}

/* The time a column of the minimap stands for. */
static int64_t minimap_bucket(const struct timeline_pane *p)
{
	int64_t span = p->tl.end > p->tl.start ? sat_sub(p->tl.end, p->tl.start) : 1;
	return span / (p->cols > 0 ? p->cols : 1) + 1;
}

int64_t tl_minimap_time(const struct timeline_pane *p, int c)
{
	int64_t dt = minimap_bucket(p), at = sat_add(p->tl.start, sat_add(sat_mul(c, dt), dt / 2));
	return at < p->tl.end ? at : p->tl.end - 1;
}

/* The whole trace in one line: how busy the GPUs are, and where the view is. */
static void draw_minimap(struct timeline_pane *p, int y, int x0)
{
	int64_t dt = minimap_bucket(p);
	if (p->minimap_cols != p->cols) {
		free(p->minimap);
		p->minimap = xcalloc((size_t)p->cols, sizeof(*p->minimap));
		for (int c = 0; c < p->cols; c++)
			for (size_t l = 0; l < p->tl.nlanes; l++)
				p->minimap[c] +=
					timeline_busy(&p->tl.lanes[l], sat_add(p->tl.start, sat_mul(c, dt)),
						      sat_add(p->tl.start, sat_mul(c + 1, dt)));
		p->minimap_cols = p->cols;
	}
	int64_t most = 1;
	for (int c = 0; c < p->cols; c++)
		if (p->minimap[c] > most)
			most = p->minimap[c];
	int v0 = (int)(sat_sub(p->view_start, p->tl.start) / dt),
	    v1 = (int)(sat_sub(sat_add(p->view_start, p->view_span), p->tl.start) / dt);
	for (int c = 0; c < p->cols; c++) {
		int in_view = c >= v0 && c <= v1;
		draw_text(stdscr, y, x0 + c, 1, tl_shade((double)p->minimap[c] / (double)most),
			  theme_attr(in_view ? THEME_CURSOR : THEME_DIM));
	}
}

void tl_draw_ruler_lines(struct timeline_pane *p, struct app *app, int y, int x0)
{
	draw_text(stdscr, y, 0, p->label_w, _("whole trace"), theme_attr(THEME_DIM));
	draw_minimap(p, y, x0);
	draw_text(stdscr, y + 1, 0, p->label_w, "", theme_attr(THEME_NORMAL));
	draw_ruler(p, y + 1, x0);
	draw_window_marks(p, session_window(app->session), y + 1, x0);
	draw_marks(p, y + 1, x0);
	tl_range_draw(&p->range, p->cursor, p->view_start, tl_bucket(p), p->cols, y + 1, x0);
}
