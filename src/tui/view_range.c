/* What a range of the timeline holds (range.h): its length, the GPU ops
 * by name with the time they spent inside it, each GPU's busy time in it,
 * the API calls and the roctx markers overlapping it. Enter lists the
 * instances of a name in the range; W makes the range the time window. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/range.h"
#include "analysis/search.h"
#include "tui/app.h"
#include "tui/draw.h"
#include "tui/filter_prompt.h"
#include "tui/panes.h"
#include "tui/tableview.h"
#include "tui/theme.h"
#include "util/i18n.h"
#include "util/satmath.h"
#include "util/units.h"

#define COUNT_W 9
#define TIME_W 10
#define PCT_W 8

enum part { PART_OPS, PART_BUSY, PART_CALLS, PART_MARKERS, PARTS };

enum { RG_COUNT, RG_TIME, RG_SHARE, RG_NAME };

/* Each part's titles name its columns; the time is the rows' own order
 * (ops, calls and markers by time, GPUs in order). */
static const struct tv_column columns[] = {
	[RG_COUNT] = { N_("COUNT"), N_("count"), COUNT_W, 0, 0, TV_RIGHT, TV_NUMBER, 2, 0, NULL },
	[RG_TIME] = { N_("TIME"), N_("time"), TIME_W, 1, 0, TV_RIGHT, TV_NUMBER, 1, TV_MARK_REVERSED, NULL },
	[RG_SHARE] = { N_("%RANGE"), NULL, PCT_W, 1, 0, TV_RIGHT, TV_NUMBER, 0, 0, NULL },
	[RG_NAME] = { N_("NAME"), N_("name"), TV_REST, 2, 0, TV_NAME, TV_TEXT, 3, TV_SCROLL, NULL },
};

/* Column titles and the section's name, by part. */
static const char *const titles[PARTS][3] = {
	[PART_OPS] = { N_("OPS"), N_("TIME"), N_("GPU OPS BY NAME") },
	[PART_BUSY] = { N_("OPS"), N_("BUSY"), N_("BUSY PER GPU") },
	[PART_CALLS] = { N_("CALLS"), N_("TIME"), N_("API CALLS BY NAME") },
	[PART_MARKERS] = { N_("COUNT"), N_("TIME"), N_("ROCTX MARKERS BY TEXT") },
};

struct range_src {
	int64_t t0, t1;
	struct range_stats st;
	size_t first[PARTS + 1]; /* the parts' rows, one after the other */
};

static const struct range_part *part_of(const struct range_stats *s, enum part p)
{
	const struct range_part *parts[PARTS] = { &s->ops, &s->busy, &s->calls, &s->markers };
	return parts[p];
}

static size_t range_group(void *src, size_t row)
{
	const struct range_src *r = src;
	size_t p = 0;
	while (p + 1 < PARTS && row >= r->first[p + 1])
		p++;
	return p;
}

static const struct range_row *row_at(const struct range_src *r, size_t row)
{
	size_t p = range_group((void *)r, row);
	return &part_of(&r->st, (enum part)p)->rows[row - r->first[p]];
}

static size_t range_fill(void *src, struct app *app)
{
	struct range_src *r = src;
	range_free(&r->st);
	range_build(app->trace, app_sel(app), r->t0, r->t1, &r->st);
	r->first[0] = 0;
	for (int p = 0; p < PARTS; p++)
		r->first[p + 1] = r->first[p] + part_of(&r->st, (enum part)p)->n;
	return r->first[PARTS];
}

static void range_release(void *src)
{
	struct range_src *r = src;
	range_free(&r->st);
}

static int64_t range_key(void *src, size_t row, int col)
{
	const struct range_row *r = row_at(src, row);
	return col == RG_COUNT ? (int64_t)r->count : r->time;
}

static const char *range_text(void *src, struct app *app, size_t row, int col, char *buf, size_t size)
{
	const struct range_src *r = src;
	const struct range_row *x = row_at(r, row);
	char gpu[200];
	switch (col) {
	case RG_COUNT:
		snprintf(buf, size, "%llu", (unsigned long long)x->count);
		return buf;
	case RG_TIME:
		return units_format_ns(x->time, buf, size);
	case RG_SHARE:
		snprintf(buf, size, "%.2f", range_share(&r->st, x->time));
		return buf;
	default:
		break;
	}
	/* The GPUs' labels; the other parts' names are the core's. */
	snprintf(buf, size, "GPU %s", trace_gpu_label(app->trace, x->key, gpu, sizeof(gpu)));
	return buf;
}

/* The names of the ops, the calls and the roctx texts; a GPU's row holds
 * no name. */
static struct tv_name range_name(void *src, struct app *app, size_t row, int col)
{
	(void)app;
	(void)col;
	if (range_group(src, row) == PART_BUSY)
		return (struct tv_name){ TRACE_NONE, NULL, NULL };
	return (struct tv_name){ row_at(src, row)->key, NULL, NULL };
}

static struct tv_ident range_ident(void *src, size_t row)
{
	return (struct tv_ident){ range_group(src, row), row_at(src, row)->key };
}

/* The first part under the title; each under a blank line. */
static int range_lines_before(void *src, size_t g)
{
	(void)src;
	return g == PART_OPS ? 3 : 2;
}

static void draw_title(const struct range_src *r, struct app *app, int y, int width)
{
	char a[UNITS_BUFSZ], b[UNITS_BUFSZ], d[UNITS_BUFSZ], line[256];
	int64_t origin = app->trace->op_first_start;
	snprintf(line, sizeof(line), _("Range %s%s .. %s%s   %s %s  (%lld ns)"), r->t0 < origin ? "-" : "+",
		 units_format_ns(r->t0 < origin ? sat_sub(origin, r->t0) : sat_sub(r->t0, origin), a,
				 sizeof(a)),
		 r->t1 < origin ? "-" : "+",
		 units_format_ns(r->t1 < origin ? sat_sub(origin, r->t1) : sat_sub(r->t1, origin), b,
				 sizeof(b)),
		 glyphs()->utf8 ? "\xce\x94t" : "dt", units_format_ns(r->t1 - r->t0, d, sizeof(d)),
		 (long long)(r->t1 - r->t0));
	draw_text(stdscr, y, 1, width - 1, line, theme_attr(THEME_LABEL));
}

static void range_draw_line(void *src, struct app *app, size_t g, int k, int y, int width)
{
	if (g == PART_OPS && k == 0)
		draw_title(src, app, y, width);
}

static const char *range_title(void *src, size_t g, int col)
{
	(void)src;
	if (col == RG_SHARE)
		return NULL;
	return _(titles[g][col == RG_COUNT ? 0 : col == RG_TIME ? 1 : 2]);
}

static const char *range_footer(void *src, struct app *app)
{
	(void)src;
	(void)app;
	return _("Enter: the instances of a name in the range   W: the range becomes the time window");
}

/* The instances of the cursor's name that overlap the range. */
static unsigned range_enter(void *src, struct app *app, size_t row)
{
	const struct range_src *r = src;
	size_t part = range_group(src, row);
	if (part == PART_BUSY) {
		app_message(app, 0, "%s", _("Enter lists the instances of a name"));
		return ACT_REDRAW;
	}
	uint32_t key = row_at(r, row)->key;
	struct search_query q = search_query_all(part == PART_OPS, part != PART_OPS);
	q.name = key;
	q.has_span = 1;
	q.from = r->t0;
	q.to = r->t1;
	app_push(app, view_results_new(app, app_name(app, key), &q, NULL));
	return ACT_REDRAW;
}

static unsigned range_request(void *src, struct app *app, size_t row, enum request req)
{
	const struct range_src *r = src;
	(void)row;
	return req == REQ_WINDOW ? app_set_window_ns(app, r->t0, r->t1) : ACT_UNHANDLED;
}

static const struct tv_source_ops range_source = { TV_ROWS(range),          .text = range_text,
						   .key = range_key,        .name = range_name,
						   .footer = range_footer,  .enter = range_enter,
						   .request = range_request };

static const struct tv_groups range_groups = { .n = PARTS,
					       .of = range_group,
					       .lines_before = range_lines_before,
					       .draw_line = range_draw_line,
					       .title = range_title,
					       .empty = N_("none") };

static const struct tv_spec range_spec = { TV_VIEW("range", N_("Range")), TV_COLS(columns),
					   .first_sort = RG_TIME,         .own_order = 1 + RG_TIME,
					   .groups = &range_groups,       .ops = &range_source };

struct view view_range_new(struct app *app, int64_t t0, int64_t t1)
{
	struct view v = tableview_new(&range_spec, sizeof(struct range_src));
	struct range_src *r = tableview_source(&v);
	(void)app;
	r->t0 = t0;
	r->t1 = t1;
	return v;
}
