/* A trace's API calls by thread and start: what the selection's enclosing
 * rule walks, made once for the trace's API rows (on the thread that reads
 * them, when they are read in the background). */
#ifndef RPDTOP_API_ORDER_H
#define RPDTOP_API_ORDER_H

#include <stddef.h>
#include <stdint.h>

#include "trace/trace.h"

/* t's API calls grouped by thread, each thread's by start (the longer
 * first at equal starts): rows[first[k]] .. rows[first[k + 1] - 1] are
 * thread k's. Built once for a trace's API rows (napis of them). */
struct api_order {
	uint32_t *rows;
	size_t *first;
	size_t napis;
	/* The places in rows of the calls that enclose another call of their
	 * thread (only those can enclose a kept one), thread by thread:
	 * parents[pfirst[k]] .. parents[pfirst[k + 1] - 1]. */
	uint32_t *parents;
	size_t *pfirst;
	size_t nthreads; /* of the trace it was built for */
	int borrowed;    /* rows are the trace's call_order, not freed here */
};

/* The order of calls a and b of one thread (ctx: their trace): by start,
 * the longer first at equal starts, so that an enclosing call comes
 * before what it encloses. */
int api_call_cmp(const void *ctx, uint32_t a, uint32_t b);
/* Sorts the calls, or takes the order a cache file kept (t->call_order). */
void api_order_build(const struct trace *t, struct api_order *o);
void api_order_free(struct api_order *o);
/* The same made on a thread of its own, while t's API rows, their threads
 * and their number stay as they are (the rest of t may change); NULL when
 * no thread is to be had (threads_acquire). */
struct api_order_job;
struct api_order_job *api_order_start(const struct trace *t);
/* Wait for the order; an empty one for no job (NULL). Frees j. */
void api_order_finish(struct api_order_job *j, struct api_order *out);
/* Wait for the job and drop its order (*j NULL after; none: nothing). */
void api_order_cancel(struct api_order_job **j);
/* Was o made for t's API rows and threads as they are now? */
int api_order_fits(const struct api_order *o, const struct trace *t);
/* The order of a trace whose API rows moved into t at the same places,
 * under t's numbers of their threads (trace_side_take). */
void api_order_rethread(struct api_order *o, const struct trace *t);
/* Sort v, n API rows of one thread, into this order. */
void api_order_sort(const struct trace *t, uint32_t *v, size_t n);

#endif
