/* The GPU work under the roctx range the timeline's cursor is on (its
 * detail line says it): found between keys, for one range at a time, with
 * the trace's API order and the ops of each call made once. */
#ifndef RPDTOP_TIMELINE_MARKER_H
#define RPDTOP_TIMELINE_MARKER_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/markers.h"
#include "session/select.h"
#include "trace/api_order.h"
#include "trace/trace.h"

struct tl_marker {
	struct call_ops calls;
	size_t napis; /* API rows the two were made for */
	uint32_t api; /* the range last looked at, or TRACE_NONE */
	unsigned generation;
	int64_t gpu;
	uint64_t ops;
};

void tl_marker_init(struct tl_marker *m);
void tl_marker_free(struct tl_marker *m);
/* Look at API row api (TRACE_NONE, or a call that is not a range: nothing
 * to do) in the selection of this generation. Returns 1 when it found
 * something new to say. */
int tl_marker_update(struct tl_marker *m, const struct trace *t, const struct api_order *order,
		     const struct selection *sel, unsigned generation, uint32_t api);
/* "  GPU 1.20 ms in 35 ops" for range api when it was looked at. */
void tl_marker_facts(const struct tl_marker *m, uint32_t api, unsigned generation, char *buf, size_t size);

#endif
