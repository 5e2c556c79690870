#include "config.h"
#include "present/report.h"

#include <stdlib.h>
#include <string.h>

#include "present/report_cpu.h"
#include "present/report_ranks.h"
#include "present/report_waits.h"
#include "util/xalloc.h"

#define NCOLS(a) (sizeof(a) / sizeof((a)[0]))

static const char *const report_names[] = { "top",    "ktop",      "busy",       "gaps",     "idle",
					    "launch", "breakdown", "categories", "counters", "ranks",
					    "api",    "markers",   "ranges",     "steps" };
static const char *const format_names[] = { "text", "csv", "json", "md" };

static int index_of(const char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return (int)i;
	return -1;
}

int report_parse(const char *name, enum report_kind *kind)
{
	int i = index_of(report_names, NCOLS(report_names), name);
	if (i >= 0)
		*kind = (enum report_kind)i;
	return i < 0 ? -1 : 0;
}

int report_parse_format(const char *name, enum table_format *format)
{
	int i = index_of(format_names, NCOLS(format_names), name);
	if (i >= 0)
		*format = (enum table_format)i;
	return i < 0 ? -1 : 0;
}

enum api_need report_needs_apis(enum report_kind kind)
{
	switch (kind) {
	case REPORT_IDLE:
	case REPORT_LAUNCH:
		return API_NEED_LAUNCHES;
	case REPORT_GAPS: /* its cpu column reads the other calls again */
		return API_NEED_LAUNCHES;
	case REPORT_COUNTERS: /* read with the API rows */
	case REPORT_API:
	case REPORT_MARKERS:
	case REPORT_RANGES:
	case REPORT_STEPS:
		return API_NEED_ALL;
	default:
		return API_NEED_NONE;
	}
}

void report_start(struct report_job *j, const struct trace *t, enum report_kind kind,
		  const struct report_params *p, const struct selection *sel)
{
	*j = (struct report_job){ .kind = kind, .t = t, .p = p, .sel = sel };
	if (kind == REPORT_GAPS)
		j->state = report_gaps_start(t, p, sel, &j->asks);
}

void report_drop(struct report_job *j)
{
	if (j->state)
		report_gaps_drop(j->state);
	j->state = NULL;
}

void report_finish(struct report_job *j, struct table *out)
{
	const struct trace *t = j->t;
	const struct report_params *p = j->p;
	const struct selection *sel = j->sel;
	switch (j->kind) {
	case REPORT_TOP:
	case REPORT_KTOP:
		report_profile(t, j->kind, p, sel, out);
		break;
	case REPORT_BUSY:
		report_busy(t, p->limit, sel, out);
		break;
	case REPORT_GAPS:
		report_gaps_finish(j->state, t, p, out);
		j->state = NULL;
		break;
	case REPORT_IDLE:
		report_idle(t, p, sel, out);
		break;
	case REPORT_LAUNCH:
		report_launch(t, p, sel, out);
		break;
	case REPORT_BREAKDOWN:
		report_breakdown(t, p, sel, out);
		break;
	case REPORT_CATEGORIES:
		report_categories(t, p, sel, out);
		break;
	case REPORT_COUNTERS:
		report_counters(t, p->limit, sel, out);
		break;
	case REPORT_RANKS:
		report_ranks(t, p, sel, out);
		break;
	case REPORT_API:
		report_api(t, p, sel, out);
		break;
	case REPORT_MARKERS:
		report_markers(t, p, sel, out);
		break;
	case REPORT_RANGES:
		report_ranges(t, p, sel, out);
		break;
	case REPORT_STEPS:
		report_steps(t, p, sel, out);
		break;
	}
}

void report_write(const struct table *tb, const struct trace *t, enum table_format format, FILE *out)
{
	switch (format) {
	case FORMAT_TEXT:
		table_write_text(tb, out);
		break;
	case FORMAT_CSV:
		table_write_csv(tb, out);
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
