/* Both runs' instances of a name of the diff pane: the base run's, then
 * the new run's, each by start (s: by duration), with its start from its
 * run's first op, duration and GPU. Enter shows a base instance in the
 * timeline (which shows the base run). Made again when the filter or the
 * window changes; names are matched as they were shown when it opened. */
#include "config.h"

#include <stdio.h>
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

#define RUN_W 5
#define START_W 13
#define DUR_W 10
#define GPU_W 12

struct instance {
	uint32_t op;
	uint8_t run; /* 0 base, 1 new */
};

struct diff_ops {
	char *name; /* as compared */
	struct instance *rows;
	size_t n, per_run[2];
	int64_t total[2];
	int by_duration;
	int ready;
	unsigned generation;
	struct name_cache names[2]; /* each run's, in the style it opened with */
	struct tablenav nav;
};

struct order_ctx {
	const struct session *s;
	int by_duration;
};

static int64_t op_start(const struct session *s, const struct instance *i)
{
	return session_trace_at(s, i->run)->ops.start[i->op];
}

static int64_t op_duration(const struct session *s, const struct instance *i)
{
	const struct trace *t = session_trace_at(s, i->run);
	return t->ops.end[i->op] - t->ops.start[i->op];
}

/* The base run first; in each, by start or by duration (longest first). */
static int by_order(const void *a, const void *b, void *arg)
{
	const struct order_ctx *c = arg;
	const struct instance *x = a, *y = b;
	if (x->run != y->run)
		return x->run < y->run ? -1 : 1;
	int64_t kx = op_start(c->s, x), ky = op_start(c->s, y);
	if (c->by_duration) {
		kx = -op_duration(c->s, x);
		ky = -op_duration(c->s, y);
	}
	if (kx != ky)
		return kx < ky ? -1 : 1;
	return (x->op > y->op) - (x->op < y->op);
}

static const char *shown(struct diff_ops *r, struct app *app, size_t run, uint32_t id)
{
	return name_cache_get(&r->names[run], session_trace_at(app->session, run), id);
}

static void put_in_order(struct diff_ops *r, struct app *app)
{
	struct order_ctx c = { app->session, r->by_duration };
	sort_with(r->rows, r->n, sizeof(*r->rows), by_order, &c);
}

static void ensure_ready(struct diff_ops *r, struct app *app)
{
	if (r->ready && r->generation == app_generation(app))
		return;
	size_t cap = 0;
	free(r->rows);
	r->rows = NULL;
	r->n = 0;
	for (size_t k = 0; k < 2; k++) {
		const struct trace *t = session_trace_at(app->session, k);
		const struct selection *sel = session_sel_at(app->session, k);
		r->per_run[k] = 0;
		r->total[k] = 0;
		for (size_t i = 0; i < t->ops.n; i++) {
			if (!selected_op(sel, i) || strcmp(shown(r, app, k, t->ops.name[i]), r->name) != 0)
				continue;
			r->rows = xgrow(r->rows, &cap, r->n + 1, sizeof(*r->rows));
			r->rows[r->n++] = (struct instance){ (uint32_t)i, (uint8_t)k };
			r->per_run[k]++;
			r->total[k] += select_clipped(&sel->window, t->ops.start[i], t->ops.end[i]);
		}
	}
	put_in_order(r, app);
	r->nav.n = r->n;
	r->nav.cursor = 0;
	r->ready = 1;
	r->generation = app_generation(app);
}

static void draw_header(struct diff_ops *r, int y, int width)
{
	const struct glyphs *g = glyphs();
	attr_t a = theme_attr(THEME_HEADER);
	char start[32], dur[32];
	snprintf(start, sizeof(start), "%s%s", r->by_duration ? "" : g->sort_down, _("START"));
	snprintf(dur, sizeof(dur), "%s%s", r->by_duration ? g->sort_down : "", _("DURATION"));
	draw_fill(stdscr, y, 0, width, a);
	draw_text(stdscr, y, 1, RUN_W, _("RUN"), a);
	draw_text_right(stdscr, y, RUN_W + 1, START_W, start, a);
	draw_text_right(stdscr, y, RUN_W + START_W + 2, DUR_W, dur, a);
	draw_text(stdscr, y, RUN_W + START_W + DUR_W + 4, width - (RUN_W + START_W + DUR_W + 4), _("GPU"), a);
}

static void draw_instance(struct diff_ops *r, struct app *app, size_t i, int y, int width)
{
	const struct instance *in = &r->rows[i];
	const struct trace *t = session_trace_at(app->session, in->run);
	attr_t a = theme_attr(i == r->nav.cursor ? THEME_CURSOR : THEME_NORMAL);
	char start[UNITS_BUFSZ + 2], u[UNITS_BUFSZ], dur[UNITS_BUFSZ], gpu[128];
	int64_t s = t->ops.start[in->op] - t->op_first_start;
	snprintf(start, sizeof(start), "%s%s", s < 0 ? "-" : "+",
		 units_format_ns(s < 0 ? -s : s, u, sizeof(u)));
	trace_gpu_label(t, trace_op_gpu(t, in->op), gpu, sizeof(gpu));
	draw_fill(stdscr, y, 0, width, a);
	draw_text(stdscr, y, 1, RUN_W, in->run ? _("new") : _("base"), a);
	draw_text_right(stdscr, y, RUN_W + 1, START_W, start, a);
	draw_text_right(stdscr, y, RUN_W + START_W + 2, DUR_W,
			units_format_ns(op_duration(app->session, in), dur, sizeof(dur)), a);
	draw_text(stdscr, y, RUN_W + START_W + DUR_W + 4, width - (RUN_W + START_W + DUR_W + 4), gpu, a);
}

static void ops_draw(struct view *v, struct app *app, int y, int height, int width)
{
	struct diff_ops *r = v->data;
	char line[256], base[128], b[UNITS_BUFSZ], n[UNITS_BUFSZ];
	ensure_ready(r, app);
	draw_text(stdscr, y, 1, width - 1, r->name, theme_attr(THEME_LABEL));
	snprintf(base, sizeof(base), P_("Base: %zu instance, %s", "Base: %zu instances, %s", r->per_run[0]),
		 r->per_run[0], units_format_ns(r->total[0], b, sizeof(b)));
	snprintf(line, sizeof(line),
		 P_("%s   New: %zu instance, %s", "%s   New: %zu instances, %s", r->per_run[1]), base,
		 r->per_run[1], units_format_ns(r->total[1], n, sizeof(n)));
	draw_text(stdscr, y + 1, 1, width - 1, line, theme_attr(THEME_LABEL));
	draw_header(r, y + 2, width);
	int rows = height - 3;
	tablenav_fit(&r->nav, rows > 0 ? rows : 1);
	for (int row = 0; row < rows && r->nav.top + (size_t)row < r->n; row++)
		draw_instance(r, app, r->nav.top + (size_t)row, y + 3 + row, width);
}

static unsigned ops_request(struct view *v, struct app *app, enum request req)
{
	struct diff_ops *r = v->data;
	ensure_ready(r, app);
	switch (req) {
	case REQ_SORT_NEXT:
	case REQ_SORT_REVERSE:
		r->by_duration = !r->by_duration;
		put_in_order(r, app);
		r->nav.cursor = 0;
		app_message(app, 0, _("Sorted by %s"), r->by_duration ? _("duration") : _("start"));
		return ACT_REDRAW;
	case REQ_ENTER:
		if (r->n == 0)
			return ACT_NONE;
		if (r->rows[r->nav.cursor].run) {
			app_message(app, 0, "%s", _("The timeline shows the base run"));
			return ACT_REDRAW;
		}
		return app_show_in_timeline(app, r->rows[r->nav.cursor].op);
	default:
		return tablenav_request(&r->nav, req);
	}
}

static unsigned ops_click(struct view *v, struct app *app, int row, int col, int button)
{
	struct diff_ops *r = v->data;
	(void)col;
	ensure_ready(r, app);
	return row < 3 ? ACT_NONE : tablenav_click(&r->nav, row - 3, button);
}

static void ops_free(struct view *v)
{
	struct diff_ops *r = v->data;
	free(r->rows);
	free(r->name);
	name_cache_free(&r->names[0]);
	name_cache_free(&r->names[1]);
	free(r);
}

static const struct view_ops diff_ops_ops = {
	.name = "diff-instances",
	.title = N_("Instances in both runs"),
	.draw = ops_draw,
	.request = ops_request,
	.click = ops_click,
	.free = ops_free,
};

struct view view_diff_ops_new(struct app *app, const char *name)
{
	struct diff_ops *r = xcalloc(1, sizeof(*r));
	r->name = xstrdup(name);
	name_cache_init(&r->names[0], app->names.style);
	name_cache_init(&r->names[1], app->names.style);
	return (struct view){ &diff_ops_ops, r };
}
