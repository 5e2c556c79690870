#include "config.h"
#include "tui/timeline/range.h"

#include <curses.h>

#include "tui/app.h"
#include "tui/draw.h"
#include "tui/panes.h"
#include "tui/theme.h"
#include "util/i18n.h"
#include "util/satmath.h"

void tl_range_init(struct tl_range *r)
{
	r->state = TL_RANGE_NONE;
	r->drag_col = -1;
}

/* The range is marked: say what is in it. */
static unsigned marked(struct tl_range *r, struct app *app, int64_t a, int64_t b)
{
	r->start = a < b ? a : b;
	r->end = a < b ? b : a;
	r->state = TL_RANGE_MARKED;
	app_push(app, view_range_new(app, r->start, r->end));
	return ACT_REDRAW;
}

unsigned tl_range_mark(struct tl_range *r, struct app *app, int64_t cursor)
{
	if (r->state != TL_RANGE_STARTED) {
		r->state = TL_RANGE_STARTED;
		r->start = cursor;
		app_message(app, 0, "%s", _("Range begun at the cursor: move to its end and mark again"));
		return ACT_REDRAW;
	}
	if (cursor == r->start) {
		app_message(app, 1, "%s", _("The range would be empty: move the cursor to its end first"));
		return ACT_REDRAW;
	}
	return marked(r, app, r->start, cursor);
}

unsigned tl_range_show(const struct tl_range *r, struct app *app)
{
	if (r->state != TL_RANGE_MARKED) {
		app_message(app, 0, "%s", _("No range is marked"));
		return ACT_REDRAW;
	}
	app_push(app, view_range_new(app, r->start, r->end));
	return ACT_REDRAW;
}

int tl_range_clear(struct tl_range *r, struct app *app)
{
	if (r->state == TL_RANGE_NONE)
		return 0;
	r->state = TL_RANGE_NONE;
	app_message(app, 0, "%s", _("Range dropped"));
	return 1;
}

void tl_range_draw(const struct tl_range *r, int64_t cursor, int64_t view_start, int64_t dt, int cols, int y,
		   int x0)
{
	if (r->state == TL_RANGE_NONE || cols < 1)
		return;
	int64_t a = r->start, b = r->end;
	if (r->state == TL_RANGE_STARTED) {
		/* Up to the cursor's column, either way. */
		a = r->start < cursor ? r->start : cursor;
		b = (r->start < cursor ? cursor : r->start) + 1;
	}
	int64_t v1 = sat_add(view_start, sat_mul(dt, cols));
	int64_t from = a > view_start ? a : view_start, to = b < v1 ? b : v1;
	if (from >= to)
		return;
	int ca = (int)((from - view_start) / dt), cb = (int)((to - 1 - view_start) / dt);
	if (cb >= cols)
		cb = cols - 1;
	attr_t at = theme_attr(THEME_KEY) | A_REVERSE;
	mvchgat(y, x0 + ca, cb - ca + 1, at & ~A_COLOR, (short)PAIR_NUMBER(at), NULL);
	if (a >= view_start)
		draw_text(stdscr, y, x0 + ca, 1, "<", at);
	if (r->state == TL_RANGE_MARKED && b <= v1)
		draw_text(stdscr, y, x0 + cb, 1, ">", at);
}

void tl_range_press(struct tl_range *r, int col)
{
	r->drag_col = col;
}

unsigned tl_range_release(struct tl_range *r, struct app *app, int col, int64_t view_start, int64_t dt)
{
	int from = r->drag_col;
	r->drag_col = -1;
	if (from < 0 || col < 0 || col == from)
		return ACT_NONE;
	int lo = from < col ? from : col, hi = from < col ? col : from;
	return marked(r, app, sat_add(view_start, sat_mul(lo, dt)),
		      sat_add(view_start, sat_mul((int64_t)(hi + 1), dt)));
}
