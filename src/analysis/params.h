/* The parameters of the analyses, in one struct that travels from the
 * command line and the settings file to every analysis: the batch
 * reports, the node groups and rpdtop-mpi's processes, and the viewer's
 * panes. A compiled pattern's match data is its own: each thread that
 * matches patterns works on a copy (analysis_params_copy). */
#ifndef RPDTOP_ANALYSIS_PARAMS_H
#define RPDTOP_ANALYSIS_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/categories.h"
#include "analysis/findings_thresholds.h"
#include "session/filter.h"

struct analysis_params {
	/* gaps, idle, the timeline's gap steps: a gap shorter than this,
	 * whose op was launched in time, is a kernel wait (ns) */
	int64_t gap_threshold;
	int per_queue;                       /* gaps, idle: of each queue, not each GPU */
	double outlier_z;                    /* top, ktop: |z-score| beyond it is an outlier; 0: none */
	double diff_tolerance;               /* the diff: a name is the same within it (percent) */
	struct filter comm;                  /* breakdown, ranks: the communication kernels */
	struct filter step;                  /* steps: the roctx texts of steps (no rule: the default) */
	struct categories cats;              /* categories, in the order tried (none until loaded) */
	struct findings_thresholds findings; /* findings: when each rule speaks */
};

/* The defaults: the gap threshold, the communication pattern and the
 * tolerance of --help, no outliers, the default steps, no categories. */
void analysis_params_init(struct analysis_params *p);
void analysis_params_free(struct analysis_params *p);
/* The communication kernels, or the roctx texts of steps, as pattern
 * (which replaces the one in force). -1 with PCRE2's message in err,
 * the parameters unchanged. */
int analysis_params_set_comm(struct analysis_params *p, const char *pattern, char *err, size_t errsize);
int analysis_params_set_step(struct analysis_params *p, const char *pattern, char *err, size_t errsize);
/* A copy whose patterns are compiled anew, for another thread. */
void analysis_params_copy(const struct analysis_params *from, struct analysis_params *to);
/* -1, with a message naming the pattern, when one of p's patterns runs
 * into a limit of PCRE2's on a string of t (filter_limit_hit): what the
 * analyses would match with it is not what it says. */
int analysis_params_check(const struct analysis_params *p, const struct trace *t, char *err, size_t errsize);
/* The steps' pattern, or NULL for the default steps. */
const struct filter *analysis_params_step(const struct analysis_params *p);

#endif
