/* warmup: the trace's first step (the steps report's number 1), when it is
 * in view and longer than warmup_ratio times the median of the other
 * steps (nearest rank). Its time is its duration minus the median, its
 * share of the run's span, its worst instance the step itself. */
#include "config.h"
#include "analysis/findings.h"

#include "analysis/params.h"
#include "util/i18n.h"
#include "util/units.h"

void finding_warmup(struct findings_ctx *c, struct findings *out)
{
	const struct steps *s = findings_ctx_steps(c);
	int64_t median = c->step_median;
	if (median <= 0 || s->n == 0 || s->rows[0].number != 1)
		return;
	const struct step_row *r = &s->rows[0];
	if ((double)r->dur <= c->ap->findings.warmup_ratio * (double)median)
		return;
	struct finding *f = findings_add_step(out, FINDING_warmup, r, median);
	char d[32], m[32];
	finding_say(f, _("the first step took %s against a median of %s (%.1fx)"),
		    units_format_ns(r->dur, d, sizeof(d)), units_format_ns(median, m, sizeof(m)),
		    (double)r->dur / (double)median);
}
