/* The reports of why the GPU waited: gaps, idle, launch, breakdown and
 * categories (present/report.c dispatches to them). */
#ifndef RPDTOP_REPORT_WAITS_H
#define RPDTOP_REPORT_WAITS_H

#include "analysis/breakdown.h"
#include "analysis/gaps.h"
#include "analysis/launch.h"
#include "present/report.h"

/* 0, or -1 when the host side could not be read (p->probe_calls said
 * why). */
int report_gaps(const struct trace *t, const struct report_params *p, const struct selection *sel,
		struct table *out);
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
