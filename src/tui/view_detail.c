/* Details of one name: its full name, every statistic and a histogram of
 * its instances' durations. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/histogram.h"
#include "tui/app.h"
#include "tui/draw.h"
#include "tui/panes.h"
#include "tui/theme.h"
#include "util/i18n.h"
#include "util/units.h"
#include "util/xalloc.h"

#define LABEL_WIDTH 14
#define HIST_BUCKETS 16

struct detail {
	enum profile_scope scope;
	uint32_t name;
	struct profile_row row;
	double percent;
	struct histogram hist;
	size_t scroll;
	int lines_total; /* as last drawn, to bound scrolling */
	int height;
};

/* Lines are laid out while drawing; line numbers before scroll are skipped. */
struct layout {
	struct detail *d;
	int y0, height, width, line;
};

static int visible(struct layout *l, int *y)
{
	int n = l->line++ - (int)l->d->scroll;
	*y = l->y0 + n;
	return n >= 0 && n < l->height;
}

static void text_line(struct layout *l, const char *s, enum theme_elem e)
{
	int y;
	if (visible(l, &y))
		draw_text(stdscr, y, 1, l->width - 1, s, theme_attr(e));
}

static void stat_line(struct layout *l, const char *label, const char *value)
{
	int y;
	if (!visible(l, &y))
		return;
	draw_text(stdscr, y, 1, LABEL_WIDTH, label, theme_attr(THEME_LABEL));
	draw_text(stdscr, y, 1 + LABEL_WIDTH, l->width - 1 - LABEL_WIDTH, value, theme_attr(THEME_NORMAL));
}

static void ns_line(struct layout *l, const char *label, int64_t ns)
{
	char buf[UNITS_BUFSZ], line[96];
	snprintf(line, sizeof(line), "%s  (%lld ns)", units_format_ns(ns, buf, sizeof(buf)), (long long)ns);
	stat_line(l, label, line);
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
	if (!visible(l, &y))
		return;
	uint64_t most = 1;
	for (size_t i = 0; i < h->nbuckets; i++)
		if (h->count[i] > most)
			most = h->count[i];
	snprintf(range, sizeof(range), "%10s - %-10s", units_format_ns(h->lo[b], lo, sizeof(lo)),
		 units_format_ns(h->hi[b], hi, sizeof(hi)));
	snprintf(count, sizeof(count), "%llu", (unsigned long long)h->count[b]);
	int x = 1 + draw_text(stdscr, y, 1, l->width - 1, range, theme_attr(THEME_LABEL)) + 1;
	int bar = l->width - x - 10;
	if (bar > 0) {
		draw_bar(stdscr, y, x, bar, (double)h->count[b] / (double)most, theme_attr(THEME_BAR));
		x += bar + 1;
	}
	draw_text(stdscr, y, x, l->width - x, count, theme_attr(THEME_NORMAL));
}

static void detail_draw(struct view *v, struct app *app, int y, int height, int width)
{
	struct detail *d = v->data;
	struct layout l = { d, y, height, width, 0 };
	char buf[128], pct[64];
	const char *raw = trace_str(app->trace, d->name), *shown = app_name(app, d->name);
	d->height = height;

	wrapped(&l, shown);
	if (strcmp(raw, shown) != 0) {
		text_line(&l, _("As recorded:"), THEME_DIM);
		wrapped(&l, raw);
	}
	text_line(&l, "", THEME_NORMAL);
	stat_line(&l, _("Scope"), d->scope == PROFILE_KERNELS ? _("kernels") : _("all GPU ops"));
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)d->row.calls);
	stat_line(&l, _("Calls"), buf);
	snprintf(pct, sizeof(pct), _("%.2f %% of the time in scope"), d->percent);
	stat_line(&l, _("Share"), pct);
	ns_line(&l, _("Total"), d->row.total);
	ns_line(&l, _("Average"), profile_row_avg(&d->row));
	ns_line(&l, _("Std dev"), (int64_t)d->hist.stddev);
	ns_line(&l, _("Minimum"), d->hist.min);
	ns_line(&l, _("Median"), d->hist.median);
	ns_line(&l, _("90th pct"), d->hist.p90);
	ns_line(&l, _("99th pct"), d->hist.p99);
	ns_line(&l, _("Maximum"), d->hist.max);
	text_line(&l, "", THEME_NORMAL);
	text_line(&l, d->hist.log_scale ? _("Durations (log-spaced buckets)") : _("Durations"), THEME_HEADER);
	for (size_t b = 0; b < d->hist.nbuckets; b++)
		hist_line(&l, b);
	d->lines_total = l.line;
}

static unsigned detail_request(struct view *v, struct app *app, enum request req)
{
	struct detail *d = v->data;
	size_t max = d->lines_total > d->height ? (size_t)(d->lines_total - d->height) : 0;
	size_t page = d->height > 1 ? (size_t)d->height - 1 : 1;
	(void)app;
	switch (req) {
	case REQ_MOVE_UP:
		d->scroll = d->scroll ? d->scroll - 1 : 0;
		break;
	case REQ_MOVE_DOWN:
		d->scroll = d->scroll < max ? d->scroll + 1 : max;
		break;
	case REQ_PAGE_UP:
		d->scroll = d->scroll > page ? d->scroll - page : 0;
		break;
	case REQ_PAGE_DOWN:
		d->scroll = d->scroll + page < max ? d->scroll + page : max;
		break;
	case REQ_MOVE_FIRST:
		d->scroll = 0;
		break;
	case REQ_MOVE_LAST:
		d->scroll = max;
		break;
	case REQ_ENTER:
	case REQ_DETAILS:
		return ACT_NONE;
	default:
		return ACT_UNHANDLED;
	}
	return ACT_REDRAW;
}

static void detail_free(struct view *v)
{
	free(v->data);
}

static const struct view_ops detail_ops = {
	.name = "detail",
	.title = N_("Details"),
	.draw = detail_draw,
	.request = detail_request,
	.free = detail_free,
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
	int64_t *durations = profile_durations(app->trace, scope, app_sel(app), row->name, &n);
	histogram_build(durations, n, HIST_BUCKETS, &d->hist);
	free(durations);
	return (struct view){ &detail_ops, d };
}
