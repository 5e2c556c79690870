#include "config.h"
#include "present/report.h"

#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"
#include "util/xalloc.h"

static const struct report_def *const reports[] = {
#define REPORT(name) &report_##name,
#include "present/report_list.h"
#undef REPORT
};

const struct report_merge report_whole_load = { 0 };

size_t report_count(void)
{
	return NCOLS(reports);
}

const struct report_def *report_at(size_t i)
{
	return i < NCOLS(reports) ? reports[i] : NULL;
}

size_t report_index(const struct report_def *r)
{
	size_t i = 0;
	while (i < NCOLS(reports) && reports[i] != r)
		i++;
	return i;
}

const struct report_def *report_find(const char *name)
{
	for (size_t i = 0; i < NCOLS(reports); i++)
		if (strcmp(reports[i]->name, name) == 0)
			return reports[i];
	return NULL;
}

static void append(char *buf, size_t size, size_t *at, const char *s)
{
	int n = snprintf(buf + *at, size - *at, "%s", s);
	*at += n < 0 ? 0 : (size_t)n < size - *at ? (size_t)n : size - *at - 1;
}

void report_list(char *buf, size_t size, int with_help)
{
	size_t at = 0, n = NCOLS(reports);
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		append(buf, size, &at, reports[i]->name);
		if (with_help && reports[i]->help) {
			append(buf, size, &at, " (");
			append(buf, size, &at, _(reports[i]->help));
			append(buf, size, &at, ")");
		}
		if (i + 2 < n)
			append(buf, size, &at, ", ");
		else if (i + 2 == n)
			append(buf, size, &at, _(" or "));
	}
}

const struct table_col *report_col(const struct report_def *r, const char *key)
{
	for (size_t c = 0; c < r->ncols; c++)
		if (strcmp(r->cols[c].key, key) == 0)
			return &r->cols[c];
	return NULL;
}

int report_parse_format(const char *name, enum table_format *format)
{
	static const char *const names[] = { "text", "csv", "json", "md", "tsv" };
	for (size_t i = 0; i < NCOLS(names); i++) {
		if (strcmp(names[i], name) == 0) {
			*format = (enum table_format)i;
			return 0;
		}
	}
	return -1;
}

void report_start(struct report_job *j, const struct report_def *def, const struct trace *t,
		  const struct report_params *p, const struct selection *sel)
{
	*j = (struct report_job){ .def = def, .t = t, .p = p, .sel = sel };
	if (def->start)
		j->state = def->start(t, p, sel, &j->asks);
}

void report_drop(struct report_job *j)
{
	if (j->def->drop && j->state)
		j->def->drop(j->state);
	j->state = NULL;
}

void report_finish(struct report_job *j, struct table *out)
{
	if (j->def->start)
		j->def->finish(j->state, j->t, j->p, out);
	else
		j->def->build(j->t, j->p, j->sel, out);
	j->state = NULL;
}

void report_open_table(struct table *tb, struct table_sink *sink, enum table_format format, FILE *out)
{
	/* The separated formats are written as the rows are made. */
	if (format == FORMAT_TSV)
		table_tsv_sink(sink, out);
	else
		table_csv_sink(sink, out);
	table_open(tb, format == FORMAT_CSV || format == FORMAT_TSV ? sink : NULL);
}

void report_write(const struct table *tb, const struct trace *t, enum table_format format, FILE *out)
{
	switch (format) {
	case FORMAT_TEXT: {
		const struct report_def *def = report_find(tb->report);
		if (def && def->write_text)
			def->write_text(tb, out);
		else
			table_write_text(tb, out);
		break;
	}
	case FORMAT_CSV:
		table_write_csv(tb, out);
		break;
	case FORMAT_TSV:
		table_write_tsv(tb, out);
		break;
	case FORMAT_MD:
		table_write_md(tb, out);
		break;
	case FORMAT_JSON: {
		const char **paths = xmalloc_array(t->ninputs, sizeof(*paths));
		for (size_t i = 0; i < t->ninputs; i++)
			paths[i] = t->inputs[i].path;
		table_write_json(tb, paths, t->ninputs, out);
		free(paths);
		break;
	}
	}
}
