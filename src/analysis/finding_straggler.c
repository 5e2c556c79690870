/* straggler: a rank (an input) the others waited for, as the ranks report
 * finds it (analysis/ranks.h: in each collective instance matched across
 * every rank, the rank that started latest is credited with the others'
 * waits). A rank is reported when those waits are straggler_pct or more of
 * the other ranks' communication time; its time is the waits, its share
 * of the run's span, its worst instance its own span. */
#include "config.h"
#include "analysis/findings.h"

#include "analysis/params.h"
#include "analysis/ranks.h"
#include "util/i18n.h"
#include "util/satmath.h"
#include "util/units.h"

void finding_straggler(struct findings_ctx *c, struct findings *out)
{
	/* A rank is waited for by others: one input has none. */
	if (c->t->ninputs < 2)
		return;
	struct ranks own;
	if (!c->ranks)
		ranks_per_input(c->t, c->sel, &c->ap->comm, &own);
	const struct ranks r = c->ranks ? *c->ranks : own;
	int64_t comm = 0;
	for (size_t i = 0; i < r.n; i++)
		comm = sat_add(comm, r.rows[i].comm);
	for (size_t i = 0; r.n > 1 && i < r.n; i++) {
		const struct rank_row *x = &r.rows[i];
		int64_t others = sat_sub(comm, x->comm);
		if (x->waited_for <= 0 ||
		    findings_percent(x->waited_for, others) < c->ap->findings.straggler_pct)
			continue;
		struct finding *f = findings_add(out, FINDING_straggler);
		f->input = x->input;
		f->time_ns = x->waited_for;
		f->share = findings_percent(x->waited_for, sat_sub(out->run_end, out->run_start));
		f->count = r.instances;
		f->start = x->first;
		f->end = x->last;
		char w[32], o[32];
		finding_say(f,
			    _("the other %zu ranks waited %s for it, %.1f %% of their communication (%s), "
			      "over %llu "
			      "instances of %zu collectives"),
			    r.n - 1, units_format_ns(x->waited_for, w, sizeof(w)),
			    findings_percent(x->waited_for, others), units_format_ns(others, o, sizeof(o)),
			    (unsigned long long)r.instances, r.collectives);
	}
	if (!c->ranks)
		ranks_free(&own);
}
