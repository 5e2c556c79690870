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
#include "tui/tableview.h"
#include "tui/theme.h"
#include "tui/timeline/facts.h"
#include "util/i18n.h"
#include "util/satmath.h"
#include "util/units.h"
#include "util/xalloc.h"

#define GPU_W 9
#define NUM_W 9 /* "123.45 ms": seven columns of them fit in 80 */
#define START_W 13
#define CAUSE_W 12
#define CPU_SCREEN 120 /* the CPU column's screens: room for three names */

enum { GC_GPU, GC_START, GC_LENGTH, GC_CAUSE, GC_BEFORE, GC_AFTER, GC_CPU };

/* The names before and after a gap, and what the launching thread was
 * doing (on screens wide enough for three names), share what the other
 * columns leave. */
static const struct tv_column columns[] = {
	[GC_GPU] = { N_("GPU"), NULL, GPU_W - 1, 0, 0, TV_LEFT, TV_TEXT, 0, 0, NULL },
	[GC_START] = { N_("START"), N_("start"), START_W, 0, 0, TV_RIGHT, TV_NUMBER, 2, 0, NULL },
	[GC_LENGTH] = { N_("LENGTH"), N_("length"), NUM_W, 1, 0, TV_RIGHT, TV_NUMBER, 1, 0, NULL },
	[GC_CAUSE] = { N_("CAUSE"), NULL, CAUSE_W, 2, 0, TV_LEFT, TV_TEXT, 0, 0, NULL },
	[GC_BEFORE] = { N_("BEFORE"), NULL, TV_SHARE, 1, 0, TV_NAME, TV_TEXT, 0, TV_SCROLL, NULL },
	[GC_AFTER] = { N_("AFTER"), NULL, TV_SHARE, 1, 0, TV_NAME, TV_TEXT, 0, TV_SCROLL, NULL },
	[GC_CPU] = { N_("CPU"), NULL, TV_REST, 1, CPU_SCREEN, TV_NAME, TV_TEXT, 0, TV_SCROLL, NULL },
};

struct gaps_src {
	struct gaps g;
	struct gap_names names; /* the CPU column's: what the host was doing */
	struct breakdown b;
	int64_t threshold; /* the gap threshold it was made for */
};

/* Made again for a new threshold too. */
static int gaps_current(void *src, struct app *app)
{
	const struct gaps_src *r = src;
	return r->threshold == app->analysis.gap_threshold;
}

static size_t gaps_fill(void *src, struct app *app)
{
	struct gaps_src *r = src;
	gaps_free(&r->g);
	gap_names_free(&r->names);
	breakdown_free(&r->b);
	struct gaps_params p = { .threshold = app->analysis.gap_threshold, .keep = SIZE_MAX };
	gaps_find(app->trace, app_sel(app), &p, &r->g);
	gap_names_find(app->trace, app_order(app), &r->g, &r->names);
	breakdown_per_gpu(app->trace, app_sel(app), &app->analysis.comm, &r->b);
	r->threshold = app->analysis.gap_threshold;
	return r->g.n;
}

static void gaps_release(void *src)
{
	struct gaps_src *r = src;
	gaps_free(&r->g);
	gap_names_free(&r->names);
	breakdown_free(&r->b);
}

static int64_t gaps_key(void *src, size_t row, int col)
{
	const struct gaps_src *r = src;
	const struct gap *g = &r->g.gaps[row];
	return col == GC_START ? -g->start : sat_sub(g->end, g->start);
}

static struct tv_ident gaps_ident(void *src, size_t row)
{
	const struct gaps_src *r = src;
	return (struct tv_ident){ r->g.gaps[row].lane, (uint64_t)r->g.gaps[row].start };
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

#define NFIGS 8 /* the most a table has: idle's */
#define BREAKDOWN_FIGS 7

/* A GPU's figures in a small table above the gaps: their text in c. */
typedef uint32_t (*gpu_figures_fn)(const struct gaps_src *r, size_t k, char c[NFIGS][UNITS_BUFSZ]);

static void durations(const int64_t *v, int n, char c[NFIGS][UNITS_BUFSZ])
{
	for (int i = 0; i < n; i++)
		units_format_ns(v[i], c[i], sizeof(c[i]));
}

/* As -r breakdown: where the GPU's span went. */
static uint32_t breakdown_figures(const struct gaps_src *r, size_t k, char c[NFIGS][UNITS_BUFSZ])
{
	const struct breakdown_row *b = &r->b.rows[k];
	const int64_t v[] = { b->span, b->compute, b->comm, b->copy, b->idle, b->exposed_comm };
	durations(v, BREAKDOWN_FIGS - 1, c);
	snprintf(c[BREAKDOWN_FIGS - 1], sizeof(c[BREAKDOWN_FIGS - 1]), "%.1f%%", 100.0 * b->overlap_ratio);
	return b->gpu;
}

/* As -r idle: the GPU's idle time by cause. */
static uint32_t idle_figures(const struct gaps_src *r, size_t k, char c[NFIGS][UNITS_BUFSZ])
{
	const struct gap_lane *l = &r->g.lanes[k];
	const int64_t v[] = { l->busy,
			      gap_lane_span(l) - l->busy,
			      0,
			      l->cause_ns[GAP_HOST_WAIT],
			      l->cause_ns[GAP_KERNEL_WAIT],
			      l->cause_ns[GAP_OTHER],
			      l->max_gap,
			      l->cause_ns[GAP_GRAPH] };
	durations(v, NFIGS, c);
	snprintf(c[2], sizeof(c[2]), "%llu", (unsigned long long)l->ngaps);
	return l->lane;
}

/* The header (nfigs columns) and a row per GPU (n of them), as many as
 * rows lets in. */
static int draw_gpu_table(const struct gaps_src *r, struct app *app, const char *const *head, int nfigs,
			  size_t n, gpu_figures_fn figures, int y, int rows, int width)
{
	const char *h[NFIGS], *cells[NFIGS];
	char c[NFIGS][UNITS_BUFSZ], gpu[112];
	int used = 0;
	for (int i = 0; i < nfigs; i++) {
		h[i] = _(head[i]);
		cells[i] = c[i];
	}
	if (rows <= used)
		return used;
	draw_cells(y + used++, width, _("GPU"), h, nfigs, theme_attr(THEME_HEADER));
	for (size_t k = 0; k < n && used < rows; k++) {
		gpu_text(app->trace, figures(r, k, c), gpu, sizeof(gpu));
		draw_cells(y + used++, width, gpu, cells, nfigs, theme_attr(THEME_NORMAL));
	}
	return used;
}

static int draw_breakdown(struct gaps_src *r, struct app *app, int y, int rows, int width)
{
	static const char *const head[BREAKDOWN_FIGS] = { N_("SPAN"),   N_("COMPUTE"), N_("COMM"),
							  N_("COPIES"), N_("IDLE"),    N_("EXP.COMM"),
							  N_("OVERLAP") };
	return draw_gpu_table(r, app, head, BREAKDOWN_FIGS, r->b.n, breakdown_figures, y, rows, width);
}

static int draw_idle(struct gaps_src *r, struct app *app, int y, int rows, int width)
{
	static const char *const head[NFIGS] = { N_("BUSY"),      N_("IDLE"),  N_("GAPS"),    N_("HOST WAIT"),
						 N_("KERN.WAIT"), N_("OTHER"), N_("MAX GAP"), N_("GRAPH") };
	return draw_gpu_table(r, app, head, NFIGS, r->g.nlanes, idle_figures, y, rows, width);
}

static const char *gaps_text(void *src, struct app *app, size_t row, int col, char *buf, size_t size)
{
	const struct gaps_src *r = src;
	const struct trace *t = app->trace;
	const struct gap *g = &r->g.gaps[row];
	char u[UNITS_BUFSZ];
	int64_t s = g->start - t->op_first_start;
	switch (col) {
	case GC_GPU:
		gpu_text(t, g->lane, buf, size);
		return buf;
	case GC_START:
		snprintf(buf, size, "%s%s", s < 0 ? "-" : "+", units_format_ns(s < 0 ? -s : s, u, sizeof(u)));
		return buf;
	case GC_LENGTH:
		return units_format_ns(sat_sub(g->end, g->start), buf, size);
	case GC_CAUSE:
		return tl_gap_cause_text(g->cause);
	default:
		return "";
	}
}

/* The ops before and after the gap; what the launching thread was doing
 * (the call it was in, or "after" the call it finished last), or none. */
static struct tv_name gaps_name(void *src, struct app *app, size_t row, int col)
{
	const struct gaps_src *r = src;
	const struct gap *g = &r->g.gaps[row];
	if (col != GC_CPU)
		return (struct tv_name){ app->trace->ops.name[col == GC_BEFORE ? g->before : g->after], NULL,
					 NULL };
	if (r->names.cpu[row] == TRACE_NONE)
		return (struct tv_name){ TRACE_NONE, "", NULL };
	return (struct tv_name){ r->names.cpu[row], NULL, r->names.cpu_after[row] ? "after" : NULL };
}

/* The rows above the list of gaps: the title and the two tables of
 * GPUs, as many as leave three rows of gaps (those are cut first). */
static int gaps_top(const struct gaps_src *r, int height)
{
	int want = 1 + (int)(1 + r->b.n) + (int)(1 + r->g.nlanes), most = height - 4;
	return want < most ? want : most > 1 ? most : 1;
}

static int gaps_draw_top(void *src, struct app *app, int y, int height, int width)
{
	struct gaps_src *r = src;
	char line[512], idle[UNITS_BUFSZ], thr[UNITS_BUFSZ];
	int64_t total = 0;
	for (size_t k = 0; k < r->g.nlanes; k++)
		total += gap_lane_span(&r->g.lanes[k]) - r->g.lanes[k].busy;
	snprintf(line, sizeof(line), _("GPU gaps: %llu, %s idle between ops (kernel wait: below %s)"),
		 (unsigned long long)r->g.total, units_format_ns(total, idle, sizeof(idle)),
		 units_format_ns(app->analysis.gap_threshold, thr, sizeof(thr)));
	draw_text(stdscr, y, 1, width - 1, line, theme_attr(THEME_LABEL));
	int top = gaps_top(r, height), used = 1;
	used += draw_breakdown(r, app, y + used, top - used, width);
	used += draw_idle(r, app, y + used, top - used, width);
	return top;
}

/* The gap in the timeline, on the lane of the op after it. */
static unsigned gaps_enter(void *src, struct app *app, size_t row)
{
	const struct gaps_src *r = src;
	const struct gap *g = &r->g.gaps[row];
	return app_show_time_in_timeline(app, app->trace->ops.queue[g->after], g->start,
					 sat_sub(g->end, g->start));
}

static unsigned gaps_request(void *src, struct app *app, size_t row, enum request req)
{
	(void)src;
	(void)app;
	(void)row;
	return req == REQ_GAPS_VIEW ? ACT_NONE : ACT_UNHANDLED; /* it is open */
}

static const struct tv_source_ops gaps_source = { TV_ROWS(gaps),           .text = gaps_text,
						  .name = gaps_name,       .key = gaps_key,
						  .current = gaps_current, .draw_top = gaps_draw_top,
						  .enter = gaps_enter,     .request = gaps_request };

/* The analysis gives the gaps longest first. */
static const struct tv_spec gaps_spec = {
	TV_VIEW("gaps", N_("Gaps")), TV_COLS(columns), .first_sort = GC_LENGTH,
	.own_order = 1 + GC_LENGTH,  .lead = 1,        .empty = N_("No gap in view"),
	.ops = &gaps_source
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
	app->analysis.gap_threshold = ns;
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
		 units_format_ns(app->analysis.gap_threshold, now, sizeof(now)));
	prompt_open(&app->prompt, label, NULL, &owner);
	return ACT_REDRAW;
}

struct view view_gaps_new(struct app *app)
{
	(void)app;
	return tableview_new(&gaps_spec, sizeof(struct gaps_src));
}
