#include "config.h"
#include "present/report.h"

#include <stdio.h>

#include "analysis/profile.h"
#include "display/names.h"
#include "util/i18n.h"
#include "util/units.h"

#define NCOLS(a) (sizeof(a) / sizeof((a)[0]))

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

void report_profile_table(const struct trace *t, enum report_kind kind, const struct report_params *rp,
			  const struct profile *pp, struct table *out)
{
	const struct profile p = *pp;
	char total[UNITS_BUFSZ];
	int kernels = kind == REPORT_KTOP, outliers = rp->outlier_z > 0;
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
		c[1].num = (int64_t)r->calls;
		c[2].num = r->total;
		c[3].num = profile_row_avg(r);
		c[4].num = r->min;
		c[5].num = r->max;
		c[6].pct = profile_row_percent(&p, r);
		c[7].num = r->std;
		c[8].num = r->p50;
		c[9].num = r->p90;
		c[10].num = r->p99;
		c[11].num = r->var;
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

void report_profile(const struct trace *t, enum report_kind kind, const struct report_params *rp,
		    const struct selection *sel, struct table *out)
{
	struct profile p;
	profile_by_name_z(t, kind == REPORT_KTOP ? PROFILE_KERNELS : PROFILE_ALL_OPS, sel, rp->outlier_z, &p);
	report_profile_table(t, kind, rp, &p, out);
	profile_free(&p);
}
