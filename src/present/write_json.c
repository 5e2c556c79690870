#include "config.h"
#include "present/table.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "util/utf8.h"

/* A JSON string; malformed UTF-8 becomes U+FFFD so the output always parses. */
void table_write_json_string(const char *s, FILE *out)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);
	fputc('"', out);
	while (n) {
		/* Printable ASCII but the quote and the backslash, nearly every
		 * name, goes out a run at a time. */
		size_t run = 0;
		while (run < n && p[run] >= 0x20 && p[run] < 0x7f && p[run] != '"' && p[run] != '\\')
			run++;
		if (run) {
			fwrite(p, 1, run, out);
			p += run;
			n -= run;
			continue;
		}
		size_t len = utf8_seq_len(p, n);
		if (len == 0) {
			fputs("\\ufffd", out);
			len = 1;
		} else if (*p == '"' || *p == '\\') {
			fprintf(out, "\\%c", *p);
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(out, "\\u%04x", *p);
		} else if (len == 2 && p[0] == 0xc2 && p[1] < 0xa0) {
			/* C1 controls: escapes on some terminals that show the file. */
			fprintf(out, "\\u%04x", p[1]);
		} else {
			fwrite(p, 1, len, out);
		}
		p += len;
		n -= len;
	}
	fputc('"', out);
}

static void json_cell(const struct table_col *col, const struct table_cell *cell, FILE *out)
{
	if (cell->empty) {
		fputs("null", out);
		return;
	}
	switch (col->type) {
	case COL_NAME:
	case COL_LABEL:
		table_write_json_string(cell->text ? cell->text : "", out);
		break;
	case COL_COUNT:
	case COL_NS:
	case COL_NS_CHANGE:
		table_put_int64(cell->num, out);
		break;
	case COL_PERCENT:
	case COL_PERCENT_CHANGE:
		fprintf(out, "%.6f", isfinite(cell->pct) ? cell->pct : 0.0);
		break;
	case COL_VALUE:
		fprintf(out, "%.10g", isfinite(cell->val) ? cell->val : 0.0);
		break;
	}
}

void table_write_json(const struct table *tb, const char *const *inputs, size_t ninputs, FILE *out)
{
	fputs("{\"report\":", out);
	table_write_json_string(tb->report, out);
	fputs(",\"inputs\":[", out);
	for (size_t i = 0; i < ninputs; i++) {
		if (i)
			fputc(',', out);
		table_write_json_string(inputs[i], out);
	}
	fputs("]", out);
	if (tb->filter[0]) {
		fputs(",\"filter\":", out);
		table_write_json_string(tb->filter, out);
	}
	if (tb->places[0]) {
		fputs(",\"places\":", out);
		table_write_json_string(tb->places, out);
	}
	if (tb->window[0]) {
		fputs(",\"window\":", out);
		table_write_json_string(tb->window, out);
	}
	fputs(",\"rows\":", out);
	table_write_json_rows(tb, out);
	if (tb->totals && tb->totals_cols) {
		int first = 1;
		fputs(",\n\"totals\":{", out);
		for (size_t c = 0; c < tb->ncols && c < 64; c++) {
			if (!(tb->totals_cols >> c & 1))
				continue;
			fprintf(out, "%s\"%s\":", first ? "" : ",", tb->cols[c].key);
			json_cell(&tb->cols[c], &tb->totals[c], out);
			first = 0;
		}
		fputc('}', out);
	}
	fputs("}\n", out);
}

void table_write_json_rows(const struct table *tb, FILE *out)
{
	/* The stream is locked once for the rows, not once a piece. */
	flockfile(out);
	putc_unlocked('[', out);
	for (size_t r = 0; r < tb->nrows; r++) {
		fputs(r ? ",\n{" : "\n{", out);
		for (size_t c = 0; c < tb->ncols; c++) {
			if (c)
				putc_unlocked(',', out);
			putc_unlocked('"', out);
			fputs(tb->cols[c].key, out);
			fputs("\":", out);
			json_cell(&tb->cols[c], &tb->cells[r * tb->ncols + c], out);
		}
		putc_unlocked('}', out);
	}
	putc_unlocked(']', out);
	funlockfile(out);
}
