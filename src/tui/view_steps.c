/* The instances of one roctx text, as -r steps lists them: each one's
 * number among all of them (marker:TEXT#N), start, duration, the GPUs'
 * busy time in it and its top kernel. s sorts by duration (the slow
 * steps first), busy time, busy share or number; Enter shows the
 * instance in the timeline, W makes it the time window. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/search.h"
#include "analysis/steps.h"
#include "session/named.h"
#include "tui/app.h"
#include "tui/draw.h"
#include "tui/filter_prompt.h"
#include "tui/panes.h"
#include "tui/tableview.h"
#include "tui/theme.h"
#include "util/i18n.h"
#include "util/units.h"
#include "util/xalloc.h"

enum { W_NUM = 6, W_START = 12, W_DUR = 10, W_BUSY = 10, W_PCT = 7 };

enum { SC_NUMBER, SC_START, SC_DURATION, SC_BUSY, SC_SHARE, SC_KERNEL };

static const struct tv_column columns[] = {
	[SC_NUMBER] = { N_("#"), N_("number"), W_NUM, 0, 0, TV_RIGHT, TV_NUMBER, 1, 0, NULL },
	[SC_START] = { N_("START"), NULL, W_START, 1, 0, TV_RIGHT, TV_NUMBER, 0, 0, NULL },
	[SC_DURATION] = { N_("DURATION"), N_("duration"), W_DUR, 1, 0, TV_RIGHT, TV_NUMBER, 2, 0, NULL },
	[SC_BUSY] = { N_("GPU BUSY"), N_("GPU busy time"), W_BUSY, 1, 0, TV_RIGHT, TV_NUMBER, 3, 0, NULL },
	[SC_SHARE] = { N_("BUSY%"), N_("busy share"), W_PCT, 1, 0, TV_RIGHT, TV_NUMBER, 4, 0, NULL },
	[SC_KERNEL] = { N_("TOP KERNEL"), NULL, TV_REST, 2, 0, TV_NAME, TV_TEXT, 0, TV_SCROLL, NULL },
};

struct steps_src {
	uint32_t text;
	struct steps steps;
};

static size_t steps_fill(void *src, struct app *app)
{
	struct steps_src *s = src;
	const struct trace *t = app->trace;
	uint8_t *pass = xcalloc(t->strings.count ? t->strings.count : 1, 1);
	size_t n;
	if (s->text < t->strings.count)
		pass[s->text] = 1;
	uint32_t *rows = named_marker_rows(t, pass, &n);
	free(pass);
	steps_free(&s->steps);
	steps_find(t, app_sel(app), rows, n, &s->steps);
	free(rows);
	return s->steps.n;
}

static void steps_release(void *src)
{
	struct steps_src *s = src;
	steps_free(&s->steps);
}

/* The first instance first; shares in millionths of a percent. */
static int64_t steps_key(void *src, size_t row, int col)
{
	const struct steps_src *s = src;
	const struct step_row *r = &s->steps.rows[row];
	switch (col) {
	case SC_DURATION:
		return r->dur;
	case SC_BUSY:
		return r->busy;
	case SC_SHARE:
		return (int64_t)(step_busy_percent(r) * 1e6);
	case SC_START:
		return -r->start;
	default:
		return -(int64_t)r->number;
	}
}

static const char *steps_text(void *src, struct app *app, size_t row, int col, char *buf, size_t size)
{
	const struct steps_src *s = src;
	const struct step_row *r = &s->steps.rows[row];
	switch (col) {
	case SC_NUMBER:
		snprintf(buf, size, "%zu", r->number);
		return buf;
	case SC_START:
		return units_format_relative(r->start - app->trace->op_first_start, 10000, buf, size);
	case SC_SHARE:
		snprintf(buf, size, "%.2f", step_busy_percent(r));
		return buf;
	default:
		return units_format_ns(steps_key(src, row, col), buf, size);
	}
}

/* The kernel that ran longest in the instance, if any ran. */
static struct tv_name steps_name(void *src, struct app *app, size_t row, int col)
{
	const struct steps_src *s = src;
	uint32_t kernel = s->steps.rows[row].top_kernel;
	(void)app;
	(void)col;
	return kernel != TRACE_NONE ? (struct tv_name){ kernel, NULL, NULL }
				    : (struct tv_name){ TRACE_NONE, "", NULL };
}

static int steps_tie(void *src, struct app *app, size_t a, size_t b)
{
	const struct steps_src *s = src;
	size_t x = s->steps.rows[a].number, y = s->steps.rows[b].number;
	(void)app;
	return (x > y) - (x < y);
}

static struct tv_ident steps_ident(void *src, size_t row)
{
	const struct steps_src *s = src;
	return (struct tv_ident){ s->steps.rows[row].number, 0 };
}

static int steps_draw_top(void *src, struct app *app, int y, int height, int width)
{
	const struct steps_src *s = src;
	char buf[256];
	(void)height;
	draw_fill(stdscr, y, 0, width, theme_attr(THEME_HEADER));
	snprintf(buf, sizeof(buf), P_("%zu instance of %s", "%zu instances of %s", s->steps.n), s->steps.n,
		 app_name(app, s->text));
	draw_text(stdscr, y, 0, width, buf, theme_attr(THEME_LABEL));
	return 1;
}

/* The instance in the timeline, where n and N then walk the others. */
static unsigned steps_enter(void *src, struct app *app, size_t row)
{
	const struct steps_src *s = src;
	return app_walk_in_timeline(app, s->steps.rows[row].api | SEARCH_CALL);
}

/* W: the instance becomes the time window (one of no duration: a window
 * of one nanosecond). */
static unsigned steps_request(void *src, struct app *app, size_t row, enum request req)
{
	const struct steps_src *s = src;
	if (req != REQ_WINDOW)
		return ACT_UNHANDLED;
	if (row == SIZE_MAX)
		return ACT_NONE;
	const struct step_row *r = &s->steps.rows[row];
	return app_set_window_ns(app, r->start, r->start + (r->dur > 0 ? r->dur : 1));
}

static const struct tv_source_ops steps_source = { TV_ROWS(steps),       .text = steps_text,
						   .name = steps_name,   .key = steps_key,
						   .tie = steps_tie,     .draw_top = steps_draw_top,
						   .enter = steps_enter, .request = steps_request };

static const struct tv_spec steps_spec = {
	TV_VIEW("steps", N_("Instances")),     TV_COLS(columns),    .first_sort = SC_NUMBER, .empty_skip = 1,
	.empty = N_("No instance is in view"), .ops = &steps_source
};

struct view view_steps_new(struct app *app, uint32_t text)
{
	struct view v = tableview_new(&steps_spec, sizeof(struct steps_src));
	struct steps_src *s = tableview_source(&v);
	(void)app;
	s->text = text;
	return v;
}
