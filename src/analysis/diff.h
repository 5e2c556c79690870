/* The difference of two runs (a base and a new one): GPU time by name
 * side by side, what changed and by how much, and whether it is more than
 * a CI gate lets pass.
 *
 * - Each run is the profile of its GPU ops (profile_by_name, every op as
 *   the top report) over its selection, grouped by the name as compared:
 *   the name as shown, so that names the caller shows alike (demangled,
 *   or stripped) are one row. p50 is the nearest-rank median of the
 *   group's whole durations: the value at rank ceil(n / 2).
 * - delta = new total - base total; delta_percent = 100 * delta / base
 *   total (none when the base has no time).
 * - status: added (no call in the base), removed (none in the new run),
 *   same when |delta| <= tolerance percent of the base total, else slower
 *   (delta > 0) or faster.
 * - The gate (PCT percent) trips on the total GPU time, or on a name that
 *   holds more than 1 % of the total GPU time of either run, when its time
 *   grew by more than PCT percent of its base time; a name new in the new
 *   run and holding more than 1 % of it grew from nothing, and trips it. */
#ifndef RPDTOP_DIFF_H
#define RPDTOP_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/busy.h"
#include "session/select.h"
#include "trace/trace.h"

#define DIFF_DEFAULT_TOLERANCE 2.0 /* percent */
#define DIFF_GATE_SHARE 1.0        /* percent of the total a name must hold to be gated */

/* The name a string id is compared by (the caller's display name); the
 * string lives as long as ctx does. */
typedef const char *(*diff_name_fn)(void *ctx, uint32_t name);

struct diff_name {
	const char *name; /* as compared */
	uint64_t calls;
	int64_t total, p50;
};

/* One run: its names sorted by name (strcmp), and its totals. */
struct diff_run {
	struct diff_name *names;
	size_t n;
	uint64_t ops;
	int64_t total, p50; /* all GPU ops in the selection */
};

enum diff_status { DIFF_ADDED, DIFF_REMOVED, DIFF_SLOWER, DIFF_FASTER, DIFF_SAME };

struct diff_row {
	const char *name; /* a run's: valid while both runs are */
	uint64_t base_calls, new_calls;
	int64_t base_total, new_total, delta, base_p50, new_p50;
	double delta_percent; /* valid when has_percent */
	int has_percent;
	enum diff_status status;
	int gated; /* the gate tripped on it */
};

struct diff {
	struct diff_row total; /* every GPU op ("*total*") */
	struct diff_row *rows; /* by |delta| descending, then name */
	size_t n;
	size_t common;   /* names with calls in both runs */
	size_t ntripped; /* rows whose gate tripped, the total's included */
};

/* Group t's GPU ops in sel (NULL: all) by the name shown(ctx, id) gives. */
void diff_run_build(const struct trace *t, const struct selection *sel, diff_name_fn shown, void *ctx,
		    struct diff_run *out);
void diff_run_free(struct diff_run *r);

/* Merge two runs. gate < 0: no gate. */
void diff_runs(const struct diff_run *base, const struct diff_run *next, double tolerance, double gate,
	       struct diff *out);
void diff_free(struct diff *d);

/* Status names as the CSV writes them. */
const char *diff_status_name(enum diff_status s);

/* A GPU of each run side by side: the runs' GPUs are paired in the
 * natural order of their labels (the i-th with the i-th), since the same
 * GPU of two runs may be labelled by different files. idle = wall - busy
 * (busy_per_gpu's wall: the trace's, or the window). */
struct diff_gpu {
	char base_label[128], new_label[128]; /* "" when that run has no such GPU */
	int64_t base_busy, new_busy, base_idle, new_idle;
};

/* The GPUs of both runs' busy results paired; *n rows, freed with free(). */
struct diff_gpu *diff_gpus(const struct trace *tb, const struct busy *bb, const struct trace *tn,
			   const struct busy *bn, size_t *n);

/* Comparability: what makes two runs hard to compare. */
enum {
	DIFF_WARN_GPUS = 1,      /* different numbers of GPUs with ops */
	DIFF_WARN_NO_COMMON = 2, /* no name in both runs (both have ops) */
	DIFF_WARN_OPS = 4,       /* one run has more than twice the ops of the other */
};
unsigned diff_warnings(const struct diff *d, size_t base_gpus, size_t new_gpus);

#endif
