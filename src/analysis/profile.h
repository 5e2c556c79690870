/* Flat profile: GPU ops grouped by name with their time statistics.
 * The batch reports and the TUI panes both read these rows. */
#ifndef RPDTOP_PROFILE_H
#define RPDTOP_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "session/select.h"
#include "trace/trace.h"

enum profile_scope {
	PROFILE_ALL_OPS, /* every GPU op (top) */
	PROFILE_KERNELS, /* kernel ops only (ktop) */
};

/* With a window, total is the time inside it (the rule in
 * session/select.h); whole, min and max are of whole durations. */
struct profile_row {
	uint32_t name; /* string id */
	uint64_t calls;
	int64_t total, whole, min, max;
};

struct profile {
	struct profile_row *rows; /* sorted by total descending, then name */
	size_t n;
	uint64_t calls; /* ops in scope */
	int64_t total;  /* time of all ops in scope (inside the window) */
};

/* Group the ops in scope and in the selection (NULL: all) by name. */
void profile_by_name(const struct trace *t, enum profile_scope scope, const struct selection *sel,
		     struct profile *out);
void profile_free(struct profile *p);

/* Mean (whole) duration, truncated to whole nanoseconds. */
int64_t profile_row_avg(const struct profile_row *r);
/* Share of the scope's time, in percent (0 when the scope has no time). */
double profile_row_percent(const struct profile *p, const struct profile_row *r);

#endif
