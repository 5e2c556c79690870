/* The reports of the CPU side: API calls, roctx ranges by text, every
 * range instance, and steps (present/report.c dispatches to them). */
#ifndef RPDTOP_REPORT_CPU_H
#define RPDTOP_REPORT_CPU_H

#include "analysis/api_calls.h"
#include "analysis/markers.h"
#include "present/report.h"

void report_api(const struct trace *t, const struct report_params *p, const struct selection *sel,
		struct table *out);
void report_markers(const struct trace *t, const struct report_params *p, const struct selection *sel,
		    struct table *out);
/* The tables of figures already made (names: string ids of t); the
 * batch run's merged partials come this way. */
void report_api_table(const struct trace *t, const struct report_params *p, const struct api_calls *c,
		      struct table *out);
void report_markers_table(const struct trace *t, const struct report_params *p, const struct marker_table *mt,
			  struct table *out);
void report_ranges(const struct trace *t, const struct report_params *p, const struct selection *sel,
		   struct table *out);
void report_steps(const struct trace *t, const struct report_params *p, const struct selection *sel,
		  struct table *out);

#endif
