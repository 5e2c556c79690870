/* The flat profile (all GPU ops by name) and kernel top (kernels only):
 * the same table over a different scope. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tui/app.h"
#include "tui/draw.h"
#include "tui/panes.h"
#include "tui/tablenav.h"
#include "tui/theme.h"
#include "util/i18n.h"
#include "util/sort.h"
#include "util/units.h"
#include "util/xalloc.h"

enum sort_key {
	SORT_TOTAL,
	SORT_CALLS,
	SORT_AVG,
	SORT_MIN,
	SORT_MAX,
	SORT_NAME,
	SORT_STD,
	SORT_P50,
	SORT_P90,
	SORT_P99,
	SORT_VAR,
	SORT_COUNT
};

static const char *const sort_names[SORT_COUNT] = {
	N_("total"),
	N_("calls"),
	N_("average"),
	N_("minimum"),
	N_("maximum"),
	N_("name"),
	N_("standard deviation"),
	N_("median"),
	N_("90th percentile"),
	N_("99th percentile"),
	N_("time lost to variability"),
};

/* Columns in screen order; narrow screens drop those with a higher level. */
struct column {
	const char *title;
	int width;
	enum sort_key sort;
	int drop_below; /* shown only when the screen is at least this wide */
};

/* The variability columns come on wide screens only; every column can
 * be sorted by, shown or not. */
enum {
	COL_CALLS,
	COL_TOTAL,
	COL_AVG,
	COL_MIN,
	COL_MAX,
	COL_STD,
	COL_P50,
	COL_P90,
	COL_P99,
	COL_VAR,
	COL_PCT,
	NCOLS
};
static const struct column columns[NCOLS] = {
	[COL_CALLS] = { N_("CALLS"), 8, SORT_CALLS, 0 }, [COL_TOTAL] = { N_("TOTAL"), 10, SORT_TOTAL, 0 },
	[COL_AVG] = { N_("AVG"), 10, SORT_AVG, 70 },     [COL_MIN] = { N_("MIN"), 10, SORT_MIN, 90 },
	[COL_MAX] = { N_("MAX"), 10, SORT_MAX, 80 },     [COL_STD] = { N_("STD"), 10, SORT_STD, 180 },
	[COL_P50] = { N_("P50"), 10, SORT_P50, 190 },    [COL_P90] = { N_("P90"), 10, SORT_P90, 200 },
	[COL_P99] = { N_("P99"), 10, SORT_P99, 210 },    [COL_VAR] = { N_("VAR"), 10, SORT_VAR, 170 },
	[COL_PCT] = { N_("%"), 7, SORT_TOTAL, 0 },
};

struct profile_pane {
	enum profile_scope scope;
	struct profile prof;
	size_t *order; /* display position -> row of prof */
	struct tablenav nav;
	enum sort_key sort;
	int reverse;
	unsigned sorted_style; /* name style the order was made for */
	int sorted;
	int ready;             /* computed on first view, not at start */
	unsigned generation;   /* of the selection it was computed for */
	char find[PROMPT_MAX]; /* the last text searched for */
	size_t find_origin;    /* cursor when the find prompt opened */
	size_t *parting;       /* per row of prof: where its shown name parts from the others' */
	unsigned parting_style;
	int hscroll;    /* columns the names are scrolled to the left */
	int name_width; /* of the name column, as last drawn */
};

static void sort_rows(struct profile_pane *p, struct app *app);

/* The earliest op of the cursor's row that the selection keeps, in the
 * timeline. */
static unsigned show_first(struct profile_pane *p, struct app *app)
{
	if (p->prof.n == 0)
		return ACT_NONE;
	uint32_t name = p->prof.rows[p->order[p->nav.cursor]].name;
	uint32_t first = session_first_op_named(app->session, name);
	if (first == TRACE_NONE)
		return ACT_NONE;
	return app_show_in_timeline(app, first);
}

/* Compute (again, after the filter changed), keeping the cursor on the
 * name it was on when that name is still there. */
static void ensure_ready(struct profile_pane *p, struct app *app)
{
	if (p->ready && p->generation == app_generation(app))
		return;
	uint32_t current = p->ready && p->prof.n ? p->prof.rows[p->order[p->nav.cursor]].name : TRACE_NONE;
	profile_free(&p->prof);
	free(p->order);
	free(p->parting);
	p->parting = NULL;
	profile_by_name(app->trace, p->scope, app_sel(app), &p->prof);
	p->order = xmalloc_array(p->prof.n, sizeof(*p->order));
	for (size_t i = 0; i < p->prof.n; i++)
		p->order[i] = i;
	p->nav.n = p->prof.n;
	/* The analysis sorted by total already. */
	p->sorted = p->sort == SORT_TOTAL && !p->reverse;
	p->sorted_style = app->names.style;
	p->ready = 1;
	p->generation = app_generation(app);
	p->nav.cursor = 0;
	if (!p->sorted)
		sort_rows(p, app);
	for (size_t i = 0; i < p->prof.n && current != TRACE_NONE; i++)
		if (p->prof.rows[p->order[i]].name == current)
			p->nav.cursor = i;
}

struct sort_ctx {
	struct app *app;
	struct profile_pane *pane;
};

static int compare_rows(const void *a, const void *b, void *arg)
{
	const struct sort_ctx *ctx = arg;
	struct app *app = ctx->app;
	const struct profile_pane *pane = ctx->pane;
	const struct profile_row *x = &pane->prof.rows[*(const size_t *)a];
	const struct profile_row *y = &pane->prof.rows[*(const size_t *)b];
	int64_t kx = 0, ky = 0;
	int c = 0;
	switch (pane->sort) {
	case SORT_TOTAL:
		kx = x->total;
		ky = y->total;
		break;
	case SORT_CALLS:
		kx = (int64_t)x->calls;
		ky = (int64_t)y->calls;
		break;
	case SORT_AVG:
		kx = profile_row_avg(x);
		ky = profile_row_avg(y);
		break;
	case SORT_MIN:
		kx = x->min;
		ky = y->min;
		break;
	case SORT_MAX:
		kx = x->max;
		ky = y->max;
		break;
	case SORT_STD:
		kx = x->std;
		ky = y->std;
		break;
	case SORT_P50:
		kx = x->p50;
		ky = y->p50;
		break;
	case SORT_P90:
		kx = x->p90;
		ky = y->p90;
		break;
	case SORT_P99:
		kx = x->p99;
		ky = y->p99;
		break;
	case SORT_VAR:
		kx = x->var;
		ky = y->var;
		break;
	case SORT_NAME:
		c = strcmp(app_name(app, x->name), app_name(app, y->name));
		break;
	case SORT_COUNT:
		break;
	}
	if (pane->sort != SORT_NAME)
		c = kx > ky ? -1 : kx < ky ? 1 : 0; /* numbers: largest first */
	if (c == 0)
		c = strcmp(app_name(app, x->name), app_name(app, y->name));
	return pane->reverse ? -c : c;
}

/* Re-sort, keeping the cursor on the row it was on. */
static void sort_rows(struct profile_pane *p, struct app *app)
{
	size_t current = p->prof.n ? p->order[p->nav.cursor] : 0;
	struct sort_ctx ctx = { app, p };
	sort_with(p->order, p->prof.n, sizeof(*p->order), compare_rows, &ctx);
	for (size_t i = 0; i < p->prof.n; i++)
		if (p->order[i] == current)
			p->nav.cursor = i;
	p->sorted_style = app->names.style;
	p->sorted = 1;
}

static int column_shown(int col, int width)
{
	return width >= columns[col].drop_below;
}

static void draw_header(struct profile_pane *p, int y, int width)
{
	const struct glyphs *g = glyphs();
	attr_t a = theme_attr(THEME_HEADER);
	int x = 0;
	draw_fill(stdscr, y, 0, width, a);
	for (int c = 0; c < NCOLS; c++) {
		if (!column_shown(c, width))
			continue;
		char title[32];
		int sorted = columns[c].sort == p->sort && c != COL_PCT;
		snprintf(title, sizeof(title), "%s%s", sorted ? (p->reverse ? g->sort_up : g->sort_down) : "",
			 _(columns[c].title));
		draw_text_right(stdscr, y, x, columns[c].width, title, a);
		x += columns[c].width + 1;
	}
	char name[96], title[64];
	if (p->hscroll > 0)
		snprintf(title, sizeof(title), _("NAME from column %d"), p->hscroll + 1);
	else
		snprintf(title, sizeof(title), "%s", _("NAME"));
	snprintf(name, sizeof(name), "%s%s",
		 p->sort == SORT_NAME ? (p->reverse ? g->sort_up : g->sort_down) : "", title);
	draw_text(stdscr, y, x + 1, width - x - 1, name, a);
}

/* Where each row's shown name parts from the others': a name cut short
 * keeps that part, so names that share a long head stay apart. */
static void ensure_parting(struct profile_pane *p, struct app *app)
{
	if (p->parting && p->parting_style == app->names.style)
		return;
	const char **names = xmalloc_array(p->prof.n ? p->prof.n : 1, sizeof(*names));
	for (size_t i = 0; i < p->prof.n; i++)
		names[i] = app_name(app, p->prof.rows[i].name);
	free(p->parting);
	p->parting = xmalloc_array(p->prof.n ? p->prof.n : 1, sizeof(*p->parting));
	name_parting(names, p->prof.n, p->parting);
	p->parting_style = app->names.style;
	free(names);
}

/* The most the names can be scrolled: until the longest ends in view. */
static int hscroll_max(struct profile_pane *p, struct app *app)
{
	int longest = 0;
	for (size_t i = 0; i < p->prof.n; i++) {
		int w = text_width(app_name(app, p->prof.rows[i].name));
		longest = w > longest ? w : longest;
	}
	return longest > p->name_width ? longest - p->name_width : 0;
}

static unsigned scroll_names(struct profile_pane *p, struct app *app, int dir)
{
	int max = hscroll_max(p, app), step = p->name_width > 2 ? p->name_width / 2 : 1;
	if (max == 0) {
		p->hscroll = 0;
		app_message(app, 0, "%s", _("The names fit: nothing to scroll"));
		return ACT_REDRAW;
	}
	p->hscroll += dir * step;
	p->hscroll = p->hscroll < 0 ? 0 : p->hscroll > max ? max : p->hscroll;
	return ACT_REDRAW;
}

static void cell_text(const struct profile *prof, const struct profile_row *r, int col, char *buf,
		      size_t size)
{
	switch (col) {
	case COL_CALLS:
		snprintf(buf, size, "%llu", (unsigned long long)r->calls);
		break;
	case COL_TOTAL:
		units_format_ns(r->total, buf, size);
		break;
	case COL_AVG:
		units_format_ns(profile_row_avg(r), buf, size);
		break;
	case COL_MIN:
		units_format_ns(r->min, buf, size);
		break;
	case COL_MAX:
		units_format_ns(r->max, buf, size);
		break;
	case COL_STD:
		units_format_ns(r->std, buf, size);
		break;
	case COL_P50:
		units_format_ns(r->p50, buf, size);
		break;
	case COL_P90:
		units_format_ns(r->p90, buf, size);
		break;
	case COL_P99:
		units_format_ns(r->p99, buf, size);
		break;
	case COL_VAR:
		units_format_ns(r->var, buf, size);
		break;
	default:
		snprintf(buf, size, "%.2f", profile_row_percent(prof, r));
		break;
	}
}

static void draw_row(struct profile_pane *p, struct app *app, size_t i, int y, int width)
{
	const struct profile_row *r = &p->prof.rows[p->order[i]];
	int cursor = i == p->nav.cursor;
	attr_t a = theme_attr(cursor ? THEME_CURSOR : THEME_NORMAL);
	char buf[UNITS_BUFSZ];
	int x = 0;
	draw_fill(stdscr, y, 0, width, a);
	for (int c = 0; c < NCOLS; c++) {
		if (!column_shown(c, width))
			continue;
		cell_text(&p->prof, r, c, buf, sizeof(buf));
		draw_text_right(stdscr, y, x, columns[c].width, buf, a);
		x += columns[c].width + 1;
	}
	const char *name = app_name(app, r->name);
	if (p->hscroll > 0)
		draw_text_scrolled(stdscr, y, x + 1, width - x - 1, name, p->hscroll, a);
	else
		draw_text_parted(stdscr, y, x + 1, width - x - 1, name, p->parting[p->order[i]], a);
}

/* Columns left for the names once the shown columns are drawn. */
static int name_column_width(int width)
{
	int x = 0;
	for (int c = 0; c < NCOLS; c++)
		if (column_shown(c, width))
			x += columns[c].width + 1;
	return width - x - 1;
}

static void profile_draw(struct view *v, struct app *app, int y, int height, int width)
{
	struct profile_pane *p = v->data;
	ensure_ready(p, app);
	if (!p->sorted || p->sorted_style != app->names.style)
		sort_rows(p, app);
	ensure_parting(p, app);
	p->name_width = name_column_width(width);
	if (p->hscroll > 0) {
		int max = hscroll_max(p, app);
		p->hscroll = p->hscroll > max ? max : p->hscroll;
	}
	draw_header(p, y, width);
	tablenav_fit(&p->nav, height - 1);
	if (p->prof.n == 0) {
		const char *why = session_filtered(app->session)
					  ? (p->scope == PROFILE_KERNELS ? _("No kernel passes the filter")
									 : _("No GPU op passes the filter"))
					  : (p->scope == PROFILE_KERNELS ? _("No kernels in this trace")
									 : _("No GPU ops"));
		draw_text(stdscr, y + 2, 2, width - 2, why, theme_attr(THEME_DIM));
		return;
	}
	for (int row = 0; row < height - 1 && p->nav.top + (size_t)row < p->prof.n; row++)
		draw_row(p, app, p->nav.top + (size_t)row, y + 1 + row, width);
}

/* The display position of the next row (in direction dir, from the row
 * after start, wrapping) whose shown name contains text, ignoring case. */
static int find_row(struct profile_pane *p, struct app *app, const char *text, size_t start, int dir,
		    size_t *found)
{
	size_t n = p->prof.n;
	for (size_t k = 0; k < n && *text; k++) {
		size_t i = (start + n + (size_t)dir * k) % n;
		if (strcasestr(app_name(app, p->prof.rows[p->order[i]].name), text)) {
			*found = i;
			return 1;
		}
	}
	return 0;
}

static void find_changed(struct app *app, const char *text, void *ctx)
{
	struct profile_pane *p = ctx;
	size_t row;
	if (find_row(p, app, text, p->find_origin, 1, &row))
		p->nav.cursor = row;
	else if (*text)
		app_message(app, 1, _("Not found: %s"), text);
}

static unsigned find_done(struct app *app, const char *text, int accepted, void *ctx)
{
	struct profile_pane *p = ctx;
	size_t row;
	if (!accepted) {
		p->nav.cursor = p->find_origin;
		return ACT_REDRAW;
	}
	snprintf(p->find, sizeof(p->find), "%s", text);
	if (*text && !find_row(p, app, text, p->find_origin, 1, &row))
		app_message(app, 1, _("Not found: %s"), text);
	return ACT_REDRAW;
}

static unsigned find_again(struct profile_pane *p, struct app *app, int dir)
{
	size_t row;
	if (!p->find[0]) {
		app_message(app, 0, "%s", _("Nothing to find yet (/)"));
		return ACT_REDRAW;
	}
	if (p->prof.n &&
	    find_row(p, app, p->find, (p->nav.cursor + p->prof.n + (size_t)dir) % p->prof.n, dir, &row))
		p->nav.cursor = row;
	else
		app_message(app, 1, _("Not found: %s"), p->find);
	return ACT_REDRAW;
}

static unsigned profile_request(struct view *v, struct app *app, enum request req)
{
	struct profile_pane *p = v->data;
	ensure_ready(p, app);
	switch (req) {
	case REQ_FIND: {
		struct prompt_owner owner = { find_changed, find_done, p };
		p->find_origin = p->nav.cursor;
		prompt_open(&app->prompt, _("Find: "), NULL, &owner);
		return ACT_REDRAW;
	}
	case REQ_FIND_NEXT:
		return find_again(p, app, 1);
	case REQ_FIND_PREV:
		return find_again(p, app, -1);
	case REQ_SORT_NEXT:
		p->sort = (enum sort_key)((p->sort + 1) % SORT_COUNT);
		p->reverse = 0;
		sort_rows(p, app);
		app_message(app, 0, _("Sorted by %s"), _(sort_names[p->sort]));
		return ACT_REDRAW;
	case REQ_SORT_REVERSE:
		p->reverse = !p->reverse;
		sort_rows(p, app);
		app_message(app, 0, _("Sorted by %s, %s"), _(sort_names[p->sort]),
			    p->reverse ? _("reversed") : _("normal order"));
		return ACT_REDRAW;
	case REQ_MOVE_LEFT:
	case REQ_MOVE_RIGHT:
		return scroll_names(p, app, req == REQ_MOVE_LEFT ? -1 : 1);
	case REQ_ENTER:
		return show_first(p, app);
	case REQ_DETAILS: {
		if (p->prof.n == 0)
			return ACT_NONE;
		const struct profile_row *r = &p->prof.rows[p->order[p->nav.cursor]];
		app_push(app, view_detail_new(app, p->scope, r, profile_row_percent(&p->prof, r)));
		return ACT_REDRAW;
	}
	default:
		return tablenav_request(&p->nav, req);
	}
}

static unsigned profile_click(struct view *v, struct app *app, int row, int col, int button)
{
	struct profile_pane *p = v->data;
	(void)col;
	ensure_ready(p, app);
	return row == 0 ? ACT_NONE : tablenav_click(&p->nav, row - 1, button);
}

static void profile_free_view(struct view *v)
{
	struct profile_pane *p = v->data;
	profile_free(&p->prof);
	free(p->order);
	free(p->parting);
	free(p);
}

static const struct view_ops profile_ops = {
	.name = "profile",
	.title = N_("Profile"),
	.draw = profile_draw,
	.request = profile_request,
	.click = profile_click,
	.free = profile_free_view,
};

static const struct view_ops kernels_ops = {
	.name = "kernels",
	.title = N_("Kernels"),
	.draw = profile_draw,
	.request = profile_request,
	.click = profile_click,
	.free = profile_free_view,
};

struct view pane_profile_new(struct app *app, enum profile_scope scope)
{
	struct profile_pane *p = xcalloc(1, sizeof(*p));
	(void)app;
	p->scope = scope;
	return (struct view){ scope == PROFILE_KERNELS ? &kernels_ops : &profile_ops, p };
}
