/* The CPU side: API calls by name (as -r api) and roctx ranges by text
 * (as -r markers), one table over two column lists. v shows a row's
 * details and Enter its first call in the timeline, or for a range its
 * instances. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/api_calls.h"
#include "analysis/markers.h"
#include "tui/app.h"
#include "tui/panes.h"
#include "tui/tableview.h"
#include "util/i18n.h"
#include "util/units.h"
#include "util/xalloc.h"

enum fig { F_CALLS, F_TOTAL, F_SELF, F_AVG, F_MIN, F_MAX, F_P50, F_P99, F_GPU, F_OPS, F_PCT, NFIGS };

/* The figure each column shows, and the name after them. */
static const enum fig api_figs[] = { F_CALLS, F_TOTAL, F_SELF, F_AVG, F_P50, F_P99, F_MAX, F_MIN, F_PCT };
static const enum fig marker_figs[] = { F_CALLS, F_TOTAL, F_AVG, F_P50, F_MAX, F_MIN, F_GPU, F_OPS };
#define NAPI (int)(sizeof(api_figs) / sizeof(api_figs[0]))
#define NMARKER (int)(sizeof(marker_figs) / sizeof(marker_figs[0]))

/* As the profile's order: total, calls, the other columns in order, then
 * the name (the percent column sorts as the total does: not again). */
static const struct tv_column api_columns[] = {
	{ N_("CALLS"), N_("calls"), 8, 0, 0, TV_RIGHT, TV_NUMBER, 2, 0 },
	{ N_("TOTAL"), N_("total"), 10, 1, 0, TV_RIGHT, TV_NUMBER, 1, 0 },
	{ N_("SELF"), N_("self time"), 10, 1, 0, TV_RIGHT, TV_NUMBER, 3, 0 },
	{ N_("AVG"), N_("average"), 10, 1, 100, TV_RIGHT, TV_NUMBER, 4, 0 },
	{ N_("P50"), N_("median"), 10, 1, 120, TV_RIGHT, TV_NUMBER, 5, 0 },
	{ N_("P99"), N_("99th percentile"), 10, 1, 130, TV_RIGHT, TV_NUMBER, 6, 0 },
	{ N_("MAX"), N_("maximum"), 10, 1, 90, TV_RIGHT, TV_NUMBER, 7, 0 },
	{ N_("MIN"), N_("minimum"), 10, 1, 140, TV_RIGHT, TV_NUMBER, 8, 0 },
	{ N_("%"), NULL, 7, 1, 0, TV_RIGHT, TV_NUMBER, 0, 0 },
	{ N_("NAME"), N_("name"), TV_REST, 2, 0, TV_LEFT, TV_TEXT, 9, TV_SCROLL },
};

static const struct tv_column marker_columns[] = {
	{ N_("CALLS"), N_("calls"), 8, 0, 0, TV_RIGHT, TV_NUMBER, 2, 0 },
	{ N_("TOTAL"), N_("total"), 10, 1, 0, TV_RIGHT, TV_NUMBER, 1, 0 },
	{ N_("AVG"), N_("average"), 10, 1, 100, TV_RIGHT, TV_NUMBER, 3, 0 },
	{ N_("P50"), N_("median"), 10, 1, 120, TV_RIGHT, TV_NUMBER, 4, 0 },
	{ N_("MAX"), N_("maximum"), 10, 1, 90, TV_RIGHT, TV_NUMBER, 5, 0 },
	{ N_("MIN"), N_("minimum"), 10, 1, 140, TV_RIGHT, TV_NUMBER, 6, 0 },
	{ N_("GPU"), N_("GPU time"), 10, 1, 0, TV_RIGHT, TV_NUMBER, 7, 0 },
	{ N_("OPS"), N_("ops"), 7, 1, 0, TV_RIGHT, TV_NUMBER, 8, 0 },
	{ N_("TEXT"), N_("name"), TV_REST, 2, 0, TV_LEFT, TV_TEXT, 9, TV_SCROLL },
};

/* A row: its name and its figures (percent in hundredths). */
struct cpu_row {
	uint32_t name;
	int64_t fig[NFIGS];
};

struct cpu_src {
	int markers; /* roctx ranges, not API calls */
	struct cpu_row *rows;
	size_t n;
	size_t napis; /* API rows the figures were made for */
};

/* The figures API calls and roctx ranges both have. */
static void put_row(struct cpu_row *x, uint32_t name, uint64_t calls, int64_t total, int64_t avg, int64_t min,
		    int64_t max, int64_t p50)
{
	x->name = name;
	x->fig[F_CALLS] = (int64_t)calls;
	x->fig[F_TOTAL] = total;
	x->fig[F_AVG] = avg;
	x->fig[F_MIN] = min;
	x->fig[F_MAX] = max;
	x->fig[F_P50] = p50;
}

static void fill_api_rows(struct cpu_src *p, struct app *app)
{
	struct api_calls c;
	api_calls_by_name(app->trace, app_order(app), app_sel(app), &c);
	p->rows = xcalloc(c.n ? c.n : 1, sizeof(*p->rows));
	for (size_t i = 0; i < c.n; i++) {
		const struct api_call_row *r = &c.rows[i];
		struct cpu_row *x = &p->rows[i];
		put_row(x, r->name, r->calls, r->total, api_call_row_avg(r), r->min, r->max, r->p50);
		x->fig[F_SELF] = r->self;
		x->fig[F_P99] = r->p99;
		x->fig[F_PCT] = (int64_t)(api_call_row_percent(&c, r) * 100.0 + 0.5);
	}
	p->n = c.n;
	api_calls_free(&c);
}

static void fill_marker_rows(struct cpu_src *p, struct app *app)
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
		put_row(x, r->name, r->calls, r->total, marker_row_avg(r), r->min, r->max, r->p50);
		x->fig[F_GPU] = r->gpu;
		x->fig[F_OPS] = (int64_t)r->ops;
	}
	p->n = mt.n;
	marker_table_free(&mt);
}

/* The API rows are wanted: taken if read, read if nothing reads them. */
static int cpu_current(void *src, struct app *app)
{
	const struct cpu_src *p = src;
	if (!app->trace->apis.n)
		app_need_apis(app);
	return p->napis == app->trace->apis.n;
}

static size_t cpu_fill(void *src, struct app *app)
{
	struct cpu_src *p = src;
	p->napis = app->trace->apis.n;
	free(p->rows);
	if (p->markers)
		fill_marker_rows(p, app);
	else
		fill_api_rows(p, app);
	return p->n;
}

static void cpu_release(void *src)
{
	struct cpu_src *p = src;
	free(p->rows);
}

static enum fig fig_of(const struct cpu_src *p, int col)
{
	return p->markers ? marker_figs[col] : api_figs[col];
}

static int name_col(const struct cpu_src *p)
{
	return p->markers ? NMARKER : NAPI;
}

static int64_t cpu_key(void *src, size_t row, int col)
{
	const struct cpu_src *p = src;
	return col < name_col(p) ? p->rows[row].fig[fig_of(p, col)] : 0;
}

static const char *cpu_text(void *src, struct app *app, size_t row, int col, char *buf, size_t size)
{
	const struct cpu_src *p = src;
	const struct cpu_row *r = &p->rows[row];
	if (col == name_col(p))
		return app_name(app, r->name);
	enum fig f = fig_of(p, col);
	if (f == F_CALLS || f == F_OPS)
		snprintf(buf, size, "%lld", (long long)r->fig[f]);
	else if (f == F_PCT)
		snprintf(buf, size, "%lld.%02lld", (long long)(r->fig[f] / 100),
			 (long long)(r->fig[f] % 100));
	else
		units_format_ns(r->fig[f], buf, size);
	return buf;
}

/* Equal figures: by name. */
static int cpu_tie(void *src, struct app *app, size_t a, size_t b)
{
	const struct cpu_src *p = src;
	return strcmp(app_name(app, p->rows[a].name), app_name(app, p->rows[b].name));
}

static struct tv_ident cpu_ident(void *src, size_t row)
{
	const struct cpu_src *p = src;
	return (struct tv_ident){ p->rows[row].name, 0 };
}

static const char *cpu_empty(void *src, struct app *app)
{
	const struct cpu_src *p = src;
	if (workspace_apis(app->ws) == WORKSPACE_APIS_READING)
		return _("Reading the API calls...");
	if (session_filtered(app->session))
		return p->markers ? _("No roctx range passes the filter")
				  : _("No API call passes the filter");
	return p->markers ? _("No roctx ranges in this trace") : _("No API calls");
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

/* A call: its first instance; a range: its instances. */
static unsigned cpu_enter(void *src, struct app *app, size_t row)
{
	const struct cpu_src *p = src;
	if (!p->markers)
		return show_first(app, p->rows[row].name);
	app_push(app, view_steps_new(app, p->rows[row].name));
	return ACT_REDRAW;
}

static unsigned cpu_details(void *src, struct app *app, size_t row)
{
	const struct cpu_src *p = src;
	const struct cpu_row *r = &p->rows[row];
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

static const struct tv_source_ops cpu_source = { TV_ROWS(cpu),       .current = cpu_current,
						 .tie = cpu_tie,     .empty = cpu_empty,
						 .enter = cpu_enter, .details = cpu_details };

/* Sorted by the total at first. */
static const struct tv_spec api_spec = { TV_VIEW("api", N_("API")), TV_COLS(api_columns), .first_sort = 1,
					 .empty_skip = 1, .ops = &cpu_source };
static const struct tv_spec marker_spec = { TV_VIEW("markers", N_("Markers")), TV_COLS(marker_columns),
					    .first_sort = 1, .empty_skip = 1, .ops = &cpu_source };

struct view pane_cpu_new(struct app *app, int markers)
{
	struct view v = tableview_new(markers ? &marker_spec : &api_spec, sizeof(struct cpu_src));
	struct cpu_src *p = tableview_source(&v);
	(void)app;
	p->markers = markers;
	return v;
}
