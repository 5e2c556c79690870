/* The reports of why the GPU waited: gaps, idle, launch, breakdown and
 * categories (present/report.c dispatches to them). */
#ifndef RPDTOP_REPORT_WAITS_H
#define RPDTOP_REPORT_WAITS_H

#include "analysis/breakdown.h"
#include "analysis/gaps.h"
#include "analysis/launch.h"
#include "present/report.h"

/* The gaps report in two steps: its figures, and the moments it must ask
 * the inputs about in *asks (those a trace holding its launching calls
 * alone cannot answer), to be answered by the caller (trace_probe_calls);
 * then its table. The job returned is freed by finish, or by drop when
 * the asking failed. */
void *report_gaps_start(const struct trace *t, const struct report_params *p, const struct selection *sel,
			struct call_asks **asks);
void report_gaps_finish(void *job, const struct trace *t, const struct report_params *p, struct table *out);
void report_gaps_drop(void *job);
void report_gaps_table(const struct trace *t, const struct report_params *p, const struct gaps *g,
		       const struct gap_names *names, int64_t idle, struct table *out);
/* The idle and breakdown tables of lanes and rows found elsewhere (merged
 * from partial results). */
void report_launch_table(const struct trace *t, const struct report_params *p, const struct launch_stats *s,
			 struct table *out);
void report_categories_table(const struct report_params *p, const struct category_times *ct,
			     struct table *out);
void report_breakdown_table(const struct trace *t, const struct report_params *p, const struct breakdown *b,
			    struct table *out);
void report_idle_table(const struct trace *t, const struct report_params *p, const struct gaps *g,
		       struct table *out);
void report_idle(const struct trace *t, const struct report_params *p, const struct selection *sel,
		 struct table *out);
void report_launch(const struct trace *t, const struct report_params *p, const struct selection *sel,
		   struct table *out);
void report_breakdown(const struct trace *t, const struct report_params *p, const struct selection *sel,
		      struct table *out);
void report_categories(const struct trace *t, const struct report_params *p, const struct selection *sel,
		       struct table *out);

#endif
