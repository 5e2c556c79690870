/* Dealing node groups to the processes of a job: the largest group first,
 * each to the process with the fewest bytes so far (longest processing
 * time first), so that the slowest process finishes as early as a greedy
 * deal allows. The deal depends only on the sizes and the number of
 * processes: every process computes the same. */
#ifndef RPDTOP_BATCH_DEAL_H
#define RPDTOP_BATCH_DEAL_H

#include <stddef.h>
#include <stdint.h>

/* owner[g] = the process (0 .. nprocs - 1) that reduces group g of the
 * ngroups whose sizes are bytes[g]. Equal sizes go in group order; equal
 * loads to the lower process. */
void batch_deal(const uint64_t *bytes, size_t ngroups, int nprocs, int *owner);

#endif
