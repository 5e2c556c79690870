#include "config.h"
#include "present/table.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/utf8.h"
#include "util/xalloc.h"

struct text {
	char *s;
	size_t n, cap;
};

static void put_text(const char *piece, size_t len, void *ctx)
{
	struct text *t = ctx;
	t->s = xgrow(t->s, &t->cap, t->n + len + 1, 1);
	memcpy(t->s + t->n, piece, len);
	t->n += len;
	t->s[t->n] = '\0';
}

/* A text field. Control characters (C0, DEL, C1) and malformed bytes are
 * written as \xNN, as everywhere rpdtop prints names: a name must not
 * drive the terminal that shows the file. A field that a spreadsheet
 * would take for a formula (it starts with = + - @, a tab or a carriage
 * return) gets a leading ' (OWASP's advice), so that opening the report
 * never runs what an input wrote. Then RFC 4180: quoted when it holds a
 * separator or a quote. */
/* Is s printable ASCII not starting a formula, as nearly every name is
 * (*n: its length; *quote: it holds a comma or a quote)? Such a field is
 * written with no copy. */
static int plain(const char *s, size_t *n, int *quote)
{
	*n = 0;
	*quote = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++, (*n)++) {
		if (*p < 0x20 || *p > 0x7e)
			return 0;
		*quote |= *p == ',' || *p == '"';
	}
	return !(*n && strchr("=+-@", s[0]));
}

/* A plain field as it is, or quoted with its quotes doubled. */
static int csv_plain(const char *s, FILE *out)
{
	size_t n;
	int quote;
	if (!plain(s, &n, &quote))
		return 0;
	if (!quote) {
		fwrite(s, 1, n, out);
		return 1;
	}
	fputc('"', out);
	for (const char *q; (q = strchr(s, '"')); s = q + 1) {
		fwrite(s, 1, (size_t)(q - s) + 1, out);
		fputc('"', out);
	}
	fputs(s, out);
	fputc('"', out);
	return 1;
}

static void csv_field(const char *s, FILE *out)
{
	if (csv_plain(s, out))
		return;
	struct text t = { 0 };
	if (s[0] && strchr("=+-@\t\r", s[0]))
		put_text("'", 1, &t);
	utf8_write_escaped(s, put_text, &t);
	const char *e = t.s ? t.s : "";
	if (!strpbrk(e, ",\"")) {
		fputs(e, out);
	} else {
		fputc('"', out);
		for (; *e; e++) {
			if (*e == '"')
				fputc('"', out);
			fputc(*e, out);
		}
		fputc('"', out);
	}
	free(t.s);
}

/* TSV: no cell holds a tab or a newline (they are control characters,
 * written \xNN as in CSV), so nothing is quoted: a script splits a line
 * at its tabs whatever the names hold (commas, quotes). The formula guard
 * stays: a spreadsheet opens .tsv files too. */
static void tsv_field(const char *s, FILE *out)
{
	size_t n;
	int quote;
	if (plain(s, &n, &quote)) {
		fwrite(s, 1, n, out);
		return;
	}
	struct text t = { 0 };
	if (s[0] && strchr("=+-@\t\r", s[0]))
		put_text("'", 1, &t);
	utf8_write_escaped(s, put_text, &t);
	fputs(t.s ? t.s : "", out);
	free(t.s);
}

/* A separated-values format: its separator and how it writes a text. */
struct separated {
	char sep;
	void (*field)(const char *s, FILE *out);
};

static const struct separated csv = { ',', csv_field };
static const struct separated tsv = { '\t', tsv_field };

static void sv_cell(const struct separated *f, const struct table_col *col, const struct table_cell *cell,
		    FILE *out)
{
	if (cell->empty)
		return;
	switch (col->type) {
	case COL_NAME:
	case COL_LABEL:
		f->field(cell->text ? cell->text : "", out);
		break;
	case COL_COUNT:
	case COL_NS:
	case COL_NS_CHANGE:
		table_put_int64(cell->num, out);
		break;
	case COL_PERCENT:
	case COL_PERCENT_CHANGE:
		fprintf(out, "%.6f", cell->pct);
		break;
	case COL_VALUE:
		fprintf(out, "%.10g", cell->val);
		break;
	}
}

static void sv_header(const struct separated *f, const struct table *tb, FILE *out)
{
	for (size_t c = 0; c < tb->ncols; c++) {
		if (c)
			fputc(f->sep, out);
		fputs(tb->cols[c].key, out);
	}
	fputc('\n', out);
}

static void sv_rows(const struct separated *f, const struct table *tb, FILE *out)
{
	/* The stream is locked once for the rows, not once a separator. */
	flockfile(out);
	for (size_t r = 0; r < tb->nrows; r++) {
		for (size_t c = 0; c < tb->ncols; c++) {
			if (c)
				putc_unlocked(f->sep, out);
			sv_cell(f, &tb->cols[c], &tb->cells[r * tb->ncols + c], out);
		}
		putc_unlocked('\n', out);
	}
	funlockfile(out);
}

static void sv_write(const struct separated *f, const struct table *tb, FILE *out)
{
	/* A table with a sink wrote its header and all rows but the last. */
	if (!tb->sink)
		sv_header(f, tb, out);
	sv_rows(f, tb, out);
}

static void csv_start(const struct table *tb, void *out)
{
	sv_header(&csv, tb, out);
}

static void csv_rows(const struct table *tb, void *out)
{
	sv_rows(&csv, tb, out);
}

static void tsv_start(const struct table *tb, void *out)
{
	sv_header(&tsv, tb, out);
}

static void tsv_rows(const struct table *tb, void *out)
{
	sv_rows(&tsv, tb, out);
}

void table_csv_sink(struct table_sink *sink, FILE *out)
{
	*sink = (struct table_sink){ csv_start, csv_rows, out };
}

void table_tsv_sink(struct table_sink *sink, FILE *out)
{
	*sink = (struct table_sink){ tsv_start, tsv_rows, out };
}

void table_write_csv(const struct table *tb, FILE *out)
{
	sv_write(&csv, tb, out);
}

void table_write_tsv(const struct table *tb, FILE *out)
{
	sv_write(&tsv, tb, out);
}
