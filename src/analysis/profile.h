/* Flat profile: GPU ops grouped by name with their time statistics.
 * The batch reports and the TUI panes both read these rows. Host copies
 * (trace/host_copies.h: no GPU ops) are rows of the profile of every op
 * too, under their name, in its totals and in the base of shares. */
#ifndef RPDTOP_PROFILE_H
#define RPDTOP_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/namestat.h"
#include "session/select.h"
#include "trace/trace.h"
#include "util/bytes.h"

enum profile_scope {
	PROFILE_ALL_OPS, /* every GPU op and host copy (top) */
	PROFILE_KERNELS, /* kernel ops only (ktop) */
};

/* With a window, total is the time inside it (the rule in
 * session/select.h); whole and the statistics are of whole durations.
 * The statistics (min, max, the average, std, the nearest-rank
 * percentiles and var, the sum of each duration's excess over the
 * fastest) are over the kept instances: all of them, or those whose
 * z-score is within the limit asked for; calls, total and whole count
 * every instance. */
struct profile_row {
	uint32_t name; /* string id */
	uint64_t calls;
	int64_t total, whole, min, max;
	uint64_t kept, outliers; /* instances in the statistics, and left out */
	int64_t kept_whole;      /* sum of the kept durations */
	int64_t std, p50, p90, p99, var;
	int64_t avg; /* mean of the kept durations, truncated */
};

struct profile {
	struct profile_row *rows; /* sorted by total descending, then name */
	size_t n;
	uint64_t calls; /* ops in scope */
	int64_t total;  /* time of all ops in scope (inside the window) */
	int64_t all;    /* time of every GPU op (and host copy) in the window,
			 * filter or not */
};

/* Group the ops in scope and in the selection (NULL: all) by name. */
void profile_by_name(const struct trace *t, enum profile_scope scope, const struct selection *sel,
		     struct profile *out);
/* The same, leaving out of each name's statistics the instances whose
 * |z-score| (over all its instances) exceeds z; z <= 0: none left out. */
void profile_by_name_z(const struct trace *t, enum profile_scope scope, const struct selection *sel, double z,
		       struct profile *out);
void profile_free(struct profile *p);

/* A profile's partial result, to be merged with others (analysis/durstat.h):
 * each name's counts, exact sums and statistic of all its durations,
 * keyed by string id in a trace's string table. */
struct profile_part {
	/* Per name sum[0] the total, sum[1] the whole durations (kept apart
	 * from the statistic's: --outliers makes that one of the kept only). */
	struct namestat ns;
	__int128 all; /* every GPU op's (and host copy's) time in the window,
		       * filter or not */
};

void profile_part_init(struct profile_part *a);
void profile_part_free(struct profile_part *a);
/* Add the ops of t in scope and in the selection. */
void profile_part_add(struct profile_part *a, const struct trace *t, enum profile_scope scope,
		      const struct selection *sel);
/* As bytes, names by their text (t holds the string ids of a). */
void profile_part_encode(const struct profile_part *a, const struct trace *t, struct bytes_out *b);
/* Merge encoded bytes into a, interning the names in strings; -1 when
 * they are malformed. */
int profile_part_merge(struct profile_part *a, const struct part_in *in);
/* The profile of what a holds (names are string ids of t); a is emptied. */
void profile_part_finish(struct profile_part *a, const struct trace *t, struct profile *out);

/* Mean duration of the kept instances, truncated to whole nanoseconds. */
int64_t profile_row_avg(const struct profile_row *r);
/* Share of the scope's time, in percent (0 when the scope has no time). */
double profile_row_percent(const struct profile *p, const struct profile_row *r);
/* Share of all GPU time in the window, filtered out or not, in percent. */
double profile_row_share(const struct profile *p, const struct profile_row *r);

#endif
