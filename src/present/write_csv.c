#include "config.h"
#include "present/table.h"

#include <inttypes.h>
#include <string.h>

/* RFC 4180: quote a field holding a separator, quote or line break. */
static void csv_field(const char *s, FILE *out)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void csv_cell(const struct table_col *col, const struct table_cell *cell, FILE *out)
{
	switch (col->type) {
	case COL_NAME:
	case COL_LABEL:
		csv_field(cell->text ? cell->text : "", out);
		break;
	case COL_COUNT:
	case COL_NS:
		fprintf(out, "%" PRId64, cell->num);
		break;
	case COL_PERCENT:
		fprintf(out, "%.6f", cell->pct);
		break;
	case COL_VALUE:
		fprintf(out, "%.10g", cell->val);
		break;
	}
}

void table_write_csv(const struct table *tb, FILE *out)
{
	for (size_t c = 0; c < tb->ncols; c++)
		fprintf(out, "%s%s", c ? "," : "", tb->cols[c].key);
	fputc('\n', out);
	for (size_t r = 0; r < tb->nrows; r++) {
		for (size_t c = 0; c < tb->ncols; c++) {
			if (c)
				fputc(',', out);
			csv_cell(&tb->cols[c], &tb->cells[r * tb->ncols + c], out);
		}
		fputc('\n', out);
	}
}
