/* A question about the host side: what was a process doing at a moment?
 * Asked by analyses, answered from the rows in memory or, for a trace read
 * with its launching calls alone, by the loader (load/call_probe.h). */
#ifndef RPDTOP_TRACE_PROBE_H
#define RPDTOP_TRACE_PROBE_H

#include <stddef.h>
#include <stdint.h>

/* A moment of a process (its domain and pid). */
struct call_probe {
	uint32_t domain;
	int64_t pid;
	int64_t time;
	uint32_t name; /* out: the shown name of the innermost API call or
			* roctx range running then, or TRACE_NONE */
};

/* Moments an analysis must ask about before it can go on, answered in
 * place by its caller, who may read the inputs (trace_probe_calls). */
struct call_asks {
	struct call_probe *probe;
	uint32_t *at; /* what each is asked for: the asker's index */
	size_t n;
};

#endif
