/* The plan of a batch run: what is asked for, and the inputs grouped by
 * the node they were recorded on (batch/batch.h reads them group by
 * group). */
#ifndef RPDTOP_BATCH_PLAN_H
#define RPDTOP_BATCH_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "present/report.h"
#include "util/error.h"
#include "workspace/workspace.h"

/* What a batch report asks for, as the command line gives it. */
struct batch_request {
	const struct report_def *report;
	enum table_format format;
	const char *const *rules; /* the filter: "P" or "!P", in order */
	size_t nrules;
	const char *window;      /* START:END, or NULL */
	int roi;                 /* --roi: enum roi_kind, 0: none */
	const char *gpu, *input; /* place filters, or NULL */
	size_t limit;
	/* The parameters of the analyses; each group's thread works on a
	 * copy of its own. */
	const struct analysis_params *analysis;
	int raw_names;
	int whole_load; /* never group by group (--whole-load) */
};

/* The inputs of one node (or one input of unknown node). */
struct batch_group {
	char **paths;
	size_t npaths;
	char *node;     /* NULL: not known */
	uint64_t bytes; /* the size of its files */
};

struct batch_plan {
	struct batch_group *groups; /* in the order of their first input */
	size_t ngroups;
	char **paths; /* every input file, in the order the whole load reads them */
	size_t npaths;
	size_t *group_of; /* each file's group */
	int same_node, skip_bad;
	/* The span of every input's ops, for a window given relative to it
	 * (batch_plan_set_span); have_span 0 until set. */
	int have_span;
	int64_t span_lo, span_hi;
	/* Groups being read at once (batch/batch.h): more than one, and
	 * their loads draw no progress line, which would fight on one. */
	size_t at_once;
};

/* List and group the inputs (files or directories) as the batch run
 * would. -1 with *err set. */
int batch_plan_make(const struct workspace_options *o, struct batch_plan *plan, struct rpd_error *err);
void batch_plan_free(struct batch_plan *plan);

/* "The partial result of group g is malformed": -1. */
int batch_bad_part(size_t g, struct rpd_error *err);

#endif
