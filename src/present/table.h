/* A report as a table of typed cells: built once from an analysis, then
 * written as text, CSV or JSON by the writers below. */
#ifndef RPDTOP_TABLE_H
#define RPDTOP_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum col_type {
	COL_NAME,    /* long text; last column in text output */
	COL_LABEL,   /* short text */
	COL_COUNT,   /* integer */
	COL_NS,      /* duration in ns; human units in text output */
	COL_PERCENT, /* 0..100 */
	COL_VALUE,   /* a measured value (a counter's), as it is */
};

struct table_col {
	const char *key;   /* CSV header and JSON member */
	const char *title; /* text header, untranslated (N_) */
	enum col_type type;
};

struct table_cell {
	char *text;  /* COL_NAME, COL_LABEL; owned */
	int64_t num; /* COL_COUNT, COL_NS */
	double pct;  /* COL_PERCENT */
	double val;  /* COL_VALUE */
};

struct table {
	const char *report; /* "top", "ktop", "busy" */
	char caption[256];  /* one line for people, text output only */
	char filter[256];   /* the filter in force, "" for none */
	char window[128];   /* the window in force, "" for none */
	char places[300];   /* the GPU and input filters in force, "" for none */
	char *footer;       /* lines after the rows, text output only; owned, or NULL */
	const struct table_col *cols;
	size_t ncols;
	struct table_cell *cells; /* nrows * ncols, row-major */
	size_t nrows, cap;
	/* A totals row for JSON (a line of its own after the rows): the
	 * columns whose bit is set in totals_cols, or none when 0. */
	struct table_cell *totals;
	uint64_t totals_cols;
};

void table_init(struct table *tb, const char *report, const struct table_col *cols, size_t ncols);
void table_free(struct table *tb);
/* Append a row and return its cells to fill in. */
struct table_cell *table_add_row(struct table *tb);
void table_set_text(struct table_cell *cell, const char *s, size_t len);
/* The totals row's cells (made on first use); set its columns' bits. */
struct table_cell *table_totals(struct table *tb);

enum table_format { FORMAT_TEXT, FORMAT_CSV, FORMAT_JSON };

void table_write_text(const struct table *tb, FILE *out);
void table_write_csv(const struct table *tb, FILE *out);
/* inputs are listed in the object so a saved report says what it covers. */
void table_write_json(const struct table *tb, const char *const *inputs, size_t ninputs, FILE *out);

#endif
