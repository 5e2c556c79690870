#include "config.h"
#include "present/report.h"

#include <stdio.h>
#include <stdlib.h>

#include "analysis/profile.h"
#include "display/names.h"
#include "present/report_cells.h"
#include "present/report_rows.h"
#include "util/i18n.h"
#include "util/units.h"
#include "util/xalloc.h"

static const struct table_col profile_cols[] = {
	{ "name", N_("NAME"), COL_NAME },
	{ "calls", N_("CALLS"), COL_COUNT },
	{ "total_ns", N_("TOTAL"), COL_NS },
	{ "avg_ns", N_("AVG"), COL_NS },
	{ "min_ns", N_("MIN"), COL_NS },
	{ "max_ns", N_("MAX"), COL_NS },
	{ "percent", N_("%"), COL_PERCENT },
	{ "std_ns", N_("STD"), COL_NS },
	{ "p50_ns", N_("P50"), COL_NS },
	{ "p90_ns", N_("P90"), COL_NS },
	{ "p99_ns", N_("P99"), COL_NS },
	{ "var_ns", N_("VAR"), COL_NS },
	{ "share_percent", N_("SHARE%"), COL_PERCENT },
};

/* With --outliers: their count before the share, which stays last (a
 * script takes it as $NF however many commas the names hold). */
static const struct table_col profile_outlier_cols[] = {
	{ "name", N_("NAME"), COL_NAME },          { "calls", N_("CALLS"), COL_COUNT },
	{ "total_ns", N_("TOTAL"), COL_NS },       { "avg_ns", N_("AVG"), COL_NS },
	{ "min_ns", N_("MIN"), COL_NS },           { "max_ns", N_("MAX"), COL_NS },
	{ "percent", N_("%"), COL_PERCENT },       { "std_ns", N_("STD"), COL_NS },
	{ "p50_ns", N_("P50"), COL_NS },           { "p90_ns", N_("P90"), COL_NS },
	{ "p99_ns", N_("P99"), COL_NS },           { "var_ns", N_("VAR"), COL_NS },
	{ "outliers", N_("OUTLIERS"), COL_COUNT }, { "share_percent", N_("SHARE%"), COL_PERCENT },
};

void report_profile_cells(const struct profile *p, const struct profile_row *r, struct table_cell *c)
{
	c[1].num = (int64_t)r->calls;
	c[2].num = r->total;
	c[3].num = profile_row_avg(r);
	c[4].num = r->min;
	c[5].num = r->max;
	c[6].pct = profile_row_percent(p, r);
	c[7].num = r->std;
	c[8].num = r->p50;
	c[9].num = r->p90;
	c[10].num = r->p99;
	c[11].num = r->var;
	c[12].pct = profile_row_share(p, r);
}

static void profile_table(const struct trace *t, enum profile_scope scope, const struct report_params *rp,
			  const struct profile *pp, struct table *out)
{
	const struct profile p = *pp;
	char total[UNITS_BUFSZ];
	int kernels = scope == PROFILE_KERNELS, outliers = rp->analysis->outlier_z > 0;
	size_t limit = rp->limit;
	if (outliers)
		table_init(out, kernels ? "ktop" : "top", profile_outlier_cols, NCOLS(profile_outlier_cols));
	else
		table_init(out, kernels ? "ktop" : "top", profile_cols, NCOLS(profile_cols));
	snprintf(out->caption, sizeof(out->caption),
		 kernels ? _("Kernels by name: %llu kernels, %zu names, %s GPU time")
			 : _("GPU ops by name: %llu ops, %zu names, %s GPU time"),
		 (unsigned long long)p.calls, p.n, units_format_ns(p.total, total, sizeof(total)));
	for (size_t i = 0; i < p.n && (!limit || i < limit); i++) {
		const struct profile_row *r = &p.rows[i];
		struct table_cell *c = table_add_row(out);
		names_set_cell(&c[0], rp->names, t, r->name);
		report_profile_cells(&p, r, c);
		if (outliers)
			c[12].num = (int64_t)r->outliers;
		c[out->ncols - 1].pct = profile_row_share(&p, r);
	}
	/* Totals of every row, those past the limit too. */
	struct table_cell *tot = table_totals(out);
	tot[1].num = (int64_t)p.calls;
	tot[2].num = p.total;
	tot[6].pct = p.total ? 100.0 : 0.0;
	tot[out->ncols - 1].pct = p.all ? 100.0 * (double)p.total / (double)p.all : 0.0;
	out->totals_cols = 1u << 1 | 1u << 2 | 1u << 6 | (uint64_t)1 << (out->ncols - 1);
	if (outliers) {
		for (size_t i = 0; i < p.n; i++)
			tot[12].num += (int64_t)p.rows[i].outliers;
		out->totals_cols |= 1u << 12;
	}
}

static void build(const struct trace *t, enum profile_scope scope, const struct report_params *rp,
		  const struct selection *sel, struct table *out)
{
	struct profile p;
	profile_by_name_z(t, scope, sel, rp->analysis->outlier_z, &p);
	profile_table(t, scope, rp, &p, out);
	profile_free(&p);
}

static void build_top(const struct trace *t, const struct report_params *p, const struct selection *sel,
		      struct table *out)
{
	build(t, PROFILE_ALL_OPS, p, sel, out);
}

static void build_ktop(const struct trace *t, const struct report_params *p, const struct selection *sel,
		       struct table *out)
{
	build(t, PROFILE_KERNELS, p, sel, out);
}

/* Node group by node group: each name's figures, merged. */
struct part {
	struct profile_part figures;
	enum profile_scope scope;
};

/* --outliers needs each name's mean and spread before it can leave
 * instances out. */
static int can_merge(const struct report_params *p)
{
	return p->analysis->outlier_z <= 0;
}

static void *part_new(enum profile_scope scope)
{
	struct part *part = xmalloc(sizeof(*part));
	profile_part_init(&part->figures);
	part->scope = scope;
	return part;
}

static void *top_part_new(const struct report_params *p)
{
	(void)p;
	return part_new(PROFILE_ALL_OPS);
}

static void *ktop_part_new(const struct report_params *p)
{
	(void)p;
	return part_new(PROFILE_KERNELS);
}

static void part_add(void *part, const struct trace *t, const struct selection *sel,
		     const struct report_params *p, struct call_asks **asks)
{
	struct part *x = part;
	(void)p;
	(void)asks;
	profile_part_add(&x->figures, t, x->scope, sel);
}

static void part_encode(void *part, const struct trace *t, struct bytes_out *b)
{
	profile_part_encode(&((struct part *)part)->figures, t, b);
}

static int part_merge(void *part, const struct part_in *in)
{
	return profile_part_merge(&((struct part *)part)->figures, in);
}

static void part_table(void *part, struct trace *whole, const struct window *window,
		       const struct report_params *p, struct table *out)
{
	struct part *x = part;
	struct profile pr;
	(void)window;
	profile_part_finish(&x->figures, whole, &pr);
	profile_table(whole, x->scope, p, &pr, out);
	profile_free(&pr);
}

static void part_free(void *part)
{
	profile_part_free(&((struct part *)part)->figures);
	free(part);
}

static const struct report_merge top_merge = { can_merge,  top_part_new, part_add, part_encode,
					       part_merge, part_table,   part_free };
static const struct report_merge ktop_merge = { can_merge,  ktop_part_new, part_add, part_encode,
						part_merge, part_table,    part_free };

const struct report_def report_top = { .name = "top",
				       .help = N_("GPU ops by name"),
				       .cols = profile_cols,
				       .ncols = NCOLS(profile_cols),
				       .apis = API_NEED_NONE,
				       .build = build_top,
				       .merge = &top_merge };

const struct report_def report_ktop = { .name = "ktop",
					.help = N_("kernels by name"),
					.cols = profile_cols,
					.ncols = NCOLS(profile_cols),
					.apis = API_NEED_NONE,
					.build = build_ktop,
					.merge = &ktop_merge };
