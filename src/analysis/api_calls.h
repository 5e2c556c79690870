/* API calls by name, as nsys's cuda_api_sum lists them. roctx ranges are
 * API rows but not calls: they are left out (markers.h has them).
 *
 * A call's self time is its time less that of the calls nested in it on
 * its thread: of each call, the innermost call enclosing it (the latest
 * start, the shorter at equal starts) is its parent, whose self time
 * loses the child's time, whether the child is in view or not. roctx
 * ranges take no part in this nesting.
 *
 * With a window, totals and self times count the part of each call
 * inside it; min, max, average and percentiles take whole durations.
 * Percentiles are nearest-rank, exact up to DURSTAT_EXACT_MAX calls of a
 * name and within 0.39 % past that (analysis/durstat.h). */
#ifndef RPDTOP_API_CALLS_H
#define RPDTOP_API_CALLS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/namestat.h"
#include "session/select.h"
#include "trace/api_order.h"
#include "trace/trace.h"

struct api_call_row {
	uint32_t name; /* string id of the API name */
	uint64_t calls;
	int64_t total, self, whole, min, max, p50, p99;
};

struct api_calls {
	struct api_call_row *rows; /* by total, largest first, then by name */
	size_t n;
	uint64_t calls;
	int64_t total; /* of every call in view */
};

/* The calls in the selection (NULL: all) by name, those in view by their
 * own name (selected_api_named: a call kept only as the launch or the
 * context of what the filter names is not listed); o is t's API order. */
void api_calls_by_name(const struct trace *t, const struct api_order *o, const struct selection *sel,
		       struct api_calls *out);

/* The partial result of api_calls_by_name, to be merged with others
 * (analysis/namestat.h): per name sum[0] the total, sum[1] the self time
 * (the whole durations' sum is the statistic's). A call's parent is on
 * its own thread, so a process's self times are whole in its own part. */
void api_calls_part_add(struct namestat *part, const struct trace *t, const struct api_order *o,
			const struct selection *sel);
/* The rows of what part holds (names: string ids of t); part is emptied. */
void api_calls_part_finish(struct namestat *part, const struct trace *t, struct api_calls *out);
void api_calls_free(struct api_calls *c);
/* Mean whole duration, truncated. */
int64_t api_call_row_avg(const struct api_call_row *r);
/* The row's share of all API time in view, in percent. */
double api_call_row_percent(const struct api_calls *c, const struct api_call_row *r);

/* The whole durations, sorted, of the API calls (markers 0) or roctx
 * ranges (markers 1) in view by their own name (selected_api_named) whose
 * name (a range's text) is name; *n of
 * them. */
int64_t *api_durations(const struct trace *t, const struct selection *sel, uint32_t name, int markers,
		       size_t *n);

/* The string id roctx ranges are recorded under, or TRACE_NONE. */
uint32_t api_marker_name(const struct trace *t);
/* How many roctx ranges t holds: counted before they are kept, millions
 * are not grown into by doubling (each doubling a copy and fresh pages). */
size_t api_marker_count(const struct trace *t);

#endif
