/* Idle time of the GPUs: the gaps in each GPU's (or queue's) busy set and
 * what each gap waited for.
 *
 * - A lane's busy set is the union of its selected ops' intervals (as
 *   busy_per_gpu counts it); ops of no duration cover nothing and are left
 *   out. A gap is a maximal interval inside [first op start, last op end]
 *   of the lane not covered by it. The idle time before the first op and
 *   after the last, within the trace's span (or the window), is leading
 *   and trailing idle, apart from the gaps.
 * - With a window, the ops overlapping it count with their part inside it.
 * - Cause: host wait when the call that launched the op after the gap
 *   started after the gap began; else kernel wait when the gap is shorter
 *   than the threshold; else other. An op after the gap without a known
 *   launch makes the gap other. */
#ifndef RPDTOP_GAPS_H
#define RPDTOP_GAPS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/lane_ops.h"
#include "session/select.h"
#include "trace/api_order.h"
#include "trace/probe.h"
#include "trace/trace.h"
#include "util/satmath.h"

#define GAPS_DEFAULT_THRESHOLD 5000 /* ns: a normal launch-to-launch distance */

enum gap_cause { GAP_HOST_WAIT, GAP_KERNEL_WAIT, GAP_OTHER, GAP_NCAUSES };

/* Gap lengths as the idle report's histogram counts them. */
#define GAPS_NBUCKETS 6
extern const int64_t gaps_bucket_lo[GAPS_NBUCKETS]; /* bucket b: [lo[b], lo[b + 1]) */

struct gap {
	uint32_t lane;
	uint32_t before, after; /* the ops either side (rows) */
	int64_t start, end;
	enum gap_cause cause;
};

struct gap_lane {
	uint32_t lane;                 /* GPU index, or queue index per queue */
	uint64_t ops;                  /* ops of some duration */
	int64_t first, last;           /* its span (inside the window) */
	int64_t busy;                  /* length of its busy set */
	int64_t leading, trailing;     /* idle before first, after last */
	uint64_t ngaps;                /* gaps */
	int64_t cause_ns[GAP_NCAUSES]; /* gap time by cause */
	int64_t max_gap;
	uint64_t hist[GAPS_NBUCKETS];
};

struct gaps {
	struct gap *gaps; /* the longest (params' keep), longest first, then by start and lane */
	size_t n;
	uint64_t total;         /* gaps found, kept or not */
	struct gap_lane *lanes; /* lanes with ops, in report order */
	size_t nlanes;
	int per_queue;
	int64_t range_start, range_end; /* the trace's span, or the window */
};

struct gaps_params {
	int64_t threshold; /* kernel wait below it (ns) */
	int per_queue;     /* gaps of each queue instead of each GPU */
	size_t keep;       /* list the longest keep gaps (SIZE_MAX: all, 0: none,
			    * only the lanes' sums) */
	int in_lane_order; /* with keep SIZE_MAX: leave them lane by lane (in
			    * report order), each lane's by start, unsorted
			    * by length */
};

void gaps_find(const struct trace *t, const struct selection *sel, const struct gaps_params *p,
	       struct gaps *out);
void gaps_free(struct gaps *g);
const char *gap_cause_name(enum gap_cause c); /* "host_wait", "kernel_wait", "other" */
/* start + (end - start) / 2, without overflow at the range's ends. */
static inline int64_t gap_midpoint(const struct gap *g)
{
	return g->start + (int64_t)(((uint64_t)g->end - (uint64_t)g->start) / 2);
}

static inline int64_t gap_lane_span(const struct gap_lane *l)
{
	return sat_sub(l->last, l->first);
}

/* What the host was doing during a gap: the innermost API call or marker
 * range of the launching process (of the op after the gap, else of the op
 * before it) running at the gap's midpoint, start + (end - start) / 2: of
 * its calls with start <= mid < end, the one that started last (at equal
 * starts the shorter, then the first row). Every call counts, whatever
 * the filter keeps. */
struct gap_cpu;
/* order: t's API order (api_order_build). */
struct gap_cpu *gap_cpu_new(const struct trace *t, const struct api_order *order);
uint32_t gap_cpu_find(const struct gap_cpu *c, const struct gap *g); /* API row, or TRACE_NONE */
/* The same question for a trace holding its launching calls alone: the
 * process and the moment (the gap's midpoint) gap_cpu_find looks at, to be
 * answered by the loader. 0 when no launch is known. */
int gap_cpu_moment(const struct trace *t, const struct gap *g, struct call_probe *out);
void gap_cpu_free(struct gap_cpu *c);

#endif
