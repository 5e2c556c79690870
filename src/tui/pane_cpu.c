/* The CPU side: API calls by name (as -r api) and roctx ranges by text
 * (as -r markers), one table over two row sources. Columns are a list of
 * figures; s sorts by the next, S reverses, v shows a row's details and
 * Enter its first call in the timeline, or for a range its instances. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/api_calls.h"
#include "analysis/markers.h"
#include "tui/app.h"
#include "tui/draw.h"
#include "tui/panes.h"
#include "tui/tablenav.h"
#include "tui/theme.h"
#include "util/i18n.h"
#include "util/sort.h"
#include "util/units.h"
#include "util/xalloc.h"

enum fig { F_CALLS, F_TOTAL, F_SELF, F_AVG, F_MIN, F_MAX, F_P50, F_P99, F_GPU, F_OPS, F_PCT, NFIGS };

struct column {
	enum fig fig;
	const char *title;
	const char *sort_name; /* for the status line */
	int width;
	int drop_below; /* shown only when the screen is at least this wide */
};

static const struct column api_columns[] = {
	{ F_CALLS, N_("CALLS"), N_("calls"), 8, 0 },    { F_TOTAL, N_("TOTAL"), N_("total"), 10, 0 },
	{ F_SELF, N_("SELF"), N_("self time"), 10, 0 }, { F_AVG, N_("AVG"), N_("average"), 10, 100 },
	{ F_P50, N_("P50"), N_("median"), 10, 120 },    { F_P99, N_("P99"), N_("99th percentile"), 10, 130 },
	{ F_MAX, N_("MAX"), N_("maximum"), 10, 90 },    { F_MIN, N_("MIN"), N_("minimum"), 10, 140 },
	{ F_PCT, N_("%"), N_("total"), 7, 0 },
};

static const struct column marker_columns[] = {
	{ F_CALLS, N_("CALLS"), N_("calls"), 8, 0 },  { F_TOTAL, N_("TOTAL"), N_("total"), 10, 0 },
	{ F_AVG, N_("AVG"), N_("average"), 10, 100 }, { F_P50, N_("P50"), N_("median"), 10, 120 },
	{ F_MAX, N_("MAX"), N_("maximum"), 10, 90 },  { F_MIN, N_("MIN"), N_("minimum"), 10, 140 },
	{ F_GPU, N_("GPU"), N_("GPU time"), 10, 0 },  { F_OPS, N_("OPS"), N_("ops"), 7, 0 },
};

/* A row: its name and its figures (percent in hundredths). */
struct cpu_row {
	uint32_t name;
	int64_t fig[NFIGS];
};

struct cpu_pane {
	int markers; /* roctx ranges, not API calls */
	const struct column *cols;
	size_t ncols;
	struct cpu_row *rows;
	size_t n;
	size_t *order; /* display position -> row */
	struct tablenav nav;
	size_t sort; /* a column, or ncols: by name */
	int reverse;
	int ready;
	unsigned generation;
	size_t napis; /* API rows the figures were made for */
	char find[PROMPT_MAX];
	size_t find_origin;
};

static void sort_rows(struct cpu_pane *p, struct app *app);

static void fill_api_rows(struct cpu_pane *p, struct app *app)
{
	struct api_calls c;
	api_calls_by_name(app->trace, app_order(app), app_sel(app), &c);
	p->rows = xcalloc(c.n ? c.n : 1, sizeof(*p->rows));
	for (size_t i = 0; i < c.n; i++) {
		const struct api_call_row *r = &c.rows[i];
		struct cpu_row *x = &p->rows[i];
		x->name = r->name;
		x->fig[F_CALLS] = (int64_t)r->calls;
		x->fig[F_TOTAL] = r->total;
		x->fig[F_SELF] = r->self;
		x->fig[F_AVG] = api_call_row_avg(r);
		x->fig[F_MIN] = r->min;
		x->fig[F_MAX] = r->max;
		x->fig[F_P50] = r->p50;
		x->fig[F_P99] = r->p99;
		x->fig[F_PCT] = (int64_t)(api_call_row_percent(&c, r) * 100.0 + 0.5);
	}
	p->n = c.n;
	api_calls_free(&c);
}

static void fill_marker_rows(struct cpu_pane *p, struct app *app)
{
	struct markers m;
	struct marker_table mt;
	markers_find_any(app->trace, app_order(app), app_sel(app), &m);
	markers_by_name(app->trace, &m, app_sel(app), &mt);
	markers_free(&m);
	p->rows = xcalloc(mt.n ? mt.n : 1, sizeof(*p->rows));
	for (size_t i = 0; i < mt.n; i++) {
		const struct marker_row *r = &mt.rows[i];
		struct cpu_row *x = &p->rows[i];
		x->name = r->name;
		x->fig[F_CALLS] = (int64_t)r->calls;
		x->fig[F_TOTAL] = r->total;
		x->fig[F_AVG] = marker_row_avg(r);
		x->fig[F_MIN] = r->min;
		x->fig[F_MAX] = r->max;
		x->fig[F_P50] = r->p50;
		x->fig[F_GPU] = r->gpu;
		x->fig[F_OPS] = (int64_t)r->ops;
	}
	p->n = mt.n;
	marker_table_free(&mt);
}

/* Compute (again, after the selection or the API rows changed), keeping
 * the cursor on the name it was on. */
static void ensure_ready(struct cpu_pane *p, struct app *app)
{
	const struct trace *t = app->trace;
	if (!t->apis.n)
		app_need_apis(app);
	if (p->ready && p->generation == app_generation(app) && p->napis == t->apis.n)
		return;
	uint32_t current = p->ready && p->n ? p->rows[p->order[p->nav.cursor]].name : TRACE_NONE;
	p->napis = t->apis.n;
	free(p->rows);
	free(p->order);
	if (p->markers)
		fill_marker_rows(p, app);
	else
		fill_api_rows(p, app);
	p->order = xmalloc_array(p->n ? p->n : 1, sizeof(*p->order));
	for (size_t i = 0; i < p->n; i++)
		p->order[i] = i;
	p->nav.n = p->n;
	p->nav.cursor = 0;
	p->ready = 1;
	p->generation = app_generation(app);
	sort_rows(p, app);
	for (size_t i = 0; i < p->n && current != TRACE_NONE; i++)
		if (p->rows[p->order[i]].name == current)
			p->nav.cursor = i;
}

struct sort_ctx {
	struct app *app;
	struct cpu_pane *pane;
};

/* Figures largest first, names in order; ties by name. */
static int compare_rows(const void *a, const void *b, void *arg)
{
	const struct sort_ctx *ctx = arg;
	const struct cpu_pane *p = ctx->pane;
	const struct cpu_row *x = &p->rows[*(const size_t *)a], *y = &p->rows[*(const size_t *)b];
	int c = 0;
	if (p->sort < p->ncols) {
		enum fig f = p->cols[p->sort].fig;
		c = x->fig[f] > y->fig[f] ? -1 : x->fig[f] < y->fig[f] ? 1 : 0;
	}
	if (c == 0)
		c = strcmp(app_name(ctx->app, x->name), app_name(ctx->app, y->name));
	return p->reverse ? -c : c;
}

static void sort_rows(struct cpu_pane *p, struct app *app)
{
	size_t current = p->n ? p->order[p->nav.cursor] : 0;
	struct sort_ctx ctx = { app, p };
	sort_with(p->order, p->n, sizeof(*p->order), compare_rows, &ctx);
	for (size_t i = 0; i < p->n; i++)
		if (p->order[i] == current)
			p->nav.cursor = i;
}

static int column_shown(const struct column *c, int width)
{
	return width >= c->drop_below;
}

static void draw_header(struct cpu_pane *p, int y, int width)
{
	const struct glyphs *g = glyphs();
	attr_t a = theme_attr(THEME_HEADER);
	const char *arrow = p->reverse ? g->sort_up : g->sort_down;
	int x = 0;
	char title[64];
	draw_fill(stdscr, y, 0, width, a);
	for (size_t c = 0; c < p->ncols; c++) {
		if (!column_shown(&p->cols[c], width))
			continue;
		snprintf(title, sizeof(title), "%s%s", c == p->sort ? arrow : "", _(p->cols[c].title));
		draw_text_right(stdscr, y, x, p->cols[c].width, title, a);
		x += p->cols[c].width + 1;
	}
	snprintf(title, sizeof(title), "%s%s", p->sort == p->ncols ? arrow : "",
		 p->markers ? _("TEXT") : _("NAME"));
	draw_text(stdscr, y, x + 1, width - x - 1, title, a);
}

static void cell_text(const struct cpu_row *r, enum fig f, char *buf, size_t size)
{
	if (f == F_CALLS || f == F_OPS)
		snprintf(buf, size, "%lld", (long long)r->fig[f]);
	else if (f == F_PCT)
		snprintf(buf, size, "%lld.%02lld", (long long)(r->fig[f] / 100),
			 (long long)(r->fig[f] % 100));
	else
		units_format_ns(r->fig[f], buf, size);
}

static void draw_row(struct cpu_pane *p, struct app *app, size_t i, int y, int width)
{
	const struct cpu_row *r = &p->rows[p->order[i]];
	attr_t a = theme_attr(i == p->nav.cursor ? THEME_CURSOR : THEME_NORMAL);
	char buf[UNITS_BUFSZ];
	int x = 0;
	draw_fill(stdscr, y, 0, width, a);
	for (size_t c = 0; c < p->ncols; c++) {
		if (!column_shown(&p->cols[c], width))
			continue;
		cell_text(r, p->cols[c].fig, buf, sizeof(buf));
		draw_text_right(stdscr, y, x, p->cols[c].width, buf, a);
		x += p->cols[c].width + 1;
	}
	draw_text(stdscr, y, x + 1, width - x - 1, app_name(app, r->name), a);
}

static void cpu_draw(struct view *v, struct app *app, int y, int height, int width)
{
	struct cpu_pane *p = v->data;
	ensure_ready(p, app);
	draw_header(p, y, width);
	tablenav_fit(&p->nav, height - 1);
	if (p->n == 0) {
		const char *why =
			session_apis(app->session) == SESSION_APIS_READING ? _("Reading the API calls...")
			: session_filtered(app->session)
				? (p->markers ? _("No roctx range passes the filter")
					      : _("No API call passes the filter"))
				: (p->markers ? _("No roctx ranges in this trace") : _("No API calls"));
		draw_text(stdscr, y + 2, 2, width - 2, why, theme_attr(THEME_DIM));
		return;
	}
	for (int row = 0; row < height - 1 && p->nav.top + (size_t)row < p->n; row++)
		draw_row(p, app, p->nav.top + (size_t)row, y + 1 + row, width);
}

/* The display position of the next row (dir, from start, wrapping) whose
 * shown name contains text, ignoring case. */
static int find_row(struct cpu_pane *p, struct app *app, const char *text, size_t start, int dir,
		    size_t *found)
{
	for (size_t k = 0; k < p->n && *text; k++) {
		size_t i = (start + p->n + (size_t)dir * k) % p->n;
		if (strcasestr(app_name(app, p->rows[p->order[i]].name), text)) {
			*found = i;
			return 1;
		}
	}
	return 0;
}

static void find_changed(struct app *app, const char *text, void *ctx)
{
	struct cpu_pane *p = ctx;
	size_t row;
	if (find_row(p, app, text, p->find_origin, 1, &row))
		p->nav.cursor = row;
	else if (*text)
		app_message(app, 1, _("Not found: %s"), text);
}

static unsigned find_done(struct app *app, const char *text, int accepted, void *ctx)
{
	struct cpu_pane *p = ctx;
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

static unsigned find_again(struct cpu_pane *p, struct app *app, int dir)
{
	size_t row;
	if (!p->find[0]) {
		app_message(app, 0, "%s", _("Nothing to find yet (/)"));
		return ACT_REDRAW;
	}
	if (p->n && find_row(p, app, p->find, (p->nav.cursor + p->n + (size_t)dir) % p->n, dir, &row))
		p->nav.cursor = row;
	else
		app_message(app, 1, _("Not found: %s"), p->find);
	return ACT_REDRAW;
}

/* The earliest call of the row's name in view, in the timeline. */
static unsigned show_first(struct app *app, uint32_t name)
{
	struct search_query q = search_query_all(0, 1);
	struct search_result r;
	q.name = name;
	if (search_run(app->trace, app_sel(app), &q, &r) || r.n == 0) {
		search_free(&r);
		return ACT_NONE;
	}
	uint32_t call = search_row(r.refs[0]);
	search_free(&r);
	return app_show_call_in_timeline(app, call);
}

static unsigned sort_next(struct cpu_pane *p, struct app *app, int reverse)
{
	if (reverse)
		p->reverse = !p->reverse;
	else {
		/* As the profile's: total, calls, the other columns in order,
		 * then the name (the percent column sorts as the total does). */
		p->sort = p->sort == 1 ? 0 : p->sort == 0 ? 2 : (p->sort + 1) % (p->ncols + 1);
		if (p->sort < p->ncols && p->cols[p->sort].fig == F_PCT)
			p->sort++;
		p->reverse = 0;
	}
	sort_rows(p, app);
	const char *what = p->sort < p->ncols ? _(p->cols[p->sort].sort_name) : _("name");
	app_message(app, 0, _("Sorted by %s, %s"), what, p->reverse ? _("reversed") : _("normal order"));
	return ACT_REDRAW;
}

static unsigned cpu_request(struct view *v, struct app *app, enum request req)
{
	struct cpu_pane *p = v->data;
	ensure_ready(p, app);
	const struct cpu_row *r = p->n ? &p->rows[p->order[p->nav.cursor]] : NULL;
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
	case REQ_SORT_REVERSE:
		return sort_next(p, app, req == REQ_SORT_REVERSE);
	case REQ_ENTER:
		if (!r)
			return ACT_NONE;
		if (!p->markers)
			return show_first(app, r->name);
		app_push(app, view_steps_new(app, r->name));
		return ACT_REDRAW;
	case REQ_DETAILS: {
		if (!r)
			return ACT_NONE;
		struct call_stats s = { .name = r->name,
					.calls = (uint64_t)r->fig[F_CALLS],
					.total = r->fig[F_TOTAL],
					.self = p->markers ? -1 : r->fig[F_SELF],
					.gpu = p->markers ? r->fig[F_GPU] : -1,
					.ops = p->markers ? r->fig[F_OPS] : -1,
					.markers = p->markers };
		app_push(app, view_detail_calls_new(app, &s));
		return ACT_REDRAW;
	}
	default:
		return tablenav_request(&p->nav, req);
	}
}

static unsigned cpu_click(struct view *v, struct app *app, int row, int col, int button)
{
	struct cpu_pane *p = v->data;
	(void)col;
	ensure_ready(p, app);
	return row == 0 ? ACT_NONE : tablenav_click(&p->nav, row - 1, button);
}

static void cpu_free(struct view *v)
{
	struct cpu_pane *p = v->data;
	free(p->rows);
	free(p->order);
	free(p);
}

static const struct view_ops api_ops = {
	.name = "api",
	.title = N_("API"),
	.draw = cpu_draw,
	.request = cpu_request,
	.click = cpu_click,
	.free = cpu_free,
};

static const struct view_ops markers_ops = {
	.name = "markers",
	.title = N_("Markers"),
	.draw = cpu_draw,
	.request = cpu_request,
	.click = cpu_click,
	.free = cpu_free,
};

struct view pane_cpu_new(struct app *app, int markers)
{
	struct cpu_pane *p = xcalloc(1, sizeof(*p));
	(void)app;
	p->markers = markers;
	p->cols = markers ? marker_columns : api_columns;
	p->ncols = markers ? sizeof(marker_columns) / sizeof(marker_columns[0])
			   : sizeof(api_columns) / sizeof(api_columns[0]);
	p->sort = 1; /* the total */
	return (struct view){ markers ? &markers_ops : &api_ops, p };
}
