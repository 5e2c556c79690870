/* GPU busy: one row per GPU with its share of the wall time as a bar. */
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
#include "util/units.h"
#include "util/xalloc.h"

#define GPU_WIDTH 12
#define NUM_WIDTH 10
#define PCT_WIDTH 7

struct busy_pane {
	struct busy busy;
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

static void ensure_ready(struct busy_pane *p, struct app *app)
{
	if (p->ready && p->generation == app_generation(app))
		return;
	busy_free(&p->busy);
	busy_per_gpu(app->trace, app_sel(app), &p->busy);
	p->generation = app_generation(app);
	p->label_need = GPU_WIDTH;
	for (size_t i = 0; i < p->busy.n; i++) {
		char label[256];
		int w = text_width(trace_gpu_label(app->trace, p->busy.rows[i].gpu, label, sizeof(label)));
		if (w > p->label_need)
			p->label_need = w;
	}
	p->nav.n = p->busy.n;
	p->ready = 1;
}

static void draw_header(const struct busy_pane *p, const struct app *app, int y, int width)
{
	attr_t a = theme_attr(THEME_HEADER);
	char wall[UNITS_BUFSZ], title[64];
	draw_fill(stdscr, y, 0, width, a);
	draw_text(stdscr, y, 0, label_width(p, width), _("GPU"), a);
	int x = label_width(p, width) + 1;
	draw_text_right(stdscr, y, x, NUM_WIDTH, _("OPS"), a);
	x += NUM_WIDTH + 1;
	if (width >= 60) {
		draw_text_right(stdscr, y, x, NUM_WIDTH, _("SUM"), a);
		x += NUM_WIDTH + 1;
	}
	draw_text_right(stdscr, y, x, NUM_WIDTH, _("BUSY"), a);
	x += NUM_WIDTH + 1;
	draw_text_right(stdscr, y, x, PCT_WIDTH, _("BUSY%"), a);
	x += PCT_WIDTH + 2;
	snprintf(title, sizeof(title),
		 session_filtered(app->session) ? _("filtered, of %s") : _("of %s wall time"),
		 units_format_ns(p->busy.wall, wall, sizeof(wall)));
	draw_text(stdscr, y, x, width - x, title, a);
}

static void draw_row(struct busy_pane *p, struct app *app, size_t i, int y, int width)
{
	const struct busy_row *r = &p->busy.rows[i];
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
	x += PCT_WIDTH + 2;
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
	return tablenav_request(&p->nav, req);
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
