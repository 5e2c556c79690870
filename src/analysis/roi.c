#include "config.h"
#include "analysis/roi.h"

#include <string.h>

#include "analysis/profile.h"

int roi_parse(const char *name, int *kind)
{
	if (strcmp(name, "hot") == 0)
		*kind = ROI_HOT;
	else if (strcmp(name, "trim") == 0)
		*kind = ROI_TRIM;
	else
		return -1;
	return 0;
}

/* The span of the ops in view (only those named name, unless TRACE_NONE). */
static int span_of(const struct trace *t, const struct selection *sel, uint32_t name, int kernels,
		   struct window *out)
{
	int found = 0;
	for (size_t i = 0; i < t->ops.n; i++) {
		if (!selected_op(sel, i) || (name != TRACE_NONE && t->ops.name[i] != name) ||
		    (kernels && t->ops.kind[i] != OP_KERNEL))
			continue;
		if (!found || t->ops.start[i] < out->start)
			out->start = t->ops.start[i];
		if (!found || t->ops.end[i] > out->end)
			out->end = t->ops.end[i];
		found = 1;
	}
	return found ? 0 : -1;
}

int roi_find(const struct trace *t, const struct selection *sel, int kind, struct window *out)
{
	uint32_t name = TRACE_NONE;
	memset(out, 0, sizeof(*out));
	if (kind == ROI_HOT) {
		struct profile p;
		profile_by_name(t, PROFILE_KERNELS, sel, &p);
		name = p.n ? p.rows[0].name : TRACE_NONE;
		profile_free(&p);
		if (name == TRACE_NONE)
			return -1;
	}
	if (span_of(t, sel, name, kind == ROI_HOT, out))
		return -1;
	const struct window *w = sel ? &sel->window : NULL;
	if (w && w->active) {
		out->start = out->start > w->start ? out->start : w->start;
		out->end = out->end < w->end ? out->end : w->end;
	}
	/* An op of no duration alone: a window of one nanosecond. */
	if (out->end <= out->start)
		out->end = out->start + 1;
	out->active = 1;
	return 0;
}
