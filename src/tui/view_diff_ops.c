/* Both runs' instances of a name of the diff pane: the base run's, then
 * the new run's, each by start (s: by duration, S: the other way), with
 * its start from its run's first op, duration and GPU. Enter shows a base instance in the
 * timeline (which shows the base run). Made again when the filter or the
 * window changes; names are matched as they were shown when it opened. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/app.h"
#include "tui/draw.h"
#include "tui/panes.h"
#include "tui/tableview.h"
#include "tui/theme.h"
#include "util/i18n.h"
#include "util/sort.h"
#include "util/units.h"
#include "util/xalloc.h"

#define RUN_W 5
#define START_W 13
#define DUR_W 10

enum { OC_RUN, OC_START, OC_DURATION, OC_GPU };

static const struct tv_column columns[] = {
	[OC_RUN] = { N_("RUN"), NULL, RUN_W, 0, 0, TV_LEFT, TV_TEXT, 0, 0, NULL },
	[OC_START] = { N_("START"), N_("start"), START_W, 0, 0, TV_RIGHT, TV_NUMBER, 1, 0, NULL },
	[OC_DURATION] = { N_("DURATION"), N_("duration"), DUR_W, 1, 0, TV_RIGHT, TV_NUMBER, 2, 0, NULL },
	[OC_GPU] = { N_("GPU"), NULL, TV_REST, 2, 0, TV_LEFT, TV_TEXT, 0, TV_SCROLL, NULL },
};

struct instance {
	uint32_t op;
	uint8_t run; /* 0 base, 1 new */
};

struct diff_ops {
	char *name; /* as compared */
	struct instance *rows;
	size_t n, per_run[2];
	int64_t total[2];
	const struct session *s;    /* the runs the rows point into */
	struct name_cache names[2]; /* each run's, in the style it opened with */
};

struct order_ctx {
	const struct diff_ops *r;
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
	const struct instance *x = &c->r->rows[*(const uint32_t *)a], *y = &c->r->rows[*(const uint32_t *)b];
	const struct session *s = c->r->s;
	if (x->run != y->run)
		return x->run < y->run ? -1 : 1;
	int64_t kx = op_start(s, x), ky = op_start(s, y);
	if (c->by_duration) {
		kx = -op_duration(s, x);
		ky = -op_duration(s, y);
	}
	if (kx != ky)
		return kx < ky ? -1 : 1;
	return (x->op > y->op) - (x->op < y->op);
}

static int ops_order(void *src, struct app *app, int col, uint32_t *order, size_t n)
{
	struct order_ctx c = { src, col == OC_DURATION };
	(void)app;
	for (size_t i = 0; i < n; i++)
		order[i] = (uint32_t)i;
	sort_with(order, n, sizeof(*order), by_order, &c);
	return 0;
}

static const char *shown(struct diff_ops *r, struct app *app, size_t run, uint32_t id)
{
	return name_cache_get(&r->names[run], session_trace_at(app->session, run), id);
}

static size_t ops_fill(void *src, struct app *app)
{
	struct diff_ops *r = src;
	size_t cap = 0;
	free(r->rows);
	r->rows = NULL;
	r->n = 0;
	r->s = app->session;
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
	return r->n;
}

static void ops_release(void *src)
{
	struct diff_ops *r = src;
	free(r->rows);
	free(r->name);
	name_cache_free(&r->names[0]);
	name_cache_free(&r->names[1]);
}

static int64_t ops_key(void *src, size_t row, int col)
{
	const struct diff_ops *r = src;
	const struct instance *in = &r->rows[row];
	return col == OC_DURATION ? op_duration(r->s, in) : -op_start(r->s, in);
}

static const char *ops_text(void *src, struct app *app, size_t row, int col, char *buf, size_t size)
{
	const struct diff_ops *r = src;
	const struct instance *in = &r->rows[row];
	const struct trace *t = session_trace_at(app->session, in->run);
	char u[UNITS_BUFSZ];
	int64_t s = t->ops.start[in->op] - t->op_first_start;
	switch (col) {
	case OC_RUN:
		return in->run ? _("new") : _("base");
	case OC_START:
		snprintf(buf, size, "%s%s", s < 0 ? "-" : "+", units_format_ns(s < 0 ? -s : s, u, sizeof(u)));
		return buf;
	case OC_DURATION:
		return units_format_ns(op_duration(app->session, in), buf, size);
	default:
		return trace_gpu_label(t, trace_op_gpu(t, in->op), buf, size);
	}
}

static struct tv_ident ops_ident(void *src, size_t row)
{
	const struct diff_ops *r = src;
	return (struct tv_ident){ r->rows[row].op, r->rows[row].run };
}

static int ops_draw_top(void *src, struct app *app, int y, int height, int width)
{
	const struct diff_ops *r = src;
	char line[256], base[128], b[UNITS_BUFSZ], n[UNITS_BUFSZ];
	(void)app;
	(void)height;
	draw_text(stdscr, y, 1, width - 1, r->name, theme_attr(THEME_LABEL));
	snprintf(base, sizeof(base), P_("Base: %zu instance, %s", "Base: %zu instances, %s", r->per_run[0]),
		 r->per_run[0], units_format_ns(r->total[0], b, sizeof(b)));
	snprintf(line, sizeof(line),
		 P_("%s   New: %zu instance, %s", "%s   New: %zu instances, %s", r->per_run[1]), base,
		 r->per_run[1], units_format_ns(r->total[1], n, sizeof(n)));
	draw_text(stdscr, y + 1, 1, width - 1, line, theme_attr(THEME_LABEL));
	return 2;
}

/* A base instance in the timeline, which shows the base run. */
static unsigned ops_enter(void *src, struct app *app, size_t row)
{
	const struct diff_ops *r = src;
	if (r->rows[row].run) {
		app_message(app, 0, "%s", _("The timeline shows the base run"));
		return ACT_REDRAW;
	}
	return app_show_in_timeline(app, r->rows[row].op);
}

static const struct tv_source_ops ops_source = {
	TV_ROWS(ops),       .text = ops_text,         .key = ops_key,
	.order = ops_order, .draw_top = ops_draw_top, .enter = ops_enter
};

static const struct tv_spec ops_spec = { TV_VIEW("diff-instances", N_("Instances in both runs")),
					 TV_COLS(columns), .first_sort = OC_START, .lead = 1,
					 .ops = &ops_source };

struct view view_diff_ops_new(struct app *app, const char *name)
{
	struct view v = tableview_new(&ops_spec, sizeof(struct diff_ops));
	struct diff_ops *r = tableview_source(&v);
	r->name = xstrdup(name);
	name_cache_init(&r->names[0], app->names.style);
	name_cache_init(&r->names[1], app->names.style);
	return v;
}
