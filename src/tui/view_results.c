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
#include "tui/tablenav.h"
#include "tui/theme.h"
#include "util/i18n.h"
#include "util/units.h"
#include "util/xalloc.h"

enum results_sort { BY_START, BY_DURATION, SORT_KEYS };

static const char *const sort_names[SORT_KEYS] = { N_("start"), N_("duration") };

#define START_W 13
#define DUR_W 10
#define LANE_W 18

struct results {
	char title[512];
	struct search_query q;
	struct filter pattern; /* q.pattern points here when there is one */
	struct search_result res;
	uint32_t *order; /* res.refs in the order shown */
	enum results_sort sort;
	int reverse;
	int ready, failed;
	unsigned generation, style; /* what the list was made for */
	struct tablenav nav;
};

static const char *shown_name(void *ctx, uint32_t id)
{
	return app_name(ctx, id);
}

static void put_in_order(struct results *r, const struct trace *t)
{
	if (r->res.n) /* none found: no list to copy (it may be NULL) */
		memcpy(r->order, r->res.refs, r->res.n * sizeof(*r->order));
	if (r->sort == BY_DURATION)
		search_sort_by_duration(t, r->order, r->res.n);
}

/* Make the list (again), keeping the cursor on its event when it stays. */
static void ensure_ready(struct results *r, struct app *app)
{
	if (r->ready && r->generation == app_generation(app) && r->style == app->names.style)
		return;
	uint32_t current = r->ready && r->res.n ? r->order[r->nav.cursor] : TRACE_NONE;
	search_free(&r->res);
	free(r->order);
	r->q.op_name = shown_name;
	r->q.ctx = app;
	r->failed = search_run(app->trace, app_sel(app), &r->q, &r->res) != 0;
	r->order = xmalloc_huge(r->res.n ? r->res.n : 1, sizeof(*r->order));
	put_in_order(r, app->trace);
	r->nav.n = r->res.n;
	r->nav.cursor = 0;
	for (size_t i = 0; i < r->res.n && current != TRACE_NONE; i++)
		if (r->order[i] == current)
			r->nav.cursor = r->reverse ? r->res.n - 1 - i : i;
	r->ready = 1;
	r->generation = app_generation(app);
	r->style = app->names.style;
}

/* The event at display position i. */
static uint32_t at(const struct results *r, size_t i)
{
	return r->order[r->reverse ? r->res.n - 1 - i : i];
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

/* A time from the first op, "+1.20 ms" (as the timeline's ruler). */
static void relative(int64_t ns, char *buf, size_t size)
{
	char u[UNITS_BUFSZ];
	snprintf(buf, size, "%s%s", ns < 0 ? "-" : "+", units_format_ns(ns < 0 ? -ns : ns, u, sizeof(u)));
}

static void draw_header(struct results *r, int y, int width)
{
	const struct glyphs *g = glyphs();
	attr_t a = theme_attr(THEME_HEADER);
	const char *arrow = r->reverse ? g->sort_up : g->sort_down;
	char start[32], dur[32];
	snprintf(start, sizeof(start), "%s%s", r->sort == BY_START ? arrow : "", _("START"));
	snprintf(dur, sizeof(dur), "%s%s", r->sort == BY_DURATION ? arrow : "", _("DURATION"));
	draw_fill(stdscr, y, 0, width, a);
	draw_text_right(stdscr, y, 0, START_W, start, a);
	draw_text_right(stdscr, y, START_W + 1, DUR_W, dur, a);
	draw_text(stdscr, y, START_W + DUR_W + 3, LANE_W, _("LANE"), a);
	draw_text(stdscr, y, START_W + DUR_W + LANE_W + 4, width - (START_W + DUR_W + LANE_W + 4), _("NAME"),
		  a);
}

static void draw_row(struct results *r, struct app *app, size_t i, int y, int width)
{
	const struct trace *t = app->trace;
	uint32_t ref = at(r, i), name = search_name(t, ref);
	attr_t a = theme_attr(i == r->nav.cursor ? THEME_CURSOR : THEME_NORMAL);
	char start[UNITS_BUFSZ + 2], dur[UNITS_BUFSZ], lane[160];
	int64_t s = search_start(t, ref);
	relative(s - t->op_first_start, start, sizeof(start));
	units_format_ns(search_end(t, ref) - s, dur, sizeof(dur));
	lane_label(t, ref, lane, sizeof(lane));
	draw_fill(stdscr, y, 0, width, a);
	draw_text_right(stdscr, y, 0, START_W, start, a);
	draw_text_right(stdscr, y, START_W + 1, DUR_W, dur, a);
	draw_text_mid(stdscr, y, START_W + DUR_W + 3, LANE_W, lane, a);
	/* A call's name is its own or a roctx text, shown whole. */
	const char *shown = search_is_call(ref) ? trace_str(t, name) : app_name(app, name);
	int x = START_W + DUR_W + LANE_W + 4;
	draw_text(stdscr, y, x, width - x, shown, a);
}

static void results_draw(struct view *v, struct app *app, int y, int height, int width)
{
	struct results *r = v->data;
	char line[768];
	ensure_ready(r, app);
	if (r->failed)
		snprintf(line, sizeof(line), "%s", _("The trace has too many rows to list"));
	else
		snprintf(line, sizeof(line),
			 P_("%zu instance (%zu GPU ops, %zu API calls): %s",
			    "%zu instances (%zu GPU ops, %zu API calls): %s", r->res.n),
			 r->res.n, r->res.nops, r->res.ncalls, r->title);
	draw_text(stdscr, y, 1, width - 1, line, theme_attr(THEME_LABEL));
	draw_header(r, y + 1, width);
	tablenav_fit(&r->nav, height - 2);
	if (r->res.n == 0) {
		draw_text(stdscr, y + 3, 2, width - 2, _("Nothing in view matches"), theme_attr(THEME_DIM));
		return;
	}
	for (int row = 0; row < height - 2 && r->nav.top + (size_t)row < r->res.n; row++)
		draw_row(r, app, r->nav.top + (size_t)row, y + 2 + row, width);
}

static unsigned sort_again(struct results *r, struct app *app, int next)
{
	uint32_t current = r->res.n ? at(r, r->nav.cursor) : TRACE_NONE;
	if (next) {
		r->sort = (enum results_sort)((r->sort + 1) % SORT_KEYS);
		r->reverse = 0;
		put_in_order(r, app->trace);
		app_message(app, 0, _("Sorted by %s"), _(sort_names[r->sort]));
	} else {
		r->reverse = !r->reverse;
		app_message(app, 0, _("Sorted by %s, %s"), _(sort_names[r->sort]),
			    r->reverse ? _("reversed") : _("normal order"));
	}
	for (size_t i = 0; i < r->res.n; i++)
		if (at(r, i) == current)
			r->nav.cursor = i;
	return ACT_REDRAW;
}

static unsigned results_request(struct view *v, struct app *app, enum request req)
{
	struct results *r = v->data;
	ensure_ready(r, app);
	switch (req) {
	case REQ_SORT_NEXT:
		return sort_again(r, app, 1);
	case REQ_SORT_REVERSE:
		return sort_again(r, app, 0);
	case REQ_ENTER: {
		if (r->res.n == 0)
			return ACT_NONE;
		uint32_t ref = at(r, r->nav.cursor);
		return search_is_call(ref) ? app_show_call_in_timeline(app, search_row(ref))
					   : app_show_in_timeline(app, ref);
	}
	default:
		return tablenav_request(&r->nav, req);
	}
}

static unsigned results_click(struct view *v, struct app *app, int row, int col, int button)
{
	struct results *r = v->data;
	(void)col;
	ensure_ready(r, app);
	return row < 2 ? ACT_NONE : tablenav_click(&r->nav, row - 2, button);
}

static void results_free(struct view *v)
{
	struct results *r = v->data;
	search_free(&r->res);
	filter_free(&r->pattern);
	free(r->order);
	free(r);
}

/* The list is made between events, before the screen is drawn. */
static unsigned results_idle(struct view *v, struct app *app)
{
	struct results *r = v->data;
	int current = r->ready && r->generation == app_generation(app) && r->style == app->names.style;
	ensure_ready(r, app);
	return current ? ACT_NONE : ACT_REDRAW;
}

static const struct view_ops results_ops = {
	.name = "results",
	.title = N_("Instances"),
	.draw = results_draw,
	.request = results_request,
	.click = results_click,
	.free = results_free,
	.idle = results_idle,
};

struct view view_results_new(struct app *app, const char *title, const struct search_query *q,
			     const struct search_result *found)
{
	struct results *r = xcalloc(1, sizeof(*r));
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
		r->order = xmalloc_huge(found->n ? found->n : 1, sizeof(*r->order));
		put_in_order(r, app->trace);
		r->nav.n = r->res.n;
		r->ready = 1;
		r->generation = app_generation(app);
		r->style = app->names.style;
	}
	return (struct view){ &results_ops, r };
}
