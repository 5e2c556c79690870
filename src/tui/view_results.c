/* A list of instances: what a search in the timeline matched, what a
 * bucket of a histogram holds, what a name ran in a range. One row per
 * event (start, duration, lane, name), by start or by duration; Enter
 * shows the event in the timeline. The list is made again when the
 * filter, the window or the name style changes. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/search.h"
#include "tui/app.h"
#include "tui/draw.h"
#include "tui/panes.h"
#include "tui/tableview.h"
#include "tui/theme.h"
#include "util/i18n.h"
#include "util/units.h"
#include "util/xalloc.h"

#define START_W 13
#define DUR_W 10
#define LANE_W 18

enum { RC_START, RC_DURATION, RC_LANE, RC_NAME };

static const struct tv_column columns[] = {
	[RC_START] = { N_("START"), N_("start"), START_W, 0, 0, TV_RIGHT, TV_NUMBER, 1, 0, NULL },
	[RC_DURATION] = { N_("DURATION"), N_("duration"), DUR_W, 1, 0, TV_RIGHT, TV_NUMBER, 2, 0, NULL },
	[RC_LANE] = { N_("LANE"), NULL, LANE_W, 2, 0, TV_MID, TV_TEXT, 0, 0, NULL },
	[RC_NAME] = { N_("NAME"), NULL, TV_REST, 1, 0, TV_NAME, TV_TEXT, 0, TV_SCROLL, NULL },
};

struct results {
	char title[512];
	struct search_query q;
	struct filter pattern; /* q.pattern points here when there is one */
	struct search_result res;
	const struct trace *t; /* the trace its refs point into */
	int found;             /* res was found when the view opened: no search the first time */
	int failed;            /* too many rows to list */
	unsigned style;        /* the names it was made for */
};

static const char *shown_name(void *ctx, uint32_t id)
{
	return app_name(ctx, id);
}

/* The list depends on the names as shown: the query may match them. */
static int results_current(void *src, struct app *app)
{
	const struct results *r = src;
	return r->style == app->names.style;
}

static size_t results_fill(void *src, struct app *app)
{
	struct results *r = src;
	r->style = app->names.style;
	r->t = app->trace;
	if (r->found) {
		r->found = 0;
		return r->res.n;
	}
	search_free(&r->res);
	r->q.op_name = shown_name;
	r->q.ctx = app;
	r->failed = search_run(app->trace, app_sel(app), &r->q, &r->res) != 0;
	return r->res.n;
}

static void results_release(void *src)
{
	struct results *r = src;
	search_free(&r->res);
	filter_free(&r->pattern);
}

static int64_t results_key(void *src, size_t row, int col)
{
	const struct results *r = src;
	const struct trace *t = r->t;
	uint32_t ref = r->res.refs[row];
	return col == RC_START ? -search_start(t, ref) : search_end(t, ref) - search_start(t, ref);
}

/* "GPU 0 q1", or a thread's "pid/tid". */
static void lane_label(const struct trace *t, uint32_t ref, char *buf, size_t size)
{
	char gpu[96], queue[96];
	if (search_is_call(ref)) {
		trace_thread_label(t, t->apis.thread[search_row(ref)], buf, size);
		return;
	}
	uint32_t q = t->ops.queue[ref];
	trace_gpu_label(t, t->queues[q].gpu, gpu, sizeof(gpu));
	snprintf(buf, size, "GPU %s %s", gpu, trace_queue_label(t, q, queue, sizeof(queue)));
}

static const char *results_text(void *src, struct app *app, size_t row, int col, char *buf, size_t size)
{
	const struct results *r = src;
	const struct trace *t = app->trace;
	uint32_t ref = r->res.refs[row];
	int64_t s = search_start(t, ref) - t->op_first_start;
	char u[UNITS_BUFSZ];
	switch (col) {
	case RC_START: /* from the first op, as the timeline's ruler */
		snprintf(buf, size, "%s%s", s < 0 ? "-" : "+", units_format_ns(s < 0 ? -s : s, u, sizeof(u)));
		return buf;
	case RC_DURATION:
		return units_format_ns(search_end(t, ref) - search_start(t, ref), buf, size);
	default:
		lane_label(t, ref, buf, size);
		return buf;
	}
}

/* An op's name, a call's own or its roctx text. */
static struct tv_name results_name(void *src, struct app *app, size_t row, int col)
{
	const struct results *r = src;
	(void)col;
	return (struct tv_name){ search_name(app->trace, r->res.refs[row]), NULL, NULL };
}

static struct tv_ident results_ident(void *src, size_t row)
{
	const struct results *r = src;
	return (struct tv_ident){ r->res.refs[row], 0 };
}

static int results_draw_top(void *src, struct app *app, int y, int height, int width)
{
	const struct results *r = src;
	char line[768];
	(void)app;
	(void)height;
	if (r->failed)
		snprintf(line, sizeof(line), "%s", _("The trace has too many rows to list"));
	else
		snprintf(line, sizeof(line),
			 P_("%zu instance (%zu GPU ops, %zu API calls): %s",
			    "%zu instances (%zu GPU ops, %zu API calls): %s", r->res.n),
			 r->res.n, r->res.nops, r->res.ncalls, r->title);
	draw_text(stdscr, y, 1, width - 1, line, theme_attr(THEME_LABEL));
	return 1;
}

static unsigned results_enter(void *src, struct app *app, size_t row)
{
	const struct results *r = src;
	uint32_t ref = r->res.refs[row];
	return search_is_call(ref) ? app_show_call_in_timeline(app, search_row(ref))
				   : app_show_in_timeline(app, ref);
}

static const struct tv_source_ops results_source = { TV_ROWS(results),           .text = results_text,
						     .name = results_name,       .key = results_key,
						     .current = results_current, .draw_top = results_draw_top,
						     .enter = results_enter };

/* Rows come by start: that order is theirs. */
static const struct tv_spec results_spec = { TV_VIEW("results", N_("Instances")),
					     TV_COLS(columns),
					     .first_sort = RC_START,
					     .own_order = 1 + RC_START,
					     .empty_skip = 1,
					     .empty = N_("Nothing in view matches"),
					     .ops = &results_source };

struct view view_results_new(struct app *app, const char *title, const struct search_query *q,
			     const struct search_result *found)
{
	struct view v = tableview_new(&results_spec, sizeof(struct results));
	struct results *r = tableview_source(&v);
	snprintf(r->title, sizeof(r->title), "%s", title);
	r->q = *q;
	filter_init(&r->pattern);
	if (q->pattern) {
		filter_copy(q->pattern, &r->pattern);
		r->q.pattern = &r->pattern;
	}
	/* Found already, in the selection as it is: a copy, not a search. */
	if (found) {
		r->res = *found;
		r->res.refs = xmalloc_huge(found->n ? found->n : 1, sizeof(*r->res.refs));
		memcpy(r->res.refs, found->refs, found->n * sizeof(*r->res.refs));
		r->found = 1;
	}
	(void)app;
	return v;
}
