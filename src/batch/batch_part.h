/* The partial results of a batch run being merged (batch.c). */
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

#endif
