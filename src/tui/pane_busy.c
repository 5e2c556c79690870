/* GPU busy: one row per GPU with its share of the wall time as a bar,
 * sorted by any column (s, S). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "analysis/busy.h"
#include "tui/app.h"
#include "tui/draw.h"
#include "tui/panes.h"
#include "tui/tablenav.h"
#include "tui/theme.h"
#include "util/i18n.h"
#include "util/natcmp.h"
#include "util/sort.h"
#include "util/units.h"
#include "util/xalloc.h"

#define GPU_WIDTH 12
#define NUM_WIDTH 10
#define PCT_WIDTH 7
#define SPAN_FROM 130 /* the span's busy share is shown from this width */

enum sort_key { SORT_GPU, SORT_OPS, SORT_SUM, SORT_BUSY, SORT_PERCENT, SORT_SPAN_PERCENT, SORT_COUNT };

static const char *const sort_names[SORT_COUNT] = {
	N_("GPU"), N_("ops"), N_("sum"), N_("busy time"), N_("busy share"), N_("busy share of its span"),
};

struct busy_pane {
	struct busy busy;
	size_t *order; /* display position -> row of busy */
	enum sort_key sort;
	int reverse;
	struct tablenav nav;
	int ready; /* computed on first view, not at start */
	unsigned generation;
	int label_need; /* the widest GPU label */
};

/* The GPU column: the widest label, within a third of the screen (labels
 * of several nodes are long; the numbers keep their room). */
static int label_width(const struct busy_pane *p, int width)
{
	int most = width / 3 > GPU_WIDTH ? width / 3 : GPU_WIDTH;
	return p->label_need < most ? p->label_need : most;
}

struct sort_ctx {
	const struct trace *t;
	const struct busy_pane *pane;
};

static double sort_value(const struct busy_pane *p, const struct busy_row *r)
{
	switch (p->sort) {
	case SORT_OPS:
		return (double)r->ops;
	case SORT_SUM:
		return (double)r->sum;
	case SORT_BUSY:
		return (double)r->busy;
	case SORT_PERCENT:
		return busy_row_percent(&p->busy, r);
	case SORT_SPAN_PERCENT:
		return busy_row_span_percent(r);
	default:
		return 0;
	}
}

/* Numbers largest first, GPUs in their natural order; ties keep the
 * GPUs' order. */
static int compare_rows(const void *a, const void *b, void *arg)
{
	const struct sort_ctx *ctx = arg;
	size_t ia = *(const size_t *)a, ib = *(const size_t *)b;
	int c = 0;
	if (ctx->pane->sort != SORT_GPU) {
		double x = sort_value(ctx->pane, &ctx->pane->busy.rows[ia]);
		double y = sort_value(ctx->pane, &ctx->pane->busy.rows[ib]);
		c = x > y ? -1 : x < y ? 1 : 0;
	}
	if (c == 0)
		c = (ia > ib) - (ia < ib);
	return ctx->pane->reverse ? -c : c;
}

/* Sort, keeping the cursor on the GPU it was on. */
static void sort_rows(struct busy_pane *p, struct app *app)
{
	size_t current = p->busy.n ? p->order[p->nav.cursor] : 0;
	struct sort_ctx ctx = { app->trace, p };
	for (size_t i = 0; i < p->busy.n; i++)
		p->order[i] = i;
	sort_with(p->order, p->busy.n, sizeof(*p->order), compare_rows, &ctx);
	for (size_t i = 0; i < p->busy.n; i++)
		if (p->order[i] == current)
			p->nav.cursor = i;
}

static void ensure_ready(struct busy_pane *p, struct app *app)
{
	if (p->ready && p->generation == app_generation(app))
		return;
	busy_free(&p->busy);
	free(p->order);
	busy_per_gpu(app->trace, app_sel(app), &p->busy);
	p->order = xcalloc(p->busy.n ? p->busy.n : 1, sizeof(*p->order));
	p->generation = app_generation(app);
	p->label_need = GPU_WIDTH;
	for (size_t i = 0; i < p->busy.n; i++) {
		char label[256];
		int w = text_width(trace_gpu_label(app->trace, p->busy.rows[i].gpu, label, sizeof(label)));
		if (w > p->label_need)
			p->label_need = w;
	}
	p->nav.n = p->busy.n;
	p->nav.cursor = p->nav.cursor < p->busy.n ? p->nav.cursor : 0;
	p->ready = 1;
	sort_rows(p, app);
}

static const char *sorted_title(const struct busy_pane *p, enum sort_key key, const char *title, char *buf,
				size_t size)
{
	const struct glyphs *g = glyphs();
	/* The GPUs' own order needs no mark until it is reversed. */
	int marked = p->sort == key && (key != SORT_GPU || p->reverse);
	snprintf(buf, size, "%s%s", marked ? (p->reverse ? g->sort_up : g->sort_down) : "", title);
	return buf;
}

static void draw_header(const struct busy_pane *p, const struct app *app, int y, int width)
{
	attr_t a = theme_attr(THEME_HEADER);
	char wall[UNITS_BUFSZ], title[64], t[32];
	draw_fill(stdscr, y, 0, width, a);
	draw_text(stdscr, y, 0, label_width(p, width), sorted_title(p, SORT_GPU, _("GPU"), t, sizeof(t)), a);
	int x = label_width(p, width) + 1;
	draw_text_right(stdscr, y, x, NUM_WIDTH, sorted_title(p, SORT_OPS, _("OPS"), t, sizeof(t)), a);
	x += NUM_WIDTH + 1;
	if (width >= 60) {
		draw_text_right(stdscr, y, x, NUM_WIDTH, sorted_title(p, SORT_SUM, _("SUM"), t, sizeof(t)),
				a);
		x += NUM_WIDTH + 1;
	}
	draw_text_right(stdscr, y, x, NUM_WIDTH, sorted_title(p, SORT_BUSY, _("BUSY"), t, sizeof(t)), a);
	x += NUM_WIDTH + 1;
	draw_text_right(stdscr, y, x, PCT_WIDTH, sorted_title(p, SORT_PERCENT, _("BUSY%"), t, sizeof(t)), a);
	x += PCT_WIDTH + 1;
	if (width >= SPAN_FROM) {
		draw_text_right(stdscr, y, x, PCT_WIDTH + 3,
				sorted_title(p, SORT_SPAN_PERCENT, _("SPAN%"), t, sizeof(t)), a);
		x += PCT_WIDTH + 4;
	}
	x += 1;
	if (p->busy.disjoint)
		snprintf(title, sizeof(title), "%s", _("of each input's span: inputs apart in time"));
	else
		snprintf(title, sizeof(title),
			 session_filtered(app->session) ? _("filtered, of %s") : _("of %s wall time"),
			 units_format_ns(p->busy.wall, wall, sizeof(wall)));
	draw_text(stdscr, y, x, width - x, title, a);
}

static void draw_row(struct busy_pane *p, struct app *app, size_t i, int y, int width)
{
	const struct busy_row *r = &p->busy.rows[p->order[i]];
	attr_t a = theme_attr(i == p->nav.cursor ? THEME_CURSOR : THEME_NORMAL);
	char buf[UNITS_BUFSZ], label[256];
	draw_fill(stdscr, y, 0, width, a);
	trace_gpu_label(app->trace, r->gpu, label, sizeof(label));
	/* Cut in the middle: the node's end and the GPU number tell rows apart. */
	draw_text_mid(stdscr, y, 0, label_width(p, width), label, a);
	int x = label_width(p, width) + 1;
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)r->ops);
	draw_text_right(stdscr, y, x, NUM_WIDTH, buf, a);
	x += NUM_WIDTH + 1;
	if (width >= 60) {
		draw_text_right(stdscr, y, x, NUM_WIDTH, units_format_ns(r->sum, buf, sizeof(buf)), a);
		x += NUM_WIDTH + 1;
	}
	draw_text_right(stdscr, y, x, NUM_WIDTH, units_format_ns(r->busy, buf, sizeof(buf)), a);
	x += NUM_WIDTH + 1;
	double pct = busy_row_percent(&p->busy, r);
	snprintf(buf, sizeof(buf), "%.2f", pct);
	draw_text_right(stdscr, y, x, PCT_WIDTH, buf, a);
	x += PCT_WIDTH + 1;
	if (width >= SPAN_FROM) {
		snprintf(buf, sizeof(buf), "%.2f", busy_row_span_percent(r));
		draw_text_right(stdscr, y, x, PCT_WIDTH + 3, buf, a);
		x += PCT_WIDTH + 4;
	}
	x += 1;
	if (width - x > 2)
		draw_bar(stdscr, y, x, width - x - 1, pct / 100.0,
			 i == p->nav.cursor ? a : theme_attr(THEME_BAR));
}

static void busy_draw(struct view *v, struct app *app, int y, int height, int width)
{
	struct busy_pane *p = v->data;
	ensure_ready(p, app);
	draw_header(p, app, y, width);
	tablenav_fit(&p->nav, height - 1);
	for (int row = 0; row < height - 1 && p->nav.top + (size_t)row < p->busy.n; row++)
		draw_row(p, app, p->nav.top + (size_t)row, y + 1 + row, width);
}

static unsigned busy_request(struct view *v, struct app *app, enum request req)
{
	struct busy_pane *p = v->data;
	ensure_ready(p, app);
	switch (req) {
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
	default:
		return tablenav_request(&p->nav, req);
	}
}

static unsigned busy_click(struct view *v, struct app *app, int row, int col, int button)
{
	struct busy_pane *p = v->data;
	(void)col;
	ensure_ready(p, app);
	return row == 0 ? ACT_NONE : tablenav_click(&p->nav, row - 1, button);
}

static void busy_free_view(struct view *v)
{
	struct busy_pane *p = v->data;
	busy_free(&p->busy);
	free(p->order);
	free(p);
}

static const struct view_ops busy_ops = {
	.name = "busy",
	.title = N_("Busy"),
	.draw = busy_draw,
	.request = busy_request,
	.click = busy_click,
	.free = busy_free_view,
};

struct view pane_busy_new(struct app *app)
{
	(void)app;
	struct busy_pane *p = xcalloc(1, sizeof(*p));
	return (struct view){ &busy_ops, p };
}
