/* The timeline's index: per GPU queue, the ops in start order with prefix
 * sums of their durations at every 16th op, so that the busy time of any
 * time bucket is two binary searches and a few ops away and a frame costs
 * the same whatever the trace's size. */
#ifndef RPDTOP_TIMELINE_H
#define RPDTOP_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/counters.h"
#include "session/select.h"
#include "trace/api_order.h"
#include "trace/trace.h"
#include "util/memreport.h"

/* A counter lane has no rows: it shows a counter series of a GPU, under
 * that GPU's queues. */
enum tl_kind { TL_GPU, TL_CPU, TL_COUNTER };

struct tl_lane {
	int kind;                   /* enum tl_kind */
	uint32_t queue;             /* TL_GPU: index into trace.queues */
	uint32_t thread;            /* TL_CPU: index into trace.threads */
	int depth;                  /* TL_CPU: nesting level of its calls (0: outermost) */
	uint32_t series;            /* TL_COUNTER: index into trace.counters.series */
	int headed;                 /* TL_COUNTER: under a lane of its GPU */
	int idle;                   /* TL_COUNTER: of a GPU that ran no op (no queue of it) */
	struct counter_scale scale; /* TL_COUNTER: its kind's, across GPUs */
	uint32_t group;             /* TL_GPU, TL_COUNTER: its GPU's place among GPUs */
	uint32_t *ops;              /* op indices (TL_GPU) or API call indices (TL_CPU), by start */
	const int64_t *row_start;   /* the trace's start column (ops or API calls) */
	const int64_t *row_end;     /* the trace's end column (ops or API calls) */
	/* The start of the first row of each block of 2^TL_BLOCK_BITS rows,
	 * so that a search by time begins in a small array; and the time
	 * covered by the rows before every 2^TL_COVER_BITS-th row, the rest
	 * of a prefix being summed from the rows themselves. The rows' own
	 * times are the trace's, read through ops: a copy of them would
	 * double what a lane holds. */
	int64_t *block_start, *covered;
	size_t n, cap;
	/* Rows without a duration (roctx marks, zero-length calls): they
	 * cover no time, so they are kept apart to be found and shown. */
	int64_t *instant;     /* their times, rising */
	uint32_t *instant_at; /* their places in ops */
	size_t ninstant;
};

struct timeline {
	struct tl_lane *lanes; /* by GPU, then queue; then each thread's depths */
	size_t nlanes;
	int64_t start, end; /* the span of every row, ops and calls */
	int64_t origin;     /* time 0 of the ruler: the first op's start */
	/* The counters' samples inside the selection's window (clipped to
	 * it), for the counter lanes. */
	struct counter_index counters;
};

/* Index the ops and API calls in the selection (NULL: all), and every
 * counter series (the filter does not apply to them, the window does). API calls of
 * a thread are split into depth rows so that calls nested in others (roctx
 * ranges, launches inside them) each have a row where none overlap. */
void timeline_build(const struct trace *t, const struct selection *sel, struct timeline *tl);
/* The same, the CPU lanes walked in order, the trace's calls by thread and
 * start (made for its API rows as they are now, else not used), instead of
 * sorting them again. */
void timeline_build_ordered(const struct trace *t, const struct selection *sel, const struct api_order *order,
			    struct timeline *tl);
void timeline_free(struct timeline *tl);
/* What the index holds, GPU lanes and CPU lanes apart (--debug-memory). */
void timeline_memory(const struct timeline *tl, struct mem_report *r);

#define TL_BLOCK_BITS 8
#define TL_COVER_BITS 4

/* Start of a lane's k-th row (k < n). */
static inline int64_t timeline_start(const struct tl_lane *l, size_t k)
{
	return l->row_start[l->ops[k]];
}

/* End of a lane's k-th row. */
static inline int64_t timeline_end(const struct tl_lane *l, size_t k)
{
	return l->row_end[l->ops[k]];
}

/* Busy time of [from, to) on a lane (ops of a queue do not overlap; if
 * some do, the result is capped at to - from). */
int64_t timeline_busy(const struct tl_lane *l, int64_t from, int64_t to);
/* The row (in l->ops) of the op covering time, or the first after it;
 * l->n when none. */
size_t timeline_at(const struct tl_lane *l, int64_t time);
/* The row (place in l->ops) under a cursor at time in the column
 * [from, to): the one running at time; else one that starts at time; else
 * the first row without a duration in the column (a mark drawn there has
 * no length to run under the cursor). l->n when none. */
size_t timeline_under(const struct tl_lane *l, int64_t time, int64_t from, int64_t to);
/* How many rows start before time. */
size_t timeline_before(const struct tl_lane *l, int64_t time);
/* The op covering [from, to) the most at its middle, or TRACE_NONE. */
uint32_t timeline_dominant(const struct tl_lane *l, int64_t from, int64_t to);
/* The first row without a duration at a time in [from, to), or TRACE_NONE. */
uint32_t timeline_instant(const struct tl_lane *l, int64_t from, int64_t to);

/* What a frame draws of a lane: for each of cols columns of dt ns from
 * start, the dominant op, the busy time and the first row without a
 * duration (TRACE_NONE: none), as timeline_dominant, timeline_busy and
 * timeline_instant give them column by column, with each column's edge
 * looked up once and the instants walked in one pass. */
void timeline_columns(const struct tl_lane *l, int64_t start, int64_t dt, int cols, uint32_t *dominant,
		      int64_t *busy, uint32_t *instant);

#endif
