/* The ranks report: one row per input, with the straggler footer
 * (present/report.c dispatches to it). */
#ifndef RPDTOP_REPORT_RANKS_H
#define RPDTOP_REPORT_RANKS_H

#include "analysis/ranks.h"
#include "present/report.h"

void report_ranks(const struct trace *t, const struct report_params *p, const struct selection *sel,
		  struct table *out);
/* The table of rows already matched (inputs of t). */
void report_ranks_table(const struct trace *t, const struct report_params *p, const struct ranks *rk,
			struct table *out);

#endif
