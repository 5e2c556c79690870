/* GPU busy: one row per GPU with its share of the wall time as a bar.
 * Enter shows the GPU's first op in view in the timeline. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "analysis/busy.h"
#include "present/report_rows.h"
#include "tui/app.h"
#include "tui/draw.h"
#include "tui/panes.h"
#include "tui/tableview.h"
#include "tui/theme.h"
#include "util/i18n.h"
#include "util/units.h"
#include "util/xalloc.h"

#define GPU_WIDTH 12

enum { BC_GPU, BC_OPS, BC_SUM, BC_BUSY, BC_PERCENT, BC_SPAN_PERCENT };

/* The GPUs' own order needs no sort mark until it is reversed; the bar
 * takes what the columns leave. */
static const struct tv_column columns[] = {
	[BC_GPU] = { N_("GPU"), N_("GPU"), TV_FIT, 0, 0, TV_MID, TV_NUMBER, 1, TV_MARK_REVERSED | TV_SCROLL,
		     NULL },
	[BC_OPS] = { NULL, N_("ops"), 10, 1, 0, TV_RIGHT, TV_NUMBER, 2, 0, "ops" },
	[BC_SUM] = { NULL, N_("sum"), 10, 1, 60, TV_RIGHT, TV_NUMBER, 3, 0, "sum_ns" },
	[BC_BUSY] = { NULL, N_("busy time"), 10, 1, 0, TV_RIGHT, TV_NUMBER, 4, 0, "busy_ns" },
	[BC_PERCENT] = { NULL, N_("busy share"), 7, 1, 0, TV_RIGHT, TV_NUMBER, 5, 0, "busy_percent" },
	[BC_SPAN_PERCENT] = { N_("SPAN%"), N_("busy share of its span"), 10, 1, 130, TV_RIGHT, TV_NUMBER, 6,
			      0, "span_busy_percent" },
};

struct busy_src {
	struct busy busy;
	int label_need; /* the widest GPU label */
};

static size_t busy_fill(void *src, struct app *app)
{
	struct busy_src *p = src;
	busy_free(&p->busy);
	busy_per_gpu(app->trace, app_sel(app), &p->busy);
	p->label_need = GPU_WIDTH;
	for (size_t i = 0; i < p->busy.n; i++) {
		char label[256];
		int w = text_width(trace_gpu_label(app->trace, p->busy.rows[i].gpu, label, sizeof(label)));
		p->label_need = w > p->label_need ? w : p->label_need;
	}
	return p->busy.n;
}

static void busy_release(void *src)
{
	struct busy_src *p = src;
	busy_free(&p->busy);
}

/* The GPU column: the widest label, within a third of the screen (labels
 * of several nodes are long; the numbers keep their room). */
static int busy_fit_width(void *src, int col, int width)
{
	const struct busy_src *p = src;
	int most = width / 3 > GPU_WIDTH ? width / 3 : GPU_WIDTH;
	(void)col;
	return p->label_need < most ? p->label_need : most;
}

static void busy_cells(void *src, size_t row, struct table_cell *cells)
{
	const struct busy_src *p = src;
	report_busy_cells(&p->busy, &p->busy.rows[row], cells);
}

/* GPUs in their natural order (the other columns are the report's). */
static int64_t busy_key(void *src, size_t row, int col)
{
	(void)src;
	(void)col;
	return -(int64_t)row;
}

/* The GPU's label, cut in the middle: the node's end and the GPU number
 * tell rows apart. */
static const char *busy_text(void *src, struct app *app, size_t row, int col, char *buf, size_t size)
{
	const struct busy_src *p = src;
	(void)col;
	return trace_gpu_label(app->trace, p->busy.rows[row].gpu, buf, size);
}

static struct tv_ident busy_ident(void *src, size_t row)
{
	const struct busy_src *p = src;
	return (struct tv_ident){ p->busy.rows[row].gpu, 0 };
}

static const char *busy_caption(void *src, struct app *app, char *buf, size_t size)
{
	const struct busy_src *p = src;
	char wall[UNITS_BUFSZ];
	if (p->busy.disjoint)
		snprintf(buf, size, "%s", _("of each input's span: inputs apart in time"));
	else
		snprintf(buf, size,
			 session_filtered(app->session) ? _("filtered, of %s") : _("of %s wall time"),
			 units_format_ns(p->busy.wall, wall, sizeof(wall)));
	return buf;
}

static void busy_bar(void *src, struct app *app, size_t row, int y, int x, int width, int cursor)
{
	const struct busy_src *p = src;
	(void)app;
	if (width - x > 2)
		draw_bar(stdscr, y, x, width - x - 1, busy_row_percent(&p->busy, &p->busy.rows[row]) / 100.0,
			 theme_attr(cursor ? THEME_CURSOR : THEME_BAR));
}

/* The GPU's earliest op in view, in the timeline. */
static unsigned busy_enter(void *src, struct app *app, size_t row)
{
	const struct busy_src *p = src;
	const struct trace *t = app->trace;
	uint32_t gpu = p->busy.rows[row].gpu, first = TRACE_NONE;
	for (size_t i = 0; i < t->ops.n; i++)
		if (selected_op(app_sel(app), i) && trace_op_gpu(t, i) == gpu &&
		    (first == TRACE_NONE || t->ops.start[i] < t->ops.start[first]))
			first = (uint32_t)i;
	return first == TRACE_NONE ? ACT_NONE : app_show_in_timeline(app, first);
}

static const struct tv_source_ops busy_source = {
	TV_ROWS(busy),         .text = busy_text,           .key = busy_key,
	.cells = busy_cells,   .fit_width = busy_fit_width, .header_tail = busy_caption,
	.draw_tail = busy_bar, .enter = busy_enter
};

static const struct tv_spec busy_spec = {
	TV_VIEW("busy", N_("Busy")), TV_COLS(columns), .report = &report_busy,
	.first_sort = BC_GPU,        .tail_pad = 2,    .ops = &busy_source
};

struct view pane_busy_new(struct app *app)
{
	(void)app;
	return tableview_new(&busy_spec, sizeof(struct busy_src));
}
