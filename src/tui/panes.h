/* The views there are; each lives in a file of its own. */
#ifndef RPDTOP_PANES_H
#define RPDTOP_PANES_H

#include <stdint.h>

#include "analysis/findings.h"
#include "analysis/profile.h"
#include "analysis/search.h"
#include "tui/view.h"

struct app;

struct view pane_profile_new(struct app *app, enum profile_scope scope);
struct view pane_busy_new(struct app *app);
struct view pane_timeline_new(struct app *app);
/* The diff of the session's two traces (--diff), by name. */
struct view pane_diff_new(struct app *app);
/* Both runs' instances of a name as the diff compares it. */
struct view view_diff_ops_new(struct app *app, const char *name);
/* Details of a profile row; percent is its share of the scope's time. */
struct view view_detail_new(struct app *app, enum profile_scope scope, const struct profile_row *row,
			    double percent);
struct view view_help_new(struct app *app);
/* API calls by name (markers 0) or roctx ranges by text (markers 1). */
struct view pane_cpu_new(struct app *app, int markers);
/* What is wrong with the trace in view (as -r findings). */
struct view pane_findings_new(struct app *app);
/* One finding's rule, thresholds and numbers (rank: its place). */
struct view view_finding_new(struct app *app, const struct finding *f, size_t rank);
/* The figures of a row of API calls or roctx ranges, for its details. */
struct call_stats {
	uint32_t name; /* a call's name or a range's text */
	int markers;   /* roctx ranges */
	uint64_t calls;
	int64_t total;
	int64_t self;     /* calls: self time; -1 for ranges */
	int64_t gpu, ops; /* ranges: GPU time and ops under them; -1 for calls */
};
/* Details of such a row: its figures and a histogram of its durations;
 * Enter on a statistic or bucket as for ops. */
struct view view_detail_calls_new(struct app *app, const struct call_stats *s);
/* The instances of a roctx text in view, each with the GPU's busy time
 * in it and its top kernel (as -r steps): Enter shows one in the
 * timeline, W makes it the time window. */
struct view view_steps_new(struct app *app, uint32_t text);
/* The instances a query keeps (title: what they are), made again when
 * the selection changes; the query's pattern is copied. found: what the
 * query found in the current selection (copied), or NULL. */
struct view view_results_new(struct app *app, const char *title, const struct search_query *q,
			     const struct search_result *found);
/* The gaps of the GPUs' busy sets in the selection, with each GPU's
 * breakdown and idle time (as -r gaps, breakdown and idle). */
struct view view_gaps_new(struct app *app);
/* Ask for the gap threshold (} and {, kernel waits); the timeline and the
 * gaps view follow it. */
unsigned view_gaps_ask_threshold(struct app *app);
/* What [t0, t1) holds. */
struct view view_range_new(struct app *app, int64_t t0, int64_t t1);

#endif
