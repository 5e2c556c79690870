/* What a range of the timeline holds (range.h): its length, the GPU ops
 * by name with the time they spent inside it, each GPU's busy time in it,
 * the API calls and the roctx markers overlapping it. Enter lists the
 * instances of a name in the range; W makes the range the time window. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/range.h"
#include "analysis/search.h"
#include "display/names.h"
#include "tui/app.h"
#include "tui/draw.h"
#include "tui/filter_prompt.h"
#include "tui/panes.h"
#include "tui/tablenav.h"
#include "tui/theme.h"
#include "util/i18n.h"
#include "util/satmath.h"
#include "util/units.h"
#include "util/xalloc.h"

#define COUNT_W 9
#define TIME_W 10
#define PCT_W 8

enum part { PART_OPS, PART_BUSY, PART_CALLS, PART_MARKERS, PARTS };

enum line_kind { LINE_TITLE, LINE_BLANK, LINE_HEADER, LINE_ROW, LINE_EMPTY };

struct line {
	enum line_kind kind;
	enum part part;
	size_t index; /* LINE_ROW: the row of its part */
};

/* Column titles and the section's name, by part. */
static const char *const titles[PARTS][3] = {
	[PART_OPS] = { N_("OPS"), N_("TIME"), N_("GPU OPS BY NAME") },
	[PART_BUSY] = { N_("OPS"), N_("BUSY"), N_("BUSY PER GPU") },
	[PART_CALLS] = { N_("CALLS"), N_("TIME"), N_("API CALLS BY NAME") },
	[PART_MARKERS] = { N_("COUNT"), N_("TIME"), N_("ROCTX MARKERS BY TEXT") },
};

struct range_view {
	int64_t t0, t1;
	struct range_stats st;
	struct line *lines;
	size_t nlines;
	struct tablenav nav; /* over the lines; the cursor stays on rows */
	int ready;
	unsigned generation;
	size_t *parting;        /* where each op row's shown name parts from the others' */
	unsigned parting_style; /* the name style it was found for */
};

static const struct range_part *part_of(const struct range_stats *s, enum part p)
{
	const struct range_part *parts[PARTS] = { &s->ops, &s->busy, &s->calls, &s->markers };
	return parts[p];
}

static void add_line(struct range_view *r, size_t *cap, enum line_kind kind, enum part part, size_t index)
{
	r->lines = xgrow(r->lines, cap, r->nlines + 1, sizeof(*r->lines));
	r->lines[r->nlines++] = (struct line){ kind, part, index };
}

static int is_row(const struct range_view *r, size_t i)
{
	return i < r->nlines && r->lines[i].kind == LINE_ROW;
}

/* The first row from line i on in direction step (+1 or -1), or nlines
 * (past either end, the unsigned index wraps beyond nlines). */
static size_t seek_row(const struct range_view *r, size_t i, size_t step)
{
	while (i < r->nlines && !is_row(r, i))
		i += step;
	return i < r->nlines ? i : r->nlines;
}

/* The nearest row from line i in direction dir (then the other way). */
static size_t snap(const struct range_view *r, size_t i, int dir)
{
	size_t k = seek_row(r, i, dir > 0 ? 1 : (size_t)-1);
	if (k == r->nlines)
		k = seek_row(r, i, dir > 0 ? (size_t)-1 : 1);
	return k < r->nlines ? k : 0;
}

static void lay_out(struct range_view *r)
{
	size_t cap = 0;
	r->nlines = 0;
	add_line(r, &cap, LINE_TITLE, PART_OPS, 0);
	for (enum part p = 0; p < PARTS; p++) {
		const struct range_part *part = part_of(&r->st, p);
		add_line(r, &cap, LINE_BLANK, p, 0);
		add_line(r, &cap, LINE_HEADER, p, 0);
		for (size_t i = 0; i < part->n; i++)
			add_line(r, &cap, LINE_ROW, p, i);
		if (part->n == 0)
			add_line(r, &cap, LINE_EMPTY, p, 0);
	}
	r->nav.n = r->nlines;
	r->nav.cursor = snap(r, 0, 1);
}

/* A name of the ops cut short keeps the part that tells it from the
 * others (the tables' rule). */
static void find_parting(struct range_view *r, struct app *app)
{
	const struct range_part *ops = &r->st.ops;
	const char **names = xmalloc_array(ops->n ? ops->n : 1, sizeof(*names));
	for (size_t i = 0; i < ops->n; i++)
		names[i] = app_name(app, ops->rows[i].key);
	free(r->parting);
	r->parting = xmalloc_array(ops->n ? ops->n : 1, sizeof(*r->parting));
	name_parting(names, ops->n, r->parting);
	r->parting_style = app->names.style;
	free(names);
}

static void ensure_ready(struct range_view *r, struct app *app)
{
	if (!r->ready || r->generation != app_generation(app)) {
		range_free(&r->st);
		range_build(app->trace, app_sel(app), r->t0, r->t1, &r->st);
		lay_out(r);
		r->ready = 1;
		r->generation = app_generation(app);
		free(r->parting);
		r->parting = NULL;
	}
	if (!r->parting || r->parting_style != app->names.style)
		find_parting(r, app);
}

static void draw_title(struct range_view *r, struct app *app, int y, int width)
{
	char a[UNITS_BUFSZ], b[UNITS_BUFSZ], d[UNITS_BUFSZ], line[256];
	int64_t origin = app->trace->op_first_start;
	snprintf(line, sizeof(line), _("Range %s%s .. %s%s   %s %s  (%lld ns)"), r->t0 < origin ? "-" : "+",
		 units_format_ns(r->t0 < origin ? sat_sub(origin, r->t0) : sat_sub(r->t0, origin), a,
				 sizeof(a)),
		 r->t1 < origin ? "-" : "+",
		 units_format_ns(r->t1 < origin ? sat_sub(origin, r->t1) : sat_sub(r->t1, origin), b,
				 sizeof(b)),
		 glyphs()->utf8 ? "\xce\x94t" : "dt", units_format_ns(r->t1 - r->t0, d, sizeof(d)),
		 (long long)(r->t1 - r->t0));
	draw_text(stdscr, y, 1, width - 1, line, theme_attr(THEME_LABEL));
}

static void draw_header(enum part p, int y, int width)
{
	attr_t a = theme_attr(THEME_HEADER);
	int x = 0;
	draw_fill(stdscr, y, 0, width, a);
	draw_text_right(stdscr, y, x, COUNT_W, _(titles[p][0]), a);
	x += COUNT_W + 1;
	draw_text_right(stdscr, y, x, TIME_W, _(titles[p][1]), a);
	x += TIME_W + 1;
	draw_text_right(stdscr, y, x, PCT_W, _("%RANGE"), a);
	x += PCT_W + 2;
	draw_text(stdscr, y, x, width - x, _(titles[p][2]), a);
}

static void draw_row(struct range_view *r, struct app *app, size_t i, int y, int width)
{
	const struct line *l = &r->lines[i];
	const struct range_row *row = &part_of(&r->st, l->part)->rows[l->index];
	attr_t a = theme_attr(i == r->nav.cursor ? THEME_CURSOR : THEME_NORMAL);
	char count[32], time[UNITS_BUFSZ], pct[32], label[256];
	const char *name;
	snprintf(count, sizeof(count), "%llu", (unsigned long long)row->count);
	units_format_ns(row->time, time, sizeof(time));
	snprintf(pct, sizeof(pct), "%.2f", range_share(&r->st, row->time));
	if (l->part == PART_BUSY) {
		char gpu[200];
		snprintf(label, sizeof(label), "GPU %s",
			 trace_gpu_label(app->trace, row->key, gpu, sizeof(gpu)));
		name = label;
	} else {
		/* Ops by the name style; calls and roctx texts as recorded. */
		name = l->part == PART_OPS ? app_name(app, row->key) : trace_str(app->trace, row->key);
	}
	int x = 0;
	draw_fill(stdscr, y, 0, width, a);
	draw_text_right(stdscr, y, x, COUNT_W, count, a);
	x += COUNT_W + 1;
	draw_text_right(stdscr, y, x, TIME_W, time, a);
	x += TIME_W + 1;
	draw_text_right(stdscr, y, x, PCT_W, pct, a);
	x += PCT_W + 2;
	if (l->part == PART_OPS)
		draw_text_parted(stdscr, y, x, width - x, name, r->parting[l->index], a);
	else
		draw_text(stdscr, y, x, width - x, name, a);
}

static void draw_line(struct range_view *r, struct app *app, size_t i, int y, int width)
{
	switch (r->lines[i].kind) {
	case LINE_TITLE:
		draw_title(r, app, y, width);
		break;
	case LINE_HEADER:
		draw_header(r->lines[i].part, y, width);
		break;
	case LINE_ROW:
		draw_row(r, app, i, y, width);
		break;
	case LINE_EMPTY:
		draw_text(stdscr, y, 2, width - 2, _("none"), theme_attr(THEME_DIM));
		break;
	case LINE_BLANK:
		break;
	}
}

static void range_draw(struct view *v, struct app *app, int y, int height, int width)
{
	struct range_view *r = v->data;
	ensure_ready(r, app);
	/* The last line says what the keys do here. */
	int rows = height > 2 ? height - 1 : height;
	tablenav_fit(&r->nav, rows);
	for (int k = 0; k < rows && r->nav.top + (size_t)k < r->nlines; k++)
		draw_line(r, app, r->nav.top + (size_t)k, y + k, width);
	if (rows < height)
		draw_text(stdscr, y + height - 1, 1, width - 1,
			  _("Enter: the instances of a name in the range   W: the range becomes the time "
			    "window"),
			  theme_attr(THEME_DIM));
}

/* The instances of the cursor's name that overlap the range. */
static unsigned list_instances(struct range_view *r, struct app *app)
{
	if (!is_row(r, r->nav.cursor))
		return ACT_NONE;
	const struct line *l = &r->lines[r->nav.cursor];
	if (l->part == PART_BUSY) {
		app_message(app, 0, "%s", _("Enter lists the instances of a name"));
		return ACT_REDRAW;
	}
	uint32_t key = part_of(&r->st, l->part)->rows[l->index].key;
	struct search_query q = search_query_all(l->part == PART_OPS, l->part != PART_OPS);
	q.name = key;
	q.has_span = 1;
	q.from = r->t0;
	q.to = r->t1;
	const char *name = l->part == PART_OPS ? app_name(app, key) : trace_str(app->trace, key);
	app_push(app, view_results_new(app, name, &q, NULL));
	return ACT_REDRAW;
}

static unsigned range_request(struct view *v, struct app *app, enum request req)
{
	struct range_view *r = v->data;
	ensure_ready(r, app);
	size_t before = r->nav.cursor;
	switch (req) {
	case REQ_ENTER:
		return list_instances(r, app);
	case REQ_WINDOW:
		return app_set_window_ns(app, r->t0, r->t1);
	case REQ_MOVE_UP:
		r->nav.cursor = r->nav.cursor > 0 ? snap(r, r->nav.cursor - 1, -1) : r->nav.cursor;
		return ACT_REDRAW;
	case REQ_MOVE_DOWN:
		r->nav.cursor = snap(r, r->nav.cursor + 1 < r->nlines ? r->nav.cursor + 1 : r->nav.cursor, 1);
		return ACT_REDRAW;
	default:
		break;
	}
	unsigned act = tablenav_request(&r->nav, req);
	if (!(act & ACT_UNHANDLED))
		r->nav.cursor = snap(r, r->nav.cursor, r->nav.cursor >= before ? 1 : -1);
	return act;
}

static unsigned range_click(struct view *v, struct app *app, int row, int col, int button)
{
	struct range_view *r = v->data;
	(void)col;
	ensure_ready(r, app);
	size_t before = r->nav.cursor;
	unsigned act = tablenav_click(&r->nav, row, button);
	if (!is_row(r, r->nav.cursor))
		r->nav.cursor =
			button == 1 ? before : snap(r, r->nav.cursor, r->nav.cursor >= before ? 1 : -1);
	return act;
}

static void range_free_view(struct view *v)
{
	struct range_view *r = v->data;
	range_free(&r->st);
	free(r->lines);
	free(r->parting);
	free(r);
}

/* The figures are made between events, before the screen is drawn. */
static unsigned range_idle(struct view *v, struct app *app)
{
	struct range_view *r = v->data;
	int current = r->ready && r->generation == app_generation(app);
	ensure_ready(r, app);
	return current ? ACT_NONE : ACT_REDRAW;
}

static const struct view_ops range_ops = {
	.name = "range",
	.title = N_("Range"),
	.draw = range_draw,
	.request = range_request,
	.click = range_click,
	.free = range_free_view,
	.idle = range_idle,
};

struct view view_range_new(struct app *app, int64_t t0, int64_t t1)
{
	struct range_view *r = xcalloc(1, sizeof(*r));
	(void)app;
	r->t0 = t0;
	r->t1 = t1;
	return (struct view){ &range_ops, r };
}
