#include "config.h"
#include "present/table.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void table_open(struct table *tb, const struct table_sink *sink)
{
	memset(tb, 0, sizeof(*tb));
	tb->sink = sink;
}

void table_init(struct table *tb, const char *report, const struct table_col *cols, size_t ncols)
{
	table_open(tb, tb->sink);
	tb->report = report;
	tb->cols = cols;
	tb->ncols = ncols;
	if (tb->sink)
		tb->sink->start(tb, tb->sink->ctx);
}

void table_free(struct table *tb)
{
	for (size_t i = 0; i < tb->nrows * tb->ncols; i++)
		if (!tb->cells[i].borrowed)
			free((char *)tb->cells[i].text);
	free(tb->cells);
	free(tb->totals);
	free(tb->footer);
	memset(tb, 0, sizeof(*tb));
}

/* Forget the rows written (their texts freed, the cells kept). */
static void drop_rows(struct table *tb)
{
	for (size_t i = 0; i < tb->nrows * tb->ncols; i++)
		if (!tb->cells[i].borrowed)
			free((char *)tb->cells[i].text);
	tb->nrows = 0;
}

struct table_cell *table_add_row(struct table *tb)
{
	if (tb->sink && tb->nrows) {
		tb->sink->rows(tb, tb->sink->ctx);
		drop_rows(tb);
	}
	tb->cells = xgrow(tb->cells, &tb->cap, (tb->nrows + 1) * tb->ncols, sizeof(*tb->cells));
	struct table_cell *row = tb->cells + tb->nrows * tb->ncols;
	memset(row, 0, tb->ncols * sizeof(*row));
	tb->nrows++;
	return row;
}

void table_set_text(struct table_cell *cell, const char *s, size_t len)
{
	if (!cell->borrowed)
		free((char *)cell->text);
	char *copy = xmalloc(len + 1);
	memcpy(copy, s, len);
	copy[len] = '\0';
	cell->text = copy;
	cell->borrowed = 0;
}

void table_set_ref(struct table_cell *cell, const char *s)
{
	if (!cell->borrowed)
		free((char *)cell->text);
	cell->text = s;
	cell->borrowed = 1;
}

struct table_cell *table_totals(struct table *tb)
{
	if (!tb->totals)
		tb->totals = xcalloc(tb->ncols, sizeof(*tb->totals));
	return tb->totals;
}

/* An integer in decimal, as printf writes it (%lld), without parsing a
 * format for each of millions of cells. */
const char *table_format_int64(int64_t v, char *buf, size_t size)
{
	char digits[24], *p = digits + sizeof(digits);
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	*--p = '\0';
	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--p = '-';
	size_t n = (size_t)(digits + sizeof(digits) - p);
	if (size) {
		memcpy(buf, p, n <= size ? n : size - 1);
		buf[n <= size ? n - 1 : size - 1] = '\0';
	}
	return buf;
}

void table_put_int64(int64_t v, FILE *out)
{
	char buf[24];
	fputs(table_format_int64(v, buf, sizeof(buf)), out);
}
