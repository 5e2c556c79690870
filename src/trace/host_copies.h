/* Copies from host memory to host memory (rocpd's MEMORY_COPY_HOST_TO_HOST,
 * or a copy between two agents that are no GPUs): no GPU's work, so no
 * GPU ops (no busy time, no lane, no gap), but the profile (top) lists
 * them by name beside the GPU ops. Read with the ops. */
#ifndef RPDTOP_TRACE_HOST_COPIES_H
#define RPDTOP_TRACE_HOST_COPIES_H

#include <stddef.h>
#include <stdint.h>

struct trace;

struct trace_host_copies {
	size_t n, cap;
	int64_t *start, *end;
	uint32_t *name;  /* string id (CopyHostToHost) */
	uint32_t *input; /* index into trace.inputs */
};

/* The name host copies are listed under. */
#define TRACE_HOST_COPY_NAME "CopyHostToHost"

void trace_host_copies_free(struct trace_host_copies *h);
/* A copy of input from start to end, named name (a string id of t). */
void trace_add_host_copy(struct trace *t, uint32_t input, int64_t start, int64_t end, uint32_t name);
/* Add src's copies to t: string ids mapped by str, inputs by input (an
 * input mapped to TRACE_NONE is left out). */
void trace_host_copies_merge(struct trace *t, const struct trace_host_copies *src, const uint32_t *str,
			     const uint32_t *input);

#endif
