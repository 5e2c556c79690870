/* What the timeline's detail line says about the event under the cursor,
 * as text: a kernel's launch sizes, its launch (the latency, the queue
 * delay, the call), a copy's bytes and bandwidth, a counter's value. No
 * drawing here; times are exact to dt ns (a column's span). */
#ifndef RPDTOP_TIMELINE_FACTS_H
#define RPDTOP_TIMELINE_FACTS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/counters.h"
#include "analysis/gaps.h"
#include "analysis/graphs.h"
#include "trace/launch_dims.h"
#include "trace/trace.h"

#define TL_FIELDS_MAX 16
#define TL_FIELDS_TEXT 1536

/* The facts of a detail line as whole fields, most important first
 * ("start +1.20 ms  duration 3.40 us", "latency 12.20 us", ...): a line
 * too narrow for them all leaves out the last whole, never cuts one. */
struct tl_fields {
	char text[TL_FIELDS_TEXT]; /* the fields, each ending in a NUL */
	size_t used;
	size_t at[TL_FIELDS_MAX]; /* where each begins in text */
	int n;
};

void tl_fields_init(struct tl_fields *f);
/* A field after the others, as printf writes it (leading spaces dropped);
 * none past TL_FIELDS_MAX or the text's room, or when it is empty. */
void tl_fields_add(struct tl_fields *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Field i (0 .. n - 1). */
const char *tl_fields_get(const struct tl_fields *f, int i);

/* "grid 1024x1x1", "workgroup 256x1x1" (nothing for NULL dims). */
void tl_facts_sizes(const struct launch_dims *dims, struct tl_fields *f);

/* "latency 12.20 us", "queue delay 3.50 us" for an op whose launch is
 * known (else nothing): the latency is the op's start less the call's,
 * the queue delay its start less the call's end (negative when the op
 * started before the call returned). The one place that says what an
 * op's launch cost it. A graph's node (node: its place, else NULL) has
 * no launch cost: "node 37 of 418 of replay 5 of 20" instead. */
void tl_facts_latency(const struct trace *t, uint32_t op, const struct graph_place *node, int64_t dt,
		      struct tl_fields *f);

/* "launched by hipLaunchKernel at +1.20 ms" for an op whose launch is
 * known (else nothing): the call, and its start from origin. */
void tl_facts_launcher(const struct trace *t, uint32_t op, int64_t origin, int64_t dt, struct tl_fields *f);

/* "1048576 bytes", "12.91 GB/s", "from GPU 0 to CPU 0" for a copy whose
 * size is known (else nothing): the bandwidth is its bytes over its
 * duration (none for a copy of no duration); where from and to when both
 * are known. */
void tl_facts_copy(const struct trace *t, uint32_t op, struct tl_fields *f);

/* "  value 1615 MHz  max in view 1800 MHz  GPU 2" for a counter series:
 * its value at time at and the most it reaches in [from, to). Returns
 * the counter's name. */
const char *tl_facts_counter(const struct trace *t, const struct counter_index *ix, uint32_t series,
			     int64_t at, int64_t from, int64_t to, char *line, size_t size);

/* "  gap 45.60 us (host wait)  +1.20 ms to +1.25 ms  GPU 0  after gemm
 * before nccl" for a gap of a GPU's busy set: its length, cause, start
 * and end from origin, its GPU, and the names (as shown) of the ops that
 * end where it starts and start where it ends. */
/* Idle time of a GPU before its first op (leading) or after its last,
 * within the trace's span or the window: from .. to. */
void tl_facts_idle_end(const struct trace *t, const struct gap_lane *l, int64_t from, int64_t to, int leading,
		       int64_t origin, int64_t dt, char *buf, size_t size);
void tl_facts_gap(const struct trace *t, const struct gap *g, const char *before, const char *after,
		  int64_t origin, int64_t dt, char *buf, size_t size);
/* A gap's cause in words: "host wait", "kernel wait", "other". */
const char *tl_gap_cause_text(enum gap_cause c);

#endif
