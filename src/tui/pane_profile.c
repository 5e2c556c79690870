/* The flat profile (all GPU ops by name) and kernel top (kernels only):
 * the same table over a different scope. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "present/report_rows.h"
#include "tui/app.h"
#include "tui/panes.h"
#include "tui/tableview.h"
#include "util/i18n.h"
#include "util/units.h"
#include "util/xalloc.h"

enum { PF_CALLS, PF_TOTAL, PF_AVG, PF_MIN, PF_MAX, PF_STD, PF_P50, PF_P90, PF_P99, PF_VAR, PF_PCT, PF_NAME };

/* The columns of top and ktop (their titles, figures and how they are
 * written); the variability columns come on wide screens only. Every
 * column but the share can be sorted by, shown or not. */
static const struct tv_column columns[] = {
	[PF_CALLS] = { NULL, N_("calls"), 8, 0, 0, TV_RIGHT, TV_NUMBER, 2, 0, "calls" },
	[PF_TOTAL] = { NULL, N_("total"), 10, 1, 0, TV_RIGHT, TV_NUMBER, 1, 0, "total_ns" },
	[PF_AVG] = { NULL, N_("average"), 10, 1, 70, TV_RIGHT, TV_NUMBER, 3, 0, "avg_ns" },
	[PF_MIN] = { NULL, N_("minimum"), 10, 1, 90, TV_RIGHT, TV_NUMBER, 4, 0, "min_ns" },
	[PF_MAX] = { NULL, N_("maximum"), 10, 1, 80, TV_RIGHT, TV_NUMBER, 5, 0, "max_ns" },
	[PF_STD] = { NULL, N_("standard deviation"), 10, 1, 180, TV_RIGHT, TV_NUMBER, 7, 0, "std_ns" },
	[PF_P50] = { NULL, N_("median"), 10, 1, 190, TV_RIGHT, TV_NUMBER, 8, 0, "p50_ns" },
	[PF_P90] = { NULL, N_("90th percentile"), 10, 1, 200, TV_RIGHT, TV_NUMBER, 9, 0, "p90_ns" },
	[PF_P99] = { NULL, N_("99th percentile"), 10, 1, 210, TV_RIGHT, TV_NUMBER, 10, 0, "p99_ns" },
	[PF_VAR] = { NULL, N_("time lost to variability"), 10, 1, 170, TV_RIGHT, TV_NUMBER, 11, 0, "var_ns" },
	[PF_PCT] = { NULL, NULL, 7, 1, 0, TV_RIGHT, TV_NUMBER, 0, 0, "percent" },
	[PF_NAME] = { N_("NAME"), N_("name"), TV_REST, 2, 0, TV_NAME, TV_TEXT, 6, TV_SCROLL, NULL },
};

struct profile_src {
	enum profile_scope scope;
	struct profile prof;
};

static size_t profile_fill(void *src, struct app *app)
{
	struct profile_src *p = src;
	profile_free(&p->prof);
	profile_by_name(app->trace, p->scope, app_sel(app), &p->prof);
	return p->prof.n;
}

static void profile_release(void *src)
{
	struct profile_src *p = src;
	profile_free(&p->prof);
}

static void profile_cells(void *src, size_t row, struct table_cell *cells)
{
	const struct profile_src *p = src;
	report_profile_cells(&p->prof, &p->prof.rows[row], cells);
}

/* The name (the other columns are the report's). */
static struct tv_name profile_name(void *src, struct app *app, size_t row, int col)
{
	const struct profile_src *p = src;
	(void)app;
	(void)col;
	return (struct tv_name){ p->prof.rows[row].name, NULL, NULL };
}

/* Equal figures: by the names as recorded, as the analysis orders them. */
static int profile_tie(void *src, struct app *app, size_t a, size_t b)
{
	const struct profile_src *p = src;
	return strcmp(trace_str(app->trace, p->prof.rows[a].name),
		      trace_str(app->trace, p->prof.rows[b].name));
}

static struct tv_ident profile_ident(void *src, size_t row)
{
	const struct profile_src *p = src;
	return (struct tv_ident){ p->prof.rows[row].name, 0 };
}

static const char *profile_empty(void *src, struct app *app)
{
	const struct profile_src *p = src;
	int kernels = p->scope == PROFILE_KERNELS;
	if (session_filtered(app->session))
		return kernels ? _("No kernel passes the filter") : _("No GPU op passes the filter");
	return kernels ? _("No kernels in this trace") : _("No GPU ops");
}

/* The earliest op of the row's name that the selection keeps, in the
 * timeline, where n and N then walk the name's instances. */
static unsigned profile_enter(void *src, struct app *app, size_t row)
{
	const struct profile_src *p = src;
	uint32_t first = session_first_op_named(app->session, p->prof.rows[row].name);
	return first == TRACE_NONE ? ACT_NONE : app_walk_in_timeline(app, first);
}

static unsigned profile_details(void *src, struct app *app, size_t row)
{
	const struct profile_src *p = src;
	const struct profile_row *r = &p->prof.rows[row];
	app_push(app, view_detail_new(app, p->scope, r, profile_row_percent(&p->prof, r)));
	return ACT_REDRAW;
}

static const struct tv_source_ops profile_source = { TV_ROWS(profile),          .name = profile_name,
						     .cells = profile_cells,    .tie = profile_tie,
						     .empty = profile_empty,    .enter = profile_enter,
						     .details = profile_details };

static const struct tv_spec profile_spec = { TV_VIEW("profile", N_("Profile")),
					     TV_COLS(columns),
					     .report = &report_top,
					     .first_sort = PF_TOTAL,
					     .empty_skip = 1,
					     .ops = &profile_source };
static const struct tv_spec kernels_spec = { TV_VIEW("kernels", N_("Kernels")),
					     TV_COLS(columns),
					     .report = &report_ktop,
					     .first_sort = PF_TOTAL,
					     .empty_skip = 1,
					     .ops = &profile_source };

struct view pane_profile_new(struct app *app, enum profile_scope scope)
{
	struct view v = tableview_new(scope == PROFILE_KERNELS ? &kernels_spec : &profile_spec,
				      sizeof(struct profile_src));
	struct profile_src *p = tableview_source(&v);
	(void)app;
	p->scope = scope;
	return v;
}
