/* A question about the host side: what was a thread doing at a moment?
 * Asked by analyses, answered from the rows in memory or, for a trace read
 * with its launching calls alone, by the loader (load/call_probe.h). */
#ifndef RPDTOP_TRACE_PROBE_H
#define RPDTOP_TRACE_PROBE_H

#include <stddef.h>
#include <stdint.h>

/* A moment of a thread (its domain, pid and tid). */
struct call_probe {
	uint32_t domain;
	int64_t pid, tid;
	int64_t time;
	uint32_t name; /* out: the shown name of the innermost API call or
			* roctx range of the thread running then, else of
			* the call it finished last before, or TRACE_NONE */
	int after;     /* out: name is of a call finished before */
};

/* Moments an analysis must ask about before it can go on, answered in
 * place by its caller, who may read the inputs (trace_probe_calls). */
struct call_asks {
	struct call_probe *probe;
	uint32_t *at; /* what each is asked for: the asker's index */
	size_t n;
};

#endif
