/* The detail line under the lanes: the event under the cursor (its times,
 * launch latency, lane, launch sizes, a copy's bytes, its launch), a
 * counter's value, or the gap the cursor is in; the launch sizes are read
 * between keys. */
#include "config.h"
#include "tui/timeline/detail.h"

#include <stdio.h>
#include <string.h>

#include "analysis/timeline.h"
#include "tui/app.h"
#include "tui/draw.h"
#include "tui/theme.h"
#include "tui/timeline/facts.h"
#include "tui/timeline/gaps.h"
#include "tui/timeline/marker.h"
#include "tui/timeline/navigate.h"
#include "tui/timeline/rows.h"
#include "tui/timeline/state.h"
#include "tui/timeline/visible.h"
#include "util/i18n.h"
#include "util/satmath.h"
#include "util/units.h"
#include "util/xalloc.h"

void tl_read_dims(struct timeline_pane *p, struct app *app)
{
	uint32_t op = tl_op_under_cursor(p);
	if (op == TRACE_NONE || (p->dims_op_set && p->dims_op == op))
		return;
	p->dims_ok = workspace_launch_dims(app->ws, op, &p->dims) == 0;
	p->dims_op = op;
	p->dims_op_set = 1;
}

/* Where the op under the cursor is in a graph replay: a lookup in the
 * nodes' places, found once (again when API rows came meanwhile). */
int tl_read_place(struct timeline_pane *p, struct app *app)
{
	const struct trace *t = app->trace;
	uint32_t op = tl_op_under_cursor(p);
	if (op == TRACE_NONE || (p->place_set && p->place_op == op && p->place_apis == t->apis.n))
		return 0;
	if (!p->graphs || p->graphs_apis != t->apis.n) {
		if (p->graphs)
			graph_index_free(p->graphs);
		else
			p->graphs = xmalloc(sizeof(*p->graphs));
		graph_index_build(p->graphs, t);
		p->graphs_apis = t->apis.n;
	}
	struct graph_place was = p->place;
	int was_ok = p->place_set && p->place_ok;
	p->place_ok = graph_index_place(p->graphs, t, op, &p->place);
	p->place_op = op;
	p->place_apis = t->apis.n;
	p->place_set = 1;
	/* A new place shows; an op that is no node changes nothing shown. */
	return p->place_ok != was_ok || (p->place_ok && memcmp(&was, &p->place, sizeof(was)) != 0);
}

static const struct graph_place *place_of(const struct timeline_pane *p, const struct trace *t, uint32_t op)
{
	return p->place_set && p->place_op == op && p->place_apis == t->apis.n && p->place_ok ? &p->place
											      : NULL;
}

/* The launch sizes read for op, or NULL when they were not (yet). */
static const struct launch_dims *launch_dims_of(const struct timeline_pane *p, uint32_t op)
{
	return p->dims_op_set && p->dims_op == op && p->dims_ok ? &p->dims : NULL;
}

/* In a gap of the cursor's GPU (found between keys): its facts in line,
 * and "idle" for the name; else "" and line as it was. */
static const char *idle_facts(const struct timeline_pane *p, struct app *app, const struct tl_lane *l,
			      int64_t dt, char *line, size_t size)
{
	const struct trace *t = app->trace;
	if (!tl_gaps_current(&p->gaps, app_generation(app), app->analysis.gap_threshold))
		return "";
	uint32_t gpu = t->queues[l->queue].gpu;
	const struct gap *g = tl_gaps_at(&p->gaps, gpu, p->cursor);
	const struct gap_lane *gl = tl_gaps_lane(&p->gaps, gpu);
	if (!g && gl && p->cursor >= p->gaps.g.range_start && p->cursor < gl->first) {
		tl_facts_idle_end(t, gl, p->gaps.g.range_start, gl->first, 1, p->tl.origin, dt, line, size);
		return _("idle");
	}
	if (!g && gl && p->cursor >= gl->last && p->cursor < p->gaps.g.range_end) {
		tl_facts_idle_end(t, gl, gl->last, p->gaps.g.range_end, 0, p->tl.origin, dt, line, size);
		return _("idle");
	}
	if (!g)
		return "";
	tl_facts_gap(t, g, app_name(app, t->ops.name[g->before]), app_name(app, t->ops.name[g->after]),
		     p->tl.origin, dt, line, size);
	return _("idle");
}

/* A call's lane in the detail line: a range's GPU work before its
 * thread's label (also a nesting row's), so that a line cut short at its
 * end keeps it. */
static void call_lane(const struct timeline_pane *p, struct app *app, const struct tl_lane *l, uint32_t row,
		      char *buf, size_t size)
{
	char thread[128], gpu[160] = "";
	trace_thread_label(app->trace, l->thread, thread, sizeof(thread));
	tl_marker_facts(&p->marker, row, app_generation(app), gpu, sizeof(gpu));
	snprintf(buf, size, "%s%s%s", gpu[0] ? gpu + 2 : "", gpu[0] ? "  " : "", thread);
}

/* Row k of lane l, under the cursor: its facts in f, most important
 * first: its times, an op's launch latency, its lane, a kernel's launch
 * sizes or a copy's bytes, the call that launched it. Returns its name. */
static const char *event_facts(const struct timeline_pane *p, struct app *app, const struct tl_lane *l,
			       size_t k, int64_t dt, struct tl_fields *f)
{
	const struct trace *t = app->trace;
	uint32_t row = l->ops[k];
	char lane[320], a[UNITS_BUFSZ + 2], d[UNITS_BUFSZ];
	tl_fields_add(
		f, _("start %s  duration %s"),
		units_format_relative(sat_sub(timeline_start(l, k), p->tl.origin), dt, a, sizeof(a)),
		units_format_exact(sat_sub(timeline_end(l, k), timeline_start(l, k)), dt, d, sizeof(d)));
	if (l->kind == TL_CPU) {
		call_lane(p, app, l, row, lane, sizeof(lane));
		tl_fields_add(f, "%s", lane);
	} else {
		tl_facts_latency(t, row, place_of(p, t, row), dt, f);
		tl_lane_label(app, l, lane, sizeof(lane));
		tl_fields_add(f, "%s", lane);
		tl_facts_sizes(launch_dims_of(p, row), f);
		tl_facts_copy(t, row, f);
		tl_facts_launcher(t, row, p->tl.origin, dt, f);
	}
	return tl_row_name(app, l, row);
}

#define FIELD_GAP 2 /* columns between the name and each field */

/* The name keeps 40 columns at least (or all it needs when less), 20 on
 * a screen too narrow for that and the first field; then the fields go
 * in, most important first, for as long as each fits whole; the name
 * gets what they leave, losing its middle when still too long. */
static void draw_line(int y, int width, const char *name, const struct tl_fields *f)
{
	char line[TL_FIELDS_TEXT + TL_FIELDS_MAX * FIELD_GAP];
	int want = text_width(name), gap = *name ? FIELD_GAP : 0;
	int first = f->n ? text_width(tl_fields_get(f, 0)) + gap : 0;
	int name_min = want < 40 ? want : 40;
	if (name_min > width - first)
		name_min = width - first > 20 ? width - first : 20;
	if (name_min > want)
		name_min = want;
	int room = width - name_min, used = 0;
	size_t len = 0;
	line[0] = 0;
	for (int i = 0; i < f->n; i++) {
		const char *s = tl_fields_get(f, i);
		int w = text_width(s) + (i || *name ? FIELD_GAP : 0);
		if (i && used + w > room)
			break; /* the first is cut if need be; the rest go whole */
		len += (size_t)snprintf(line + len, sizeof(line) - len, "%s%s", i || *name ? "  " : "", s);
		used += w;
	}
	int name_w = width - used < want ? width - used : want;
	if (name_w < name_min)
		name_w = name_min;
	int x = *name ? draw_text_mid(stdscr, y, 0, name_w, name, theme_attr(THEME_STATUS)) : 0;
	if (x < width)
		draw_text(stdscr, y, x, width - x, line, theme_attr(THEME_STATUS));
}

void tl_draw_detail(struct timeline_pane *p, struct app *app, int y, int width)
{
	char line[1024], a[UNITS_BUFSZ + 2], span[UNITS_BUFSZ];
	struct tl_fields f;
	const char *name = "";
	tl_fields_init(&f);
	draw_fill(stdscr, y, 0, width, theme_attr(THEME_STATUS));
	int64_t dt = tl_bucket(p); /* times are exact to a column */
	snprintf(line, sizeof(line), _("view %s at %s"), units_format_ns(p->view_span, span, sizeof(span)),
		 units_format_relative(sat_sub(p->cursor, p->tl.origin), dt, a, sizeof(a)));
	const struct tl_lane *l = p->lane < p->tl.nlanes ? &p->tl.lanes[p->lane] : NULL;
	size_t k = l && l->kind != TL_COUNTER ? tl_under_cursor(p, l) : 0;
	if (l && l->kind == TL_COUNTER)
		name = tl_facts_counter(app->trace, &p->tl.counters, l->series, p->cursor, p->view_start,
					sat_add(p->view_start, p->view_span), line, sizeof(line));
	else if (l && k < l->n)
		name = event_facts(p, app, l, k, dt, &f);
	else if (l && l->kind == TL_GPU)
		name = idle_facts(p, app, l, dt, line, sizeof(line));
	if (!f.n)
		tl_fields_add(&f, "%s", line);
	draw_line(y, width, name, &f);
}
