#include "config.h"
#include "present/table.h"

#include <string.h>

#include "util/i18n.h"
#include "util/utf8.h"

/* Control characters and malformed bytes are \xNN as everywhere; then
 * every character Markdown could take for markup (emphasis, links, HTML,
 * code, a table's |) gets a backslash, so that a name from an input shows
 * as it is in a CI comment and makes nothing of its own. */
static void put_md(const char *piece, size_t len, void *ctx)
{
	FILE *out = ctx;
	for (size_t i = 0; i < len; i++) {
		if (strchr("\\`*_{}[]<>|~&#", piece[i]) && piece[i])
			fputc('\\', out);
		fputc(piece[i], out);
	}
}

void table_write_md_text(const char *s, FILE *out)
{
	utf8_write_escaped(s, put_md, out);
}

static int right_aligned(const struct table_col *col)
{
	return col->type != COL_NAME && col->type != COL_LABEL;
}

void table_write_md_rows(const struct table *tb, FILE *out)
{
	char buf[64];
	for (size_t c = 0; c < tb->ncols; c++) {
		fputs("| ", out);
		table_write_md_text(_(tb->cols[c].title), out);
		fputc(' ', out);
	}
	fputs("|\n", out);
	for (size_t c = 0; c < tb->ncols; c++)
		fputs(right_aligned(&tb->cols[c]) ? "|---:" : "|:---", out);
	fputs("|\n", out);
	for (size_t r = 0; r < tb->nrows; r++) {
		for (size_t c = 0; c < tb->ncols; c++) {
			const struct table_cell *cell = &tb->cells[r * tb->ncols + c];
			fputs("| ", out);
			if (!cell->empty)
				table_write_md_text(table_cell_text(&tb->cols[c], cell, buf, sizeof(buf)),
						    out);
			fputc(' ', out);
		}
		fputs("|\n", out);
	}
}

void table_write_md(const struct table *tb, FILE *out)
{
	if (tb->caption[0]) {
		table_write_md_text(tb->caption, out);
		fputs("\n\n", out);
	}
	if (tb->filter[0] || tb->window[0]) {
		table_write_md_text(_("Only"), out);
		if (tb->filter[0]) {
			char line[512];
			snprintf(line, sizeof(line), _(" names passing %s"), tb->filter);
			table_write_md_text(line, out);
		}
		if (tb->window[0]) {
			char line[512];
			snprintf(line, sizeof(line), _(" overlapping %s"), tb->window);
			table_write_md_text(line, out);
		}
		fputs("\n\n", out);
	}
	table_write_md_rows(tb, out);
	if (tb->footer) {
		fputc('\n', out);
		table_write_md_lines(tb->footer, out);
	}
}

void table_write_md_lines(const char *s, FILE *out)
{
	char line[1024];
	while (*s) {
		size_t n = strcspn(s, "\n");
		snprintf(line, sizeof(line), "%.*s", (int)(n < sizeof(line) ? n : sizeof(line) - 1), s);
		table_write_md_text(line, out);
		fputs("  \n", out); /* a line break, not a new paragraph */
		s += n + (s[n] == '\n');
	}
}
