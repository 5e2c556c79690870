/* The plan of a batch run (batch/batch.h) as bytes, so that process 0
 * of an MPI job can list and group the inputs once and send the result
 * to the others, which then read exactly the groups it dealt them. A
 * group's paths are the plan's own strings, sent once. */
#ifndef RPDTOP_BATCH_WIRE_H
#define RPDTOP_BATCH_WIRE_H

#include "batch/batch.h"
#include "util/bytes.h"

void batch_plan_encode(const struct batch_plan *plan, struct bytes_out *b);
/* -1 when the bytes are not a plan (*plan is then empty). */
int batch_plan_decode(struct batch_plan *plan, const unsigned char *p, size_t n);

#endif
