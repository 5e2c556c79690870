/* The diff of two runs (rpdtop --diff): the base and the new run's GPU
 * time by name side by side, as the diff report has it (analysis/diff.h),
 * names compared as the viewer shows them. Enter lists both runs'
 * instances of the name. Made again when the filter, the window or the
 * way names are shown changes. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/diff.h"
#include "tui/app.h"
#include "tui/draw.h"
#include "tui/panes.h"
#include "tui/tablenav.h"
#include "tui/theme.h"
#include "util/i18n.h"
#include "util/sort.h"
#include "util/units.h"
#include "util/xalloc.h"

enum sort_key { SORT_DELTA, SORT_PERCENT, SORT_BASE, SORT_NEW, SORT_STATUS, SORT_NAME, SORT_COUNT };

static const char *const sort_names[SORT_COUNT] = {
	N_("change"), N_("change in percent"), N_("base time"), N_("new time"), N_("status"), N_("name"),
};

struct column {
	const char *title;
	int width;
	enum sort_key sort;
	int drop_below; /* shown only when the screen is at least this wide */
};

enum { COL_BCALLS, COL_NCALLS, COL_BASE, COL_NEW, COL_DELTA, COL_PCT, COL_BP50, COL_NP50, COL_STATUS, NCOLS };
static const struct column columns[NCOLS] = {
	[COL_BCALLS] = { N_("B.CALLS"), 7, SORT_COUNT, 100 },
	[COL_NCALLS] = { N_("N.CALLS"), 7, SORT_COUNT, 100 },
	[COL_BASE] = { N_("BASE"), 9, SORT_BASE, 0 },
	[COL_NEW] = { N_("NEW"), 9, SORT_NEW, 0 },
	[COL_DELTA] = { N_("DELTA"), 10, SORT_DELTA, 0 },
	[COL_PCT] = { N_("DELTA%"), 8, SORT_PERCENT, 0 },
	[COL_BP50] = { N_("B.P50"), 9, SORT_COUNT, 120 },
	[COL_NP50] = { N_("N.P50"), 9, SORT_COUNT, 120 },
	[COL_STATUS] = { N_("STATUS"), 7, SORT_STATUS, 0 },
};

struct diff_pane {
	struct diff_row total;
	struct diff_row *rows; /* their names owned */
	size_t n, common;
	unsigned warnings;
	size_t *order;   /* display position -> row */
	size_t *parting; /* per row: where its name parts from the others' */
	struct tablenav nav;
	enum sort_key sort;
	int reverse;
	int ready;
	unsigned generation, style;   /* what it was made for */
	struct name_cache next_names; /* the new run's, in the viewer's style */
	int table_row;                /* the table's first row in the pane, as drawn */
};

/* The base run's names as the viewer shows them. */
static const char *base_name(void *ctx, uint32_t id)
{
	return app_name(ctx, id);
}

struct next_ctx {
	struct name_cache *cache;
	const struct trace *t;
};

static const char *next_name(void *ctx, uint32_t id)
{
	struct next_ctx *c = ctx;
	return name_cache_get(c->cache, c->t, id);
}

static int current(const struct diff_pane *p, const struct app *app)
{
	return p->ready && p->generation == app_generation(app) && p->style == app->names.style;
}

static int compare_rows(const void *a, const void *b, void *arg)
{
	const struct diff_pane *p = arg;
	const struct diff_row *x = &p->rows[*(const size_t *)a], *y = &p->rows[*(const size_t *)b];
	double kx = 0, ky = 0;
	int c = 0;
	switch (p->sort) {
	case SORT_DELTA:
		kx = x->delta < 0 ? -(double)x->delta : (double)x->delta;
		ky = y->delta < 0 ? -(double)y->delta : (double)y->delta;
		break;
	case SORT_PERCENT: /* a name new in the new run grew the most */
		kx = x->has_percent ? x->delta_percent : 1e300;
		ky = y->has_percent ? y->delta_percent : 1e300;
		break;
	case SORT_BASE:
		kx = (double)x->base_total;
		ky = (double)y->base_total;
		break;
	case SORT_NEW:
		kx = (double)x->new_total;
		ky = (double)y->new_total;
		break;
	case SORT_STATUS:
		c = (x->status > y->status) - (x->status < y->status);
		break;
	default:
		break;
	}
	if (p->sort != SORT_NAME && p->sort != SORT_STATUS)
		c = kx > ky ? -1 : kx < ky ? 1 : 0; /* numbers: largest first */
	if (c == 0)
		c = strcmp(x->name, y->name);
	return p->reverse ? -c : c;
}

/* Sort, keeping the cursor on its row. */
static void sort_rows(struct diff_pane *p)
{
	size_t at = p->n ? p->order[p->nav.cursor] : 0;
	sort_with(p->order, p->n, sizeof(*p->order), compare_rows, p);
	for (size_t i = 0; i < p->n; i++)
		if (p->order[i] == at)
			p->nav.cursor = i;
}

static void free_rows(struct diff_pane *p)
{
	for (size_t i = 0; i < p->n; i++)
		free((char *)p->rows[i].name);
	free(p->rows);
	free(p->order);
	free(p->parting);
	p->rows = NULL;
	p->order = NULL;
	p->parting = NULL;
	p->n = 0;
}

/* Compare the runs (again), the cursor kept on its name. */
static void ensure_ready(struct diff_pane *p, struct app *app)
{
	if (current(p, app))
		return;
	char *was = p->ready && p->n ? xstrdup(p->rows[p->order[p->nav.cursor]].name) : NULL;
	struct session *s = app->session;
	struct diff_run runs[2];
	struct diff d;
	name_cache_set_style(&p->next_names, app->names.style);
	struct next_ctx next = { &p->next_names, session_trace_at(s, 1) };
	diff_run_build(session_trace_at(s, 0), session_sel_at(s, 0), base_name, app, &runs[0]);
	diff_run_build(session_trace_at(s, 1), session_sel_at(s, 1), next_name, &next, &runs[1]);
	diff_runs(&runs[0], &runs[1], app->diff_tolerance, -1, &d);
	free_rows(p);
	p->total = d.total;
	p->rows = d.rows; /* taken over, its names copied: the caches change */
	p->n = d.n;
	p->common = d.common;
	p->warnings = diff_warnings(&d, session_trace_at(s, 0)->ngpus, session_trace_at(s, 1)->ngpus);
	for (size_t i = 0; i < p->n; i++)
		p->rows[i].name = xstrdup(p->rows[i].name);
	p->total.name = "*total*";
	d.rows = NULL;
	diff_free(&d);
	diff_run_free(&runs[0]);
	diff_run_free(&runs[1]);
	p->order = xmalloc_array(p->n ? p->n : 1, sizeof(*p->order));
	for (size_t i = 0; i < p->n; i++)
		p->order[i] = i;
	/* Names cut short keep what tells them apart (Cijk_…MT64x64…). */
	const char **names = xmalloc_array(p->n ? p->n : 1, sizeof(*names));
	for (size_t i = 0; i < p->n; i++)
		names[i] = p->rows[i].name;
	p->parting = xmalloc_array(p->n ? p->n : 1, sizeof(*p->parting));
	name_parting(names, p->n, p->parting);
	free(names);
	p->nav.n = p->n;
	p->nav.cursor = 0;
	p->ready = 1;
	p->generation = app_generation(app);
	p->style = app->names.style;
	sort_rows(p);
	for (size_t i = 0; i < p->n && was; i++)
		if (strcmp(p->rows[p->order[i]].name, was) == 0)
			p->nav.cursor = i;
	free(was);
}

static const char *status_text(enum diff_status s)
{
	static const char *const names[] = { N_("added"), N_("removed"), N_("slower"), N_("faster"),
					     N_("same") };
	return _(names[s]);
}

static void cell_text(const struct diff_row *r, int col, char *buf, size_t size)
{
	const int64_t v[NCOLS] = { [COL_BCALLS] = (int64_t)r->base_calls,
				   [COL_NCALLS] = (int64_t)r->new_calls,
				   [COL_BASE] = r->base_total,
				   [COL_NEW] = r->new_total,
				   [COL_DELTA] = r->delta,
				   [COL_BP50] = r->base_p50,
				   [COL_NP50] = r->new_p50 };
	switch (col) {
	case COL_BCALLS:
	case COL_NCALLS:
		snprintf(buf, size, "%lld", (long long)v[col]);
		break;
	case COL_PCT:
		if (r->has_percent)
			snprintf(buf, size, "%+.1f%%", r->delta_percent);
		else
			snprintf(buf, size, "-");
		break;
	case COL_STATUS:
		snprintf(buf, size, "%s", status_text(r->status));
		break;
	case COL_DELTA: {
		char u[UNITS_BUFSZ];
		snprintf(buf, size, "%s%s", r->delta > 0 ? "+" : "", units_format_ns(r->delta, u, sizeof(u)));
		break;
	}
	case COL_BP50:
	case COL_NP50:
		if ((col == COL_BP50 ? r->base_calls : r->new_calls) == 0)
			snprintf(buf, size, "-");
		else
			units_format_ns(v[col], buf, size);
		break;
	default:
		units_format_ns(v[col], buf, size);
		break;
	}
}

static int column_shown(int col, int width)
{
	return width >= columns[col].drop_below;
}

static void draw_header(struct diff_pane *p, int y, int width)
{
	const struct glyphs *g = glyphs();
	attr_t a = theme_attr(THEME_HEADER);
	const char *arrow = p->reverse ? g->sort_up : g->sort_down;
	char title[48];
	int x = 0;
	draw_fill(stdscr, y, 0, width, a);
	for (int c = 0; c < NCOLS; c++) {
		if (!column_shown(c, width))
			continue;
		int sorted = columns[c].sort == p->sort;
		snprintf(title, sizeof(title), "%s%s", sorted ? arrow : "", _(columns[c].title));
		if (c == COL_STATUS)
			draw_text(stdscr, y, x + 1, columns[c].width, title, a);
		else
			draw_text_right(stdscr, y, x, columns[c].width, title, a);
		x += columns[c].width + 1;
	}
	snprintf(title, sizeof(title), "%s%s", p->sort == SORT_NAME ? arrow : "", _("NAME"));
	draw_text(stdscr, y, x + 1, width - x - 1, title, a);
}

static void draw_row(const struct diff_row *r, size_t parting, int y, int width, attr_t a)
{
	char buf[UNITS_BUFSZ + 2];
	int x = 0;
	draw_fill(stdscr, y, 0, width, a);
	for (int c = 0; c < NCOLS; c++) {
		if (!column_shown(c, width))
			continue;
		cell_text(r, c, buf, sizeof(buf));
		if (c == COL_STATUS)
			draw_text(stdscr, y, x + 1, columns[c].width, buf, a);
		else
			draw_text_right(stdscr, y, x, columns[c].width, buf, a);
		x += columns[c].width + 1;
	}
	draw_text_parted(stdscr, y, x + 1, width - x - 1, r->name, parting, a);
}

static void run_line(struct app *app, size_t k, const struct diff_row *total, int y, int width)
{
	const struct trace *t = session_trace_at(app->session, k);
	char line[512], gpu[UNITS_BUFSZ], inputs[256];
	const char *path = t->ninputs ? t->inputs[0].path : "";
	if (t->ninputs == 1)
		snprintf(inputs, sizeof(inputs), "%s", path);
	else
		snprintf(inputs, sizeof(inputs), P_("%zu input", "%zu inputs", t->ninputs), t->ninputs);
	unsigned long long ops = k ? total->new_calls : total->base_calls;
	units_format_ns(k ? total->new_total : total->base_total, gpu, sizeof(gpu));
	snprintf(line, sizeof(line), P_("%s %llu op, %s GPU time  %s", "%s %llu ops, %s GPU time  %s", ops),
		 k ? _("New: ") : _("Base:"), ops, gpu, inputs);
	draw_text(stdscr, y, 1, width - 1, line, theme_attr(THEME_LABEL));
}

/* The runs, the warnings: the rows above the table. */
static int draw_top(struct diff_pane *p, struct app *app, int y, int rows, int width)
{
	int used = 0;
	const char *warn[3] = { NULL, NULL, NULL };
	size_t nw = 0;
	if (p->warnings & DIFF_WARN_GPUS)
		warn[nw++] = _("The runs have different numbers of GPUs");
	if (p->warnings & DIFF_WARN_NO_COMMON)
		warn[nw++] = _("The runs have no op name in common");
	if (p->warnings & DIFF_WARN_OPS)
		warn[nw++] = _("One run has more than twice the ops of the other");
	for (size_t k = 0; k < 2 && used < rows; k++)
		run_line(app, k, &p->total, y + used++, width);
	for (size_t i = 0; i < nw && used < rows; i++)
		draw_text(stdscr, y + used++, 1, width - 1, warn[i], theme_attr(THEME_MESSAGE));
	return used;
}

static void diff_draw(struct view *v, struct app *app, int y, int height, int width)
{
	struct diff_pane *p = v->data;
	ensure_ready(p, app);
	int top = draw_top(p, app, y, height > 6 ? height - 4 : 1, width);
	draw_header(p, y + top, width);
	draw_row(&p->total, strlen(p->total.name), y + top + 1, width, theme_attr(THEME_LABEL));
	p->table_row = top + 2;
	int rows = height - top - 2;
	tablenav_fit(&p->nav, rows > 0 ? rows : 1);
	if (p->n == 0) {
		draw_text(stdscr, y + top + 2, 2, width - 2, _("No GPU op in either run passes the filter"),
			  theme_attr(THEME_DIM));
		return;
	}
	for (int row = 0; row < rows && p->nav.top + (size_t)row < p->n; row++) {
		size_t i = p->nav.top + (size_t)row;
		draw_row(&p->rows[p->order[i]], p->parting[p->order[i]], y + p->table_row + row, width,
			 theme_attr(i == p->nav.cursor ? THEME_CURSOR : THEME_NORMAL));
	}
}

static unsigned sort_again(struct diff_pane *p, struct app *app, int next)
{
	if (next) {
		p->sort = (enum sort_key)((p->sort + 1) % SORT_COUNT);
		p->reverse = 0;
		app_message(app, 0, _("Sorted by %s"), _(sort_names[p->sort]));
	} else {
		p->reverse = !p->reverse;
		app_message(app, 0, _("Sorted by %s, %s"), _(sort_names[p->sort]),
			    p->reverse ? _("reversed") : _("normal order"));
	}
	sort_rows(p);
	return ACT_REDRAW;
}

static unsigned diff_request(struct view *v, struct app *app, enum request req)
{
	struct diff_pane *p = v->data;
	ensure_ready(p, app);
	switch (req) {
	case REQ_SORT_NEXT:
		return sort_again(p, app, 1);
	case REQ_SORT_REVERSE:
		return sort_again(p, app, 0);
	case REQ_ENTER:
		if (p->n == 0)
			return ACT_NONE;
		app_push(app, view_diff_ops_new(app, p->rows[p->order[p->nav.cursor]].name));
		return ACT_REDRAW;
	default:
		return tablenav_request(&p->nav, req);
	}
}

static unsigned diff_click(struct view *v, struct app *app, int row, int col, int button)
{
	struct diff_pane *p = v->data;
	(void)col;
	ensure_ready(p, app);
	return row < p->table_row ? ACT_NONE : tablenav_click(&p->nav, row - p->table_row, button);
}

static unsigned diff_idle(struct view *v, struct app *app)
{
	struct diff_pane *p = v->data;
	int was = current(p, app);
	ensure_ready(p, app);
	return was ? ACT_NONE : ACT_REDRAW;
}

static void diff_free_view(struct view *v)
{
	struct diff_pane *p = v->data;
	free_rows(p);
	name_cache_free(&p->next_names);
	free(p);
}

static const struct view_ops diff_ops = {
	.name = "diff",
	.title = N_("Diff"),
	.draw = diff_draw,
	.request = diff_request,
	.click = diff_click,
	.free = diff_free_view,
	.idle = diff_idle,
};

struct view pane_diff_new(struct app *app)
{
	struct diff_pane *p = xcalloc(1, sizeof(*p));
	name_cache_init(&p->next_names, app->names.style);
	p->table_row = 1 << 20; /* not drawn yet: no row of it clicked */
	return (struct view){ &diff_ops, p };
}
