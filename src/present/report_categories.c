#include "config.h"
#include "present/report.h"

#include <stdio.h>
#include <stdlib.h>

#include "analysis/categories.h"
#include "present/report_cells.h"
#include "util/i18n.h"
#include "util/units.h"
#include "util/xalloc.h"

static const struct table_col category_cols[] = {
	{ "category", N_("CATEGORY"), COL_LABEL },
	{ "calls", N_("CALLS"), COL_COUNT },
	{ "total_ns", N_("TOTAL"), COL_NS },
	{ "percent", N_("%"), COL_PERCENT },
};

static void categories_table(const struct report_params *p, const struct category_times *ctp,
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
		report_set_str(&c[0], category_row_name(&p->analysis->cats, r));
		c[1].num = (int64_t)r->calls;
		c[2].num = r->total;
		c[3].pct = ct.total > 0 ? 100.0 * (double)r->total / (double)ct.total : 0.0;
	}
}

static void build(const struct trace *t, const struct report_params *p, const struct selection *sel,
		  struct table *out)
{
	struct category_times ct;
	categories_by_kernel(t, sel, &p->analysis->cats, &ct);
	categories_table(p, &ct, out);
	category_times_free(&ct);
}

/* Node group by node group: each category's calls and time, summed. */
static void *part_new(const struct report_params *p)
{
	struct categories_part *part = xmalloc(sizeof(*part));
	categories_part_init(part, &p->analysis->cats);
	return part;
}

static void part_add(void *part, const struct trace *t, const struct selection *sel,
		     const struct report_params *p, struct call_asks **asks)
{
	(void)asks;
	categories_part_add(part, t, sel, &p->analysis->cats);
}

static void part_encode(void *part, const struct trace *t, struct bytes_out *b)
{
	(void)t;
	categories_part_encode(part, b);
}

static int part_merge(void *part, const struct part_in *in)
{
	return categories_part_merge(part, in);
}

static void part_table(void *part, struct trace *whole, const struct window *window,
		       const struct report_params *p, struct table *out)
{
	struct category_times ct;
	(void)whole;
	(void)window;
	categories_part_finish(part, &ct);
	categories_table(p, &ct, out);
	category_times_free(&ct);
}

static void part_free(void *part)
{
	categories_part_free(part);
	free(part);
}

static const struct report_merge merge = { NULL,       part_new,   part_add, part_encode,
					   part_merge, part_table, part_free };

const struct report_def report_categories = { .name = "categories",
					      .cols = category_cols,
					      .ncols = NCOLS(category_cols),
					      .apis = API_NEED_NONE,
					      .uses = REPORT_USES_CATEGORIES,
					      .build = build,
					      .merge = &merge };
