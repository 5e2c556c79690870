/* slow-step: steps (the steps report's) much longer than the median step:
 * one finding per step in view, the trace's first step left out (warmup's),
 * longer than slow_step_ratio times the median of the others (nearest
 * rank). Its time is its duration minus the median, its share of the
 * run's span, its worst instance the step itself. */
#include "config.h"
#include "analysis/findings.h"

#include "analysis/params.h"
#include "util/i18n.h"
#include "util/units.h"

void finding_slow_step(struct findings_ctx *c, struct findings *out)
{
	const struct steps *s = findings_ctx_steps(c);
	int64_t median = c->step_median;
	if (median <= 0)
		return;
	for (size_t i = 0; i < s->n; i++) {
		const struct step_row *r = &s->rows[i];
		if (r->number == 1 || (double)r->dur <= c->ap->findings.slow_step_ratio * (double)median)
			continue;
		struct finding *f = findings_add_step(out, FINDING_slow_step, r, median);
		char d[32], m[32];
		finding_say(f, _("step %zu took %s against a median of %s (%.1fx)"), r->number,
			    units_format_ns(r->dur, d, sizeof(d)), units_format_ns(median, m, sizeof(m)),
			    (double)r->dur / (double)median);
	}
}
