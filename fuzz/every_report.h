/* Every report of the registry over a trace, as a batch run makes them
 * (what a report would ask of the inputs, which a harness cannot answer,
 * left unasked), the tables thrown away: for harnesses and tests that
 * check a trace is safe to report on, whatever it holds. */
#ifndef RPDTOP_FUZZ_EVERY_REPORT_H
#define RPDTOP_FUZZ_EVERY_REPORT_H

#include "analysis/params.h"
#include "present/report.h"

static inline void every_report(const struct trace *t)
{
	struct analysis_params ap;
	analysis_params_init(&ap);
	struct report_params p = { .analysis = &ap };
	for (size_t i = 0; i < report_count(); i++) {
		struct report_job j;
		struct table tb;
		report_start(&j, report_at(i), t, &p, NULL);
		if (j.asks && j.asks->n) {
			report_drop(&j);
			continue;
		}
		table_open(&tb, NULL);
		report_finish(&j, &tb);
		table_free(&tb);
	}
	analysis_params_free(&ap);
}

#endif
