/* What a table view holds, shared by the files of the table core
 * (tableview.c: rows, order and keys; tableview_draw.c; tableview_find.c).
 * No view reads it: they see only tableview.h. */
#ifndef RPDTOP_TABLEVIEW_STATE_H
#define RPDTOP_TABLEVIEW_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "tui/prompt.h"
#include "tui/tableview.h"

#define TV_MAX_COLS 16
#define TV_REPORT_COLS 32   /* the most columns of a report a table shows */
#define TV_PLAIN UINT32_MAX /* a parting: the text is drawn plain */

/* What a line of a table with groups shows. */
enum tv_line_kind { TVL_ROW, TVL_BEFORE, TVL_HEADER, TVL_EMPTY };

struct tv_line {
	unsigned char kind;
	unsigned char k; /* TVL_BEFORE: which of the lines before its group */
	uint32_t group;
	size_t pos; /* TVL_ROW: its display position */
};

struct tableview {
	const struct tv_spec *spec;
	void *src;
	size_t n;        /* rows */
	uint32_t *order; /* display position -> row */
	/* Groups: the lines and, per display position, its line. Without
	 * groups a line is a display position. */
	struct tv_line *lines;
	size_t *pos_line;
	size_t nlines;
	size_t cursor, top; /* lines */
	int height;         /* lines shown, as last drawn */
	int sort, reverse;
	int ready;
	unsigned generation; /* of the selection the rows are of */
	unsigned style;      /* the name style the order and partings are of */
	/* Per row of a TV_NAME column, the byte its text parts at from the
	 * other names' (TV_PLAIN: drawn plain); NULL: to find. */
	uint32_t *parting[TV_MAX_COLS];
	int longest[TV_MAX_COLS]; /* the widest text of a scrolled column; -1: to find */
	int hscroll;              /* columns the scrolled columns are moved to the left */
	char find[PROMPT_MAX];
	size_t find_origin;
	/* As last drawn, in the view's rows and the screen's columns. */
	int header_y, table_y;
	int x[TV_MAX_COLS], w[TV_MAX_COLS]; /* w < 0: not shown */
	/* Each column's in the report (tv_column.key), or NULL. */
	const struct table_col *rcol[TV_MAX_COLS];
};

/* tableview.c */
size_t tv_nlines(const struct tableview *tv);
int tv_is_row(const struct tableview *tv, size_t line);
/* Are the rows those of the selection shown, and of whatever else the
 * source made them of? */
int tv_rows_current(const struct tableview *tv, struct app *app);
/* The row a line shows, or SIZE_MAX for a line that is no row. */
size_t tv_line_row(const struct tableview *tv, size_t line);
size_t tv_pos_line(const struct tableview *tv, size_t pos);
/* The nearest line that is a row from line i in direction dir. */
size_t tv_snap(const struct tableview *tv, size_t i, int dir);
/* Keep the cursor on screen for height lines. */
void tv_fit(struct tableview *tv, int height);
/* Rows made again if the application shows something else. */
void tv_ensure(struct tableview *tv, struct app *app);
/* Sort by column col (reverse: the other way), keeping the cursor on its
 * row, and say so. */
unsigned tv_sort_by(struct tableview *tv, struct app *app, int col, int reverse, int say_order);
/* The text of a cell, and of a pinned row (a name as shown). */
const char *tv_text(const struct tableview *tv, struct app *app, size_t row, int col, char *buf, size_t size);
/* Forget the partings of the names (the rows or the name style changed). */
void tv_forget_partings(struct tableview *tv);
/* The number a number column sorts by. */
int64_t tv_key(const struct tableview *tv, size_t row, int col);

/* tableview_find.c */
unsigned tv_find_open(struct tableview *tv, struct app *app);
unsigned tv_find_again(struct tableview *tv, struct app *app, int dir);
unsigned tv_scroll(struct tableview *tv, struct app *app, int dir);
/* The most the scrolled columns can move: until their widest text ends
 * in view. */
int tv_scroll_max(struct tableview *tv, struct app *app);

/* tableview_draw.c */
void tv_draw(struct tableview *tv, struct app *app, int y, int height, int width);
/* The column at screen column x as last drawn, or -1. */
int tv_column_at(const struct tableview *tv, int x);

#endif
