/* The batch modes, shared by rpdtop and rpdtop-mpi (no terminal code). */
#ifndef RPDTOP_RUN_BATCH_H
#define RPDTOP_RUN_BATCH_H

#include "batch/batch.h"
#include "options.h"
#include "session/session.h"
#include "workspace/workspace.h"

/* What every rpdtop program does first: the locale (numbers always
 * written the C way), its messages' catalogue, and SIGXFSZ ignored. */
void run_process_setup(void);
/* Is the viewer wanted: no report or export asked for, and a terminal
 * (or a test's script)? */
int run_wants_viewer(const struct options *o);
/* The workspace the options ask for: the inputs, and its session's filter
 * and window. The exit status of a failure (1: an input, 2: usage), 0
 * when open. */
int run_open_workspace(const struct options *o, struct workspace *w);
/* The parameters of the analyses the options give (an, to be freed);
 * their patterns are checked when the inputs are opened. */
void run_analysis_params(const struct options *o, struct analysis_params *an);
/* The batch request of the options' report, with the analyses' an. */
void run_request(const struct options *o, const struct analysis_params *an, struct batch_request *req);
/* A report of the inputs alone read node group by node group when it can:
 * 1 when it went so (*status: the exit status), else 0 with the inputs
 * listed in plan (when they were) for the whole load. */
int run_groupwise(const struct options *o, struct analysis_params *an, struct batch_plan *plan, int *status);
/* What the options ask of an open workspace when not the viewer: a diff,
 * an export (and a report beside it), a report, or the top report. The
 * exit status. */
int run_batch(const struct options *o, struct workspace *w, struct analysis_params *an);
int run_export(const struct options *o, struct workspace *w);
/* The settings' categories are read into an when the report needs them. */
int run_report(const struct options *o, struct workspace *w, struct analysis_params *an,
	       const struct report_def *def);
int run_diff(const struct options *o, const struct analysis_params *an, const struct session *s);

#endif
