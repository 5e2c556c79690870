/* Help: every key, generated from the request list so it cannot drift
 * from the bindings. It is an overlay: / n N find in it, the arrows and
 * pages scroll it, q or Escape close it; no other key reaches the pane
 * under it (typed text meant for a search must not export, filter or
 * switch panes). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/app.h"
#include "tui/draw.h"
#include "tui/panes.h"
#include "tui/theme.h"
#include "util/i18n.h"
#include "util/xalloc.h"

#define KEY_WIDTH 22

struct help {
	size_t scroll;
	int lines_total, height;
	char find[128]; /* what / looked for, "" for nothing */
	int found;      /* the line it was found on, -1: none */
};

/* The help's lines: a group's title (keys NULL), a key and what it does,
 * or a blank line between groups. f is called for each, in order. */
typedef void (*help_line_fn)(void *ctx, int line, const char *keys, const char *text);

static int each_line(help_line_fn f, void *ctx)
{
	size_t n;
	const struct request_info *reqs = request_table(&n);
	int line = 0;
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || strcmp(reqs[i - 1].group, reqs[i].group) != 0) {
			if (i > 0)
				f(ctx, line++, "", "");
			f(ctx, line++, NULL, _(reqs[i].group));
		}
		f(ctx, line++, reqs[i].keys, _(reqs[i].help));
	}
	return line;
}

struct drawing {
	struct help *h;
	int y, height, width;
};

/* One line of help, if it is scrolled into view (the line found stands
 * out). */
static void draw_line(void *ctx, int line, const char *keys, const char *text)
{
	const struct drawing *d = ctx;
	int row = line - (int)d->h->scroll;
	if (row < 0 || row >= d->height)
		return;
	int found = line == d->h->found;
	if (!keys) {
		draw_text(stdscr, d->y + row, 1, d->width - 1, text, theme_attr(THEME_HEADER));
		return;
	}
	if (found)
		draw_fill(stdscr, d->y + row, 0, d->width, theme_attr(THEME_CURSOR));
	draw_text(stdscr, d->y + row, 3, KEY_WIDTH - 3, keys, theme_attr(found ? THEME_CURSOR : THEME_KEY));
	draw_text(stdscr, d->y + row, KEY_WIDTH, d->width - KEY_WIDTH, text,
		  theme_attr(found ? THEME_CURSOR : THEME_NORMAL));
}

static void count_line(void *ctx, int line, const char *keys, const char *text)
{
	(void)ctx;
	(void)line;
	(void)keys;
	(void)text;
}

static size_t last_scroll(const struct help *h);

static void help_draw(struct view *v, struct app *app, int y, int height, int width)
{
	struct help *h = v->data;
	(void)app;
	/* A help taller than the screen keeps its last row to say what is
	 * left, as less does. */
	h->lines_total = each_line(count_line, NULL);
	h->height = h->lines_total > height && height > 1 ? height - 1 : height;
	if (h->scroll > last_scroll(h))
		h->scroll = last_scroll(h);
	struct drawing d = { h, y, h->height, width };
	each_line(draw_line, &d);
	if (h->height < height) {
		const char *mark = h->lines_total > (int)h->scroll + h->height
					   ? _("more below: Down, PageDown, End")
					   : _("end of the help");
		int w = (int)strlen(mark);
		draw_text(stdscr, y + h->height, width > w + 1 ? width - w - 1 : 0, w, mark,
			  theme_attr(THEME_LABEL));
	}
}

static size_t last_scroll(const struct help *h)
{
	return h->lines_total > h->height ? (size_t)(h->lines_total - h->height) : 0;
}

/* Looking for text around line from (wrapping). */
struct help_match {
	const char *text;
	int from;
	int first, last_before; /* first match at or after from; last before it */
	int any_first, any_last;
};

static void match_line(void *ctx, int line, const char *keys, const char *text)
{
	struct help_match *f = ctx;
	if (!(keys && *keys && (strcasestr(keys, f->text) || strcasestr(text, f->text))))
		return;
	if (f->any_first < 0)
		f->any_first = line;
	f->any_last = line;
	if (line >= f->from && f->first < 0)
		f->first = line;
	if (line <= f->from)
		f->last_before = line;
}

/* The line of the next match of h->find, from line from on (dir 1), or
 * back from it (dir -1), wrapping; -1 when none. */
static int find_line(const struct help *h, int from, int dir)
{
	struct help_match f = { h->find, from, -1, -1, -1, -1 };
	each_line(match_line, &f);
	if (dir > 0)
		return f.first >= 0 ? f.first : f.any_first;
	return f.last_before >= 0 ? f.last_before : f.any_last;
}

/* Bring line into view, a few lines below the top. */
static void show_line(struct help *h, int line)
{
	h->found = line;
	h->scroll = line > 2 ? (size_t)(line - 2) : 0;
	if (h->scroll > last_scroll(h))
		h->scroll = last_scroll(h);
}

static unsigned go_to_match(struct help *h, struct app *app, int from, int dir)
{
	if (!h->find[0]) {
		app_message(app, 1, "%s", _("Nothing looked for yet: / finds a key or a word"));
		return ACT_REDRAW;
	}
	int line = find_line(h, from, dir);
	if (line < 0) {
		h->found = -1;
		app_message(app, 1, _("No key or text holds \"%s\""), h->find);
		return ACT_REDRAW;
	}
	show_line(h, line);
	return ACT_REDRAW;
}

static void find_changed(struct app *app, const char *text, void *ctx)
{
	struct help *h = ctx;
	snprintf(h->find, sizeof(h->find), "%s", text);
	int line = *text ? find_line(h, 0, 1) : -1;
	h->found = line;
	if (line >= 0)
		show_line(h, line);
	(void)app;
}

static unsigned find_done(struct app *app, const char *text, int accepted, void *ctx)
{
	struct help *h = ctx;
	if (!accepted) {
		h->find[0] = '\0';
		h->found = -1;
		return ACT_REDRAW;
	}
	snprintf(h->find, sizeof(h->find), "%s", text);
	return go_to_match(h, app, 0, 1);
}

/* The requests the frame still answers over the help: close it, quit,
 * redraw, suspend. */
static int passes(enum request req)
{
	return req == REQ_QUIT || req == REQ_ESCAPE || req == REQ_QUIT_NOW || req == REQ_REFRESH ||
	       req == REQ_SUSPEND;
}

static unsigned help_request(struct view *v, struct app *app, enum request req)
{
	struct help *h = v->data;
	size_t max = last_scroll(h);
	switch (req) {
	case REQ_MOVE_UP:
		h->scroll = h->scroll ? h->scroll - 1 : 0;
		return ACT_REDRAW;
	case REQ_MOVE_DOWN:
		h->scroll = h->scroll < max ? h->scroll + 1 : max;
		return ACT_REDRAW;
	case REQ_PAGE_DOWN:
	case REQ_TOGGLE_LANE: /* Space, as in the tables */
		h->scroll = h->scroll + (size_t)(h->height > 1 ? h->height - 1 : 1);
		h->scroll = h->scroll < max ? h->scroll : max;
		return ACT_REDRAW;
	case REQ_MOVE_LAST:
	case REQ_TIME_END: /* End */
		h->scroll = max;
		return ACT_REDRAW;
	case REQ_PAGE_UP: {
		size_t page = (size_t)(h->height > 1 ? h->height - 1 : 1);
		h->scroll = h->scroll > page ? h->scroll - page : 0;
		return ACT_REDRAW;
	}
	case REQ_MOVE_FIRST:
	case REQ_TIME_START: /* Home */
		h->scroll = 0;
		return ACT_REDRAW;
	case REQ_FIND: {
		struct prompt_owner owner = { find_changed, find_done, h };
		prompt_open(&app->prompt, _("Find in the help: "), NULL, &owner);
		return ACT_REDRAW;
	}
	case REQ_FIND_NEXT:
		return go_to_match(h, app, h->found >= 0 ? h->found + 1 : (int)h->scroll, 1);
	case REQ_FIND_PREV:
		return go_to_match(h, app, h->found >= 0 ? h->found - 1 : (int)h->scroll, -1);
	case REQ_HELP:
		return ACT_NONE;
	default:
		if (passes(req))
			return ACT_UNHANDLED;
		app_message(app, 1, "%s",
			    _("In the help: / n N find, the arrows scroll, q or Escape closes it"));
		return ACT_REDRAW;
	}
}

static void help_free(struct view *v)
{
	free(v->data);
}

static const struct view_ops help_ops = {
	.name = "help",
	.title = N_("Help"),
	.draw = help_draw,
	.request = help_request,
	.free = help_free,
};

struct view view_help_new(struct app *app)
{
	(void)app;
	struct help *h = xcalloc(1, sizeof(*h));
	h->found = -1;
	return (struct view){ &help_ops, h };
}
