/* The command line, parsed GNU style. */
#ifndef RPDTOP_OPTIONS_H
#define RPDTOP_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "present/report.h"

struct options {
	int have_report;
	const struct report_def *report; /* of the registry (present/report.h) */
	enum table_format format;
	size_t limit; /* 0: all rows */
	int demo;
	int jobs; /* threads at work at once (util/threads.h), 0: one per core */
	int skip_bad;
	int same_node;
	const char *rules[16]; /* --filter "P" and --exclude as "!P", in order */
	size_t nrules;
	const char *window;      /* --window START:END, or NULL */
	const char *gpu;         /* --gpu REGEX, or NULL */
	const char *input;       /* --input REGEX, or NULL */
	const char *export_path; /* --export FILE, or NULL */
	int force;               /* --force: replace an existing FILE */
	int export_format;       /* --export-format: enum export_format */
	int export_format_set;   /* --export-format was given */
	int64_t gap_threshold;   /* --gap-threshold, ns */
	int per_queue;           /* --per-queue: gaps and idle of each queue */
	const char *comm;        /* --comm REGEX: communication kernels */
	int format_set;          /* --format was given */
	/* --diff: the base run's inputs (BASE, repeatable); the new run is
	 * DATABASE..., or the same inputs in --against-window. */
	const char *diff_paths[64];
	size_t ndiff;
	const char *against_window; /* --against-window: the new run's window */
	double tolerance;           /* --tolerance, percent */
	int tolerance_set;          /* --tolerance was given */
	double gate;                /* --gate, percent; < 0: none */
	int strip;                  /* --strip: compare names stripped */
	double outlier_z;           /* --outliers Z, 0: none */
	int raw_names;              /* --raw-names: names as the inputs hold them */
	int debug_memory;           /* --debug-memory: where memory went, on stderr at the end */
	int whole_load;             /* --whole-load: never node group by node group */
	const char *step;           /* --step REGEX: the roctx ranges of -r steps, or NULL */
	int roi;                    /* --roi: enum roi_kind */
	int no_cache;               /* --no-cache */
	uint64_t cache_size;        /* --cache-size, bytes */
	const char *const *paths;
	size_t npaths;
};

enum options_result { OPTIONS_RUN, OPTIONS_EXIT_OK, OPTIONS_USAGE_ERROR };

/* Parse argv into o. Prints --help, --version and usage errors itself. */
enum options_result options_parse(int argc, char **argv, struct options *o);

#endif
