/* imbalance: GPUs of one run with very different busy shares (the busy
 * report's: each GPU's busy time over its wall). When the highest share
 * and the lowest are imbalance_points or more apart, the time at stake is
 * what the others would add working as the busiest did: the sum over the
 * GPUs of the busiest GPU's busy time minus each one's (never below 0),
 * over the GPUs' walls summed (the GPU time there was). One finding for
 * the run; its worst instance the run's span. */
#include "config.h"
#include "analysis/findings.h"

#include "analysis/busy.h"
#include "analysis/params.h"
#include "util/i18n.h"
#include "util/satmath.h"

void finding_imbalance(struct findings_ctx *c, struct findings *out)
{
	struct busy own;
	if (!c->busy)
		busy_of_lanes(c->t, c->sel, findings_ctx_lanes(c), &own);
	const struct busy b = c->busy ? *c->busy : own;
	const struct busy_row *hi = NULL, *lo = NULL;
	size_t n = 0;
	int64_t walls = 0;
	for (size_t i = 0; i < b.n; i++) {
		const struct busy_row *r = &b.rows[i];
		if (r->ops == 0)
			continue;
		n++;
		walls = sat_add(walls, r->wall);
		if (!hi || busy_row_percent(&b, r) > busy_row_percent(&b, hi))
			hi = r;
		if (!lo || busy_row_percent(&b, r) < busy_row_percent(&b, lo))
			lo = r;
	}
	double spread = n > 1 ? busy_row_percent(&b, hi) - busy_row_percent(&b, lo) : 0;
	if (n > 1 && spread >= c->ap->findings.imbalance_points) {
		int64_t lost = 0;
		for (size_t i = 0; i < b.n; i++)
			if (b.rows[i].ops && hi->busy > b.rows[i].busy)
				lost = sat_add(lost, hi->busy - b.rows[i].busy);
		struct finding *f = findings_add(out, FINDING_imbalance);
		f->time_ns = lost;
		f->share = findings_percent(lost, walls);
		f->count = n;
		f->start = out->run_start;
		f->end = out->run_end;
		char hl[128], ll[128];
		finding_say(f, _("GPU %s busy %.1f %%, GPU %s busy %.1f %%: %.1f points apart over %zu GPUs"),
			    trace_gpu_label(c->t, hi->gpu, hl, sizeof(hl)), busy_row_percent(&b, hi),
			    trace_gpu_label(c->t, lo->gpu, ll, sizeof(ll)), busy_row_percent(&b, lo), spread,
			    n);
	}
	if (!c->busy)
		busy_free(&own);
}
