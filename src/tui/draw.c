#include "config.h"
#include "tui/draw.h"

#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "tui/theme.h"
#include "util/utf8.h"

/* One display cell group of s: the bytes to draw (into out) and their
 * width. Returns the bytes of s consumed, 0 at the end. */
static size_t next_cell(const char *s, char out[16], int *width)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t avail = strnlen(s, 4);
	if (!avail)
		return 0;
	size_t len = utf8_seq_len(p, avail);
	if (len == 1 && p[0] >= 0x20 && p[0] != 0x7f) {
		out[0] = (char)p[0];
		out[1] = '\0';
		*width = 1;
		return 1;
	}
	if (len > 1 && glyphs()->utf8) {
		wchar_t wc;
		mbstate_t st;
		memset(&st, 0, sizeof(st));
		int w = mbrtowc(&wc, s, len, &st) == len ? wcwidth(wc) : -1;
		if (w >= 0) {
			memcpy(out, s, len);
			out[len] = '\0';
			*width = w;
			return len;
		}
	}
	snprintf(out, 16, "\\x%02x", p[0]);
	*width = 4;
	return 1;
}

int text_width(const char *s)
{
	char cell[16];
	int w, total = 0;
	for (size_t n; (n = next_cell(s, cell, &w)); s += n)
		total += w;
	return total;
}

int draw_text(WINDOW *win, int y, int x, int width, const char *s, attr_t attr)
{
	char cell[16];
	int w, used = 0;
	if (width <= 0)
		return 0;
	int fits = text_width(s) <= width;
	int room = fits ? width : width - 1; /* one column for the ellipsis */
	wattrset(win, attr);
	wmove(win, y, x);
	for (size_t n; (n = next_cell(s, cell, &w)); s += n) {
		if (used + w > room)
			break;
		waddstr(win, cell);
		used += w;
	}
	if (!fits) {
		waddstr(win, glyphs()->ellipsis);
		used++;
	}
	return used;
}

int draw_text_mid(WINDOW *win, int y, int x, int width, const char *s, attr_t attr)
{
	char cell[16];
	int w, total = text_width(s);
	if (total <= width || width < 3)
		return draw_text(win, y, x, width, s, attr);
	/* The cells of the tail: as many as fit after the head and "…". */
	int tail = (width - 1) / 2, head = width - 1 - tail, skip = total - tail, at = 0;
	const char *t = s;
	for (size_t n; at < skip && (n = next_cell(t, cell, &w)); t += n)
		at += w;
	int used = draw_text(win, y, x, head + 1, s, attr); /* its own ellipsis ends the head */
	return used + draw_text(win, y, x + used, width - used, t, attr);
}

/* Columns of the first n bytes of s. */
static int prefix_width(const char *s, size_t n)
{
	char cell[16];
	int w, total = 0;
	for (const char *p = s; (size_t)(p - s) < n;) {
		size_t len = next_cell(p, cell, &w);
		if (!len)
			break;
		total += w;
		p += len;
	}
	return total;
}

/* Cells of a parting shown after it, for a cut at the end to tell it. */
#define PARTING_SHOWN 6
/* How far back from the parting its word may start. */
#define PARTING_WORD 24

int draw_text_parted(WINDOW *win, int y, int x, int width, const char *s, size_t parting, attr_t attr)
{
	size_t len = strlen(s);
	if (parting > len)
		parting = len;
	if (text_width(s) <= width || prefix_width(s, parting) + PARTING_SHOWN < width)
		return draw_text(win, y, x, width, s, attr);
	/* From the start of the word it parts in ("LBSPPA1024", not "1024"). */
	size_t from = parting;
	while (from > 0 && parting - from < PARTING_WORD && !strchr("_:<>(), ", s[from - 1]))
		from--;
	while (from > 0 && ((unsigned char)s[from] & 0xc0) == 0x80)
		from--;
	int room = width - 1, tail = text_width(s + from);
	int tail_room = tail < room / 2 ? tail : room / 2, head = room - tail_room;
	if (prefix_width(s, from) <= head || head < 4)
		return draw_text(win, y, x, width, s, attr);
	int used = draw_text(win, y, x, head + 1, s, attr); /* its own ellipsis ends the head */
	return used + draw_text(win, y, x + used, width - used, s + from, attr);
}

int draw_text_scrolled(WINDOW *win, int y, int x, int width, const char *s, int skip, attr_t attr)
{
	char cell[16];
	int w, at = 0;
	if (skip <= 0 || width < 2)
		return draw_text(win, y, x, width, s, attr);
	/* The ellipsis takes the place of the first column shown. */
	while (at <= skip) {
		size_t n = next_cell(s, cell, &w);
		if (!n)
			break;
		at += w;
		s += n;
	}
	wattrset(win, attr);
	mvwaddstr(win, y, x, glyphs()->ellipsis);
	return 1 + draw_text(win, y, x + 1, width - 1, s, attr);
}

void draw_text_right(WINDOW *win, int y, int x, int width, const char *s, attr_t attr)
{
	int w = text_width(s);
	if (w < width) {
		draw_fill(win, y, x, width - w, attr);
		draw_text(win, y, x + width - w, w, s, attr);
	} else {
		draw_text(win, y, x, width, s, attr);
	}
}

void draw_fill(WINDOW *win, int y, int x, int width, attr_t attr)
{
	wattrset(win, attr);
	for (int i = 0; i < width; i++)
		mvwaddch(win, y, x + i, ' ');
}

void draw_bar(WINDOW *win, int y, int x, int width, double fraction, attr_t attr)
{
	const struct glyphs *g = glyphs();
	if (fraction < 0)
		fraction = 0;
	if (fraction > 1)
		fraction = 1;
	int eighths = (int)(fraction * width * 8 + 0.5);
	int full = eighths / 8, part = g->utf8 ? eighths % 8 : 0;
	wattrset(win, attr);
	wmove(win, y, x);
	for (int i = 0; i < full && i < width; i++)
		waddstr(win, g->bar_full);
	if (part && full < width)
		waddstr(win, g->bar_part[part]);
}
