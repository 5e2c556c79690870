#include "config.h"
#include "present/report_diff.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/busy.h"
#include "analysis/diff.h"
#include "display/names.h"
#include "util/error.h"
#include "util/i18n.h"
#include "util/units.h"
#include "util/utf8.h"
#include "util/xalloc.h"

#define NCOLS(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_LINES 64

static const struct table_col diff_cols[] = {
	{ "name", N_("NAME"), COL_NAME },
	{ "base_calls", N_("BASE CALLS"), COL_COUNT },
	{ "new_calls", N_("NEW CALLS"), COL_COUNT },
	{ "base_total_ns", N_("BASE TOTAL"), COL_NS },
	{ "new_total_ns", N_("NEW TOTAL"), COL_NS },
	{ "delta_ns", N_("DELTA"), COL_NS_CHANGE },
	{ "delta_percent", N_("DELTA%"), COL_PERCENT_CHANGE },
	{ "base_p50_ns", N_("BASE P50"), COL_NS },
	{ "new_p50_ns", N_("NEW P50"), COL_NS },
	{ "status", N_("STATUS"), COL_LABEL },
};

static const struct table_col gpu_cols[] = {
	{ "base_gpu", N_("BASE GPU"), COL_LABEL },       { "new_gpu", N_("NEW GPU"), COL_LABEL },
	{ "base_busy_ns", N_("BASE BUSY"), COL_NS },     { "new_busy_ns", N_("NEW BUSY"), COL_NS },
	{ "delta_busy_ns", N_("DELTA"), COL_NS_CHANGE }, { "base_idle_ns", N_("BASE IDLE"), COL_NS },
	{ "new_idle_ns", N_("NEW IDLE"), COL_NS },
};

/* What the diff holds besides its tables: lines for people. */
struct diff_out {
	struct table names, gpus;
	char *warnings[MAX_LINES];
	size_t nwarnings;
	char *tripped[MAX_LINES]; /* what tripped the gate, one line each */
	size_t ntripped;
	char base[512], next[512]; /* the runs: their inputs, ops and GPU time */
	char filter[256];
	char base_window[128], new_window[128];
};

static void add_line(char **lines, size_t *n, const char *line)
{
	if (*n < MAX_LINES)
		lines[(*n)++] = xstrdup(line);
}

/* A run's names as shown: its own cache, since string ids are a trace's. */
struct shown {
	struct name_cache cache;
	const struct trace *t;
};

static const char *shown_name(void *ctx, uint32_t id)
{
	struct shown *sh = ctx;
	return name_cache_get(&sh->cache, sh->t, id);
}

static void add_name_row(struct table *tb, const struct diff_row *r)
{
	struct table_cell *c = table_add_row(tb);
	table_set_text(&c[0], r->name, strlen(r->name));
	c[1].num = (int64_t)r->base_calls;
	c[2].num = (int64_t)r->new_calls;
	c[3].num = r->base_total;
	c[4].num = r->new_total;
	c[5].num = r->delta;
	c[6].pct = r->delta_percent;
	c[6].empty = !r->has_percent;
	c[7].num = r->base_p50;
	c[8].num = r->new_p50;
	c[7].empty = !r->base_calls;
	c[8].empty = !r->new_calls;
	const char *st = diff_status_name(r->status);
	table_set_text(&c[9], st, strlen(st));
}

static void build_gpus(const struct session *s, struct table *tb)
{
	struct busy bb, bn;
	size_t n;
	busy_per_gpu(session_trace_at(s, 0), session_sel_at(s, 0), &bb);
	busy_per_gpu(session_trace_at(s, 1), session_sel_at(s, 1), &bn);
	struct diff_gpu *g = diff_gpus(session_trace_at(s, 0), &bb, session_trace_at(s, 1), &bn, &n);
	table_init(tb, "diff", gpu_cols, NCOLS(gpu_cols));
	for (size_t i = 0; i < n; i++) {
		struct table_cell *c = table_add_row(tb);
		table_set_text(&c[0], g[i].base_label, strlen(g[i].base_label));
		table_set_text(&c[1], g[i].new_label, strlen(g[i].new_label));
		c[2].num = g[i].base_busy;
		c[3].num = g[i].new_busy;
		c[4].num = g[i].new_busy - g[i].base_busy;
		c[5].num = g[i].base_idle;
		c[6].num = g[i].new_idle;
		c[2].empty = c[5].empty = !g[i].base_label[0];
		c[3].empty = c[6].empty = !g[i].new_label[0];
		c[4].empty = !g[i].base_label[0] || !g[i].new_label[0];
	}
	free(g);
	busy_free(&bb);
	busy_free(&bn);
}

static void describe_run(const struct trace *t, const struct diff_row *total, int base, char *buf,
			 size_t size)
{
	char gpu[UNITS_BUFSZ];
	const char *what = t->ninputs == 1 ? t->inputs[0].path : "";
	char many[64];
	if (t->ninputs != 1) {
		snprintf(many, sizeof(many), P_("%zu input", "%zu inputs", t->ninputs), t->ninputs);
		what = many;
	}
	units_format_ns(base ? total->base_total : total->new_total, gpu, sizeof(gpu));
	unsigned long long ops = base ? total->base_calls : total->new_calls;
	snprintf(buf, size, P_("%s: %llu op, %s GPU time", "%s: %llu ops, %s GPU time", ops), what, ops, gpu);
}

static void collect_warnings(const struct session *s, const struct diff *d, struct diff_out *o)
{
	char line[256];
	size_t gb = session_trace_at(s, 0)->ngpus, gn = session_trace_at(s, 1)->ngpus;
	unsigned w = diff_warnings(d, gb, gn);
	if (w & DIFF_WARN_GPUS) {
		snprintf(line, sizeof(line),
			 _("the runs have different numbers of GPUs: %zu in the base, %zu in the new run"),
			 gb, gn);
		add_line(o->warnings, &o->nwarnings, line);
	}
	if (w & DIFF_WARN_NO_COMMON)
		add_line(o->warnings, &o->nwarnings, _("the runs have no op name in common"));
	if (w & DIFF_WARN_OPS) {
		snprintf(line, sizeof(line),
			 _("very different op counts: %llu in the base, %llu in the new run"),
			 (unsigned long long)d->total.base_calls, (unsigned long long)d->total.new_calls);
		add_line(o->warnings, &o->nwarnings, line);
	}
}

static void add_tripped(struct diff_out *o, const struct diff_row *r)
{
	char line[1024], a[UNITS_BUFSZ], b[UNITS_BUFSZ];
	units_format_ns(r->base_total, a, sizeof(a));
	units_format_ns(r->new_total, b, sizeof(b));
	if (r->has_percent)
		snprintf(line, sizeof(line), "%s: %+.2f%% (%s -> %s)", r->name, r->delta_percent, a, b);
	else
		snprintf(line, sizeof(line), _("%s: new, %s"), r->name, b);
	add_line(o->tripped, &o->ntripped, line);
}

static void build(const struct session *s, const struct diff_params *p, struct diff_out *o)
{
	struct shown sh[2];
	struct diff_run runs[2];
	struct diff d;
	for (size_t k = 0; k < 2; k++) {
		name_cache_init(&sh[k].cache, p->style);
		sh[k].t = session_trace_at(s, k);
		diff_run_build(sh[k].t, session_sel_at(s, k), shown_name, &sh[k], &runs[k]);
	}
	diff_runs(&runs[0], &runs[1], p->tolerance, p->gate, &d);
	table_init(&o->names, "diff", diff_cols, NCOLS(diff_cols));
	add_name_row(&o->names, &d.total);
	for (size_t i = 0; i < d.n && (!p->limit || i < p->limit); i++)
		add_name_row(&o->names, &d.rows[i]);
	if (d.total.gated)
		add_tripped(o, &d.total);
	for (size_t i = 0; i < d.n; i++)
		if (d.rows[i].gated)
			add_tripped(o, &d.rows[i]);
	collect_warnings(s, &d, o);
	describe_run(session_trace_at(s, 0), &d.total, 1, o->base, sizeof(o->base));
	describe_run(session_trace_at(s, 1), &d.total, 0, o->next, sizeof(o->next));
	diff_free(&d);
	for (size_t k = 0; k < 2; k++) {
		diff_run_free(&runs[k]);
		name_cache_free(&sh[k].cache);
	}
	build_gpus(s, &o->gpus);
	filter_describe(&s->filter, o->filter, sizeof(o->filter));
	for (size_t k = 0; k < 2; k++) {
		const struct window *w = &s->views[k].window;
		char *buf = k ? o->new_window : o->base_window;
		buf[0] = '\0';
		if (w->active)
			window_describe(w, session_trace_at(s, k)->op_first_start, buf,
					sizeof(o->base_window));
	}
}

static void free_out(struct diff_out *o)
{
	table_free(&o->names);
	table_free(&o->gpus);
	for (size_t i = 0; i < o->nwarnings; i++)
		free(o->warnings[i]);
	for (size_t i = 0; i < o->ntripped; i++)
		free(o->tripped[i]);
}

static void put_file(const char *piece, size_t len, void *ctx)
{
	fwrite(piece, 1, len, ctx);
}

/* A line of text, its control characters escaped. */
static void text_line(FILE *out, const char *prefix, const char *s)
{
	fputs(prefix, out);
	utf8_write_escaped(s, put_file, out);
	fputc('\n', out);
}

static void gate_line(const struct diff_params *p, const struct diff_out *o, char *buf, size_t size)
{
	if (o->ntripped)
		snprintf(buf, size, _("gate %g%%: tripped, time grown by more than %g%%:"), p->gate, p->gate);
	else
		snprintf(buf, size, _("gate %g%%: passed, no time grown by more than %g%%"), p->gate,
			 p->gate);
}

static void write_text(const struct diff_params *p, const struct diff_out *o, FILE *out)
{
	char line[256];
	fprintf(out, "%s\n", _("Diff of GPU time by name"));
	text_line(out, _("Base: "), o->base);
	text_line(out, _("New: "), o->next);
	if (o->filter[0])
		text_line(out, _("Only names passing "), o->filter);
	if (o->base_window[0])
		text_line(out, _("Base window "), o->base_window);
	if (o->new_window[0])
		text_line(out, _("New window "), o->new_window);
	for (size_t i = 0; i < o->nwarnings; i++)
		text_line(out, _("warning: "), o->warnings[i]);
	table_write_text_rows(&o->names, out);
	fputc('\n', out);
	fprintf(out, "%s\n", _("GPU busy and idle:"));
	table_write_text_rows(&o->gpus, out);
	if (p->gate >= 0) {
		fputc('\n', out);
		gate_line(p, o, line, sizeof(line));
		text_line(out, "", line);
		for (size_t i = 0; i < o->ntripped; i++)
			text_line(out, "  ", o->tripped[i]);
	}
}

static void write_md(const struct diff_params *p, const struct diff_out *o, FILE *out)
{
	char line[256];
	fprintf(out, "### %s\n\n", _("Diff of GPU time by name"));
	const char *labels[] = { _("Base: "), _("New: "), _("Only names passing "), _("Base window "),
				 _("New window ") };
	const char *values[] = { o->base, o->next, o->filter, o->base_window, o->new_window };
	for (size_t i = 0; i < NCOLS(labels); i++) {
		if (!values[i][0])
			continue;
		table_write_md_text(labels[i], out);
		table_write_md_text(values[i], out);
		fputs("  \n", out);
	}
	for (size_t i = 0; i < o->nwarnings; i++) {
		fputs("\n> **", out);
		table_write_md_text(_("warning: "), out);
		fputs("**", out);
		table_write_md_text(o->warnings[i], out);
		fputc('\n', out);
	}
	if (p->gate >= 0) {
		gate_line(p, o, line, sizeof(line));
		fputs("\n**", out);
		table_write_md_text(line, out);
		fputs("**\n", out);
		for (size_t i = 0; i < o->ntripped; i++) {
			fputs("- ", out);
			table_write_md_text(o->tripped[i], out);
			fputc('\n', out);
		}
	}
	fputc('\n', out);
	table_write_md_rows(&o->names, out);
	fprintf(out, "\n%s\n\n", _("GPU busy and idle:"));
	table_write_md_rows(&o->gpus, out);
}

static void json_member(const char *key, const char *value, FILE *out)
{
	if (!value[0])
		return;
	fprintf(out, ",\"%s\":", key);
	table_write_json_string(value, out);
}

static void json_inputs(const char *key, const struct trace *t, FILE *out)
{
	fprintf(out, ",\"%s\":[", key);
	for (size_t i = 0; i < t->ninputs; i++) {
		fputs(i ? "," : "", out);
		table_write_json_string(t->inputs[i].path, out);
	}
	fputc(']', out);
}

static void json_lines(const char *key, char *const *lines, size_t n, FILE *out)
{
	fprintf(out, ",\"%s\":[", key);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? "," : "", out);
		table_write_json_string(lines[i], out);
	}
	fputc(']', out);
}

static void write_json(const struct session *s, const struct diff_params *p, const struct diff_out *o,
		       FILE *out)
{
	fputs("{\"report\":\"diff\"", out);
	json_inputs("base", session_trace_at(s, 0), out);
	json_inputs("new", session_trace_at(s, 1), out);
	json_member("filter", o->filter, out);
	json_member("base_window", o->base_window, out);
	json_member("new_window", o->new_window, out);
	fprintf(out, ",\"tolerance_percent\":%g", p->tolerance);
	json_lines("warnings", o->warnings, o->nwarnings, out);
	fputs(",\"rows\":", out);
	table_write_json_rows(&o->names, out);
	fputs(",\n\"gpus\":", out);
	table_write_json_rows(&o->gpus, out);
	if (p->gate >= 0) {
		fprintf(out, ",\n\"gate\":{\"percent\":%g,\"tripped\":%s", p->gate,
			o->ntripped ? "true" : "false");
		json_lines("what", o->tripped, o->ntripped, out);
		fputc('}', out);
	}
	fputs("}\n", out);
}

/* CSV and TSV hold the names alone: the rest goes to stderr. */
static void write_separated(const struct diff_params *p, const struct diff_out *o, int tabs, FILE *out)
{
	char line[256];
	for (size_t i = 0; i < o->nwarnings; i++)
		err_report("rpdtop: %s%s", _("warning: "), o->warnings[i]);
	if (tabs)
		table_write_tsv(&o->names, out);
	else
		table_write_csv(&o->names, out);
	if (p->gate >= 0 && o->ntripped) {
		gate_line(p, o, line, sizeof(line));
		err_report("rpdtop: %s", line);
		for (size_t i = 0; i < o->ntripped; i++)
			err_report("rpdtop:   %s", o->tripped[i]);
	}
}

int report_diff(const struct session *s, const struct diff_params *p, enum table_format format, FILE *out)
{
	struct diff_out o;
	memset(&o, 0, sizeof(o));
	build(s, p, &o);
	switch (format) {
	case FORMAT_TEXT:
		write_text(p, &o, out);
		break;
	case FORMAT_CSV:
	case FORMAT_TSV:
		write_separated(p, &o, format == FORMAT_TSV, out);
		break;
	case FORMAT_JSON:
		write_json(s, p, &o, out);
		break;
	case FORMAT_MD:
		write_md(p, &o, out);
		break;
	}
	int gated = p->gate >= 0 && o.ntripped;
	free_out(&o);
	return gated ? REPORT_DIFF_GATED : 0;
}
