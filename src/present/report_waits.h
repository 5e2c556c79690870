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
/* The names of a gaps table's rows: the ops before and after each gap and
 * the host's call at it (string ids, TRACE_NONE: none). */
struct gap_names {
	uint32_t *before, *after, *cpu;
};

/* The host's call at each of g's gaps (cpu[i]; string ids of t); -1 when
 * the inputs could not be read again (p->probe_calls said why). */
int report_gaps_cpu(const struct trace *t, const struct report_params *p, const struct gaps *g,
		    uint32_t *cpu);
/* The idle time between ops the gaps caption gives: over g's lanes. */
int64_t report_gaps_idle(const struct gaps *g);
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
