/* The instances of one roctx text, as -r steps lists them: each one's
 * number among all of them (marker:TEXT#N), start, duration, the GPUs'
 * busy time in it and its top kernel. s sorts by duration (the slow
 * steps first), busy share or number; Enter shows the instance in the
 * timeline, W makes it the time window. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/steps.h"
#include "session/named.h"
#include "tui/app.h"
#include "tui/draw.h"
#include "tui/filter_prompt.h"
#include "tui/panes.h"
#include "tui/tablenav.h"
#include "tui/theme.h"
#include "util/i18n.h"
#include "util/sort.h"
#include "util/units.h"
#include "util/xalloc.h"

enum step_sort { BY_NUMBER, BY_DURATION, BY_BUSY, BY_SHARE, NSORTS };

static const char *const sort_names[NSORTS] = { N_("number"), N_("duration"), N_("GPU busy time"),
						N_("busy share") };

struct steps_view {
	uint32_t text;
	struct steps steps;
	size_t *order;
	struct tablenav nav;
	enum step_sort sort;
	int reverse;
	int ready;
	unsigned generation;
};

static int64_t sort_key(const struct step_row *r, enum step_sort s)
{
	switch (s) {
	case BY_DURATION:
		return r->dur;
	case BY_BUSY:
		return r->busy;
	case BY_SHARE:
		return (int64_t)(step_busy_percent(r) * 1e6);
	default:
		return -(int64_t)r->number; /* first first */
	}
}

static int compare(const void *a, const void *b, void *ctx)
{
	const struct steps_view *s = ctx;
	const struct step_row *x = &s->steps.rows[*(const size_t *)a],
			      *y = &s->steps.rows[*(const size_t *)b];
	int64_t kx = sort_key(x, s->sort), ky = sort_key(y, s->sort);
	int c = kx > ky ? -1 : kx < ky ? 1 : (x->number > y->number) - (x->number < y->number);
	return s->reverse ? -c : c;
}

static void sort_rows(struct steps_view *s)
{
	size_t current = s->steps.n ? s->order[s->nav.cursor] : 0;
	sort_with(s->order, s->steps.n, sizeof(*s->order), compare, s);
	for (size_t i = 0; i < s->steps.n; i++)
		if (s->order[i] == current)
			s->nav.cursor = i;
}

static void ensure_ready(struct steps_view *s, struct app *app)
{
	if (s->ready && s->generation == app_generation(app))
		return;
	const struct trace *t = app->trace;
	uint8_t *pass = xcalloc(t->strings.count ? t->strings.count : 1, 1);
	size_t n;
	if (s->text < t->strings.count)
		pass[s->text] = 1;
	uint32_t *rows = named_marker_rows(t, pass, &n);
	free(pass);
	steps_free(&s->steps);
	free(s->order);
	steps_find(t, app_sel(app), rows, n, &s->steps);
	free(rows);
	s->order = xmalloc_array(s->steps.n ? s->steps.n : 1, sizeof(*s->order));
	for (size_t i = 0; i < s->steps.n; i++)
		s->order[i] = i;
	s->nav.n = s->steps.n;
	s->nav.cursor = 0;
	s->ready = 1;
	s->generation = app_generation(app);
	sort_rows(s);
}

enum { W_NUM = 6, W_START = 12, W_DUR = 10, W_BUSY = 10, W_PCT = 7 };

static void draw_header(struct steps_view *s, struct app *app, int y, int width)
{
	const struct glyphs *g = glyphs();
	const char *arrow = s->reverse ? g->sort_up : g->sort_down;
	attr_t a = theme_attr(THEME_HEADER);
	char buf[256];
	int x = 0;
	draw_fill(stdscr, y, 0, width, a);
	snprintf(buf, sizeof(buf), P_("%zu instance of %s", "%zu instances of %s", s->steps.n), s->steps.n,
		 app_name(app, s->text));
	draw_text(stdscr, y, 0, width, buf, theme_attr(THEME_LABEL));
	y++;
	draw_fill(stdscr, y, 0, width, a);
	const struct {
		const char *title;
		int width;
		enum step_sort sort;
	} cols[] = { { N_("#"), W_NUM, BY_NUMBER },
		     { N_("START"), W_START, NSORTS },
		     { N_("DURATION"), W_DUR, BY_DURATION },
		     { N_("GPU BUSY"), W_BUSY, BY_BUSY },
		     { N_("BUSY%"), W_PCT, BY_SHARE } };
	for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++) {
		snprintf(buf, sizeof(buf), "%s%s", cols[c].sort == s->sort ? arrow : "", _(cols[c].title));
		draw_text_right(stdscr, y, x, cols[c].width, buf, a);
		x += cols[c].width + 1;
	}
	draw_text(stdscr, y, x + 1, width - x - 1, _("TOP KERNEL"), a);
}

static void draw_row(struct steps_view *s, struct app *app, size_t i, int y, int width)
{
	const struct step_row *r = &s->steps.rows[s->order[i]];
	attr_t a = theme_attr(i == s->nav.cursor ? THEME_CURSOR : THEME_NORMAL);
	char buf[UNITS_BUFSZ + 8];
	int x = 0;
	draw_fill(stdscr, y, 0, width, a);
	snprintf(buf, sizeof(buf), "%zu", r->number);
	draw_text_right(stdscr, y, x, W_NUM, buf, a);
	x += W_NUM + 1;
	units_format_relative(r->start - app->trace->op_first_start, 10000, buf, sizeof(buf));
	draw_text_right(stdscr, y, x, W_START, buf, a);
	x += W_START + 1;
	draw_text_right(stdscr, y, x, W_DUR, units_format_ns(r->dur, buf, sizeof(buf)), a);
	x += W_DUR + 1;
	draw_text_right(stdscr, y, x, W_BUSY, units_format_ns(r->busy, buf, sizeof(buf)), a);
	x += W_BUSY + 1;
	snprintf(buf, sizeof(buf), "%.2f", step_busy_percent(r));
	draw_text_right(stdscr, y, x, W_PCT, buf, a);
	x += W_PCT + 1;
	if (r->top_kernel != TRACE_NONE)
		draw_text(stdscr, y, x + 1, width - x - 1, app_name(app, r->top_kernel), a);
}

static void steps_draw(struct view *v, struct app *app, int y, int height, int width)
{
	struct steps_view *s = v->data;
	ensure_ready(s, app);
	draw_header(s, app, y, width);
	tablenav_fit(&s->nav, height - 2);
	if (s->steps.n == 0) {
		draw_text(stdscr, y + 3, 2, width - 2, _("No instance is in view"), theme_attr(THEME_DIM));
		return;
	}
	for (int row = 0; row < height - 2 && s->nav.top + (size_t)row < s->steps.n; row++)
		draw_row(s, app, s->nav.top + (size_t)row, y + 2 + row, width);
}

static unsigned steps_request(struct view *v, struct app *app, enum request req)
{
	struct steps_view *s = v->data;
	ensure_ready(s, app);
	const struct step_row *r = s->steps.n ? &s->steps.rows[s->order[s->nav.cursor]] : NULL;
	switch (req) {
	case REQ_SORT_NEXT:
	case REQ_SORT_REVERSE:
		if (req == REQ_SORT_NEXT) {
			s->sort = (enum step_sort)((s->sort + 1) % NSORTS);
			s->reverse = 0;
		} else {
			s->reverse = !s->reverse;
		}
		sort_rows(s);
		app_message(app, 0, _("Sorted by %s, %s"), _(sort_names[s->sort]),
			    s->reverse ? _("reversed") : _("normal order"));
		return ACT_REDRAW;
	case REQ_ENTER:
		return r ? app_show_call_in_timeline(app, r->api) : ACT_NONE;
	case REQ_WINDOW:
		if (!r)
			return ACT_NONE;
		/* A range of no duration: a window of one nanosecond. */
		return app_set_window_ns(app, r->start, r->start + (r->dur > 0 ? r->dur : 1));
	case REQ_DETAILS:
		return ACT_NONE;
	default:
		return tablenav_request(&s->nav, req);
	}
}

static unsigned steps_click(struct view *v, struct app *app, int row, int col, int button)
{
	struct steps_view *s = v->data;
	(void)col;
	ensure_ready(s, app);
	return row < 2 ? ACT_NONE : tablenav_click(&s->nav, row - 2, button);
}

static void steps_free_view(struct view *v)
{
	struct steps_view *s = v->data;
	steps_free(&s->steps);
	free(s->order);
	free(s);
}

static const struct view_ops steps_ops = {
	.name = "steps",
	.title = N_("Instances"),
	.draw = steps_draw,
	.request = steps_request,
	.click = steps_click,
	.free = steps_free_view,
};

struct view view_steps_new(struct app *app, uint32_t text)
{
	struct steps_view *s = xcalloc(1, sizeof(*s));
	(void)app;
	s->text = text;
	return (struct view){ &steps_ops, s };
}
