/* The table core's / n N: the next row whose text (in any column of text,
 * those not aligned right, but those marked TV_NO_FIND) holds what was typed, ignoring case, found as
 * it is typed; and Left/Right, which scroll the names sideways. */
#include "config.h"

#include <string.h>

#include "tui/app.h"
#include "tui/draw.h"
#include "tui/tableview_state.h"
#include "util/i18n.h"

static int row_matches(const struct tableview *tv, struct app *app, size_t row, const char *text)
{
	char buf[512];
	for (int c = 0; c < tv->spec->ncols; c++) {
		const struct tv_column *col = &tv->spec->cols[c];
		if (col->align != TV_RIGHT && !(col->flags & TV_NO_FIND) &&
		    strcasestr(tv_text(tv, app, row, c, buf, sizeof(buf)), text))
			return 1;
	}
	return 0;
}

/* The display position of the next row (in direction dir, from start,
 * wrapping) that matches text. */
static int find_pos(const struct tableview *tv, struct app *app, const char *text, size_t start, int dir,
		    size_t *found)
{
	size_t n = tv->n;
	for (size_t k = 0; k < n && *text; k++) {
		size_t i = (start + n + (size_t)dir * k) % n;
		if (row_matches(tv, app, tv->order[i], text)) {
			*found = i;
			return 1;
		}
	}
	return 0;
}

/* The cursor's display position (0 when it is on no row). */
static size_t cursor_pos(const struct tableview *tv)
{
	if (!tv->spec->groups)
		return tv->cursor;
	return tv->cursor < tv->nlines && tv->lines[tv->cursor].kind == TVL_ROW ? tv->lines[tv->cursor].pos
										: 0;
}

static void find_changed(struct app *app, const char *text, void *ctx)
{
	struct tableview *tv = ctx;
	size_t pos;
	if (find_pos(tv, app, text, tv->find_origin, 1, &pos))
		tv->cursor = tv_pos_line(tv, pos);
	else if (*text)
		app_message(app, 1, _("Not found: %s"), text);
}

static unsigned find_done(struct app *app, const char *text, int accepted, void *ctx)
{
	struct tableview *tv = ctx;
	size_t pos;
	if (!accepted) {
		if (tv->n)
			tv->cursor = tv_pos_line(tv, tv->find_origin);
		return ACT_REDRAW;
	}
	snprintf(tv->find, sizeof(tv->find), "%s", text);
	if (*text && !find_pos(tv, app, text, tv->find_origin, 1, &pos))
		app_message(app, 1, _("Not found: %s"), text);
	return ACT_REDRAW;
}

unsigned tv_find_open(struct tableview *tv, struct app *app)
{
	struct prompt_owner owner = { find_changed, find_done, tv };
	tv->find_origin = cursor_pos(tv);
	prompt_open(&app->prompt, _("Find: "), NULL, &owner);
	return ACT_REDRAW;
}

unsigned tv_find_again(struct tableview *tv, struct app *app, int dir)
{
	size_t pos;
	if (!tv->find[0]) {
		app_message(app, 0, "%s", _("Nothing to find yet (/)"));
		return ACT_REDRAW;
	}
	if (tv->n && find_pos(tv, app, tv->find, (cursor_pos(tv) + tv->n + (size_t)dir) % tv->n, dir, &pos))
		tv->cursor = tv_pos_line(tv, pos);
	else
		app_message(app, 1, _("Not found: %s"), tv->find);
	return ACT_REDRAW;
}

/* The widest text of column c, found once for the rows as they are. */
static int longest(struct tableview *tv, struct app *app, int c)
{
	char buf[512];
	if (tv->longest[c] >= 0)
		return tv->longest[c];
	int most = 0;
	for (size_t i = 0; i < tv->n; i++) {
		int w = text_width(tv_text(tv, app, i, c, buf, sizeof(buf)));
		most = w > most ? w : most;
	}
	return tv->longest[c] = most;
}

int tv_scroll_max(struct tableview *tv, struct app *app)
{
	int max = 0;
	for (int c = 0; c < tv->spec->ncols && c < TV_MAX_COLS; c++) {
		if (tv->w[c] < 0 || !(tv->spec->cols[c].flags & TV_SCROLL))
			continue;
		int over = longest(tv, app, c) - tv->w[c];
		max = over > max ? over : max;
	}
	return max;
}

/* Half the first scrolled column's width at a time. */
static int scroll_step(const struct tableview *tv)
{
	for (int c = 0; c < tv->spec->ncols; c++)
		if (tv->w[c] >= 0 && (tv->spec->cols[c].flags & TV_SCROLL))
			return tv->w[c] > 2 ? tv->w[c] / 2 : 1;
	return 1;
}

unsigned tv_scroll(struct tableview *tv, struct app *app, int dir)
{
	int max = tv_scroll_max(tv, app);
	if (max == 0) {
		tv->hscroll = 0;
		app_message(app, 0, "%s", _("The names fit: nothing to scroll"));
		return ACT_REDRAW;
	}
	tv->hscroll += dir * scroll_step(tv);
	tv->hscroll = tv->hscroll < 0 ? 0 : tv->hscroll > max ? max : tv->hscroll;
	return ACT_REDRAW;
}
