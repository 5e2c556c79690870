/* -r findings: what is wrong with the trace, most GPU time at stake first
 * (analysis/findings.h); its text form is a short paragraph each. */
#include "config.h"
#include "present/report.h"

#include <stdio.h>
#include <stdlib.h>

#include "analysis/findings.h"
#include "present/report_cells.h"
#include "present/report_rows.h"
#include "util/i18n.h"
#include "util/satmath.h"
#include "util/units.h"
#include "util/utf8.h"
#include "util/xalloc.h"

enum { C_RANK, C_ID, C_TIME, C_SHARE, C_COUNT, C_GPU, C_INPUT, C_NAME, C_START, C_END, C_EVIDENCE };

static const struct table_col findings_cols[] = {
	{ "rank", N_("RANK"), COL_COUNT },        { "id", N_("FINDING"), COL_LABEL },
	{ "time_ns", N_("TIME"), COL_NS },        { "share_percent", N_("SHARE%"), COL_PERCENT },
	{ "count", N_("COUNT"), COL_COUNT },      { "gpu", N_("GPU"), COL_LABEL },
	{ "input", N_("INPUT"), COL_LABEL },      { "name", N_("NAME"), COL_LABEL },
	{ "start_ns", N_("START"), COL_COUNT },   { "end_ns", N_("END"), COL_COUNT },
	{ "evidence", N_("EVIDENCE"), COL_NAME },
};

void report_finding_cells(const struct finding *f, size_t rank, struct table_cell *x)
{
	x[C_RANK].num = (int64_t)rank;
	x[C_TIME].num = f->time_ns;
	x[C_SHARE].pct = f->share;
	x[C_COUNT].num = (int64_t)f->count;
	x[C_START].num = f->start;
	x[C_END].num = f->end;
}

static void set_row(const struct trace *t, const struct report_params *p, const struct finding *f,
		    size_t rank, struct table_cell *x)
{
	report_finding_cells(f, rank, x);
	report_set_str(&x[C_ID], finding_id_name(f->id));
	if (f->gpu != TRACE_NONE)
		report_set_gpu(t, &x[C_GPU], f->gpu);
	else
		x[C_GPU].empty = 1;
	if (f->input != TRACE_NONE)
		report_set_str(&x[C_INPUT], t->inputs[f->input].path);
	else
		x[C_INPUT].empty = 1;
	if (f->name != TRACE_NONE)
		names_set_cell(&x[C_NAME], p->names, t, f->name);
	else
		x[C_NAME].empty = 1;
	report_set_str(&x[C_EVIDENCE], f->evidence);
}

static void findings_table(const struct trace *t, const struct report_params *p, const struct findings *f,
			   struct table *out)
{
	table_init(out, "findings", findings_cols, NCOLS(findings_cols));
	char span[UNITS_BUFSZ];
	snprintf(out->caption, sizeof(out->caption),
		 P_("Findings: %zu over %s of the run, the most GPU time at stake first",
		    "Findings: %zu over %s of the run, the most GPU time at stake first", f->n),
		 f->n, units_format_ns(sat_sub(f->run_end, f->run_start), span, sizeof(span)));
	for (size_t i = 0; i < f->n && report_want_row(p, i); i++)
		set_row(t, p, &f->v[i], i + 1, table_add_row(out));
}

static void build(const struct trace *t, const struct report_params *p, const struct selection *sel,
		  struct table *out)
{
	struct api_order own;
	struct findings f;
	findings_find(t, sel, p->analysis, report_api_order(t, p, &own), &f);
	findings_table(t, p, &f, out);
	findings_free(&f);
	api_order_free(&own);
}

/* Node group by node group: each GPU's findings, whole in its group, and
 * what the run's rules need of every group (analysis/findings.h). */
static void *part_new(const struct report_params *p)
{
	struct findings_part *part = xmalloc(sizeof(*part));
	(void)p;
	findings_part_init(part);
	return part;
}

static void part_add(void *part, const struct trace *t, const struct selection *sel,
		     const struct report_params *p, struct call_asks **asks)
{
	struct api_order own;
	(void)asks;
	findings_part_add(part, t, sel, p->analysis, report_api_order(t, p, &own));
	api_order_free(&own);
}

static void part_encode(void *part, const struct trace *t, struct bytes_out *b)
{
	findings_part_encode(part, t, b);
}

static int part_merge(void *part, const struct part_in *in)
{
	return findings_part_merge(part, in);
}

static void part_table(void *part, struct trace *whole, const struct window *window,
		       const struct report_params *p, struct table *out)
{
	struct findings f;
	findings_part_finish(part, whole, window, p->analysis, &f);
	findings_table(whole, p, &f, out);
	findings_free(&f);
}

static void part_free(void *part)
{
	findings_part_free(part);
	free(part);
}

static const struct report_merge merge = { NULL,       part_new,   part_add, part_encode,
					   part_merge, part_table, part_free };

static void put_file(const char *piece, size_t len, void *ctx)
{
	fwrite(piece, 1, len, ctx);
}

static void put_escaped(const char *s, FILE *out)
{
	utf8_write_escaped(s, put_file, out);
}

/* One paragraph: what, where, how much, the evidence, the worst. */
static void write_paragraph(const struct table *tb, const struct table_cell *x, FILE *out)
{
	char time[UNITS_BUFSZ], worst[UNITS_BUFSZ];
	fprintf(out, "\n%lld. ", (long long)x[C_RANK].num);
	put_escaped(x[C_ID].text, out);
	if (!x[C_GPU].empty) {
		fprintf(out, _(" on GPU "));
		put_escaped(x[C_GPU].text, out);
	}
	if (!x[C_INPUT].empty) {
		fprintf(out, _(" in "));
		put_escaped(x[C_INPUT].text, out);
	}
	fprintf(out, _(": %s at stake (%.1f %%), %lld instances\n"),
		units_format_ns(x[C_TIME].num, time, sizeof(time)), x[C_SHARE].pct,
		(long long)x[C_COUNT].num);
	if (!x[C_NAME].empty) {
		fprintf(out, "   ");
		put_escaped(x[C_NAME].text, out);
		fputc('\n', out);
	}
	fprintf(out, "   ");
	put_escaped(x[C_EVIDENCE].text, out);
	fprintf(out, _("\n   the worst: %s from %lld ns\n"),
		units_format_ns(x[C_END].num - x[C_START].num, worst, sizeof(worst)),
		(long long)x[C_START].num);
	(void)tb;
}

static void write_text(const struct table *tb, FILE *out)
{
	table_write_text_head(tb, out);
	if (tb->nrows == 0)
		fprintf(out, "%s\n", _("Nothing found above the thresholds."));
	for (size_t r = 0; r < tb->nrows; r++)
		write_paragraph(tb, &tb->cells[r * tb->ncols], out);
}

int findings_gate(const struct table *tb, double pct)
{
	int tripped = 0;
	for (size_t r = 0; r < tb->nrows; r++) {
		const struct table_cell *x = &tb->cells[r * tb->ncols];
		if (x[C_SHARE].pct < pct)
			continue;
		fprintf(stderr, _("rpdtop: gate: %s"), x[C_ID].text);
		if (!x[C_GPU].empty) {
			fprintf(stderr, _(" on GPU "));
			put_escaped(x[C_GPU].text, stderr);
		}
		if (!x[C_NAME].empty) {
			fputs(" (", stderr);
			put_escaped(x[C_NAME].text, stderr);
			fputc(')', stderr);
		}
		fprintf(stderr, _(" at %.1f %%, at least %g %%\n"), x[C_SHARE].pct, pct);
		tripped = 1;
	}
	return tripped;
}

const struct report_def report_findings = {
	.name = "findings",
	.help = N_("what is wrong, the most GPU time at stake first: --gate"),
	.cols = findings_cols,
	.ncols = NCOLS(findings_cols),
	.apis = API_NEED_ALL,
	.uses = REPORT_USES_FINDINGS | REPORT_USES_CALL_ORDER,
	.build = build,
	.merge = &merge,
	.write_text = write_text
};
