#include "config.h"
#include "tui/prompt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "tui/draw.h"
#include "tui/request.h"
#include "tui/theme.h"
#include "util/xalloc.h"

void prompt_open(struct prompt *p, const char *label, const char *initial, const struct prompt_owner *owner)
{
	p->active = 1;
	snprintf(p->label, sizeof(p->label), "%s", label);
	snprintf(p->text, sizeof(p->text), "%s", initial ? initial : "");
	p->len = p->cursor = strlen(p->text);
	p->owner = *owner;
	p->browse = p->nhistory;
	p->error[0] = '\0';
	p->one_key = 0;
}

void prompt_open_key(struct prompt *p, const char *label, const struct prompt_owner *owner)
{
	prompt_open(p, label, NULL, owner);
	p->one_key = 1;
}

/* The one key a prompt_open_key prompt waits for; not remembered. */
static unsigned one_key(struct prompt *p, struct app *app, const char *text)
{
	p->active = 0;
	snprintf(p->text, sizeof(p->text), "%s", text ? text : "");
	unsigned act = p->owner.done(app, p->text, text && *text, p->owner.ctx);
	return ACT_REDRAW | (act & ~(unsigned)ACT_STAY);
}

void prompt_error(struct prompt *p, const char *msg)
{
	snprintf(p->error, sizeof(p->error), "%s", msg);
}

void prompt_set_label(struct prompt *p, const char *label)
{
	snprintf(p->label, sizeof(p->label), "%s", label);
}

void prompt_free(struct prompt *p)
{
	for (size_t i = 0; i < p->nhistory; i++)
		free(p->history[i]);
	p->nhistory = 0;
}

static int continuation(char c)
{
	return ((unsigned char)c & 0xc0) == 0x80;
}

static size_t prev_char(const struct prompt *p, size_t at)
{
	while (at > 0 && continuation(p->text[--at]))
		;
	return at;
}

static size_t next_char(const struct prompt *p, size_t at)
{
	if (at < p->len)
		at++;
	while (at < p->len && continuation(p->text[at]))
		at++;
	return at;
}

static void cut(struct prompt *p, size_t from, size_t to)
{
	memmove(p->text + from, p->text + to, p->len - to + 1);
	p->len -= to - from;
	p->cursor = from;
}

static void insert(struct prompt *p, const char *s)
{
	size_t n = strlen(s);
	if (p->len + n >= sizeof(p->text))
		return;
	memmove(p->text + p->cursor + n, p->text + p->cursor, p->len - p->cursor + 1);
	memcpy(p->text + p->cursor, s, n);
	p->len += n;
	p->cursor += n;
}

static void remember(struct prompt *p)
{
	if (!p->len || (p->nhistory && strcmp(p->history[p->nhistory - 1], p->text) == 0))
		return;
	if (p->nhistory == PROMPT_HISTORY) {
		free(p->history[0]);
		memmove(p->history, p->history + 1, (PROMPT_HISTORY - 1) * sizeof(*p->history));
		p->nhistory--;
	}
	p->history[p->nhistory++] = xstrdup(p->text);
}

static void recall(struct prompt *p, int step)
{
	if (step < 0 && p->browse == 0)
		return;
	if (step > 0 && p->browse >= p->nhistory)
		return;
	p->browse = (size_t)((long)p->browse + step);
	const char *s = p->browse < p->nhistory ? p->history[p->browse] : "";
	snprintf(p->text, sizeof(p->text), "%s", s);
	p->len = p->cursor = strlen(p->text);
}

static unsigned finish(struct prompt *p, struct app *app, int accepted)
{
	p->active = 0;
	if (accepted)
		remember(p);
	unsigned act = p->owner.done(app, p->text, accepted, p->owner.ctx);
	if (act & ACT_STAY)
		p->active = 1;
	return ACT_REDRAW | (act & ~(unsigned)ACT_STAY);
}

/* Editing keys, as in readline's defaults. Returns 1 when the text changed. */
static int edit(struct prompt *p, const char *name, const char *text)
{
	if (text && *text) {
		insert(p, text);
		return 1;
	}
	if (!strcmp(name, "Backspace") || !strcmp(name, "C-h") || !strcmp(name, "DEL")) {
		if (p->cursor == 0)
			return 0;
		cut(p, prev_char(p, p->cursor), p->cursor);
		return 1;
	}
	if (!strcmp(name, "Delete") || !strcmp(name, "C-d")) {
		if (p->cursor == p->len)
			return 0;
		cut(p, p->cursor, next_char(p, p->cursor));
		return 1;
	}
	if (!strcmp(name, "C-u")) {
		cut(p, 0, p->cursor);
		return 1;
	}
	if (!strcmp(name, "C-k")) {
		p->text[p->cursor] = '\0';
		p->len = p->cursor;
		return 1;
	}
	if (!strcmp(name, "C-w")) {
		size_t at = p->cursor;
		while (at > 0 && p->text[at - 1] == ' ')
			at--;
		while (at > 0 && p->text[at - 1] != ' ')
			at--;
		cut(p, at, p->cursor);
		return 1;
	}
	if (!strcmp(name, "Left") || !strcmp(name, "C-b"))
		p->cursor = prev_char(p, p->cursor);
	else if (!strcmp(name, "Right") || !strcmp(name, "C-f"))
		p->cursor = next_char(p, p->cursor);
	else if (!strcmp(name, "Home") || !strcmp(name, "C-a"))
		p->cursor = 0;
	else if (!strcmp(name, "End") || !strcmp(name, "C-e"))
		p->cursor = p->len;
	return 0;
}

unsigned prompt_key(struct prompt *p, struct app *app, const char *name, const char *text)
{
	p->error[0] = '\0';
	if (p->one_key)
		return one_key(p, app, text);
	if (!strcmp(name, "Enter"))
		return finish(p, app, 1);
	if (!strcmp(name, "Escape") || !strcmp(name, "C-c") || !strcmp(name, "C-g"))
		return finish(p, app, 0);
	int changed;
	if (!strcmp(name, "Up") || !strcmp(name, "Down")) {
		recall(p, !strcmp(name, "Up") ? -1 : 1);
		changed = 1;
	} else {
		changed = edit(p, name, text);
	}
	if (changed && p->owner.changed)
		p->owner.changed(app, p->text, p->owner.ctx);
	return ACT_REDRAW;
}

/* The columns the character at at takes. */
static int char_width(const struct prompt *p, size_t at)
{
	char c[8] = { 0 };
	size_t n = next_char(p, at) - at;
	memcpy(c, p->text + at, n < sizeof(c) ? n : sizeof(c) - 1);
	return text_width(c);
}

void prompt_draw(const struct prompt *p, int y, int cols)
{
	attr_t a = theme_attr(THEME_NORMAL);
	draw_fill(stdscr, y, 0, cols, a);
	int x = draw_text(stdscr, y, 0, cols, p->label, theme_attr(THEME_KEY));
	/* An error takes the place of the label's end, before the text. */
	if (p->error[0]) {
		x += draw_text(stdscr, y, x, cols - x, p->error, theme_attr(THEME_ERROR));
		x += draw_text(stdscr, y, x, cols - x, " ", a);
	}
	/* Keep the cursor in view: drop characters from the left while the
	 * text before the cursor does not fit, each character's width taken
	 * once (a pasted line redraws the prompt for every key it holds). */
	char before[PROMPT_MAX];
	size_t from = 0;
	int width = 0, room = cols - x - 2;
	for (size_t at = 0; at < p->cursor; at = next_char(p, at))
		width += char_width(p, at);
	while (from < p->cursor && width > room) {
		width -= char_width(p, from);
		from = next_char(p, from);
	}
	memcpy(before, p->text + from, p->cursor - from);
	before[p->cursor - from] = '\0';
	int cx = x + draw_text(stdscr, y, x, cols - x, before, a);
	/* The cursor: the character under it, or a blank, in reverse. */
	char under[8] = " ";
	size_t n = next_char(p, p->cursor) - p->cursor;
	if (n > 0 && n < sizeof(under)) {
		memcpy(under, p->text + p->cursor, n);
		under[n] = '\0';
	}
	if (cx < cols) {
		int w = draw_text(stdscr, y, cx, cols - cx, under, theme_attr(THEME_CURSOR));
		if (cx + w < cols)
			draw_text(stdscr, y, cx + w, cols - cx - w, p->text + p->cursor + n, a);
	}
}
