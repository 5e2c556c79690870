/* What the parts of a batch run share: the partials being merged, and the
 * partial results of the reports with a row per GPU (busy, idle). */
#ifndef RPDTOP_BATCH_PART_H
#define RPDTOP_BATCH_PART_H

#include "analysis/breakdown.h"
#include "analysis/busy.h"
#include "analysis/categories.h"
#include "analysis/gaps.h"
#include "batch/batch_plan.h"
#include "session/window.h"
#include "trace/api_order.h"
#include "util/bytes.h"

/* The partials being read, and the trace their inputs make again: the
 * whole load's inputs, domains and (for reports by GPU) GPUs, without any
 * op. */
struct merge_state {
	struct trace skel;
	struct bytes_in *in; /* each part's reader, past its inputs */
	size_t **global;     /* each part's inputs: their index in skel */
	size_t *nlocal;      /* and their number */
	uint64_t ops;
	struct window window; /* the request's, on the whole span */
	/* The inputs --skip-bad left out, of every group: file, why. */
	struct skipped_input *skipped;
	size_t nskipped;
};

struct skipped_input {
	uint64_t file;
	char *why;
};

/* Group g's partial as merge_state holds it. */
struct part_in batch_part_in(struct merge_state *m, size_t g);

/* API calls (kind REPORT_API) or roctx ranges (REPORT_MARKERS) by name;
 * o: t's API order. */
void batch_put_by_name(const struct trace *t, const struct api_order *o, const struct selection *sel,
		       enum report_kind kind, struct bytes_out *b);
int batch_by_name_table(const struct batch_plan *plan, enum report_kind kind, struct merge_state *m,
			const struct report_params *rp, struct table *tb, struct rpd_error *err);
void batch_put_ranks(const struct trace *t, const struct selection *sel, const struct filter *comm,
		     struct bytes_out *b);
int batch_ranks_table(const struct batch_plan *plan, struct merge_state *m, const struct report_params *rp,
		      struct table *tb, struct rpd_error *err);

#endif
