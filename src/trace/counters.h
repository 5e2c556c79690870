/* Counter samples of a trace: values a GPU's hardware reported over time
 * (rpd's rocpd_monitor: clocks, power) or per kernel dispatch (rocpd's
 * PMC counters, and PMC values sampled at times). Each series is one
 * counter of one GPU; a sample is a value over [start, end). Series are
 * keyed by GPU (node and device number) and name, so that inputs of one
 * node recording the same GPU's clock add to one series. */
#ifndef RPDTOP_TRACE_COUNTERS_H
#define RPDTOP_TRACE_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

struct trace;

enum counter_source {
	COUNTER_MONITOR, /* rpd rocpd_monitor: a value held over a span */
	COUNTER_PMC,     /* rocpd: a value per kernel dispatch, over the dispatch */
	COUNTER_SAMPLED, /* rocpd: a value sampled at a time (rocpd_sample), held until the next */
};

struct trace_counter {
	uint32_t domain; /* the GPU's domain, as trace_gpu's */
	uint32_t input;  /* the first input it was seen in, for its label */
	int64_t device;  /* the GPU's number, as its ops record it */
	uint32_t name;   /* string id: "sclk", "SQ_WAVES" */
	uint32_t unit;   /* string id: "MHz", or TRACE_NONE when not known */
	int source;      /* enum counter_source */
};

struct trace_counters {
	struct trace_counter *series;
	size_t nseries, series_cap;
	size_t n, cap; /* samples, in no particular order */
	uint32_t *of;  /* the series of each sample */
	int64_t *start, *end;
	double *value;
};

void trace_counters_free(struct trace_counters *c);

/* The series of a counter of the GPU with this device number on the
 * node of input, made when new. */
uint32_t trace_counter_series(struct trace *t, uint32_t input, int64_t device, uint32_t name, uint32_t unit,
			      int source);
/* A sample of series over [start, end) (end == start: at one time). */
void trace_add_counter(struct trace *t, uint32_t series, int64_t start, int64_t end, double value);

/* Sampled series' samples from index first on: each held until the next
 * sample of its series (the last for 1 ns). */
void trace_counters_hold(struct trace_counters *c, size_t first);

/* Add src's series and samples to t: their string ids mapped by str,
 * their inputs by input (TRACE_NONE: an input left out; NULL: t's inputs
 * are src's). */
void trace_counters_merge(struct trace *t, const struct trace_counters *src, const uint32_t *str,
			  const uint32_t *input);

#endif
