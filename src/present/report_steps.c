#include "config.h"
#include "present/report.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/markers.h"
#include "analysis/steps.h"
#include "present/report_cells.h"
#include "session/named.h"
#include "util/i18n.h"
#include "util/xalloc.h"

static const struct table_col step_cols[] = {
	{ "step", N_("STEP"), COL_COUNT },
	{ "start_ns", N_("START"), COL_COUNT },
	{ "dur_ns", N_("DURATION"), COL_NS },
	{ "gpu_busy_ns", N_("GPU BUSY"), COL_NS },
	{ "busy_percent", N_("BUSY%"), COL_PERCENT },
	{ "top_kernel", N_("TOP KERNEL"), COL_NAME },
};

static void build(const struct trace *t, const struct report_params *p, const struct selection *sel,
		  struct table *out)
{
	char pattern[256];
	struct steps s;
	steps_find_asked(t, p->analysis, sel, pattern, sizeof(pattern), &s);
	table_init(out, "steps", step_cols, NCOLS(step_cols));
	snprintf(out->caption, sizeof(out->caption), P_("Steps %s: %zu step", "Steps %s: %zu steps", s.n),
		 pattern, s.n);
	for (size_t i = 0; i < s.n && report_want_row(p, i); i++) {
		const struct step_row *r = &s.rows[i];
		struct table_cell *x = table_add_row(out);
		x[0].num = (int64_t)r->number;
		x[1].num = r->start;
		x[2].num = r->dur;
		x[3].num = r->busy;
		x[4].pct = step_busy_percent(r);
		report_set_name(t, &x[5], r->top_kernel);
	}
	steps_free(&s);
}

/* The default step is the most frequent text of the whole trace: the
 * whole load is read. */
const struct report_def report_steps = { .name = "steps",
					 .help = N_("one row per step: --step"),
					 .cols = step_cols,
					 .ncols = NCOLS(step_cols),
					 .apis = API_NEED_MARKERS,
					 .build = build,
					 .merge = &report_whole_load };
