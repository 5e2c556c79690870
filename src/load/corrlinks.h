/* Ops linked to the calls that launched them by a correlation id the two
 * share within a process, as tools that keep ops and calls in tables of
 * their own record them (Nsight Systems exports, rocprof's results.db):
 * the ops and calls are noted as they are read, the links made after. */
#ifndef RPDTOP_LOAD_CORRLINKS_H
#define RPDTOP_LOAD_CORRLINKS_H

#include <stddef.h>
#include <stdint.h>

#include "trace/trace.h"

struct corrlinks {
	struct corr_call {
		int64_t proc, corr, start;
		uint32_t row;
	} * calls;
	struct corr_op {
		int64_t proc, corr;
		uint32_t row;
	} * ops;
	size_t ncalls, calls_cap, nops, ops_cap;
};

void corrlinks_init(struct corrlinks *c);
void corrlinks_free(struct corrlinks *c);
/* A call (API row) and an op (GPU op row) of process proc with their
 * correlation id, in the order they are read. */
void corrlinks_call(struct corrlinks *c, int64_t proc, int64_t corr, int64_t start, uint32_t row);
void corrlinks_op(struct corrlinks *c, int64_t proc, int64_t corr, uint32_t row);
/* Forget the ops noted after the first n (rows read again another way). */
void corrlinks_ops_back(struct corrlinks *c, size_t n);
/* Each op to its call, in the order the ops came: the call of its process
 * and id that starts first (the first read of those starting at once). An
 * op without one stays unlinked. */
void corrlinks_link(struct corrlinks *c, struct trace *t);

#endif
