/* The ranks report: one row per input, with the straggler footer
 * (present/report.c dispatches to it). */
#ifndef RPDTOP_REPORT_RANKS_H
#define RPDTOP_REPORT_RANKS_H

#include "present/report.h"

void report_ranks(const struct trace *t, const struct report_params *p, const struct selection *sel,
		  struct table *out);

#endif
