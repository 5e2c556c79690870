/* Counter series as the timeline reads them: each series' samples made
 * into a step function (where samples overlap, the highest value holds;
 * a sample without a duration counts for 1 ns), with a max tree over its
 * steps, so that the most a series reaches in any span, its value at any
 * time and its range are a few binary searches away whatever the number
 * of samples. */
#ifndef RPDTOP_ANALYSIS_COUNTERS_H
#define RPDTOP_ANALYSIS_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

#include "session/window.h"
#include "trace/counters.h"

struct counter_steps {
	size_t first, n; /* its steps: a run of the index's columns */
	double min, max; /* the least and most of its steps over the trace */
};

struct counter_index {
	struct counter_steps *series; /* as trace_counters.series */
	size_t nseries;
	/* Steps of every series, each series' by time, none overlapping
	 * another of its series: [start, end) at value. */
	int64_t *start, *end;
	/* Per series, a max tree over its steps' values: node k (from 1) of
	 * series s at tree[2 * first + k], its n leaves (the values) from
	 * node n on. */
	double *tree;
};

/* Index every series of c (none: nothing is allocated). */
void counter_index_build(const struct trace_counters *c, struct counter_index *ix);
void counter_index_free(struct counter_index *ix);

/* The most series s reaches in [from, to): 1 with *value, 0 when it has
 * no step there. */
int counter_max(const struct counter_index *ix, uint32_t s, int64_t from, int64_t to, double *value);
/* The value of series s at time: 1 with *value, 0 when none holds then. */
int counter_at(const struct counter_index *ix, uint32_t s, int64_t time, double *value);
/* The scale a series is drawn against, the same for every series of its
 * kind (one counter name, unit and source, whatever the GPU), so that
 * equal values look the same on every GPU: from 0 (or the kind's least
 * value, when below 0) to the kind's most over every sample of the
 * trace; a percentage (unit "%") goes to 100 at least. */
struct counter_scale {
	double lo, hi;
};

struct trace;
/* The scale of each series of t's counters, into out (nseries of them). */
void counter_scales(const struct trace *t, struct counter_scale *out);
/* Where value stands on a scale, as a level 0 .. levels - 1 (lo 0, hi
 * levels - 1); on a scale of no extent (every value 0), level 0. */
int counter_level(const struct counter_scale *sc, double value, int levels);
/* A scale in few characters, with the unit if any: "0-2100 MHz",
 * "0-12.5k waves", "-3..40 W" (a scale below 0). */
const char *counter_scale_format(const struct counter_scale *sc, const char *unit, char *buf, size_t size);

/* The samples of c inside the window w (an inactive one: all of them),
 * clipped to it, into out; out shares c's series and is freed with
 * counter_clip_free. */
void counter_clip(const struct trace_counters *c, const struct window *w, struct trace_counters *out);
void counter_clip_free(struct trace_counters *out);

/* A series over a window: its samples there, the least and most of their
 * values, and its time-weighted average: the step function (the highest
 * sample where samples overlap, a sample without a duration held for
 * 1 ns) integrated over the time it has a value, divided by that time. */
struct counter_summary {
	uint32_t series;
	size_t samples;
	double min, max, avg;
};

/* A row per series of t (every series, the filter does not apply), in
 * series order; *n of them. */
struct counter_summary *counter_summarize(const struct trace_counters *c, const struct window *w, size_t *n);

/* A value for people: whole numbers as they are, others with four
 * significant digits, then the unit if any ("1615 MHz", "0.1235"). */
const char *counter_format(double value, const char *unit, char *buf, size_t size);

#endif
