/* exposed-comm: communication not hidden behind compute, per GPU: the
 * breakdown's exposed communication (analysis/breakdown.h: the time the
 * GPU's communication kernels (--comm) ran while none of its other
 * kernels, fills or barriers did), over the GPU's span, when it is
 * exposed_comm_pct or more. Its worst instance is the GPU's span. */
#include "config.h"
#include "analysis/findings.h"

#include <stdlib.h>

#include "analysis/breakdown.h"
#include "analysis/params.h"
#include "util/i18n.h"
#include "util/units.h"
#include "util/xalloc.h"

/* The communication kernels in view on each GPU. */
static uint64_t *comm_counts(struct findings_ctx *c)
{
	const struct trace *t = c->t;
	uint8_t *comm = filter_kernel_names(&c->ap->comm, t);
	uint64_t *n = xcalloc(t->ngpus ? t->ngpus : 1, sizeof(*n));
	for (size_t i = 0; i < t->ops.n; i++)
		if ((!c->sel || selection_bit(c->sel->op_bits, i)) && t->ops.kind[i] == OP_KERNEL &&
		    comm[t->ops.name[i]])
			n[trace_op_gpu(t, i)]++;
	free(comm);
	return n;
}

void finding_exposed_comm(struct findings_ctx *c, struct findings *out)
{
	struct breakdown b;
	breakdown_of_lanes(c->t, c->sel, &c->ap->comm, findings_ctx_lanes(c), &b);
	const struct gaps *g = findings_ctx_gaps(c);
	uint64_t *count = NULL;
	for (size_t i = 0; i < b.n; i++) {
		const struct breakdown_row *r = &b.rows[i];
		if (r->comm == 0 ||
		    findings_percent(r->exposed_comm, r->span) < c->ap->findings.exposed_comm_pct)
			continue;
		if (!count)
			count = comm_counts(c);
		struct finding *f = findings_add(out, FINDING_exposed_comm);
		f->gpu = r->gpu;
		f->time_ns = r->exposed_comm;
		f->share = findings_percent(r->exposed_comm, r->span);
		f->count = count[r->gpu];
		for (size_t k = 0; k < g->nlanes; k++)
			if (g->lanes[k].lane == r->gpu) {
				f->start = g->lanes[k].first;
				f->end = g->lanes[k].last;
			}
		char e[32], all[32];
		finding_say(f, _("%s of %s communication exposed (%.0f %% overlapped compute), %llu kernels"),
			    units_format_ns(r->exposed_comm, e, sizeof(e)),
			    units_format_ns(r->comm, all, sizeof(all)), 100.0 * r->overlap_ratio,
			    (unsigned long long)f->count);
	}
	free(count);
	breakdown_free(&b);
}
