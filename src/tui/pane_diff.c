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
#include "tui/tableview.h"
#include "tui/theme.h"
#include "util/hash64.h"
#include "util/i18n.h"
#include "util/units.h"
#include "util/xalloc.h"

enum { DC_BCALLS, DC_NCALLS, DC_BASE, DC_NEW, DC_DELTA, DC_PCT, DC_BP50, DC_NP50, DC_STATUS, DC_NAME };

static const struct tv_column columns[] = {
	[DC_BCALLS] = { N_("B.CALLS"), NULL, 7, 0, 100, TV_RIGHT, TV_NUMBER, 0, 0, NULL },
	[DC_NCALLS] = { N_("N.CALLS"), NULL, 7, 1, 100, TV_RIGHT, TV_NUMBER, 0, 0, NULL },
	[DC_BASE] = { N_("BASE"), N_("base time"), 9, 1, 0, TV_RIGHT, TV_NUMBER, 3, 0, NULL },
	[DC_NEW] = { N_("NEW"), N_("new time"), 9, 1, 0, TV_RIGHT, TV_NUMBER, 4, 0, NULL },
	[DC_DELTA] = { N_("DELTA"), N_("change"), 10, 1, 0, TV_RIGHT, TV_NUMBER, 1, 0, NULL },
	[DC_PCT] = { N_("DELTA%"), N_("change in percent"), 8, 1, 0, TV_RIGHT, TV_NUMBER, 2, 0, NULL },
	[DC_BP50] = { N_("B.P50"), NULL, 9, 1, 120, TV_RIGHT, TV_NUMBER, 0, 0, NULL },
	[DC_NP50] = { N_("N.P50"), NULL, 9, 1, 120, TV_RIGHT, TV_NUMBER, 0, 0, NULL },
	[DC_STATUS] = { N_("STATUS"), N_("status"), 7, 2, 0, TV_LEFT, TV_NUMBER, 5, 0, NULL },
	[DC_NAME] = { N_("NAME"), N_("name"), TV_REST, 1, 0, TV_NAME, TV_TEXT, 6, TV_SCROLL, NULL },
};

struct diff_src {
	struct diff_row total;
	struct diff_row *rows; /* their names owned */
	size_t n, common;
	unsigned warnings;
	unsigned style;               /* the names were compared in */
	struct name_cache next_names; /* the new run's, in the viewer's style */
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

/* Names are compared as shown: made again when the style changes. */
static int diff_current(void *src, struct app *app)
{
	const struct diff_src *p = src;
	return p->style == app->names.style;
}

static void free_rows(struct diff_src *p)
{
	for (size_t i = 0; i < p->n; i++)
		free((char *)p->rows[i].name);
	free(p->rows);
	p->rows = NULL;
	p->n = 0;
}

/* Compare the runs (again). */
static size_t diff_fill(void *src, struct app *app)
{
	struct diff_src *p = src;
	struct session *s = app->session;
	struct diff_run runs[2];
	struct diff d;
	name_cache_set_style(&p->next_names, app->names.style);
	struct next_ctx next = { &p->next_names, session_trace_at(s, 1) };
	diff_run_build(session_trace_at(s, 0), session_sel_at(s, 0), base_name, app, &runs[0]);
	diff_run_build(session_trace_at(s, 1), session_sel_at(s, 1), next_name, &next, &runs[1]);
	diff_runs(&runs[0], &runs[1], app->analysis.diff_tolerance, -1, &d);
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
	p->style = app->names.style;
	return p->n;
}

static void diff_release(void *src)
{
	struct diff_src *p = src;
	free_rows(p);
	name_cache_free(&p->next_names);
}

/* The total is pinned under the header: row n. */
static const struct diff_row *row_at(const struct diff_src *p, size_t row)
{
	return row < p->n ? &p->rows[row] : &p->total;
}

static size_t diff_pinned(void *src)
{
	(void)src;
	return 1;
}

/* Changes by their size; a name new in the new run grew the most; the
 * statuses in their order. */
static int64_t diff_key(void *src, size_t row, int col)
{
	const struct diff_row *r = row_at(src, row);
	switch (col) {
	case DC_DELTA:
		return r->delta < 0 ? -r->delta : r->delta;
	case DC_PCT:
		return r->has_percent ? (int64_t)(r->delta_percent * 1e6) : INT64_MAX;
	case DC_BASE:
		return r->base_total;
	case DC_NEW:
		return r->new_total;
	case DC_STATUS:
		return -(int64_t)r->status;
	default:
		return 0;
	}
}

static int diff_tie(void *src, struct app *app, size_t a, size_t b)
{
	const struct diff_src *p = src;
	(void)app;
	return strcmp(p->rows[a].name, p->rows[b].name);
}

static struct tv_ident diff_ident(void *src, size_t row)
{
	const char *name = row_at(src, row)->name;
	return (struct tv_ident){ hash64(name, strlen(name), 0), strlen(name) };
}

static const char *status_text(enum diff_status s)
{
	static const char *const names[] = { N_("added"), N_("removed"), N_("slower"), N_("faster"),
					     N_("same") };
	return _(names[s]);
}

static const char *diff_text(void *src, struct app *app, size_t row, int col, char *buf, size_t size)
{
	const struct diff_row *r = row_at(src, row);
	char u[UNITS_BUFSZ];
	(void)app;
	switch (col) {
	case DC_BCALLS:
	case DC_NCALLS:
		snprintf(buf, size, "%lld", (long long)(col == DC_BCALLS ? r->base_calls : r->new_calls));
		return buf;
	case DC_PCT:
		if (!r->has_percent)
			return "-";
		snprintf(buf, size, "%+.1f%%", r->delta_percent);
		return buf;
	case DC_STATUS:
		return status_text(r->status);
	case DC_DELTA:
		snprintf(buf, size, "%s%s", r->delta > 0 ? "+" : "", units_format_ns(r->delta, u, sizeof(u)));
		return buf;
	case DC_BP50:
	case DC_NP50:
		if ((col == DC_BP50 ? r->base_calls : r->new_calls) == 0)
			return "-";
		return units_format_ns(col == DC_BP50 ? r->base_p50 : r->new_p50, buf, size);
	default:
		return units_format_ns(col == DC_BASE ? r->base_total : r->new_total, buf, size);
	}
}

/* The name as both runs were compared by: in the name style already. */
static struct tv_name diff_name(void *src, struct app *app, size_t row, int col)
{
	(void)app;
	(void)col;
	return (struct tv_name){ TRACE_NONE, row_at(src, row)->name, NULL };
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
static int diff_draw_top(void *src, struct app *app, int y, int height, int width)
{
	const struct diff_src *p = src;
	int used = 0, rows = height > 6 ? height - 4 : 1;
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

/* Both runs' instances of the name. */
static unsigned diff_enter(void *src, struct app *app, size_t row)
{
	const struct diff_src *p = src;
	app_push(app, view_diff_ops_new(app, p->rows[row].name));
	return ACT_REDRAW;
}

static const struct tv_source_ops diff_source = { TV_ROWS(diff),           .text = diff_text,
						  .name = diff_name,       .key = diff_key,
						  .current = diff_current, .tie = diff_tie,
						  .pinned = diff_pinned,   .draw_top = diff_draw_top,
						  .enter = diff_enter };

static const struct tv_spec diff_spec = { TV_VIEW("diff", N_("Diff")), TV_COLS(columns),
					  .first_sort = DC_DELTA,
					  .empty = N_("No GPU op in either run passes the filter"),
					  .ops = &diff_source };

struct view pane_diff_new(struct app *app)
{
	struct view v = tableview_new(&diff_spec, sizeof(struct diff_src));
	struct diff_src *p = tableview_source(&v);
	name_cache_init(&p->next_names, app->names.style);
	return v;
}
