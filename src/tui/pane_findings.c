/* Findings: what is wrong with the trace in view, the most GPU time at
 * stake first (as -r findings). Enter shows the worst instance in the
 * timeline (a step becomes the window), v the rule and the numbers
 * behind the finding. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/findings.h"
#include "present/report_rows.h"
#include "tui/app.h"
#include "tui/filter_prompt.h"
#include "tui/panes.h"
#include "tui/tableview.h"
#include "util/i18n.h"
#include "util/satmath.h"
#include "util/units.h"

enum { FC_RANK, FC_ID, FC_TIME, FC_SHARE, FC_COUNT, FC_GPU, FC_NAME, FC_EVIDENCE };

static const struct tv_column columns[] = {
	[FC_RANK] = { N_("#"), N_("rank"), 3, 0, 0, TV_RIGHT, TV_NUMBER, 1, TV_MARK_REVERSED, NULL },
	[FC_ID] = { N_("FINDING"), N_("finding"), 12, 1, 0, TV_LEFT, TV_TEXT, 2, 0, NULL },
	[FC_TIME] = { NULL, N_("time at stake"), 10, 1, 0, TV_RIGHT, TV_NUMBER, 3, 0, "time_ns" },
	[FC_SHARE] = { NULL, N_("share"), 7, 1, 0, TV_RIGHT, TV_NUMBER, 4, 0, "share_percent" },
	[FC_COUNT] = { NULL, N_("count"), 7, 1, 100, TV_RIGHT, TV_NUMBER, 5, 0, "count" },
	[FC_GPU] = { N_("WHERE"), NULL, 12, 1, 0, TV_MID, TV_TEXT, 0, 0, NULL },
	[FC_NAME] = { N_("NAME"), NULL, TV_SHARE, 2, 0, TV_NAME, TV_TEXT, 0, TV_SCROLL, NULL },
	[FC_EVIDENCE] = { N_("EVIDENCE"), NULL, TV_REST, 2, 0, TV_LEFT, TV_TEXT, 0, TV_NO_FIND, NULL },
};

struct findings_src {
	struct findings f;
	size_t napis;  /* API rows the findings were made for */
	int apis_read; /* all of them */
};

/* Most rules read the calls: the findings wait for the API rows. */
static int findings_current(void *src, struct app *app)
{
	const struct findings_src *p = src;
	if (!app->trace->apis_read)
		app_need_apis(app);
	return p->napis == app->trace->apis.n && p->apis_read == app->trace->apis_read;
}

static void findings_release(void *src)
{
	struct findings_src *p = src;
	findings_free(&p->f);
}

static size_t findings_fill(void *src, struct app *app)
{
	struct findings_src *p = src;
	findings_release(p);
	p->napis = app->trace->apis.n;
	p->apis_read = app->trace->apis_read;
	if (!p->apis_read)
		return 0;
	findings_find(app->trace, app_sel(app), &app->analysis, app_order(app), &p->f);
	app->findings = (long)p->f.n;
	app->findings_generation = app->session->generation;
	return p->f.n;
}

static void findings_cells(void *src, size_t row, struct table_cell *cells)
{
	const struct findings_src *p = src;
	report_finding_cells(&p->f.v[row], row + 1, cells);
}

/* The rank: the findings come ranked. */
static int64_t findings_key(void *src, size_t row, int col)
{
	(void)src;
	(void)col;
	return -(int64_t)row;
}

/* Where: the GPU, the input, or the run. */
static const char *where(const struct trace *t, const struct finding *f, char *buf, size_t size)
{
	if (f->gpu != TRACE_NONE)
		return trace_gpu_label(t, f->gpu, buf, size);
	if (f->input != TRACE_NONE) {
		const char *slash = strrchr(t->inputs[f->input].path, '/');
		snprintf(buf, size, "%s", slash ? slash + 1 : t->inputs[f->input].path);
		return buf;
	}
	return _("the run");
}

static const char *findings_text(void *src, struct app *app, size_t row, int col, char *buf, size_t size)
{
	const struct findings_src *p = src;
	const struct finding *f = &p->f.v[row];
	switch (col) {
	case FC_RANK:
		snprintf(buf, size, "%zu", row + 1);
		return buf;
	case FC_ID:
		return finding_id_name(f->id);
	case FC_GPU:
		return where(app->trace, f, buf, size);
	case FC_EVIDENCE:
		return f->evidence;
	default:
		return "";
	}
}

static struct tv_name findings_name(void *src, struct app *app, size_t row, int col)
{
	const struct findings_src *p = src;
	uint32_t name = p->f.v[row].name;
	(void)app;
	(void)col;
	return name != TRACE_NONE ? (struct tv_name){ name, NULL, NULL }
				  : (struct tv_name){ TRACE_NONE, "", NULL };
}

static struct tv_ident findings_ident(void *src, size_t row)
{
	const struct findings_src *p = src;
	const struct finding *f = &p->f.v[row];
	return (struct tv_ident){ (uint64_t)f->id << 32 | f->gpu, (uint64_t)f->start };
}

/* A queue of the GPU, for the timeline to show a time on its lane. */
static uint32_t queue_of(const struct trace *t, uint32_t gpu)
{
	for (size_t q = 0; q < t->nqueues; q++)
		if (gpu == TRACE_NONE || t->queues[q].gpu == gpu)
			return (uint32_t)q;
	return 0;
}

/* The worst instance in the timeline; a step is made the window. */
static unsigned findings_enter(void *src, struct app *app, size_t row)
{
	const struct findings_src *p = src;
	if (row == SIZE_MAX)
		return ACT_NONE;
	const struct finding *f = &p->f.v[row];
	if (f->id == FINDING_slow_step || f->id == FINDING_warmup) {
		unsigned act = app_set_window_ns(app, f->start, f->end > f->start ? f->end : f->start + 1);
		return act | app_show_pane(app, (size_t)(REQ_VIEW_TIMELINE - REQ_VIEW_PROFILE));
	}
	return app_show_time_in_timeline(app, queue_of(app->trace, f->gpu), f->start,
					 f->end > f->start ? sat_sub(f->end, f->start) : 1);
}

static unsigned findings_details(void *src, struct app *app, size_t row)
{
	const struct findings_src *p = src;
	if (row == SIZE_MAX)
		return ACT_NONE;
	app_push(app, view_finding_new(app, &p->f.v[row], row + 1));
	return ACT_REDRAW;
}

static const char *findings_empty(void *src, struct app *app)
{
	(void)src;
	if (!app->trace->apis_read)
		return _("Reading the API calls...");
	return _("Nothing found above the thresholds");
}

static const struct tv_source_ops findings_source = { TV_ROWS(findings),          .text = findings_text,
						      .key = findings_key,        .name = findings_name,
						      .cells = findings_cells,    .current = findings_current,
						      .empty = findings_empty,    .enter = findings_enter,
						      .details = findings_details };

static const struct tv_spec findings_spec = { TV_VIEW("findings", N_("Findings")),
					      TV_COLS(columns),
					      .report = &report_findings,
					      .own_order = 1 + FC_RANK,
					      .empty_skip = 1,
					      .ops = &findings_source };

struct view pane_findings_new(struct app *app)
{
	(void)app;
	return tableview_new(&findings_spec, sizeof(struct findings_src));
}
