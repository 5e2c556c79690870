#include "config.h"
#include "present/report_waits.h"

#include <stdio.h>

#include "analysis/categories.h"
#include "present/report_cells.h"
#include "util/i18n.h"
#include "util/units.h"

#define NCOLS(a) (sizeof(a) / sizeof((a)[0]))

static const struct table_col category_cols[] = {
	{ "category", N_("CATEGORY"), COL_LABEL },
	{ "calls", N_("CALLS"), COL_COUNT },
	{ "total_ns", N_("TOTAL"), COL_NS },
	{ "percent", N_("%"), COL_PERCENT },
};

void report_categories_table(const struct report_params *p, const struct category_times *ctp,
			     struct table *out)
{
	const struct category_times ct = *ctp;
	char total[UNITS_BUFSZ];
	table_init(out, "categories", category_cols, NCOLS(category_cols));
	snprintf(out->caption, sizeof(out->caption),
		 _("Kernel time by category: %zu categories, %s GPU time"), ct.n,
		 units_format_ns(ct.total, total, sizeof(total)));
	for (size_t i = 0; i < ct.n && report_want_row(p, i); i++) {
		const struct category_row *r = &ct.rows[i];
		struct table_cell *c = table_add_row(out);
		report_set_str(&c[0], category_row_name(p->cats, r));
		c[1].num = (int64_t)r->calls;
		c[2].num = r->total;
		c[3].pct = ct.total > 0 ? 100.0 * (double)r->total / (double)ct.total : 0.0;
	}
}

void report_categories(const struct trace *t, const struct report_params *p, const struct selection *sel,
		       struct table *out)
{
	struct category_times ct;
	categories_by_kernel(t, sel, p->cats, &ct);
	report_categories_table(p, &ct, out);
	category_times_free(&ct);
}
