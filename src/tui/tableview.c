/* The table core's rows: made again when the application shows something
 * else, put in the order of the column sorted by, the cursor kept on its
 * row. */
#include "config.h"
#include "tui/tableview.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/app.h"
#include "tui/tableview_state.h"
#include "util/i18n.h"
#include "util/sort.h"
#include "util/xalloc.h"

size_t tv_nlines(const struct tableview *tv)
{
	return tv->spec->groups ? tv->nlines : tv->n;
}

size_t tv_line_row(const struct tableview *tv, size_t line)
{
	if (line >= tv_nlines(tv))
		return SIZE_MAX;
	if (!tv->spec->groups)
		return tv->order[line];
	return tv->lines[line].kind == TVL_ROW ? tv->order[tv->lines[line].pos] : SIZE_MAX;
}

size_t tv_pos_line(const struct tableview *tv, size_t pos)
{
	return tv->spec->groups ? tv->pos_line[pos] : pos;
}

int tv_is_row(const struct tableview *tv, size_t line)
{
	return tv_line_row(tv, line) != SIZE_MAX;
}

/* The first row from line i on in direction step (+1, or -1 as a size_t
 * that wraps past 0 to beyond the lines), or nlines. */
static size_t seek_row(const struct tableview *tv, size_t i, size_t step)
{
	size_t n = tv_nlines(tv);
	while (i < n && !tv_is_row(tv, i))
		i += step;
	return i < n ? i : n;
}

size_t tv_snap(const struct tableview *tv, size_t i, int dir)
{
	size_t n = tv_nlines(tv), k = seek_row(tv, i, dir > 0 ? 1 : (size_t)-1);
	if (k == n)
		k = seek_row(tv, i, dir > 0 ? (size_t)-1 : 1);
	return k < n ? k : 0;
}

void tv_fit(struct tableview *tv, int height)
{
	size_t n = tv_nlines(tv);
	tv->height = height > 0 ? height : 1;
	size_t h = (size_t)tv->height;
	if (n == 0) {
		tv->cursor = tv->top = 0;
		return;
	}
	if (tv->cursor >= n)
		tv->cursor = n - 1;
	if (tv->cursor < tv->top)
		tv->top = tv->cursor;
	if (tv->cursor >= tv->top + h)
		tv->top = tv->cursor - h + 1;
	/* No empty lines at the bottom while lines above are hidden. */
	if (tv->top + h > n)
		tv->top = n > h ? n - h : 0;
}

/* The report's cell of column col, among the row's cells. */
static const struct table_cell *report_cell(const struct tableview *tv, size_t row, int col,
					    struct table_cell cells[TV_REPORT_COLS])
{
	memset(cells, 0, TV_REPORT_COLS * sizeof(*cells));
	tv->spec->ops->cells(tv->src, row, cells);
	return &cells[tv->rcol[col] - tv->spec->report->cols];
}

const char *tv_text(const struct tableview *tv, struct app *app, size_t row, int col, char *buf, size_t size)
{
	struct table_cell cells[TV_REPORT_COLS];
	if (tv->rcol[col])
		return table_cell_text(tv->rcol[col], report_cell(tv, row, col, cells), buf, size);
	if (tv->spec->cols[col].align == TV_NAME) {
		struct tv_name name = tv->spec->ops->name(tv->src, app, row, col);
		const char *s = name.id != TRACE_NONE ? app_name(app, name.id) : name.shown;
		if (s && !name.before)
			return s;
		if (s) {
			snprintf(buf, size, "%s %s", name.before, s);
			return buf;
		}
	}
	const char *s = tv->spec->ops->text ? tv->spec->ops->text(tv->src, app, row, col, buf, size) : NULL;
	return s ? s : "";
}

void tv_forget_partings(struct tableview *tv)
{
	for (int c = 0; c < TV_MAX_COLS; c++) {
		free(tv->parting[c]);
		tv->parting[c] = NULL;
	}
}

/* A report's cell sorts by its value: shares and measured values in
 * millionths. */
int64_t tv_key(const struct tableview *tv, size_t row, int col)
{
	struct table_cell cells[TV_REPORT_COLS];
	if (!tv->rcol[col])
		return tv->spec->ops->key(tv->src, row, col);
	const struct table_cell *c = report_cell(tv, row, col, cells);
	switch (tv->rcol[col]->type) {
	case COL_PERCENT:
	case COL_PERCENT_CHANGE:
		return (int64_t)(c->pct * 1e6);
	case COL_VALUE:
		return (int64_t)(c->val * 1e6);
	default:
		return c->num;
	}
}

struct sort_ctx {
	const struct tableview *tv;
	struct app *app;
	const int64_t *keys; /* a number column's, by row; NULL: a text column */
};

static int compare_rows(const void *pa, const void *pb, void *arg)
{
	const struct sort_ctx *c = arg;
	const struct tableview *tv = c->tv;
	const struct tv_spec *spec = tv->spec;
	size_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	int r = 0;
	if (spec->groups) {
		size_t ga = spec->groups->of(tv->src, a), gb = spec->groups->of(tv->src, b);
		if (ga != gb)
			return ga < gb ? -1 : 1;
	}
	if (c->keys) {
		r = c->keys[a] > c->keys[b]   ? -1
		    : c->keys[a] < c->keys[b] ? 1
					      : 0; /* numbers: largest first */
	} else {
		char bx[512], by[512];
		r = strcmp(tv_text(tv, c->app, a, tv->sort, bx, sizeof(bx)),
			   tv_text(tv, c->app, b, tv->sort, by, sizeof(by)));
	}
	if (r == 0 && spec->ops->tie)
		r = spec->ops->tie(tv->src, c->app, a, b);
	return r ? r : (a > b) - (a < b);
}

/* Sort by the column sorted by, its numbers read once (millions of gaps
 * are sorted without a call per comparison). */
static void sort_rows(struct tableview *tv, struct app *app)
{
	struct sort_ctx c = { tv, app, NULL };
	int64_t *keys = NULL;
	if (tv->spec->cols[tv->sort].kind == TV_NUMBER) {
		keys = xmalloc_huge(tv->n ? tv->n : 1, sizeof(*keys));
		for (size_t i = 0; i < tv->n; i++)
			keys[i] = tv_key(tv, i, tv->sort);
		c.keys = keys;
	}
	for (size_t i = 0; i < tv->n; i++)
		tv->order[i] = (uint32_t)i;
	sort_with(tv->order, tv->n, sizeof(*tv->order), compare_rows, &c);
	free(keys);
}

/* Reverse positions [from, to) of the order. */
static void reverse_span(uint32_t *v, size_t from, size_t to)
{
	while (from + 1 < to) {
		uint32_t x = v[from];
		v[from++] = v[--to];
		v[to] = x;
	}
}

/* The other way round: each group's rows, or all of them. */
static void reverse_order(struct tableview *tv)
{
	const struct tv_groups *g = tv->spec->groups;
	size_t from = 0;
	for (size_t i = 1; i <= tv->n; i++)
		if (i == tv->n || (g && g->of(tv->src, tv->order[i]) != g->of(tv->src, tv->order[from]))) {
			reverse_span(tv->order, from, i);
			from = i;
		}
}

static void add_line(struct tableview *tv, size_t *cap, struct tv_line l)
{
	tv->lines = xgrow(tv->lines, cap, tv->nlines + 1, sizeof(*tv->lines));
	tv->lines[tv->nlines++] = l;
}

/* Groups: the lines before each group, its rows in order, or its empty
 * line. */
static void lay_out_groups(struct tableview *tv)
{
	const struct tv_groups *g = tv->spec->groups;
	size_t cap = 0, pos = 0;
	tv->nlines = 0;
	free(tv->pos_line);
	tv->pos_line = xmalloc_array(tv->n ? tv->n : 1, sizeof(*tv->pos_line));
	for (size_t k = 0; k < g->n; k++) {
		int before = g->lines_before(tv->src, k);
		for (int i = 0; i < before; i++)
			add_line(tv, &cap,
				 (struct tv_line){ i + 1 == before ? TVL_HEADER : TVL_BEFORE,
						   (unsigned char)i, (uint32_t)k, 0 });
		size_t first = pos;
		while (pos < tv->n && g->of(tv->src, tv->order[pos]) == k) {
			tv->pos_line[pos] = tv->nlines;
			add_line(tv, &cap, (struct tv_line){ TVL_ROW, 0, (uint32_t)k, pos++ });
		}
		if (pos == first)
			add_line(tv, &cap, (struct tv_line){ TVL_EMPTY, 0, (uint32_t)k, 0 });
	}
}

/* The display position of row, or SIZE_MAX. */
static size_t position_of(const struct tableview *tv, size_t row)
{
	for (size_t i = 0; i < tv->n; i++)
		if (tv->order[i] == row)
			return i;
	return SIZE_MAX;
}

/* Put the rows in order, the cursor on row (SIZE_MAX: the first). */
static void put_in_order(struct tableview *tv, struct app *app, size_t row)
{
	const struct tv_source_ops *ops = tv->spec->ops;
	if (tv->sort == tv->spec->own_order - 1) {
		for (size_t i = 0; i < tv->n; i++)
			tv->order[i] = (uint32_t)i;
	} else if (!ops->order || ops->order(tv->src, app, tv->sort, tv->order, tv->n) != 0) {
		sort_rows(tv, app);
	}
	if (tv->reverse)
		reverse_order(tv);
	if (tv->spec->groups)
		lay_out_groups(tv);
	size_t pos = row == SIZE_MAX ? SIZE_MAX : position_of(tv, row);
	tv->cursor = pos == SIZE_MAX ? tv_snap(tv, 0, 1) : tv_pos_line(tv, pos);
	tv->style = app->names.style;
}

static int same_ident(struct tv_ident x, struct tv_ident y)
{
	return x.a == y.a && x.b == y.b;
}

/* Make the rows again, the cursor kept on the row it was on when that
 * row is still there (by who it is: the rows are new). */
static void refill(struct tableview *tv, struct app *app)
{
	const struct tv_source_ops *ops = tv->spec->ops;
	size_t was = tv->ready ? tv_line_row(tv, tv->cursor) : SIZE_MAX;
	struct tv_ident who = was != SIZE_MAX ? ops->ident(tv->src, was) : (struct tv_ident){ 0, 0 };
	tv->n = ops->fill(tv->src, app);
	tv->generation = app_generation(app);
	free(tv->order);
	tv_forget_partings(tv);
	tv->order = xmalloc_huge(tv->n ? tv->n : 1, sizeof(*tv->order));
	for (int c = 0; c < TV_MAX_COLS; c++)
		tv->longest[c] = -1;
	tv->cursor = 0;
	tv->nlines = 0;
	tv->ready = 1;
	size_t row = SIZE_MAX;
	for (size_t i = 0; was != SIZE_MAX && i < tv->n && row == SIZE_MAX; i++)
		if (same_ident(ops->ident(tv->src, i), who))
			row = i;
	put_in_order(tv, app, row);
}

/* Are the rows those of the selection shown, and whatever else the
 * source made them of? */
int tv_rows_current(const struct tableview *tv, struct app *app)
{
	const struct tv_source_ops *ops = tv->spec->ops;
	/* Asked first: it may fetch what the rows are made of (the API rows),
	 * which makes a new selection. */
	int fresh = !ops->current || ops->current(tv->src, app);
	return fresh && tv->ready && tv->generation == app_generation(app);
}

/* Does the order depend on the names as shown (sorted or tied by text)? */
static int order_by_text(const struct tableview *tv)
{
	return tv->spec->cols[tv->sort].kind == TV_TEXT || tv->spec->ops->tie;
}

void tv_ensure(struct tableview *tv, struct app *app)
{
	if (!tv_rows_current(tv, app)) {
		refill(tv, app);
		return;
	}
	if (tv->style == app->names.style)
		return;
	/* The names look otherwise: their partings and widths too. */
	tv_forget_partings(tv);
	for (int c = 0; c < TV_MAX_COLS; c++)
		tv->longest[c] = -1;
	if (order_by_text(tv))
		put_in_order(tv, app, tv_line_row(tv, tv->cursor));
	tv->style = app->names.style;
}

unsigned tv_sort_by(struct tableview *tv, struct app *app, int col, int reverse, int say_order)
{
	const char *what = _(tv->spec->cols[col].sort_name);
	int same = col == tv->sort;
	tv->sort = col;
	if (same && tv->reverse != reverse) {
		size_t row = tv_line_row(tv, tv->cursor);
		tv->reverse = reverse;
		reverse_order(tv);
		if (tv->spec->groups)
			lay_out_groups(tv);
		size_t pos = row == SIZE_MAX ? SIZE_MAX : position_of(tv, row);
		if (pos != SIZE_MAX)
			tv->cursor = tv_pos_line(tv, pos);
	} else if (!same) {
		tv->reverse = reverse;
		put_in_order(tv, app, tv_line_row(tv, tv->cursor));
	}
	if (say_order)
		app_message(app, 0, _("Sorted by %s, %s"), what,
			    tv->reverse ? _("reversed") : _("normal order"));
	else
		app_message(app, 0, _("Sorted by %s"), what);
	return ACT_REDRAW;
}
