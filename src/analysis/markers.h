/* roctx ranges and the GPU work done under them (nsys's nvtx_sum,
 * nvtx_kern_sum and nvtx_gpu_proj_sum).
 *
 * - An instance's ops are the ops launched by the API calls inside it
 *   (starting no earlier, ending no later) on its own thread; a range
 *   inside another counts its ops, and so does the outer one.
 * - Only ops in view count; with a window, an op's time is its part
 *   inside it, and the span runs from the first op's start to the last
 *   op's end, each clipped to the window.
 * - depth is the number of ranges of its thread enclosing it.
 * - Instances are in time order (session/named.h's). */
#ifndef RPDTOP_MARKERS_H
#define RPDTOP_MARKERS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/namestat.h"
#include "session/select.h"
#include "trace/api_order.h"
#include "trace/trace.h"

struct marker_inst {
	uint32_t api;  /* its API row */
	uint32_t name; /* its text (string id) */
	uint32_t depth;
	int in_view;         /* the selection keeps it by its text
			      * (selected_api_named) */
	uint64_t ops;        /* ops in view launched under it */
	int64_t gpu;         /* their time */
	int64_t first, last; /* first op start, last op end (0, 0 without ops) */
};

struct markers {
	struct marker_inst *v; /* every instance of the trace, in time order */
	size_t n;
};

/* The instances of t with their ops in the selection (NULL: all); o is
 * t's API order. */
void markers_find(const struct trace *t, const struct api_order *o, const struct selection *sel,
		  struct markers *out);
void markers_free(struct markers *m);

/* Per text, over the instances in view. min, max and p50 are of whole
 * durations; p50 is nearest-rank, exact up to DURSTAT_EXACT_MAX instances
 * of a text and within 0.39 % past that (analysis/durstat.h). */
struct marker_row {
	uint32_t name;
	uint64_t calls, ops;
	int64_t total, whole, min, max, p50, gpu;
};

struct marker_table {
	struct marker_row *rows; /* by total, largest first, then by text */
	size_t n;
	int64_t total;
};

/* The instances are found as markers_find finds them, but kept no longer
 * than their text's figures need them (o: t's API order). */
void markers_by_name(const struct trace *t, const struct api_order *o, const struct selection *sel,
		     struct marker_table *out);
/* Its partial result, to be merged with others (analysis/namestat.h): per
 * text sum[0] the total, sum[1] the GPU time, count the ops (the whole
 * durations' sum is the statistic's). A range's ops are launched on its own thread, so each
 * process's instances are whole in its own part. */
void markers_part_add(struct namestat *part, const struct trace *t, const struct api_order *o,
		      const struct selection *sel);
/* The rows of what part holds (texts: string ids of t); part is emptied. */
void markers_part_finish(struct namestat *part, const struct trace *t, struct marker_table *out);
void marker_table_free(struct marker_table *mt);
int64_t marker_row_avg(const struct marker_row *r);

/* The ops each API call launched, for one range at a time (the
 * timeline's cursor): ops[first[c]] .. ops[first[c + 1] - 1] are call
 * c's. */
struct call_ops {
	uint32_t *first, *ops;
	size_t napis;
};

void call_ops_build(const struct trace *t, struct call_ops *out);
void call_ops_free(struct call_ops *co);
/* The GPU time and number of the ops in the selection under one roctx
 * range (API row api), as markers_find counts them. */
void marker_gpu_of(const struct trace *t, const struct api_order *o, const struct call_ops *co,
		   const struct selection *sel, uint32_t api, int64_t *gpu, uint64_t *ops);

/* The roctx ranges of API row api's thread that enclose it (start no
 * later, end no earlier), outermost first: the context a call was made
 * in (a kernel's launch: which step, which layer); *n of them. A scan of
 * the API rows, for one call at a time. */
uint32_t *markers_enclosing(const struct trace *t, uint32_t api, size_t *n);

#endif
