/* Sorting with a context for the comparison (the trace whose columns the
 * sorted indices point into), instead of a static the comparator reads:
 * safe on any thread. */
#ifndef RPDTOP_SORT_H
#define RPDTOP_SORT_H

#include <stdint.h>
#include <stdlib.h>

typedef int (*sort_cmp_fn)(const void *a, const void *b, void *ctx);

static inline void sort_with(void *base, size_t n, size_t size, sort_cmp_fn cmp, void *ctx)
{
	/* glibc's qsort_r: the context is the comparison's last argument. An
	 * empty array may have no base, which qsort_r must not be given. */
	if (n > 1)
		qsort_r(base, n, size, cmp, ctx);
}

/* Order of two indices (negative: a first), with a context. */
typedef int (*sort_index_cmp)(const void *ctx, uint32_t a, uint32_t b);

/* Sort indices that are a few ascending runs dealt into one another (rows
 * recorded as they end, each after those nested in it: as many runs as
 * levels of nesting): each goes to the run it extends, then the runs are
 * merged, O(n log runs). -1, v untouched, when more than max_runs (at most
 * 255) are needed: leave it to a general sort. Equal indices keep their
 * runs' order. */
int sort_by_runs(uint32_t *v, size_t n, sort_index_cmp cmp, const void *ctx, size_t max_runs);

/* Sort indices that come nearly in order: nothing when they are in order
 * already; else, when they are long ascending stretches each overlapping
 * a few others (rows recorded in blocks), by merging the stretches one
 * after another (ties keep the input's order); else as the few ascending
 * runs they make (sort_by_runs, up to 64); else a general sort with the
 * same comparison. */
void sort_nearly(uint32_t *v, size_t n, sort_index_cmp cmp, const void *ctx);

/* The same for indices ordered by a 64-bit key of theirs first (key[i]
 * rising), cmp deciding between equal keys: cmp must order them so too
 * (it is the whole order; the key spares calling it). The same result as
 * sort_nearly with cmp. */
void sort_nearly_keyed(uint32_t *v, size_t n, const int64_t *key, sort_index_cmp cmp, const void *ctx);

/* Sort n signed 64-bit values ascending (a radix sort: no comparisons). */
void sort_int64(int64_t *v, size_t n);
/* The same for values nearly in order, each out of place only a little
 * way (ids of calls recorded as they end): each is moved back to its
 * place, in time of the distances moved; past a few moves a value, the
 * radix sort does the rest. */
void sort_nearly_int64(int64_t *v, size_t n);
/* The value of rank k (0: the smallest) among n values (k < n), found in
 * time of n by partitioning v around it: what comes before k is not
 * above it, what comes after not below. */
int64_t select_int64(int64_t *v, size_t n, size_t k);

#endif
