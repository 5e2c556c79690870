/* The batch reports: which analysis each report runs and the table it makes. */
#ifndef RPDTOP_REPORT_H
#define RPDTOP_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "present/table.h"
#include "session/select.h"
#include "session/session.h"
#include "trace/api_need.h"
#include "trace/trace.h"

#include "analysis/busy.h"
#include "analysis/categories.h"
#include "analysis/profile.h"
#include "display/names.h"
#include "session/filter.h"
#include "trace/api_order.h"
#include "trace/probe.h"

enum report_kind {
	REPORT_TOP,
	REPORT_KTOP,
	REPORT_BUSY,
	REPORT_GAPS,
	REPORT_IDLE,
	REPORT_LAUNCH,
	REPORT_BREAKDOWN,
	REPORT_CATEGORIES,
	REPORT_COUNTERS,
	REPORT_RANKS,
	REPORT_API,
	REPORT_MARKERS,
	REPORT_RANGES,
	REPORT_STEPS,
};

/* What the reports take besides the trace and the selection. */
struct report_params {
	size_t limit;                  /* at most this many rows, 0: all */
	double outlier_z;              /* top, ktop: |z-score| beyond it is an outlier; 0: none */
	int64_t gap_threshold;         /* gaps: kernel wait below it (ns) */
	int per_queue;                 /* gaps, idle: of each queue, not each GPU */
	const struct filter *comm;     /* breakdown: communication kernels */
	const struct categories *cats; /* categories, in the order tried */
	const struct api_order *order; /* gaps: t's API order (NULL: made when needed) */
	/* CSV going to this file: a report of every row (gaps) may write them
	 * as it makes them instead of holding them all. */
	FILE *csv_stream;
	struct name_cache *names;  /* names as shown (demangled); NULL: as recorded */
	const struct filter *step; /* steps: the roctx texts of steps (NULL: the default) */
};

/* Does the report read the API rows (the launches)? */
enum api_need report_needs_apis(enum report_kind kind);

/* Parse a report name; returns -1 when unknown. */
int report_parse(const char *name, enum report_kind *kind);
/* Parse a format name; returns -1 when unknown. */
int report_parse_format(const char *name, enum table_format *format);

/* A report being made over the selected part of t (sel NULL: all of
 * it). Some reports must ask the inputs something between finding their
 * figures and making their rows (the gaps of a trace holding its
 * launching calls alone: what the host did at each); report_start leaves
 * the questions in asks, the caller, who may read the inputs, answers
 * them in place (trace_probe_calls), and report_finish makes the table. */
struct report_job {
	enum report_kind kind;
	const struct trace *t;
	const struct report_params *p;
	const struct selection *sel;
	void *state;            /* the report's own, between start and finish */
	struct call_asks *asks; /* NULL: nothing to ask */
};

void report_start(struct report_job *j, const struct trace *t, enum report_kind kind,
		  const struct report_params *p, const struct selection *sel);
/* The table of a started job, its asks answered; the job is done. */
void report_finish(struct report_job *j, struct table *out);
/* Give up a started job (its asks could not be answered). */
void report_drop(struct report_job *j);

/* The tables of results made elsewhere (merged from partial results):
 * the profile of top or ktop, and busy. */
void report_profile_table(const struct trace *t, enum report_kind kind, const struct report_params *rp,
			  const struct profile *p, struct table *out);
void report_busy_table(const struct trace *t, size_t limit, const struct busy *b, struct table *out);
/* The top or ktop, busy and counters reports of the selected part of t. */
void report_profile(const struct trace *t, enum report_kind kind, const struct report_params *rp,
		    const struct selection *sel, struct table *out);
void report_busy(const struct trace *t, size_t limit, const struct selection *sel, struct table *out);
void report_counters(const struct trace *t, size_t limit, const struct selection *sel, struct table *out);

/* Write the table in the given format to out. */
void report_write(const struct table *tb, const struct trace *t, enum table_format format, FILE *out);

#endif
