/* The table core's keys and view ops: the moves, s and S, Enter and v
 * handed to the view, the mouse, and the rows made again between
 * events; a table view is made here. */
#include "config.h"

#include <assert.h>
#include <stdlib.h>

#include "tui/app.h"
#include "tui/tableview.h"
#include "tui/tableview_state.h"
#include "util/xalloc.h"

/* s: the column next in the order s walks through. */
static unsigned sort_next(struct tableview *tv, struct app *app)
{
	const struct tv_spec *spec = tv->spec;
	int slot = spec->cols[tv->sort].sort_slot, best = -1, first = -1;
	for (int c = 0; c < spec->ncols; c++) {
		int s = spec->cols[c].sort_slot;
		if (s <= 0)
			continue;
		if (s > slot && (best < 0 || s < spec->cols[best].sort_slot))
			best = c;
		if (first < 0 || s < spec->cols[first].sort_slot)
			first = c;
	}
	int col = best >= 0 ? best : first;
	if (col < 0)
		return ACT_UNHANDLED;
	if (col == tv->sort) /* one order only: s goes back to its start */
		return tv_sort_by(tv, app, col, 0, 1);
	return tv_sort_by(tv, app, col, 0, 0);
}

/* The moves of the cursor, over lines; on a table with groups it stays
 * on rows. */
static unsigned move_cursor(struct tableview *tv, enum request req)
{
	size_t n = tv_nlines(tv), last = n ? n - 1 : 0, before = tv->cursor;
	size_t page = tv->height > 1 ? (size_t)tv->height - 1 : 1;
	switch (req) {
	case REQ_MOVE_UP:
		tv->cursor = tv->cursor > 0 ? tv_snap(tv, tv->cursor - 1, -1) : tv->cursor;
		break;
	case REQ_MOVE_DOWN:
		tv->cursor = tv_snap(tv, tv->cursor < last ? tv->cursor + 1 : tv->cursor, 1);
		break;
	case REQ_PAGE_UP:
		tv->cursor = tv->cursor > page ? tv->cursor - page : 0;
		tv->top = tv->top > page ? tv->top - page : 0;
		break;
	case REQ_PAGE_DOWN:
	case REQ_TOGGLE_LANE: /* Space pages down, as in less */
		tv->cursor = tv->cursor + page < last ? tv->cursor + page : last;
		if (tv->top + page + (size_t)tv->height <= n)
			tv->top += page;
		break;
	case REQ_MOVE_FIRST:
	case REQ_TIME_START:
		tv->cursor = 0;
		break;
	case REQ_MOVE_LAST:
	case REQ_TIME_END:
		tv->cursor = last;
		break;
	default:
		return ACT_UNHANDLED;
	}
	if (tv->spec->groups && !tv_is_row(tv, tv->cursor))
		tv->cursor = tv_snap(tv, tv->cursor, tv->cursor >= before ? 1 : -1);
	tv_fit(tv, tv->height);
	return ACT_REDRAW;
}

static unsigned own_key(struct tableview *tv, struct app *app, enum request req)
{
	const struct tv_source_ops *ops = tv->spec->ops;
	size_t row = tv_line_row(tv, tv->cursor);
	switch (req) {
	case REQ_ENTER:
		if (!ops->enter)
			return ACT_UNHANDLED;
		return row == SIZE_MAX ? ACT_NONE : ops->enter(tv->src, app, row);
	case REQ_DETAILS:
		if (!ops->details)
			return ACT_UNHANDLED;
		return row == SIZE_MAX ? ACT_NONE : ops->details(tv->src, app, row);
	default:
		return ops->request ? ops->request(tv->src, app, row, req) : ACT_UNHANDLED;
	}
}

unsigned tableview_request(struct view *v, struct app *app, enum request req)
{
	struct tableview *tv = v->data;
	tv_ensure(tv, app);
	unsigned act = own_key(tv, app, req);
	if (!(act & ACT_UNHANDLED))
		return act;
	switch (req) {
	case REQ_FIND:
		return tv_find_open(tv, app);
	case REQ_FIND_NEXT:
	case REQ_FIND_PREV:
		return tv_find_again(tv, app, req == REQ_FIND_NEXT ? 1 : -1);
	case REQ_SORT_NEXT:
		return sort_next(tv, app);
	case REQ_SORT_REVERSE:
		return tv_sort_by(tv, app, tv->sort, !tv->reverse, 1);
	case REQ_MOVE_LEFT:
	case REQ_MOVE_RIGHT:
		return tv_scroll(tv, app, req == REQ_MOVE_LEFT ? -1 : 1);
	default:
		return move_cursor(tv, req);
	}
}

/* The header's column at screen column x: sorted by (again: the other
 * way). */
static unsigned sort_by_header(struct tableview *tv, struct app *app, int x)
{
	int c = tv_column_at(tv, x);
	if (c < 0 || !tv->spec->cols[c].sort_name)
		return ACT_NONE;
	return c == tv->sort ? tv_sort_by(tv, app, c, !tv->reverse, 1) : tv_sort_by(tv, app, c, 0, 0);
}

/* A press on the header sorts by its column (again: the other way); on a
 * row moves the cursor there; the wheel scrolls. */
unsigned tableview_click(struct view *v, struct app *app, int row, int col, int button)
{
	struct tableview *tv = v->data;
	tv_ensure(tv, app);
	if (button == 4 || button == 5) {
		for (int i = 0; i < 3; i++)
			move_cursor(tv, button == 4 ? REQ_MOVE_UP : REQ_MOVE_DOWN);
		return ACT_REDRAW;
	}
	if (button != 1)
		return ACT_NONE;
	size_t line = row >= tv->table_y ? tv->top + (size_t)(row - tv->table_y) : SIZE_MAX;
	int header = row == tv->header_y ||
		     (tv->spec->groups && line < tv->nlines && tv->lines[line].kind == TVL_HEADER);
	if (header)
		return sort_by_header(tv, app, col);
	if (line >= tv_nlines(tv) || !tv_is_row(tv, line))
		return ACT_NONE;
	tv->cursor = line;
	return ACT_REDRAW;
}

/* The rows are made between events, before the screen is drawn. */
unsigned tableview_idle(struct view *v, struct app *app)
{
	struct tableview *tv = v->data;
	int was = tv_rows_current(tv, app) && tv->style == app->names.style;
	tv_ensure(tv, app);
	return was ? ACT_NONE : ACT_REDRAW;
}

void tableview_draw(struct view *v, struct app *app, int y, int height, int width)
{
	struct tableview *tv = v->data;
	/* Made by idle, which the loop runs first; a view drawn before it
	 * ever ran shows its rows as they come. */
	if (!tv->ready)
		tv_ensure(tv, app);
	tv_draw(tv, app, y, height, width);
}

void tableview_free(struct view *v)
{
	struct tableview *tv = v->data;
	if (tv->spec->ops->release)
		tv->spec->ops->release(tv->src);
	free(tv->src);
	free(tv->order);
	free(tv->lines);
	free(tv->pos_line);
	tv_forget_partings(tv);
	free(tv);
}

struct view tableview_new(const struct tv_spec *spec, size_t size)
{
	struct tableview *tv = xcalloc(1, sizeof(*tv));
	tv->spec = spec;
	tv->src = xcalloc(1, size);
	/* A report's columns are found once (a view of too many shows none). */
	for (int c = 0; c < spec->ncols && spec->report && spec->report->ncols <= TV_REPORT_COLS; c++)
		tv->rcol[c] = spec->cols[c].key ? report_col(spec->report, spec->cols[c].key) : NULL;
	/* The core shows the names: a view with a name column gives them. */
	for (int c = 0; c < spec->ncols; c++)
		assert(spec->cols[c].align != TV_NAME || spec->ops->name);
	tv->sort = spec->first_sort;
	tv->header_y = tv->table_y = 1 << 20; /* not drawn yet: nothing of it clicked */
	for (int c = 0; c < TV_MAX_COLS; c++) {
		tv->longest[c] = -1;
		tv->w[c] = -1;
	}
	return (struct view){ &spec->view, tv };
}

void *tableview_source(const struct view *v)
{
	const struct tableview *tv = v->data;
	return tv->src;
}

size_t tableview_cursor_row(const struct view *v)
{
	const struct tableview *tv = v->data;
	return tv->ready ? tv_line_row(tv, tv->cursor) : SIZE_MAX;
}
