/* Drawing helpers: text that is always safe for the terminal and always
 * fits its column, right-aligned numbers, bars. */
#ifndef RPDTOP_DRAW_H
#define RPDTOP_DRAW_H

#include <curses.h>

/* Columns s takes when drawn by draw_text. */
int text_width(const char *s);

/* Draw s at (y, x) in at most width columns: control characters (and any
 * byte that is not valid text in the locale) are shown as \xNN, and text
 * too long ends with an ellipsis. Returns the columns drawn. */
int draw_text(WINDOW *w, int y, int x, int width, const char *s, attr_t attr);

/* The same, but text too long loses its middle ("node-a…13/2"): for
 * labels whose end tells them apart. */
int draw_text_mid(WINDOW *w, int y, int x, int width, const char *s, attr_t attr);
/* The same, but text too long that parts from others like it only at byte
 * parting (name_parting) keeps its head and the word it parts in: the
 * ellipsis stands for the middle they share ("Cijk_Alik_…LBSPPA1024_…"). */
int draw_text_parted(WINDOW *w, int y, int x, int width, const char *s, size_t parting, attr_t attr);
/* s scrolled sideways by skip columns: an ellipsis stands for what is
 * left of the first column shown. */
int draw_text_scrolled(WINDOW *w, int y, int x, int width, const char *s, int skip, attr_t attr);
/* Right-align s in a field of width columns. */
void draw_text_right(WINDOW *w, int y, int x, int width, const char *s, attr_t attr);

/* Spaces from x over width columns. */
void draw_fill(WINDOW *w, int y, int x, int width, attr_t attr);

/* A horizontal bar filled to fraction (0..1) of width, in eighths of a cell
 * where the glyphs allow. */
void draw_bar(WINDOW *w, int y, int x, int width, double fraction, attr_t attr);

#endif
