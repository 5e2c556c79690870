/* Help: every key, generated from the request list so it cannot drift
 * from the bindings. */
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
};

/* One line of help at position *line, if it is scrolled into view. */
static void help_line(struct help *h, int *line, int y, int height, int width, const char *keys,
		      const char *text)
{
	int row = (*line)++ - (int)h->scroll;
	if (row < 0 || row >= height)
		return;
	if (!keys) {
		draw_text(stdscr, y + row, 1, width - 1, text, theme_attr(THEME_HEADER));
		return;
	}
	draw_text(stdscr, y + row, 3, KEY_WIDTH - 3, keys, theme_attr(THEME_KEY));
	draw_text(stdscr, y + row, KEY_WIDTH, width - KEY_WIDTH, text, theme_attr(THEME_NORMAL));
}

static void help_draw(struct view *v, struct app *app, int y, int height, int width)
{
	struct help *h = v->data;
	size_t n;
	const struct request_info *reqs = request_table(&n);
	int line = 0;
	(void)app;
	h->height = height;
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || strcmp(reqs[i - 1].group, reqs[i].group) != 0) {
			if (i > 0)
				help_line(h, &line, y, height, width, "", "");
			help_line(h, &line, y, height, width, NULL, _(reqs[i].group));
		}
		help_line(h, &line, y, height, width, reqs[i].keys, _(reqs[i].help));
	}
	h->lines_total = line;
}

static unsigned help_request(struct view *v, struct app *app, enum request req)
{
	struct help *h = v->data;
	size_t max = h->lines_total > h->height ? (size_t)(h->lines_total - h->height) : 0;
	(void)app;
	switch (req) {
	case REQ_MOVE_UP:
		h->scroll = h->scroll ? h->scroll - 1 : 0;
		return ACT_REDRAW;
	case REQ_MOVE_DOWN:
		h->scroll = h->scroll < max ? h->scroll + 1 : max;
		return ACT_REDRAW;
	case REQ_PAGE_DOWN:
	case REQ_MOVE_LAST:
		h->scroll = max;
		return ACT_REDRAW;
	case REQ_PAGE_UP:
	case REQ_MOVE_FIRST:
		h->scroll = 0;
		return ACT_REDRAW;
	case REQ_HELP:
		return ACT_NONE;
	default:
		return ACT_UNHANDLED;
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
	return (struct view){ &help_ops, xcalloc(1, sizeof(struct help)) };
}
