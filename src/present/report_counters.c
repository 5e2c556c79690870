#include "config.h"
#include "present/report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/counters.h"
#include "present/report_cells.h"
#include "util/i18n.h"
#include "util/natcmp.h"
#include "util/sort.h"
#include "util/xalloc.h"

static const struct table_col counter_cols[] = {
	{ "gpu", N_("GPU"), COL_LABEL },         { "counter", N_("COUNTER"), COL_LABEL },
	{ "samples", N_("SAMPLES"), COL_COUNT }, { "min", N_("MIN"), COL_VALUE },
	{ "max", N_("MAX"), COL_VALUE },         { "avg_time_weighted", N_("AVG(TIME)"), COL_VALUE },
};

/* Rows by GPU in the natural order of their labels, then by counter name. */
struct counter_row {
	char gpu[128];
	const char *name;
	const struct counter_summary *sum;
};

static int by_gpu_name(const void *a, const void *b, void *ctx)
{
	const struct counter_row *x = a, *y = b;
	(void)ctx;
	int c = natcmp(x->gpu, y->gpu);
	c = c ? c : natcmp(x->name, y->name);
	return c ? c : (x->sum->series > y->sum->series) - (x->sum->series < y->sum->series);
}

/* Every counter series: the window applies, the filter does not (counters
 * have no name it matches). */
static void build(const struct trace *t, const struct report_params *p, const struct selection *sel,
		  struct table *out)
{
	size_t n;
	struct counter_summary *rows = counter_summarize(&t->counters, sel ? &sel->window : NULL, &n);
	table_init(out, "counters", counter_cols, NCOLS(counter_cols));
	snprintf(out->caption, sizeof(out->caption), P_("Counters: %zu series", "Counters: %zu series", n),
		 n);
	struct counter_row *order = xmalloc_array(n ? n : 1, sizeof(*order));
	for (size_t i = 0; i < n; i++) {
		const struct trace_counter *s = &t->counters.series[rows[i].series];
		trace_device_label(t, s->domain, s->input, s->device, order[i].gpu, sizeof(order[i].gpu));
		order[i].name = trace_str(t, s->name);
		order[i].sum = &rows[i];
	}
	sort_with(order, n, sizeof(*order), by_gpu_name, NULL);
	for (size_t i = 0; i < n && report_want_row(p, i); i++) {
		const struct counter_summary *r = order[i].sum;
		struct table_cell *c = table_add_row(out);
		table_set_text(&c[0], order[i].gpu, strlen(order[i].gpu));
		table_set_text(&c[1], order[i].name, strlen(order[i].name));
		c[2].num = (int64_t)r->samples;
		c[3].val = r->min;
		c[4].val = r->max;
		c[5].val = r->avg;
	}
	free(order);
	free(rows);
}

/* Counters have no node group's merge yet: the whole load is read. */
const struct report_def report_counters = { .name = "counters",
					    .help = N_("per GPU counter"),
					    .cols = counter_cols,
					    .ncols = NCOLS(counter_cols),
					    .apis = API_NEED_COUNTERS, /* no call but rpd's counters */
					    .build = build,
					    .merge = &report_whole_load };
