#include "config.h"
#include "batch/batch_deal.h"

#include <stdlib.h>

#include "util/sort.h"
#include "util/xalloc.h"

static int larger_first(const void *a, const void *b, void *ctx)
{
	const uint64_t *bytes = ctx;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	if (bytes[x] != bytes[y])
		return bytes[x] > bytes[y] ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* The process with the least load; the lowest of equals. A scan: jobs
 * have thousands of processes at most, and groups are dealt once. */
static int least_loaded(const uint64_t *load, int nprocs)
{
	int best = 0;
	for (int p = 1; p < nprocs; p++)
		if (load[p] < load[best])
			best = p;
	return best;
}

void batch_deal(const uint64_t *bytes, size_t ngroups, int nprocs, int *owner)
{
	if (nprocs < 1)
		nprocs = 1;
	size_t *order = xmalloc((ngroups ? ngroups : 1) * sizeof(*order));
	uint64_t *load = xcalloc((size_t)nprocs, sizeof(*load));
	for (size_t g = 0; g < ngroups; g++)
		order[g] = g;
	sort_with(order, ngroups, sizeof(*order), larger_first, (void *)bytes);
	for (size_t i = 0; i < ngroups; i++) {
		size_t g = order[i];
		int p = least_loaded(load, nprocs);
		owner[g] = p;
		/* A group of no bytes still costs an open: count it as one. */
		uint64_t cost = bytes[g] ? bytes[g] : 1;
		load[p] = load[p] > UINT64_MAX - cost ? UINT64_MAX : load[p] + cost;
	}
	free(load);
	free(order);
}
