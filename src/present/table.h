/* A report as a table of typed cells: built once from an analysis, then
 * written as text, CSV or JSON by the writers below. */
#ifndef RPDTOP_TABLE_H
#define RPDTOP_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum col_type {
	COL_NAME,           /* long text; last column in text output */
	COL_LABEL,          /* short text */
	COL_COUNT,          /* integer */
	COL_NS,             /* duration in ns; human units in text output */
	COL_PERCENT,        /* 0..100 */
	COL_VALUE,          /* a measured value (a counter's), as it is */
	COL_NS_CHANGE,      /* COL_NS that is a change: "+" before growth in text */
	COL_PERCENT_CHANGE, /* COL_PERCENT the same */
};

struct table_col {
	const char *key;   /* CSV header and JSON member */
	const char *title; /* text header, untranslated (N_) */
	enum col_type type;
};

/* One value, as its column's type says (a report of millions of gaps
 * holds eight of these per row: they are kept small). */
struct table_cell {
	const char *text; /* COL_NAME, COL_LABEL: owned, unless borrowed */
	union {
		int64_t num; /* COL_COUNT, COL_NS */
		double pct;  /* COL_PERCENT */
		double val;  /* COL_VALUE */
	};
	unsigned char borrowed;
	unsigned char empty; /* no value: "-" in text, empty in CSV and Markdown, null in JSON */
};

struct table;

/* Where a table's rows go as they are made: a writer that can write each
 * row once it is final (CSV) gives one to table_open before a report is
 * built, so that a report of millions of rows (every gap) never holds
 * them all. start: the table's columns are known (table_init); rows: the
 * rows held, which the table then drops. */
struct table_sink {
	void (*start)(const struct table *tb, void *ctx);
	void (*rows)(const struct table *tb, void *ctx);
	void *ctx;
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
	struct table_cell *cells;      /* nrows * ncols, row-major */
	const struct table_sink *sink; /* table_open's, or NULL: rows kept */
	size_t nrows, cap;
	/* A totals row for JSON (a line of its own after the rows): the
	 * columns whose bit is set in totals_cols, or none when 0. */
	struct table_cell *totals;
	uint64_t totals_cols;
};

/* A table for a report to build, its rows going to sink as they are made
 * (NULL: kept until written). */
void table_open(struct table *tb, const struct table_sink *sink);
/* Set a table's report and columns, with no rows: a table not opened
 * (table_open) must be zeroed before; an opened one keeps its sink. */
void table_init(struct table *tb, const char *report, const struct table_col *cols, size_t ncols);
void table_free(struct table *tb);
/* Append a row and return its cells to fill in. */
struct table_cell *table_add_row(struct table *tb);
void table_set_text(struct table_cell *cell, const char *s, size_t len);
/* Point the cell at s, not copied: a string of the trace, which is not
 * changed before the table is written (a report of millions of gaps
 * would otherwise copy three names per row). */
void table_set_ref(struct table_cell *cell, const char *s);
/* The totals row's cells (made on first use); set its columns' bits. */
struct table_cell *table_totals(struct table *tb);

enum table_format { FORMAT_TEXT, FORMAT_CSV, FORMAT_JSON, FORMAT_MD, FORMAT_TSV };

/* A cell as people read it (durations in human units), in buf or the
 * cell's own text. */
const char *table_cell_text(const struct table_col *col, const struct table_cell *cell, char *buf,
			    size_t size);

void table_write_text(const struct table *tb, FILE *out);
/* The caption and the line naming the filter, places and window in force. */
void table_write_text_head(const struct table *tb, FILE *out);
/* The header and rows alone, without caption or footer. */
void table_write_text_rows(const struct table *tb, FILE *out);
void table_write_csv(const struct table *tb, FILE *out);
/* The sink of CSV written to out as a table's rows are made (the header
 * first); table_write_csv then writes the rows it still holds. */
void table_csv_sink(struct table_sink *sink, FILE *out);
/* The same with tabs between the cells, nothing quoted (TSV). */
void table_write_tsv(const struct table *tb, FILE *out);
void table_tsv_sink(struct table_sink *sink, FILE *out);
/* inputs are listed in the object so a saved report says what it covers. */
void table_write_json(const struct table *tb, const char *const *inputs, size_t ninputs, FILE *out);
/* The rows as a JSON array of objects, and a JSON string. */
void table_write_json_rows(const struct table *tb, FILE *out);
void table_write_json_string(const char *s, FILE *out);
/* v in decimal, as printf writes it, for the writers of many cells: into
 * buf (size bytes, cut short as snprintf does; returns buf), or out. */
const char *table_format_int64(int64_t v, char *buf, size_t size);
void table_put_int64(int64_t v, FILE *out);
/* A Markdown (GitHub) table, for a CI comment: names escaped so that no
 * character of an input makes markup. */
void table_write_md(const struct table *tb, FILE *out);
void table_write_md_rows(const struct table *tb, FILE *out);
/* Text for Markdown, its markup characters escaped. */
void table_write_md_text(const char *s, FILE *out);
/* Lines of text, each escaped and ending in a Markdown line break. */
void table_write_md_lines(const char *s, FILE *out);

#endif
