/* The table core's drawing: the columns a screen of this width shows and
 * where, the header with the sort mark, the rows, and for a table with
 * groups the lines of each group. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "display/names.h"
#include "tui/app.h"
#include "tui/draw.h"
#include "tui/tableview_state.h"
#include "tui/theme.h"
#include "util/i18n.h"
#include "util/sort.h"
#include "util/xalloc.h"

/* How many columns share the rest with column c: it and the TV_SHARE and
 * TV_REST columns after it shown on a screen width wide. */
static int sharing(const struct tableview *tv, int c, int width)
{
	int n = 1;
	for (int k = c + 1; k < tv->spec->ncols; k++) {
		const struct tv_column *col = &tv->spec->cols[k];
		n += width >= col->min_screen && (col->width == TV_SHARE || col->width == TV_REST);
	}
	return n;
}

/* A column's width where it starts at x on a screen width wide. */
static int column_width(const struct tableview *tv, int c, int x, int width)
{
	const struct tv_column *col = &tv->spec->cols[c];
	int rest = width - x, n;
	switch (col->width) {
	case TV_REST:
		return rest > 0 ? rest : 0;
	case TV_SHARE:
		n = sharing(tv, c, width);
		return rest > n ? rest / n : 1;
	case TV_FIT:
		return tv->spec->ops->fit_width(tv->src, c, width);
	default:
		return col->width;
	}
}

/* Where each column is drawn; returns where the tail starts. */
static int lay_out(struct tableview *tv, int width)
{
	const struct tv_spec *spec = tv->spec;
	int x = spec->lead, first = 1;
	for (int c = 0; c < spec->ncols; c++) {
		tv->w[c] = -1;
		if (width < spec->cols[c].min_screen)
			continue;
		x += first ? 0 : spec->cols[c].pad;
		first = 0;
		tv->x[c] = x;
		tv->w[c] = column_width(tv, c, x, width);
		x += tv->w[c];
	}
	return x + spec->tail_pad;
}

int tv_column_at(const struct tableview *tv, int x)
{
	for (int c = 0; c < tv->spec->ncols; c++)
		if (tv->w[c] >= 0 && x >= tv->x[c] && x < tv->x[c] + tv->w[c])
			return c;
	return -1;
}

static const char *column_title(const struct tableview *tv, int c, size_t group, char *buf, size_t size)
{
	const struct tv_column *col = &tv->spec->cols[c];
	const struct tv_groups *g = tv->spec->groups;
	const char *title = g && g->title ? g->title(tv->src, group, c) : NULL;
	title = title ? title : _(col->title ? col->title : tv->rcol[c]->title);
	const struct glyphs *gl = glyphs();
	int marked = c == tv->sort && col->sort_name && (!(col->flags & TV_MARK_REVERSED) || tv->reverse);
	const char *mark = marked ? (tv->reverse ? gl->sort_up : gl->sort_down) : "";
	if ((col->flags & TV_SCROLL) && tv->hscroll > 0) {
		char scrolled[128];
		snprintf(scrolled, sizeof(scrolled), _("%s from column %d"), title, tv->hscroll + 1);
		snprintf(buf, size, "%s%s", mark, scrolled);
	} else {
		snprintf(buf, size, "%s%s", mark, title);
	}
	return buf;
}

static void draw_header(struct tableview *tv, struct app *app, size_t group, int y, int width, int tail)
{
	attr_t a = theme_attr(THEME_HEADER);
	char title[192];
	draw_fill(stdscr, y, 0, width, a);
	for (int c = 0; c < tv->spec->ncols; c++) {
		if (tv->w[c] < 0)
			continue;
		column_title(tv, c, group, title, sizeof(title));
		if (tv->spec->cols[c].align == TV_RIGHT)
			draw_text_right(stdscr, y, tv->x[c], tv->w[c], title, a);
		else
			draw_text(stdscr, y, tv->x[c], tv->w[c], title, a);
	}
	if (tv->spec->ops->header_tail)
		draw_text(stdscr, y, tail, width - tail,
			  tv->spec->ops->header_tail(tv->src, app, title, sizeof(title)), a);
}

/* The partings of rows [from, to) (a group's, or all) in name column col:
 * each name's among the other names there, rows of one string counted
 * once (the steps with the same top kernel part from the other kernels,
 * not from one another). */
static void part_rows(struct tableview *tv, struct app *app, int col, size_t from, size_t to)
{
	size_t n = to - from, ndistinct = 0, nids = 0, *at = xmalloc_array(n ? n : 1, sizeof(*at));
	int64_t *by_id = xmalloc_huge(n ? n : 1, sizeof(*by_id)); /* id << 32 | row - from */
	uint32_t *slot = xmalloc_huge(n ? n : 1, sizeof(*slot));  /* row - from -> distinct name */
	const char **names = xmalloc_array(n ? n : 1, sizeof(*names));
	uint32_t *out = tv->parting[col] + from;
	for (size_t i = 0; i < n; i++) {
		struct tv_name name = tv->spec->ops->name(tv->src, app, from + i, col);
		out[i] = name.before ? (uint32_t)strlen(name.before) + 1 : 0; /* and its blank */
		slot[i] = TV_PLAIN;
		if (name.id != TRACE_NONE) {
			by_id[nids++] = (int64_t)((uint64_t)name.id << 32 | i);
		} else if (name.shown) {
			slot[i] = (uint32_t)ndistinct;
			names[ndistinct++] = name.shown;
		}
	}
	sort_int64(by_id, nids);
	for (size_t k = 0; k < nids; k++) {
		uint64_t key = (uint64_t)by_id[k];
		if (k == 0 || key >> 32 != (uint64_t)by_id[k - 1] >> 32)
			names[ndistinct++] = app_name(app, (uint32_t)(key >> 32));
		slot[key & 0xffffffffu] = (uint32_t)(ndistinct - 1);
	}
	name_parting(names, ndistinct, at);
	for (size_t i = 0; i < n; i++)
		out[i] = slot[i] == TV_PLAIN ? TV_PLAIN : out[i] + (uint32_t)at[slot[i]];
	free(names);
	free(slot);
	free(by_id);
	free(at);
}

/* Where each row's name in column col parts from the others' (of its
 * group). */
static void find_parting(struct tableview *tv, struct app *app, int col)
{
	const struct tv_groups *g = tv->spec->groups;
	tv->parting[col] = xmalloc_huge(tv->n ? tv->n : 1, sizeof(*tv->parting[col]));
	for (size_t from = 0, to; from < tv->n; from = to) {
		to = from + 1;
		while (g && to < tv->n && g->of(tv->src, to) == g->of(tv->src, from))
			to++;
		if (!g)
			to = tv->n;
		part_rows(tv, app, col, from, to);
	}
}

static void draw_cell(struct tableview *tv, int c, size_t row, const char *s, int y, attr_t a)
{
	const struct tv_column *col = &tv->spec->cols[c];
	int x = tv->x[c], w = tv->w[c];
	uint32_t parting;
	if (tv->hscroll > 0 && (col->flags & TV_SCROLL)) {
		draw_text_scrolled(stdscr, y, x, w, s, tv->hscroll, a);
		return;
	}
	switch (col->align) {
	case TV_RIGHT:
		draw_text_right(stdscr, y, x, w, s, a);
		break;
	case TV_MID:
		draw_text_mid(stdscr, y, x, w, s, a);
		break;
	case TV_NAME:
		/* A pinned row's name is kept whole as far as it fits. */
		parting = row < tv->n ? tv->parting[c][row] : TV_PLAIN;
		if (parting == TV_PLAIN)
			draw_text(stdscr, y, x, w, s, a);
		else
			draw_text_parted(stdscr, y, x, w, s, parting, a);
		break;
	default:
		draw_text(stdscr, y, x, w, s, a);
		break;
	}
}

/* A row (or a pinned one, row >= n) in attribute a. */
static void draw_row(struct tableview *tv, struct app *app, size_t row, int y, int width, int tail, attr_t a,
		     int cursor)
{
	char buf[512];
	draw_fill(stdscr, y, 0, width, a);
	for (int c = 0; c < tv->spec->ncols; c++) {
		if (tv->w[c] < 0)
			continue;
		draw_cell(tv, c, row, tv_text(tv, app, row, c, buf, sizeof(buf)), y, a);
	}
	if (row < tv->n && tv->spec->ops->draw_tail)
		tv->spec->ops->draw_tail(tv->src, app, row, y, tail, width, cursor);
}

static void draw_line(struct tableview *tv, struct app *app, size_t line, int y, int width, int tail)
{
	const struct tv_groups *g = tv->spec->groups;
	const struct tv_line *l = g ? &tv->lines[line] : NULL;
	int cursor = line == tv->cursor;
	if (!l || l->kind == TVL_ROW) {
		attr_t a = theme_attr(cursor ? THEME_CURSOR : THEME_NORMAL);
		draw_row(tv, app, tv_line_row(tv, line), y, width, tail, a, cursor);
	} else if (l->kind == TVL_HEADER) {
		draw_header(tv, app, l->group, y, width, tail);
	} else if (l->kind == TVL_EMPTY) {
		draw_text(stdscr, y, 2, width - 2, _(g->empty), theme_attr(THEME_DIM));
	} else {
		g->draw_line(tv->src, app, l->group, l->k, y, width);
	}
}

/* The partings of the name columns shown and the scroll, as the rows now
 * are. */
static void prepare(struct tableview *tv, struct app *app)
{
	for (int c = 0; c < tv->spec->ncols; c++)
		if (tv->spec->cols[c].align == TV_NAME && tv->w[c] >= 0 && !tv->parting[c])
			find_parting(tv, app, c);
	if (tv->hscroll > 0) {
		int max = tv_scroll_max(tv, app);
		tv->hscroll = tv->hscroll > max ? max : tv->hscroll;
	}
}

void tv_draw(struct tableview *tv, struct app *app, int y, int height, int width)
{
	const struct tv_source_ops *ops = tv->spec->ops;
	int tail = lay_out(tv, width);
	prepare(tv, app);
	int used = ops->draw_top ? ops->draw_top(tv->src, app, y, height, width) : 0;
	size_t npinned = ops->pinned ? ops->pinned(tv->src) : 0;
	tv->header_y = tv->spec->groups ? -1 : used;
	if (!tv->spec->groups && used < height)
		draw_header(tv, app, 0, y + used++, width, tail);
	for (size_t k = 0; k < npinned && used < height; k++)
		draw_row(tv, app, tv->n + k, y + used++, width, tail, theme_attr(THEME_LABEL), 0);
	const char *footer = ops->footer ? ops->footer(tv->src, app) : NULL;
	int rows = height - used - (footer && height > 2 ? 1 : 0);
	tv->table_y = used;
	tv_fit(tv, rows);
	if (tv->n == 0 && !tv->spec->groups) {
		const char *why = ops->empty        ? ops->empty(tv->src, app)
				  : tv->spec->empty ? _(tv->spec->empty)
						    : NULL;
		if (why)
			draw_text(stdscr, y + used + tv->spec->empty_skip, 2, width - 2, why,
				  theme_attr(THEME_DIM));
	}
	for (int k = 0; k < rows && tv->top + (size_t)k < tv_nlines(tv); k++)
		draw_line(tv, app, tv->top + (size_t)k, y + used + k, width, tail);
	if (footer && height > 2)
		draw_text(stdscr, y + height - 1, 1, width - 1, footer, theme_attr(THEME_DIM));
}
