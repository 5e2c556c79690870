/* The gaps of the GPUs: each GPU's time breakdown (as -r breakdown) and
 * idle time by cause (as -r idle) above the list of its gaps, longest
 * first (as -r gaps), from the same analyses. Enter shows a gap in the
 * timeline. Everything is made again, between keys, when the filter or
 * the window changes. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/breakdown.h"
#include "analysis/gaps.h"
#include "session/window.h"
#include "tui/app.h"
#include "tui/draw.h"
#include "tui/panes.h"
#include "tui/tablenav.h"
#include "tui/theme.h"
#include "tui/timeline/facts.h"
#include "util/i18n.h"
#include "util/satmath.h"
#include "util/sort.h"
#include "util/units.h"
#include "util/xalloc.h"

enum gaps_sort { BY_LENGTH, BY_START, SORT_KEYS };

static const char *const sort_names[SORT_KEYS] = { N_("length"), N_("start") };

#define GPU_W 9
#define NUM_W 9 /* "123.45 ms": seven columns of them fit in 80 */
#define START_W 13
#define CAUSE_W 12

struct gaps_view {
	struct gaps g;
	struct breakdown b;
	uint32_t *order; /* g.gaps in the order shown */
	enum gaps_sort sort;
	int reverse;
	int ready;
	unsigned generation;
	int64_t threshold; /* what it was made for, with the generation */
	struct tablenav nav;
	int list_row; /* the list's first row in the view, as drawn */
};

static int by_start(const void *a, const void *b, void *ctx)
{
	const struct gap *g = ctx, *x = &g[*(const uint32_t *)a], *y = &g[*(const uint32_t *)b];
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (*(const uint32_t *)a > *(const uint32_t *)b) - (*(const uint32_t *)a < *(const uint32_t *)b);
}

/* The analyses give the gaps longest first: the order by length. */
static void put_in_order(struct gaps_view *r)
{
	for (size_t i = 0; i < r->g.n; i++)
		r->order[i] = (uint32_t)i;
	if (r->sort == BY_START)
		sort_with(r->order, r->g.n, sizeof(*r->order), by_start, r->g.gaps);
}

static const struct gap *at(const struct gaps_view *r, size_t i)
{
	return &r->g.gaps[r->order[r->reverse ? r->g.n - 1 - i : i]];
}

/* Made again for a new selection, the cursor kept on its gap when it
 * stays. */
static int current(const struct gaps_view *r, const struct app *app)
{
	return r->ready && r->generation == app_generation(app) && r->threshold == app->gap_threshold;
}

static void ensure_ready(struct gaps_view *r, struct app *app)
{
	if (current(r, app))
		return;
	struct gap current = { 0 };
	int had = r->ready && r->g.n;
	if (had)
		current = *at(r, r->nav.cursor);
	gaps_free(&r->g);
	breakdown_free(&r->b);
	free(r->order);
	struct gaps_params p = { .threshold = app->gap_threshold, .keep = SIZE_MAX };
	gaps_find(app->trace, app_sel(app), &p, &r->g);
	breakdown_per_gpu(app->trace, app_sel(app), &app->comm, &r->b);
	r->order = xmalloc_huge(r->g.n ? r->g.n : 1, sizeof(*r->order));
	put_in_order(r);
	r->nav.n = r->g.n;
	r->nav.cursor = 0;
	for (size_t i = 0; i < r->g.n && had; i++)
		if (at(r, i)->lane == current.lane && at(r, i)->start == current.start)
			r->nav.cursor = i;
	r->ready = 1;
	r->generation = app_generation(app);
	r->threshold = app->gap_threshold;
}

static void gpu_text(const struct trace *t, uint32_t gpu, char *buf, size_t size)
{
	char label[96];
	snprintf(buf, size, "GPU %s", trace_gpu_label(t, gpu, label, sizeof(label)));
}

/* A row of right-aligned columns after the GPU's label. */
static void draw_cells(int y, int width, const char *first, const char *const *cells, int n, attr_t a)
{
	draw_fill(stdscr, y, 0, width, a);
	draw_text(stdscr, y, 1, GPU_W - 1, first, a);
	for (int i = 0; i < n; i++)
		if (GPU_W + i * (NUM_W + 1) + NUM_W <= width)
			draw_text_right(stdscr, y, GPU_W + i * (NUM_W + 1), NUM_W, cells[i], a);
}

#define NB 7
#define NI 7

static int draw_breakdown(struct gaps_view *r, struct app *app, int y, int rows, int width)
{
	static const char *const head[NB] = { N_("SPAN"), N_("COMPUTE"),  N_("COMM"),   N_("COPIES"),
					      N_("IDLE"), N_("EXP.COMM"), N_("OVERLAP") };
	const char *h[NB];
	int used = 0;
	for (int i = 0; i < NB; i++)
		h[i] = _(head[i]);
	if (rows <= used)
		return used;
	draw_cells(y + used++, width, _("GPU"), h, NB, theme_attr(THEME_HEADER));
	for (size_t k = 0; k < r->b.n && used < rows; k++) {
		const struct breakdown_row *b = &r->b.rows[k];
		char c[NB][UNITS_BUFSZ], gpu[112];
		const char *cells[NB];
		const int64_t v[NB - 1] = { b->span, b->compute, b->comm, b->copy, b->idle, b->exposed_comm };
		for (int i = 0; i < NB - 1; i++)
			cells[i] = units_format_ns(v[i], c[i], sizeof(c[i]));
		snprintf(c[NB - 1], sizeof(c[NB - 1]), "%.1f%%", 100.0 * b->overlap_ratio);
		cells[NB - 1] = c[NB - 1];
		gpu_text(app->trace, b->gpu, gpu, sizeof(gpu));
		draw_cells(y + used++, width, gpu, cells, NB, theme_attr(THEME_NORMAL));
	}
	return used;
}

static int draw_idle(struct gaps_view *r, struct app *app, int y, int rows, int width)
{
	static const char *const head[NI] = { N_("BUSY"),      N_("IDLE"),  N_("GAPS"),   N_("HOST WAIT"),
					      N_("KERN.WAIT"), N_("OTHER"), N_("MAX GAP") };
	const char *h[NI];
	int used = 0;
	for (int i = 0; i < NI; i++)
		h[i] = _(head[i]);
	if (rows <= used)
		return used;
	draw_cells(y + used++, width, _("GPU"), h, NI, theme_attr(THEME_HEADER));
	for (size_t k = 0; k < r->g.nlanes && used < rows; k++) {
		const struct gap_lane *l = &r->g.lanes[k];
		char c[NI][UNITS_BUFSZ], gpu[112];
		const char *cells[NI];
		const int64_t v[NI] = { l->busy,
					gap_lane_span(l) - l->busy,
					0,
					l->cause_ns[GAP_HOST_WAIT],
					l->cause_ns[GAP_KERNEL_WAIT],
					l->cause_ns[GAP_OTHER],
					l->max_gap };
		for (int i = 0; i < NI; i++)
			cells[i] = units_format_ns(v[i], c[i], sizeof(c[i]));
		snprintf(c[2], sizeof(c[2]), "%llu", (unsigned long long)l->ngaps);
		gpu_text(app->trace, l->lane, gpu, sizeof(gpu));
		draw_cells(y + used++, width, gpu, cells, NI, theme_attr(THEME_NORMAL));
	}
	return used;
}

/* The names' columns share what the others leave. */
static int name_w(int width)
{
	int rest = width - (GPU_W + START_W + NUM_W + CAUSE_W + 4);
	return rest > 2 ? rest / 2 : 1;
}

static void draw_gaps_header(struct gaps_view *r, int y, int width)
{
	const struct glyphs *g = glyphs();
	attr_t a = theme_attr(THEME_HEADER);
	const char *arrow = r->reverse ? g->sort_up : g->sort_down;
	char start[32], len[32];
	int x = GPU_W + START_W + NUM_W + CAUSE_W + 4;
	snprintf(start, sizeof(start), "%s%s", r->sort == BY_START ? arrow : "", _("START"));
	snprintf(len, sizeof(len), "%s%s", r->sort == BY_LENGTH ? arrow : "", _("LENGTH"));
	draw_fill(stdscr, y, 0, width, a);
	draw_text(stdscr, y, 1, GPU_W - 1, _("GPU"), a);
	draw_text_right(stdscr, y, GPU_W, START_W, start, a);
	draw_text_right(stdscr, y, GPU_W + START_W + 1, NUM_W, len, a);
	draw_text(stdscr, y, GPU_W + START_W + NUM_W + 3, CAUSE_W, _("CAUSE"), a);
	draw_text(stdscr, y, x, name_w(width), _("BEFORE"), a);
	draw_text(stdscr, y, x + name_w(width) + 1, width - x - name_w(width) - 1, _("AFTER"), a);
}

static void draw_gap(struct gaps_view *r, struct app *app, size_t i, int y, int width)
{
	const struct trace *t = app->trace;
	const struct gap *g = at(r, i);
	attr_t a = theme_attr(i == r->nav.cursor ? THEME_CURSOR : THEME_NORMAL);
	char gpu[112], start[UNITS_BUFSZ + 2], len[UNITS_BUFSZ];
	int64_t s = g->start - t->op_first_start;
	char u[UNITS_BUFSZ];
	snprintf(start, sizeof(start), "%s%s", s < 0 ? "-" : "+",
		 units_format_ns(s < 0 ? -s : s, u, sizeof(u)));
	gpu_text(t, g->lane, gpu, sizeof(gpu));
	int x = GPU_W + START_W + NUM_W + CAUSE_W + 4;
	draw_fill(stdscr, y, 0, width, a);
	draw_text(stdscr, y, 1, GPU_W - 1, gpu, a);
	draw_text_right(stdscr, y, GPU_W, START_W, start, a);
	draw_text_right(stdscr, y, GPU_W + START_W + 1, NUM_W,
			units_format_ns(sat_sub(g->end, g->start), len, sizeof(len)), a);
	draw_text(stdscr, y, GPU_W + START_W + NUM_W + 3, CAUSE_W, tl_gap_cause_text(g->cause), a);
	draw_text(stdscr, y, x, name_w(width), app_name(app, t->ops.name[g->before]), a);
	draw_text(stdscr, y, x + name_w(width) + 1, width - x - name_w(width) - 1,
		  app_name(app, t->ops.name[g->after]), a);
}

/* The rows above the list of gaps: the title and the two tables of
 * GPUs, as many as leave three rows of gaps (those are cut first). */
static int gaps_top(struct gaps_view *r, int height)
{
	int want = 1 + (int)(1 + r->b.n) + (int)(1 + r->g.nlanes), most = height - 4;
	return want < most ? want : most > 1 ? most : 1;
}

static void gaps_draw(struct view *v, struct app *app, int y, int height, int width)
{
	struct gaps_view *r = v->data;
	char line[512], idle[UNITS_BUFSZ], thr[UNITS_BUFSZ];
	int64_t total = 0;
	/* Made between keys (gaps_idle), never while drawing. */
	if (!r->ready) {
		draw_text(stdscr, y, 1, width - 1, _("Finding the gaps..."), theme_attr(THEME_DIM));
		return;
	}
	for (size_t k = 0; k < r->g.nlanes; k++)
		total += gap_lane_span(&r->g.lanes[k]) - r->g.lanes[k].busy;
	snprintf(line, sizeof(line), _("GPU gaps: %llu, %s idle between ops (kernel wait: below %s)"),
		 (unsigned long long)r->g.total, units_format_ns(total, idle, sizeof(idle)),
		 units_format_ns(app->gap_threshold, thr, sizeof(thr)));
	draw_text(stdscr, y, 1, width - 1, line, theme_attr(THEME_LABEL));
	int top = gaps_top(r, height), used = 1;
	used += draw_breakdown(r, app, y + used, top - used, width);
	used += draw_idle(r, app, y + used, top - used, width);
	int rows = height - top - 1;
	if (rows < 1)
		return;
	draw_gaps_header(r, y + top, width);
	r->list_row = top + 1;
	tablenav_fit(&r->nav, rows);
	if (r->g.n == 0) {
		draw_text(stdscr, y + top + 1, 2, width - 2, _("No gap in view"), theme_attr(THEME_DIM));
		return;
	}
	for (int row = 0; row < rows && r->nav.top + (size_t)row < r->g.n; row++)
		draw_gap(r, app, r->nav.top + (size_t)row, y + top + 1 + row, width);
}

static unsigned sort_again(struct gaps_view *r, struct app *app, int next)
{
	struct gap current = r->g.n ? *at(r, r->nav.cursor) : (struct gap){ 0 };
	if (next) {
		r->sort = (enum gaps_sort)((r->sort + 1) % SORT_KEYS);
		r->reverse = 0;
		put_in_order(r);
		app_message(app, 0, _("Sorted by %s"), _(sort_names[r->sort]));
	} else {
		r->reverse = !r->reverse;
		app_message(app, 0, _("Sorted by %s, %s"), _(sort_names[r->sort]),
			    r->reverse ? _("reversed") : _("normal order"));
	}
	for (size_t i = 0; i < r->g.n; i++)
		if (at(r, i)->lane == current.lane && at(r, i)->start == current.start)
			r->nav.cursor = i;
	return ACT_REDRAW;
}

static unsigned gaps_request(struct view *v, struct app *app, enum request req)
{
	struct gaps_view *r = v->data;
	ensure_ready(r, app);
	switch (req) {
	case REQ_SORT_NEXT:
		return sort_again(r, app, 1);
	case REQ_SORT_REVERSE:
		return sort_again(r, app, 0);
	case REQ_GAPS_VIEW:
		return ACT_NONE; /* it is open */
	case REQ_ENTER: {
		if (r->g.n == 0)
			return ACT_NONE;
		const struct gap *g = at(r, r->nav.cursor);
		return app_show_time_in_timeline(app, app->trace->ops.queue[g->after], g->start,
						 sat_sub(g->end, g->start));
	}
	default:
		return tablenav_request(&r->nav, req);
	}
}

static unsigned gaps_click(struct view *v, struct app *app, int row, int col, int button)
{
	struct gaps_view *r = v->data;
	(void)col;
	ensure_ready(r, app);
	return row < r->list_row ? ACT_NONE : tablenav_click(&r->nav, row - r->list_row, button);
}

static void gaps_free_view(struct view *v)
{
	struct gaps_view *r = v->data;
	gaps_free(&r->g);
	breakdown_free(&r->b);
	free(r->order);
	free(r);
}

static unsigned gaps_idle(struct view *v, struct app *app)
{
	struct gaps_view *r = v->data;
	int was = current(r, app);
	ensure_ready(r, app);
	return was ? ACT_NONE : ACT_REDRAW;
}

static const struct view_ops gaps_ops = {
	.name = "gaps",
	.title = N_("Gaps"),
	.draw = gaps_draw,
	.request = gaps_request,
	.click = gaps_click,
	.free = gaps_free_view,
	.idle = gaps_idle,
};

/* The threshold typed: a length of time, 0 or more. */
static unsigned threshold_done(struct app *app, const char *text, int accepted, void *ctx)
{
	int64_t ns;
	char shown[UNITS_BUFSZ];
	(void)ctx;
	if (!accepted)
		return ACT_REDRAW;
	if (window_parse_duration(text, &ns) || ns < 0) {
		prompt_error(&app->prompt, _("A gap threshold is a length of time: 5us, 20us, 1ms, 0"));
		return ACT_STAY;
	}
	app->gap_threshold = ns;
	app_message(app, 0,
		    _("Gap threshold %s: } and { stop at gaps as long; shorter ones can be kernel waits"),
		    units_format_ns(ns, shown, sizeof(shown)));
	return ACT_REDRAW;
}

unsigned view_gaps_ask_threshold(struct app *app)
{
	struct prompt_owner owner = { NULL, threshold_done, NULL };
	char label[96], now[UNITS_BUFSZ];
	snprintf(label, sizeof(label), _("Gap threshold (now %s): "),
		 units_format_ns(app->gap_threshold, now, sizeof(now)));
	prompt_open(&app->prompt, label, NULL, &owner);
	return ACT_REDRAW;
}

struct view view_gaps_new(struct app *app)
{
	struct gaps_view *r = xcalloc(1, sizeof(*r));
	r->list_row = 1 << 20; /* not drawn yet: no row of it clicked */
	(void)app;
	return (struct view){ &gaps_ops, r };
}
