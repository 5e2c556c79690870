#include "config.h"
#include "present/table.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"
#include "util/units.h"
#include "util/utf8.h"
#include "util/xalloc.h"

#define GAP "  "

static void put_file(const char *piece, size_t len, void *ctx)
{
	fwrite(piece, 1, len, ctx);
}

/* The cell as text people read: durations in human units. */
const char *table_cell_text(const struct table_col *col, const struct table_cell *cell, char *buf,
			    size_t size)
{
	if (cell->empty)
		return "-";
	switch (col->type) {
	case COL_NAME:
	case COL_LABEL:
		return cell->text ? cell->text : "";
	case COL_COUNT:
		return table_format_int64(cell->num, buf, size);
	case COL_NS:
		return units_format_ns(cell->num, buf, size);
	case COL_NS_CHANGE: {
		char u[UNITS_BUFSZ];
		snprintf(buf, size, "%s%s", cell->num > 0 ? "+" : "",
			 units_format_ns(cell->num, u, sizeof(u)));
		return buf;
	}
	case COL_PERCENT_CHANGE:
		snprintf(buf, size, "%+.2f", cell->pct);
		return buf;
	case COL_PERCENT:
		snprintf(buf, size, "%.2f", cell->pct);
		return buf;
	case COL_VALUE:
		snprintf(buf, size, "%.10g", cell->val);
		return buf;
	}
	return "";
}

/* Long names go last so the numbers stay aligned however long they are. */
static size_t *text_order(const struct table *tb)
{
	size_t *order = xmalloc_array(tb->ncols, sizeof(*order)), k = 0;
	for (size_t c = 0; c < tb->ncols; c++)
		if (tb->cols[c].type != COL_NAME)
			order[k++] = c;
	for (size_t c = 0; c < tb->ncols; c++)
		if (tb->cols[c].type == COL_NAME)
			order[k++] = c;
	return order;
}

/* n spaces, a block at a time: a column of long names pads every row. */
static void pad(size_t n, FILE *out)
{
	static const char spaces[] = "                                                                ";
	while (n > 0) {
		size_t k = n < sizeof(spaces) - 1 ? n : sizeof(spaces) - 1;
		fwrite(spaces, 1, k, out);
		n -= k;
	}
}

static void write_cell(const struct table_col *col, const char *s, size_t width, int last, FILE *out)
{
	size_t w = utf8_escaped_width(s);
	int right = col->type != COL_NAME && col->type != COL_LABEL;
	if (right && w < width)
		pad(width - w, out);
	utf8_write_escaped(s, put_file, out);
	if (!right && !last && w < width)
		pad(width - w, out);
}

void table_write_text(const struct table *tb, FILE *out)
{
	table_write_text_head(tb, out);
	table_write_text_rows(tb, out);
	if (tb->footer)
		fputs(tb->footer, out);
}

void table_write_text_head(const struct table *tb, FILE *out)
{
	/* A caption may name something of the input (the steps' text). */
	if (tb->caption[0]) {
		utf8_write_escaped(tb->caption, put_file, out);
		fputc('\n', out);
	}
	if (tb->filter[0] || tb->places[0] || tb->window[0]) {
		fprintf(out, "%s", _("Only"));
		if (tb->filter[0])
			fprintf(out, _(" names passing %s"), tb->filter);
		if (tb->places[0])
			fprintf(out, tb->filter[0] ? _(", ops %s") : _(" ops %s"), tb->places);
		if (tb->window[0])
			fprintf(out, _(" overlapping %s"), tb->window);
		fputc('\n', out);
	}
}

void table_write_text_rows(const struct table *tb, FILE *out)
{
	char buf[64];
	size_t *order = text_order(tb);
	size_t *width = xcalloc(tb->ncols, sizeof(*width));
	for (size_t c = 0; c < tb->ncols; c++) {
		width[c] = utf8_escaped_width(_(tb->cols[c].title));
		for (size_t r = 0; r < tb->nrows; r++) {
			size_t w = utf8_escaped_width(table_cell_text(
				&tb->cols[c], &tb->cells[r * tb->ncols + c], buf, sizeof(buf)));
			if (w > width[c])
				width[c] = w;
		}
	}
	for (size_t k = 0; k < tb->ncols; k++) {
		size_t c = order[k];
		fputs(k ? GAP : "", out);
		write_cell(&tb->cols[c], _(tb->cols[c].title), width[c], k + 1 == tb->ncols, out);
	}
	fputc('\n', out);
	for (size_t r = 0; r < tb->nrows; r++) {
		for (size_t k = 0; k < tb->ncols; k++) {
			size_t c = order[k];
			const char *s = table_cell_text(&tb->cols[c], &tb->cells[r * tb->ncols + c], buf,
							sizeof(buf));
			fputs(k ? GAP : "", out);
			write_cell(&tb->cols[c], s, width[c], k + 1 == tb->ncols, out);
		}
		fputc('\n', out);
	}
	free(width);
	free(order);
}
