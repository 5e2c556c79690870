/* Details of one name: its full name, every statistic, its ops' launch
 * latency and queue delay (as -r launch has them) and a histogram of its
 * instances' durations. A cursor picks a statistic (Enter: an instance of
 * that duration in the timeline; it starts on the maximum, the longest
 * instance) or a bucket (Enter: the list of its instances). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/api_calls.h"
#include "analysis/histogram.h"
#include "analysis/launch.h"
#include "analysis/markers.h"
#include "analysis/search.h"
#include "tui/app.h"
#include "tui/draw.h"
#include "tui/panes.h"
#include "tui/theme.h"
#include "util/i18n.h"
#include "util/units.h"
#include "util/xalloc.h"

#define LABEL_WIDTH 14
#define HIST_BUCKETS 16
#define PICK_STATS 5 /* minimum, median, 90th and 99th percentiles, maximum */

/* An op name's launch figures: not yet (the API rows, which link calls
 * to ops, are being read), none (no op of the name has a known launch),
 * or its row of the launch analysis. */
enum launch_state { LAUNCH_WAIT, LAUNCH_NONE, LAUNCH_KNOWN };

struct detail {
	enum profile_scope scope;
	int calls;                       /* API calls or roctx ranges, not ops */
	struct call_stats cs;            /* their figures */
	int64_t average;                 /* of their whole durations */
	uint32_t launch;                 /* ops: the call that launched the longest instance, or TRACE_NONE */
	enum launch_state latency_state; /* ops: the launch figures... */
	struct launch_row latency;       /* ...when known */
	uint32_t *ranges;                /* the roctx ranges around that call, outermost first */
	size_t nranges;
	uint32_t name;
	struct profile_row row;
	double percent;
	struct histogram hist;
	size_t scroll;
	int height;
	size_t pick;                                  /* the statistic or bucket picked */
	int pick_line[PICK_STATS + HIST_MAX_BUCKETS]; /* their lines, as laid out */
};

/* Lines are laid out while drawing; line numbers before scroll are skipped.
 * A dry run lays them out without drawing. */
struct layout {
	struct detail *d;
	int y0, height, width, line;
	int dry;
};

static int visible(struct layout *l, int *y)
{
	int n = l->line++ - (int)l->d->scroll;
	*y = l->y0 + n;
	return !l->dry && n >= 0 && n < l->height;
}

static size_t picks(const struct detail *d)
{
	return PICK_STATS + d->hist.nbuckets;
}

/* The attribute of a line that can be picked (the k-th such line). */
static attr_t pick_attr(struct layout *l, size_t k, enum theme_elem e)
{
	l->d->pick_line[k] = l->line;
	return theme_attr(l->d->pick == k ? THEME_CURSOR : e);
}

static void text_line(struct layout *l, const char *s, enum theme_elem e)
{
	int y;
	if (visible(l, &y))
		draw_text(stdscr, y, 1, l->width - 1, s, theme_attr(e));
}

static void picked_line(struct layout *l, const char *label, const char *value, attr_t label_attr,
			attr_t value_attr)
{
	int y;
	if (!visible(l, &y))
		return;
	draw_text(stdscr, y, 1, LABEL_WIDTH, label, label_attr);
	draw_text(stdscr, y, 1 + LABEL_WIDTH, l->width - 1 - LABEL_WIDTH, value, value_attr);
}

static void stat_line(struct layout *l, const char *label, const char *value)
{
	picked_line(l, label, value, theme_attr(THEME_LABEL), theme_attr(THEME_NORMAL));
}

/* A duration; pick is its place among the lines that can be picked, or -1. */
static void ns_line(struct layout *l, const char *label, int64_t ns, int pick)
{
	char buf[UNITS_BUFSZ], line[96];
	snprintf(line, sizeof(line), "%s  (%lld ns)", units_format_ns(ns, buf, sizeof(buf)), (long long)ns);
	if (pick < 0)
		stat_line(l, label, line);
	else
		picked_line(l, label, line, pick_attr(l, (size_t)pick, THEME_LABEL),
			    pick_attr(l, (size_t)pick, THEME_NORMAL));
}

/* The full name over as many lines as it needs. */
static void wrapped(struct layout *l, const char *s)
{
	int room = l->width - 2;
	size_t len = strlen(s), pos = 0;
	char *piece = xmalloc(len + 1);
	while (pos < len) {
		/* Take bytes while they fit; never split a UTF-8 sequence. */
		size_t end = pos;
		while (end < len) {
			size_t next = end + 1;
			while (next < len && ((unsigned char)s[next] & 0xc0) == 0x80)
				next++;
			memcpy(piece, s + pos, next - pos);
			piece[next - pos] = '\0';
			if (text_width(piece) > room && end > pos)
				break;
			end = next;
		}
		memcpy(piece, s + pos, end - pos);
		piece[end - pos] = '\0';
		text_line(l, piece, THEME_NORMAL);
		pos = end;
	}
	free(piece);
}

static void hist_line(struct layout *l, size_t b)
{
	const struct histogram *h = &l->d->hist;
	char lo[UNITS_BUFSZ], hi[UNITS_BUFSZ], range[64], count[32];
	int y;
	attr_t at = pick_attr(l, PICK_STATS + b, THEME_LABEL);
	if (!visible(l, &y))
		return;
	uint64_t most = 1;
	for (size_t i = 0; i < h->nbuckets; i++)
		if (h->count[i] > most)
			most = h->count[i];
	snprintf(range, sizeof(range), "%10s - %-10s", units_format_ns(h->lo[b], lo, sizeof(lo)),
		 units_format_ns(h->hi[b], hi, sizeof(hi)));
	snprintf(count, sizeof(count), "%llu", (unsigned long long)h->count[b]);
	int x = 1 + draw_text(stdscr, y, 1, l->width - 1, range, at) + 1;
	int bar = l->width - x - 10;
	if (bar > 0) {
		draw_bar(stdscr, y, x, bar, (double)h->count[b] / (double)most, theme_attr(THEME_BAR));
		x += bar + 1;
	}
	draw_text(stdscr, y, x, l->width - x, count, theme_attr(THEME_NORMAL));
}

/* Where the longest instance was launched from: its call and the roctx
 * ranges around it (which step, which layer). */
static void launch_lines(struct detail *d, struct app *app, struct layout *l)
{
	const struct trace *t = app->trace;
	if (d->launch == TRACE_NONE)
		return;
	char by[256];
	snprintf(by, sizeof(by), _("%s (the longest instance)"), app_name(app, trace_api_name(t, d->launch)));
	stat_line(l, _("Launched by"), by);
	if (!d->nranges)
		return;
	text_line(l, _("within the roctx ranges (outermost first):"), THEME_DIM);
	size_t size = 1;
	for (size_t i = 0; i < d->nranges; i++)
		size += strlen(trace_str(t, trace_api_shown_name(t, d->ranges[i]))) + 5;
	char *chain = xmalloc(size);
	chain[0] = '\0';
	for (size_t i = 0; i < d->nranges; i++) {
		if (i)
			strcat(chain, " > ");
		strcat(chain, trace_str(t, trace_api_shown_name(t, d->ranges[i])));
	}
	wrapped(l, chain);
	free(chain);
}

/* The launch latency and queue delay of the name's ops, their median and
 * most, or why they are not known. */
static void latency_lines(struct detail *d, struct layout *l)
{
	char p50[UNITS_BUFSZ], max[UNITS_BUFSZ], buf[256];
	const struct launch_row *r = &d->latency;
	if (d->latency_state == LAUNCH_WAIT) {
		stat_line(l, _("Latency"), _("not known yet: the API calls are being read"));
		return;
	}
	if (d->latency_state == LAUNCH_NONE) {
		stat_line(l, _("Latency"), _("not known: no op of this name has a known launching call"));
		return;
	}
	snprintf(buf, sizeof(buf), _("p50 %s  max %s  (%lld / %lld ns, %llu ops)"),
		 units_format_ns(r->launch_p50, p50, sizeof(p50)),
		 units_format_ns(r->launch_max, max, sizeof(max)), (long long)r->launch_p50,
		 (long long)r->launch_max, (unsigned long long)r->ops);
	stat_line(l, _("Latency"), buf);
	snprintf(buf, sizeof(buf), _("p50 %s  max %s  (%lld / %lld ns)"),
		 units_format_ns(r->queue_p50, p50, sizeof(p50)),
		 units_format_ns(r->queue_max, max, sizeof(max)), (long long)r->queue_p50,
		 (long long)r->queue_max);
	stat_line(l, _("Queue delay"), buf);
}

/* The figures of API calls or roctx ranges (-r api, -r markers). */
static void calls_lines(struct detail *d, struct layout *l)
{
	char buf[64];
	stat_line(l, _("Scope"), d->cs.markers ? _("roctx ranges") : _("API calls"));
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)d->cs.calls);
	stat_line(l, _("Calls"), buf);
	ns_line(l, _("Total"), d->cs.total, -1);
	if (d->cs.self >= 0)
		ns_line(l, _("Self"), d->cs.self, -1);
	if (d->cs.gpu >= 0) {
		ns_line(l, _("GPU time"), d->cs.gpu, -1);
		snprintf(buf, sizeof(buf), "%lld", (long long)d->cs.ops);
		stat_line(l, _("GPU ops"), buf);
	}
	ns_line(l, _("Average"), d->average, -1);
}

static void lay_out(struct detail *d, struct app *app, struct layout *lp)
{
	struct layout l = *lp;
	char buf[128], pct[64];
	const char *raw = trace_str(app->trace, d->name), *shown = app_name(app, d->name);

	wrapped(&l, shown);
	if (strcmp(raw, shown) != 0) {
		text_line(&l, _("As recorded:"), THEME_DIM);
		wrapped(&l, raw);
	}
	text_line(&l, "", THEME_NORMAL);
	if (d->calls) {
		calls_lines(d, &l);
	} else {
		stat_line(&l, _("Scope"), d->scope == PROFILE_KERNELS ? _("kernels") : _("all GPU ops"));
		snprintf(buf, sizeof(buf), "%llu", (unsigned long long)d->row.calls);
		stat_line(&l, _("Calls"), buf);
		snprintf(pct, sizeof(pct), _("%.2f %% of the time in scope"), d->percent);
		stat_line(&l, _("Share"), pct);
		ns_line(&l, _("Total"), d->row.total, -1);
		ns_line(&l, _("Average"), profile_row_avg(&d->row), -1);
	}
	ns_line(&l, _("Std dev"), d->hist.std, -1);
	ns_line(&l, _("Minimum"), d->hist.min, 0);
	ns_line(&l, _("Median"), d->hist.median, 1);
	ns_line(&l, _("90th pct"), d->hist.p90, 2);
	ns_line(&l, _("99th pct"), d->hist.p99, 3);
	ns_line(&l, _("Maximum"), d->hist.max, 4);
	if (!d->calls)
		latency_lines(d, &l);
	launch_lines(d, app, &l);
	text_line(&l, "", THEME_NORMAL);
	text_line(&l, d->hist.log_scale ? _("Durations (log-spaced buckets)") : _("Durations"), THEME_HEADER);
	for (size_t b = 0; b < d->hist.nbuckets; b++)
		hist_line(&l, b);
}

static void detail_draw(struct view *v, struct app *app, int y, int height, int width)
{
	struct detail *d = v->data;
	struct layout l = { d, y, height, width, 0, 1 };
	d->height = height;
	/* Laid out first, to scroll the picked line into view. */
	lay_out(d, app, &l);
	int at = d->pick_line[d->pick];
	if (d->pick == 0)
		d->scroll = 0;
	else if (at < (int)d->scroll)
		d->scroll = (size_t)at;
	else if (at >= (int)d->scroll + height)
		d->scroll = (size_t)(at - height + 1);
	l.dry = 0;
	lay_out(d, app, &l);
}

/* Enter: an instance of the picked duration in the timeline (the first
 * by start; n and N there walk the name's instances), or the instances
 * of the picked bucket in a list. */
static unsigned open_pick(struct detail *d, struct app *app)
{
	const struct histogram *h = &d->hist;
	struct search_query q = search_query_all(!d->calls, d->calls);
	q.name = d->name;
	q.kernels_only = d->scope == PROFILE_KERNELS;
	q.has_duration = 1;
	if (d->pick < PICK_STATS) {
		const int64_t value[PICK_STATS] = { h->min, h->median, h->p90, h->p99, h->max };
		struct search_result r;
		q.min_duration = value[d->pick];
		q.max_duration = value[d->pick] + 1;
		if (search_run(app->trace, app_sel(app), &q, &r) || r.n == 0) {
			search_free(&r);
			app_message(app, 1, "%s", _("No instance of this duration is in view"));
			return ACT_REDRAW;
		}
		uint32_t ref = r.refs[0];
		search_free(&r);
		return app_walk_in_timeline(app, ref);
	}
	/* A bucket holds the durations from its lower bound up to the next
	 * bucket's (histogram_build puts a value in the last bucket whose
	 * lower bound it reaches). */
	size_t b = d->pick - PICK_STATS;
	char lo[UNITS_BUFSZ], hi[UNITS_BUFSZ], title[1024];
	q.min_duration = h->lo[b];
	q.max_duration = b + 1 < h->nbuckets ? h->lo[b + 1] : h->max + 1;
	snprintf(title, sizeof(title), "%s - %s  %s", units_format_ns(h->lo[b], lo, sizeof(lo)),
		 units_format_ns(h->hi[b], hi, sizeof(hi)), app_name(app, d->name));
	app_push(app, view_results_new(app, title, &q, NULL));
	return ACT_REDRAW;
}

static unsigned detail_request(struct view *v, struct app *app, enum request req)
{
	struct detail *d = v->data;
	size_t last = picks(d) - 1, page = d->height > 1 ? (size_t)d->height - 1 : 1;
	switch (req) {
	case REQ_MOVE_UP:
		d->pick = d->pick ? d->pick - 1 : 0;
		break;
	case REQ_MOVE_DOWN:
		d->pick = d->pick < last ? d->pick + 1 : last;
		break;
	case REQ_PAGE_UP:
		d->pick = d->pick > page ? d->pick - page : 0;
		break;
	case REQ_PAGE_DOWN:
		d->pick = d->pick + page < last ? d->pick + page : last;
		break;
	case REQ_MOVE_FIRST:
		d->pick = 0;
		break;
	case REQ_MOVE_LAST:
		d->pick = last;
		break;
	case REQ_ENTER:
		return open_pick(d, app);
	case REQ_DETAILS:
		return ACT_NONE;
	default:
		return ACT_UNHANDLED;
	}
	return ACT_REDRAW;
}

static void detail_free(struct view *v)
{
	struct detail *d = v->data;
	free(d->ranges);
	free(d);
}

/* The longest instance (the first in time of that duration, the one
 * Enter on the maximum shows) and its launch, once the API rows are in. */
static void find_launch(struct detail *d, struct app *app)
{
	struct search_query q = search_query_all(1, 0);
	struct search_result r;
	d->launch = TRACE_NONE;
	if (d->hist.n == 0)
		return;
	/* The launches are API rows: taken in when read (a script waits). */
	app_need_apis(app);
	q.name = d->name;
	q.kernels_only = d->scope == PROFILE_KERNELS;
	q.has_duration = 1;
	q.min_duration = d->hist.max;
	q.max_duration = d->hist.max + 1;
	if (search_run(app->trace, app_sel(app), &q, &r) == 0 && r.n > 0)
		d->launch = trace_op_launch(app->trace, r.refs[0]);
	search_free(&r);
	if (d->launch != TRACE_NONE)
		d->ranges = markers_enclosing(app->trace, d->launch, &d->nranges);
}

/* The name's launch figures, once the API rows are in: its row of the
 * launch analysis over what is in view, the same ops -r launch counts. */
static unsigned detail_idle(struct view *v, struct app *app)
{
	struct detail *d = v->data;
	if (d->calls || d->latency_state != LAUNCH_WAIT)
		return ACT_NONE;
	app_need_apis(app); /* taken in when read (a script waits) */
	if (workspace_apis(app->ws) == WORKSPACE_APIS_READING)
		return ACT_NONE;
	struct launch_stats s;
	launch_stats_by_name(app->trace, app_sel(app), &s);
	d->latency_state = LAUNCH_NONE;
	for (size_t i = 0; i < s.n; i++)
		if (s.rows[i].name == d->name) {
			d->latency = s.rows[i];
			d->latency_state = LAUNCH_KNOWN;
		}
	launch_stats_free(&s);
	/* Opened before the API rows came: the longest instance's call too. */
	if (d->launch == TRACE_NONE && !d->ranges)
		find_launch(d, app);
	return ACT_REDRAW;
}

static const struct view_ops detail_ops = {
	.name = "detail",
	.title = N_("Details"),
	.draw = detail_draw,
	.request = detail_request,
	.free = detail_free,
	.idle = detail_idle,
};

struct view view_detail_new(struct app *app, enum profile_scope scope, const struct profile_row *row,
			    double percent)
{
	struct detail *d = xcalloc(1, sizeof(*d));
	size_t n;
	d->scope = scope;
	d->name = row->name;
	d->row = *row;
	d->percent = percent;
	d->pick = PICK_STATS - 1; /* the maximum: Enter shows the longest instance */
	int64_t *durations = profile_durations(app->trace, scope, app_sel(app), row->name, &n);
	histogram_build(durations, n, HIST_BUCKETS, &d->hist);
	free(durations);
	find_launch(d, app);
	return (struct view){ &detail_ops, d };
}

struct view view_detail_calls_new(struct app *app, const struct call_stats *s)
{
	struct detail *d = xcalloc(1, sizeof(*d));
	size_t n;
	d->calls = 1;
	d->launch = TRACE_NONE;
	d->cs = *s;
	d->name = s->name;
	d->pick = PICK_STATS - 1;
	int64_t *durations = api_durations(app->trace, app_sel(app), s->name, s->markers, &n);
	int64_t sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += durations[i];
	d->average = n ? sum / (int64_t)n : 0;
	histogram_build(durations, n, HIST_BUCKETS, &d->hist);
	free(durations);
	return (struct view){ &detail_ops, d };
}
