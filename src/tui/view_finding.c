/* One finding's details (v in the Findings pane): what its rule says, the
 * thresholds in force, and the numbers behind it, a line each. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "analysis/findings.h"
#include "tui/app.h"
#include "tui/panes.h"
#include "tui/tableview.h"
#include "util/i18n.h"
#include "util/satmath.h"
#include "util/units.h"

enum { DF_WHAT, DF_VALUE };

static const struct tv_column columns[] = {
	[DF_WHAT] = { N_("FINDING"), NULL, 22, 0, 0, TV_LEFT, TV_TEXT, 0, 0, NULL },
	[DF_VALUE] = { "", NULL, TV_REST, 1, 0, TV_LEFT, TV_TEXT, 0, 0, NULL },
};

enum { L_RULE, L_HELP, L_TIME, L_SHARE, L_COUNT, L_WHERE, L_NAME, L_WORST, L_EVIDENCE, L_THRESHOLDS, L_N };

struct finding_src {
	struct finding f;
	size_t rank;
	char name[512];
};

static size_t finding_fill(void *src, struct app *app)
{
	(void)src;
	(void)app;
	return L_N;
}

static void finding_release(void *src)
{
	(void)src;
}

static struct tv_ident finding_ident(void *src, size_t row)
{
	(void)src;
	return (struct tv_ident){ row, 0 };
}

static int64_t finding_key(void *src, size_t row, int col)
{
	(void)src;
	(void)col;
	return -(int64_t)row;
}

static const char *label(size_t row)
{
	static const char *const labels[L_N] = {
		[L_RULE] = N_("rule"),          [L_HELP] = N_("what it finds"),
		[L_TIME] = N_("time at stake"), [L_SHARE] = N_("share"),
		[L_COUNT] = N_("instances"),    [L_WHERE] = N_("where"),
		[L_NAME] = N_("name"),          [L_WORST] = N_("worst instance"),
		[L_EVIDENCE] = N_("evidence"),  [L_THRESHOLDS] = N_("thresholds"),
	};
	return _(labels[row]);
}

static const char *value(const struct finding_src *s, struct app *app, size_t row, char *buf, size_t size)
{
	const struct finding *f = &s->f;
	const struct trace *t = app->trace;
	char a[UNITS_BUFSZ + 2], b[UNITS_BUFSZ];
	switch (row) {
	case L_RULE:
		snprintf(buf, size, "%zu. %s", s->rank, finding_id_name(f->id));
		return buf;
	case L_HELP:
		return _(finding_id_help(f->id));
	case L_TIME:
		return units_format_ns(f->time_ns, buf, size);
	case L_SHARE:
		snprintf(buf, size,
			 f->gpu != TRACE_NONE ? _("%.2f %% of the GPU's") : _("%.2f %% of the run's"),
			 f->share);
		return buf;
	case L_COUNT:
		snprintf(buf, size, "%llu", (unsigned long long)f->count);
		return buf;
	case L_WHERE:
		if (f->gpu != TRACE_NONE)
			return trace_gpu_label(t, f->gpu, buf, size);
		return f->input != TRACE_NONE ? t->inputs[f->input].path : _("the run");
	case L_NAME:
		return f->name != TRACE_NONE ? app_name(app, f->name) : "-";
	case L_WORST:
		snprintf(buf, size, _("%s for %s"),
			 units_format_relative(f->start - t->op_first_start, 10000, a, sizeof(a)),
			 units_format_ns(sat_sub(f->end, f->start), b, sizeof(b)));
		return buf;
	case L_EVIDENCE:
		return f->evidence;
	default:
		findings_thresholds_text(&app->analysis.findings, (int)f->id, buf, size);
		return buf;
	}
}

static const char *finding_text(void *src, struct app *app, size_t row, int col, char *buf, size_t size)
{
	return col == DF_WHAT ? label(row) : value(src, app, row, buf, size);
}

static const struct tv_source_ops finding_source = { TV_ROWS(finding), .text = finding_text,
						     .key = finding_key };

static const struct tv_spec finding_spec = { TV_VIEW("finding", N_("Finding")), TV_COLS(columns),
					     .own_order = 1 + DF_WHAT, .ops = &finding_source };

struct view view_finding_new(struct app *app, const struct finding *f, size_t rank)
{
	(void)app;
	struct view v = tableview_new(&finding_spec, sizeof(struct finding_src));
	struct finding_src *s = tableview_source(&v);
	s->f = *f;
	s->rank = rank;
	return v;
}
