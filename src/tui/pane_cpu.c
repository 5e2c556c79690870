/* The CPU side: API calls by name (as -r api) and roctx ranges by text
 * (as -r markers), one table over two column lists. v shows a row's
 * details and Enter its first call in the timeline, or for a range its
 * instances. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/api_calls.h"
#include "analysis/markers.h"
#include "present/report_rows.h"
#include "tui/app.h"
#include "tui/panes.h"
#include "tui/tableview.h"
#include "util/i18n.h"
#include "util/units.h"
#include "util/xalloc.h"

/* The api and markers reports' columns, as the profile's order goes:
 * total, calls, the other columns in order, then the name (the percent
 * column sorts as the total does: not again). */
static const struct tv_column api_columns[] = {
	{ NULL, N_("calls"), 8, 0, 0, TV_RIGHT, TV_NUMBER, 2, 0, "calls" },
	{ NULL, N_("total"), 10, 1, 0, TV_RIGHT, TV_NUMBER, 1, 0, "total_ns" },
	{ NULL, N_("self time"), 10, 1, 0, TV_RIGHT, TV_NUMBER, 3, 0, "self_ns" },
	{ NULL, N_("average"), 10, 1, 100, TV_RIGHT, TV_NUMBER, 4, 0, "avg_ns" },
	{ NULL, N_("median"), 10, 1, 120, TV_RIGHT, TV_NUMBER, 5, 0, "p50_ns" },
	{ NULL, N_("99th percentile"), 10, 1, 130, TV_RIGHT, TV_NUMBER, 6, 0, "p99_ns" },
	{ NULL, N_("maximum"), 10, 1, 90, TV_RIGHT, TV_NUMBER, 7, 0, "max_ns" },
	{ NULL, N_("minimum"), 10, 1, 140, TV_RIGHT, TV_NUMBER, 8, 0, "min_ns" },
	{ NULL, NULL, 7, 1, 0, TV_RIGHT, TV_NUMBER, 0, 0, "percent" },
	{ N_("NAME"), N_("name"), TV_REST, 2, 0, TV_NAME, TV_TEXT, 9, TV_SCROLL, NULL },
};

static const struct tv_column marker_columns[] = {
	{ NULL, N_("calls"), 8, 0, 0, TV_RIGHT, TV_NUMBER, 2, 0, "calls" },
	{ NULL, N_("total"), 10, 1, 0, TV_RIGHT, TV_NUMBER, 1, 0, "total_ns" },
	{ NULL, N_("average"), 10, 1, 100, TV_RIGHT, TV_NUMBER, 3, 0, "avg_ns" },
	{ NULL, N_("median"), 10, 1, 120, TV_RIGHT, TV_NUMBER, 4, 0, "p50_ns" },
	{ NULL, N_("maximum"), 10, 1, 90, TV_RIGHT, TV_NUMBER, 5, 0, "max_ns" },
	{ NULL, N_("minimum"), 10, 1, 140, TV_RIGHT, TV_NUMBER, 6, 0, "min_ns" },
	{ NULL, N_("GPU time"), 10, 1, 0, TV_RIGHT, TV_NUMBER, 7, 0, "gpu_ns" },
	{ NULL, N_("ops"), 7, 1, 0, TV_RIGHT, TV_NUMBER, 8, 0, "ops" },
	{ N_("TEXT"), N_("name"), TV_REST, 2, 0, TV_NAME, TV_TEXT, 9, TV_SCROLL, NULL },
};

struct cpu_src {
	int markers; /* roctx ranges, not API calls */
	struct api_calls calls;
	struct marker_table ranges;
	size_t napis; /* API rows the figures were made for */
};

/* The API rows are wanted: taken if read, read if nothing reads them. */
static int cpu_current(void *src, struct app *app)
{
	const struct cpu_src *p = src;
	if (!app->trace->apis.n)
		app_need_apis(app);
	return p->napis == app->trace->apis.n;
}

static void cpu_release(void *src)
{
	struct cpu_src *p = src;
	api_calls_free(&p->calls);
	marker_table_free(&p->ranges);
}

static size_t cpu_fill(void *src, struct app *app)
{
	struct cpu_src *p = src;
	p->napis = app->trace->apis.n;
	cpu_release(p);
	if (!p->markers) {
		api_calls_by_name(app->trace, app_order(app), app_sel(app), &p->calls);
		return p->calls.n;
	}
	markers_by_name(app->trace, app_order(app), app_sel(app), &p->ranges);
	return p->ranges.n;
}

static void cpu_cells(void *src, size_t row, struct table_cell *cells)
{
	const struct cpu_src *p = src;
	if (p->markers)
		report_marker_cells(&p->ranges.rows[row], cells);
	else
		report_api_cells(&p->calls, &p->calls.rows[row], cells);
}

static uint32_t name_of(const struct cpu_src *p, size_t row)
{
	return p->markers ? p->ranges.rows[row].name : p->calls.rows[row].name;
}

/* The name (the other columns are the report's). */
static struct tv_name cpu_name(void *src, struct app *app, size_t row, int col)
{
	(void)app;
	(void)col;
	return (struct tv_name){ name_of(src, row), NULL, NULL };
}

/* Equal figures: by name. */
static int cpu_tie(void *src, struct app *app, size_t a, size_t b)
{
	const struct cpu_src *p = src;
	return strcmp(app_name(app, name_of(p, a)), app_name(app, name_of(p, b)));
}

static struct tv_ident cpu_ident(void *src, size_t row)
{
	const struct cpu_src *p = src;
	return (struct tv_ident){ name_of(p, row), 0 };
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

/* The earliest call of the row's name in view, in the timeline, where n
 * and N then walk the name's calls. */
static unsigned show_first(struct app *app, uint32_t name)
{
	struct search_query q = search_query_all(0, 1);
	struct search_result r;
	q.name = name;
	if (search_run(app->trace, app_sel(app), &q, &r) || r.n == 0) {
		search_free(&r);
		return ACT_NONE;
	}
	uint32_t call = r.refs[0];
	search_free(&r);
	return app_walk_in_timeline(app, call);
}

/* A call: its first instance; a range: its instances. */
static unsigned cpu_enter(void *src, struct app *app, size_t row)
{
	const struct cpu_src *p = src;
	if (!p->markers)
		return show_first(app, name_of(p, row));
	app_push(app, view_steps_new(app, name_of(p, row)));
	return ACT_REDRAW;
}

static unsigned cpu_details(void *src, struct app *app, size_t row)
{
	const struct cpu_src *p = src;
	struct call_stats s = {
		.name = name_of(p, row), .self = -1, .gpu = -1, .ops = -1, .markers = p->markers
	};
	if (p->markers) {
		const struct marker_row *r = &p->ranges.rows[row];
		s.calls = r->calls;
		s.total = r->total;
		s.gpu = r->gpu;
		s.ops = (int64_t)r->ops;
	} else {
		const struct api_call_row *r = &p->calls.rows[row];
		s.calls = r->calls;
		s.total = r->total;
		s.self = r->self;
	}
	app_push(app, view_detail_calls_new(app, &s));
	return ACT_REDRAW;
}

static const struct tv_source_ops cpu_source = { TV_ROWS(cpu),       .name = cpu_name,
						 .cells = cpu_cells, .current = cpu_current,
						 .tie = cpu_tie,     .empty = cpu_empty,
						 .enter = cpu_enter, .details = cpu_details };

/* Sorted by the total at first. */
static const struct tv_spec api_spec = { TV_VIEW("api", N_("API")), TV_COLS(api_columns),
					 .report = &report_api,     .first_sort = 1,
					 .empty_skip = 1,           .ops = &cpu_source };
static const struct tv_spec marker_spec = { TV_VIEW("markers", N_("Markers")),
					    TV_COLS(marker_columns),
					    .report = &report_markers,
					    .first_sort = 1,
					    .empty_skip = 1,
					    .ops = &cpu_source };

struct view pane_cpu_new(struct app *app, int markers)
{
	struct view v = tableview_new(markers ? &marker_spec : &api_spec, sizeof(struct cpu_src));
	struct cpu_src *p = tableview_source(&v);
	(void)app;
	p->markers = markers;
	return v;
}
