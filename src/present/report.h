/* The batch reports, in one registry (present/report_list.h): each report
 * is a file of its own (present/report_NAME.c) that ends with its entry,
 * saying its name, its help, its columns, the API rows it reads, how its
 * table is made, and how it merges node group by node group. --help, the
 * options, the batch modes, the node-group engine and rpdtop-mpi all read
 * the registry. */
#ifndef RPDTOP_REPORT_H
#define RPDTOP_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/categories.h"
#include "analysis/params.h"
#include "analysis/part.h"
#include "display/names.h"
#include "present/table.h"
#include "session/filter.h"
#include "session/select.h"
#include "session/window.h"
#include "trace/api_need.h"
#include "trace/api_order.h"
#include "trace/probe.h"
#include "trace/trace.h"
#include "util/bytes.h"

#define NCOLS(a) (sizeof(a) / sizeof((a)[0]))

/* What the reports take besides the trace and the selection. */
struct report_params {
	size_t limit;                           /* at most this many rows, 0: all */
	const struct analysis_params *analysis; /* the gap threshold, the patterns... */
	const struct api_order *order;          /* t's API order (NULL: made when needed) */
	struct name_cache *names;               /* names as shown (demangled); NULL: as recorded */
};

/* How a report goes node group by node group (batch/batch.h): each
 * group's partial result made and encoded as bytes, then every group's
 * bytes decoded and merged into one, whose table is the whole load's
 * (analysis/part.h says the partial results' scheme). */
struct report_merge {
	/* Can it, with these parameters? NULL: always. */
	int (*can)(const struct report_params *p);
	void *(*part_new)(const struct report_params *p);
	/* Add a group's trace t (its selection); what must be asked of the
	 * inputs before encoding is left in *asks (NULL: nothing), for the
	 * caller to answer in place (trace_probe_calls). */
	void (*part_add)(void *part, const struct trace *t, const struct selection *sel,
			 const struct report_params *p, struct call_asks **asks);
	void (*part_encode)(void *part, const struct trace *t, struct bytes_out *b);
	/* -1 when the bytes are malformed. */
	int (*part_merge)(void *part, const struct part_in *in);
	/* The table of what the part merged: whole is the trace of every
	 * group's inputs, window the one asked for, on the whole span. */
	void (*part_table)(void *part, struct trace *whole, const struct window *window,
			   const struct report_params *p, struct table *out);
	void (*part_free)(void *part);
};

/* The merge of a report that does not merge: the engine reads the whole
 * load for it (every entry says one or the other). */
extern const struct report_merge report_whole_load;

/* What a report needs made ready for it besides its parameters. */
enum {
	REPORT_USES_CATEGORIES = 1, /* the settings' categories (analysis->cats) */
	REPORT_USES_CALL_ORDER = 2, /* the API order of the calls (order), kept with a cache file */
	REPORT_USES_FINDINGS = 4,   /* the settings' [findings] thresholds */
	/* No op, of a view nothing narrows (its API rows: API_NEED_CALLS):
	 * the inputs' ops may be left unread. */
	REPORT_USES_NO_OPS = 8,
};

struct report_def {
	const char *name;             /* -r NAME */
	const char *help;             /* what --help says it shows (N_), or NULL */
	const struct table_col *cols; /* its columns, as a viewer's pane may name them */
	size_t ncols;
	enum api_need apis; /* the API rows it reads with the ops */
	unsigned uses;      /* REPORT_USES_* */
	/* Its table of the selected part of t (sel NULL: all of it). */
	void (*build)(const struct trace *t, const struct report_params *p, const struct selection *sel,
		      struct table *out);
	/* Instead of build, a report that must ask the inputs something
	 * before it makes its rows (struct report_job): start finds its
	 * figures and the questions; finish makes the table, or drop gives
	 * up. Both free the job. */
	void *(*start)(const struct trace *t, const struct report_params *p, const struct selection *sel,
		       struct call_asks **asks);
	void (*finish)(void *job, const struct trace *t, const struct report_params *p, struct table *out);
	void (*drop)(void *job);
	const struct report_merge *merge; /* &report_whole_load when it does not merge */
	/* Its text form when it is not the table's (NULL: table_write_text). */
	void (*write_text)(const struct table *tb, FILE *out);
};

/* Every entry, report_NAME (present/report_list.h). */
#define REPORT(name) extern const struct report_def report_##name;
#include "present/report_list.h"
#undef REPORT

/* The registry: its size, its i-th entry, an entry's place in it. */
size_t report_count(void);
const struct report_def *report_at(size_t i);
size_t report_index(const struct report_def *r);
/* The report of that name, or NULL. */
const struct report_def *report_find(const char *name);
/* The reports' names in the registry's order, in words ("top, ktop, ...
 * or steps"); with help, each followed by what it shows, in the
 * language of the messages. */
void report_list(char *buf, size_t size, int with_help);
/* A report's column of that key (CSV header, JSON member), or NULL. */
const struct table_col *report_col(const struct report_def *r, const char *key);

/* The findings' gate (-r findings --gate=PCT): 1, each finding at PCT
 * percent or more named on stderr, when there is one; else 0. */
int findings_gate(const struct table *tb, double pct);

/* Parse a format name; returns -1 when unknown. */
int report_parse_format(const char *name, enum table_format *format);

/* A report being made over the selected part of t (sel NULL: all of
 * it). Some reports must ask the inputs something between finding their
 * figures and making their rows (the gaps of a trace holding its
 * launching calls alone: what the host did at each); report_start leaves
 * the questions in asks, the caller, who may read the inputs, answers
 * them in place (trace_probe_calls), and report_finish makes the table. */
struct report_job {
	const struct report_def *def;
	const struct trace *t;
	const struct report_params *p;
	const struct selection *sel;
	void *state;            /* the report's own, between start and finish */
	struct call_asks *asks; /* NULL: nothing to ask */
};

void report_start(struct report_job *j, const struct report_def *def, const struct trace *t,
		  const struct report_params *p, const struct selection *sel);
/* The table of a started job, its asks answered; the job is done. */
void report_finish(struct report_job *j, struct table *out);
/* Give up a started job (its asks could not be answered). */
void report_drop(struct report_job *j);

/* Open tb for a report to be built into, then written in format to out
 * (report_write): a format that can write each row as soon as it is made
 * (CSV) does, through sink, which must live as long as tb. */
void report_open_table(struct table *tb, struct table_sink *sink, enum table_format format, FILE *out);
/* Write the table in the given format to out. */
void report_write(const struct table *tb, const struct trace *t, enum table_format format, FILE *out);

#endif
