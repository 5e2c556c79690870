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
 * - Cause: graph when the ops either side are nodes of one graph replay
 *   (analysis/graphs.h: the GPU waited on something inside the graph,
 *   not on the host); else host wait when the call that launched the op
 *   after the gap started after the gap began; else kernel wait when the
 *   gap is shorter than the threshold; else other. */
#ifndef RPDTOP_GAPS_H
#define RPDTOP_GAPS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/lane_ops.h"
#include "analysis/part.h"
#include "session/select.h"
#include "trace/api_order.h"
#include "trace/probe.h"
#include "trace/trace.h"
#include "util/satmath.h"

#define GAPS_DEFAULT_THRESHOLD 5000 /* ns: a normal launch-to-launch distance */

enum gap_cause { GAP_HOST_WAIT, GAP_KERNEL_WAIT, GAP_OTHER, GAP_GRAPH, GAP_NCAUSES };

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
/* The same over lanes already built for sel (lane_ops_build, per queue
 * as p asks). */
struct lane_ops;
void gaps_find_in(const struct trace *t, const struct selection *sel, const struct lane_ops *lo,
		  const struct gaps_params *p, struct gaps *out);
void gaps_free(struct gaps *g);
const char *gap_cause_name(enum gap_cause c); /* "host_wait", "kernel_wait", "other", "graph" */
/* start + (end - start) / 2, without overflow at the range's ends. */
static inline int64_t gap_midpoint(const struct gap *g)
{
	return g->start + (int64_t)(((uint64_t)g->end - (uint64_t)g->start) / 2);
}

static inline int64_t gap_lane_span(const struct gap_lane *l)
{
	return sat_sub(l->last, l->first);
}

/* What the host was doing during a gap: what the launching thread (the
 * thread of the call that launched the op after the gap) was doing at the
 * gap's midpoint, start + (end - start) / 2: the innermost of its API calls
 * and marker ranges running then (of those with start <= mid < end, the one
 * that started last; at equal starts the shorter, then the first row);
 * else the call it had finished last by then (the latest end <= mid; at
 * equal ends the outer), *after set; else none. The process's other
 * threads never count: a profiler's own threads (rpd's writer, its
 * activity callbacks) run beside every gap. Every call counts, whatever
 * the filter keeps. */
struct gap_cpu;
/* order: t's API order (api_order_build). */
struct gap_cpu *gap_cpu_new(const struct trace *t, const struct api_order *order);
/* API row, or TRACE_NONE; *after: the thread was past it at the moment. */
uint32_t gap_cpu_find(const struct gap_cpu *c, const struct gap *g, int *after);
/* The same question for a trace holding its launching calls alone: the
 * thread and the moment (the gap's midpoint) gap_cpu_find looks at, to be
 * answered by the loader. 0 when no launch is known. */
int gap_cpu_moment(const struct trace *t, const struct gap *g, struct call_probe *out);
void gap_cpu_free(struct gap_cpu *c);

/* The names of a gaps table's rows: the ops before and after each gap and
 * the host's call at it (string ids, TRACE_NONE: none). A trace holding
 * its launching calls alone cannot say the host's: the moments are left
 * in asks (at: the gap), answered by the caller, then taken by
 * gap_names_answered. */
struct gap_names {
	uint32_t *before, *after, *cpu;
	unsigned char *cpu_after; /* the host was past its cpu call */
	struct call_asks asks;
};

/* The names at g's gaps; order: t's API order (NULL, or not of t's rows:
 * made when needed). */
void gap_names_find(const struct trace *t, const struct api_order *order, const struct gaps *g,
		    struct gap_names *out);
void gap_names_answered(struct gap_names *n);
void gap_names_free(struct gap_names *n);
/* The idle time between ops the gaps caption gives: over g's lanes. */
int64_t gaps_idle_time(const struct gaps *g);

/* Idle's partial result: the trace's ops and their span, and a lane for
 * each GPU that ran an op (of no ops when the selection keeps none). */
struct idle_part {
	uint64_t ops;
	int64_t first, last;
	struct gap_lane *lanes;
	size_t n, cap;
	struct part_gpu_list gpus; /* each lane's */
};

void idle_part_init(struct idle_part *p);
void idle_part_free(struct idle_part *p);
void idle_part_add(struct idle_part *p, const struct trace *t, const struct selection *sel,
		   int64_t threshold);
void idle_part_encode(const struct idle_part *p, struct bytes_out *b);
int idle_part_merge(struct idle_part *p, const struct part_in *in);
/* The lanes in the idle report's order and the range they are of. */
void idle_part_finish(struct idle_part *p, struct trace *whole, const struct window *window,
		      struct gaps *out);

/* The gaps' partial result: the gaps found and their count, the idle
 * time between ops, the GPUs that ran an op (the gaps' lanes are their
 * indices) and the names around each gap. */
struct gaps_part {
	uint64_t total;
	int64_t idle;
	struct gap *gaps;
	size_t n, cap, ncap;
	struct gap_names made; /* added: the names, and what to ask */
	uint32_t (*names)[4];  /* merged: before, after, cpu (whole's ids),
				* and 1 when the host was past its cpu call */
	struct part_gpu_list gpus;
};

void gaps_part_init(struct gaps_part *p);
void gaps_part_free(struct gaps_part *p);
/* The host's calls at the gaps are asked of the inputs when t holds its
 * launching calls alone: the caller answers p->made.asks before
 * encoding. order: t's API order (NULL: made when needed). */
void gaps_part_add(struct gaps_part *p, const struct trace *t, const struct selection *sel,
		   const struct gaps_params *gp, const struct api_order *order);
void gaps_part_encode(struct gaps_part *p, const struct trace *t, struct bytes_out *b);
int gaps_part_merge(struct gaps_part *p, const struct part_in *in);
/* The longest limit gaps (0: all) in the report's order, and their
 * names; returns the idle time between ops of every lane. */
int64_t gaps_part_finish(struct gaps_part *p, struct trace *whole, size_t limit, struct gaps *out,
			 struct gap_names *names);

#endif
