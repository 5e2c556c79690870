/* The table core: every table of the viewer (the profile, kernels, busy,
 * API and markers panes, the gaps, diff, instances and range views) is a
 * column list and a row source over this one core, as tig's views are
 * over its view core and htop's panels over Panel. The core owns the
 * cursor and paging, / n N find, s S and header-click sort, Left/Right
 * sideways scroll of the names, the columns a narrow screen drops, and
 * the rows made again when the selection changes (between events, never
 * while drawing). It shows the names of every name column (TV_NAME) in
 * the name style (d, t, T) and cuts those too long in the middle, so
 * that no view shows a name otherwise. A view adds its own Enter, v and
 * other keys. */
#ifndef RPDTOP_TABLEVIEW_H
#define RPDTOP_TABLEVIEW_H

#include <stddef.h>
#include <stdint.h>

#include "present/report.h"
#include "tui/view.h"

struct app;

/* Widths that are not a number of columns. */
enum {
	TV_REST = -1,  /* what the columns before it leave */
	TV_SHARE = -2, /* an equal share of that with the TV_SHARE and
			* TV_REST columns after it the screen shows
			* (names side by side) */
	TV_FIT = -3,   /* as the row source says (tv_source_ops.fit_width) */
};

enum tv_align {
	TV_RIGHT, /* numbers */
	TV_LEFT,  /* text */
	TV_MID,   /* text too long loses its middle (labels whose end tells them apart) */
	/* Names (of ops, calls, roctx texts), from tv_source_ops.name: the
	 * core shows them in the name style (d, t, T) and a name too long
	 * keeps its head and the part that tells it from the other names of
	 * the column (of its group), an ellipsis for the middle between. */
	TV_NAME,
};

/* How a column sorts: numbers largest first (by tv_source_ops.key),
 * text in order (by its cells' text). */
enum tv_kind { TV_NUMBER, TV_TEXT };

enum {
	TV_SCROLL = 1, /* Left and Right scroll it sideways (the names); its header says from which column */
	TV_MARK_REVERSED = 2, /* its order is the rows' own: no sort mark until reversed */
	TV_NO_FIND = 4,       /* / does not look in this text column */
};

struct tv_column {
	const char *title;     /* N_() */
	const char *sort_name; /* N_(), for "Sorted by ..."; NULL: no sort by it */
	int width;             /* columns, or TV_REST, TV_SHARE, TV_FIT */
	int pad;               /* blank columns before it, after a column shown */
	int min_screen;        /* shown only on screens at least this wide */
	enum tv_align align;
	enum tv_kind kind;
	int sort_slot; /* its place (1, 2, ...) in the order s walks through; 0: none */
	unsigned flags;
	/* The column of the report it shows (tv_spec.report), by key: its
	 * title when the column has none, its cells (tv_source_ops.cells)
	 * written as the report's text writes them, sorted by their value.
	 * NULL: the view's own column (text, key). */
	const char *key;
};

/* What a TV_NAME column holds in a row: a string of the trace shown (id),
 * which the core shows in the name style; or, id TRACE_NONE, a name
 * already in that style (shown: the diff's, compared as shown); or
 * neither: no name, the text hook's text is drawn plain (a label). */
struct tv_name {
	uint32_t id;
	const char *shown;
	const char *before; /* words before the name ("after"), or NULL */
};

/* Who a row is, to keep the cursor on it when the rows are made again. */
struct tv_ident {
	uint64_t a, b;
};

/* A row source. Rows are numbered 0 .. n-1 in the source's own order;
 * the core keeps the order they are shown in. Hooks marked optional may
 * be NULL. */
struct tv_source_ops {
	/* Optional: are the rows still good for what else they were made of
	 * (the name style, a threshold)? The core makes them again for a new
	 * selection. */
	int (*current)(void *src, struct app *app);
	/* Make the rows again; returns how many there are. */
	size_t (*fill)(void *src, struct app *app);
	/* The text of a cell of the view's own as shown, in buf or a string
	 * that lives as long as the rows; a TV_NAME column's only when it
	 * holds no name. Optional when all those columns hold names. */
	const char *(*text)(void *src, struct app *app, size_t row, int col, char *buf, size_t size);
	/* The number a TV_NUMBER column of the view's own sorts by. */
	int64_t (*key)(void *src, size_t row, int col);
	struct tv_ident (*ident)(void *src, size_t row);
	/* Optional: the figures of a row in its report's cells (columns with
	 * a key), as the report puts them (present/report_rows.h). */
	void (*cells)(void *src, size_t row, struct table_cell *cells);
	/* Optional: rows that tie in the column sorted by, in this order (a
	 * negative answer puts a first); NULL: in the source's order. */
	int (*tie)(void *src, struct app *app, size_t a, size_t b);
	/* Optional: put the rows in the order of column col faster than a
	 * comparison sort would (millions of gaps), or in the order they came
	 * in (groups: a group's rows together, the groups in order). 0 when
	 * done, -1 to let the core sort. */
	int (*order)(void *src, struct app *app, int col, uint32_t *order, size_t n);
	/* The name of a TV_NAME column in a row (a pinned row's too); needed
	 * when the view has such a column. */
	struct tv_name (*name)(void *src, struct app *app, size_t row, int col);
	/* Optional: the width of a TV_FIT column on a screen width wide. */
	int (*fit_width)(void *src, int col, int width);
	/* Optional: the lines above the table (titles, figures), at most
	 * height of them from row y; returns how many it drew. */
	int (*draw_top)(void *src, struct app *app, int y, int height, int width);
	/* Optional: rows shown right after the header, apart from the
	 * others (the diff's total): text() gives them as rows n, n + 1, ... */
	size_t (*pinned)(void *src);
	/* Optional: what the header shows past the last column (a caption). */
	const char *(*header_tail)(void *src, struct app *app, char *buf, size_t size);
	/* Optional: draw past the last column of a row (a bar). */
	void (*draw_tail)(void *src, struct app *app, size_t row, int y, int x, int width, int cursor);
	/* Optional: why there is no row ("No GPU op passes the filter"),
	 * when tv_spec.empty does not say it. */
	const char *(*empty)(void *src, struct app *app);
	/* Optional: the views' own keys, given the cursor's row (SIZE_MAX
	 * when none); ACT_UNHANDLED for those it leaves to the core. */
	unsigned (*enter)(void *src, struct app *app, size_t row);
	unsigned (*details)(void *src, struct app *app, size_t row);
	unsigned (*request)(void *src, struct app *app, size_t row, enum request req);
	/* Optional: a line below the table (what the keys do there). */
	const char *(*footer)(void *src, struct app *app);
	/* What the source holds is freed (the source itself is the view's). */
	void (*release)(void *src);
};

/* The hooks every row source has, named after its prefix x: x_fill,
 * x_ident and x_release. */
#define TV_ROWS(x) .fill = x##_fill, .ident = x##_ident, .release = x##_release

/* Sections: the rows fall into groups (the range view's ops, GPUs, calls
 * and markers), each drawn under lines of its own and sorted within. */
struct tv_groups {
	size_t n;
	/* The group of a row; rows of a group follow each other in the
	 * source's order. */
	size_t (*of)(void *src, size_t row);
	/* The lines before group g's rows; the last of them is its header,
	 * which the core draws with the group's titles. */
	int (*lines_before)(void *src, size_t g);
	/* Draw line k (not the last) of those before group g at y. */
	void (*draw_line)(void *src, struct app *app, size_t g, int k, int y, int width);
	/* A column's title in group g (NULL: the column's own). */
	const char *(*title)(void *src, size_t g, int col);
	/* The line of a group without rows ("none"). */
	const char *empty;
};

/* A table view: the view it is, its columns and where its rows come
 * from. */
struct tv_spec {
	struct view_ops view; /* TV_VIEW(name, title) */
	const struct tv_column *cols;
	int ncols;
	int first_sort; /* the column sorted by at first */
	/* 1 + the column whose order is the rows' own (they come in it: no
	 * sort), or 0. */
	int own_order;
	int lead;                        /* blank columns before the first column shown */
	int tail_pad;                    /* blank columns before the tail (header_tail, draw_tail) */
	int empty_skip;                  /* lines between the table's top and why it is empty */
	const char *empty;               /* N_(): why there is no row (ops->empty may say better) */
	const struct tv_groups *groups;  /* NULL: one table under one header */
	const struct report_def *report; /* the report whose rows it shows, or NULL */
	const struct tv_source_ops *ops;
};

/* The view ops every table view has: name and title its own. */
void tableview_draw(struct view *v, struct app *app, int y, int height, int width);
unsigned tableview_request(struct view *v, struct app *app, enum request req);
unsigned tableview_click(struct view *v, struct app *app, int row, int col, int button);
unsigned tableview_idle(struct view *v, struct app *app);
void tableview_free(struct view *v);

#define TV_VIEW(view_name, view_title)                                                                       \
	{                                                                                                    \
		.name = view_name, .title = view_title, .draw = tableview_draw,                              \
		.request = tableview_request, .click = tableview_click, .free = tableview_free,              \
		.idle = tableview_idle,                                                                      \
	}
#define TV_COLS(columns) .cols = (columns), .ncols = (int)(sizeof(columns) / sizeof((columns)[0]))

/* A view showing the table of spec over a row source of size bytes,
 * zeroed, that the view holds (tableview_source gives it to be set up)
 * and frees after ops->release. */
struct view tableview_new(const struct tv_spec *spec, size_t size);

/* The row source of a table view (its data). */
void *tableview_source(const struct view *v);
/* The row under the cursor, SIZE_MAX when there is none. */
size_t tableview_cursor_row(const struct view *v);

#endif
