/* The part of the trace in view: the ops and API calls that pass the
 * filter and start in the window, as one byte per row. Every analysis
 * takes a selection (NULL: everything). */
#ifndef RPDTOP_SELECT_H
#define RPDTOP_SELECT_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/filter.h"
#include "analysis/window.h"
#include "trace/trace.h"

struct selection {
	uint8_t *ops;          /* 1 per op in view */
	uint8_t *apis;         /* 1 per API call in view */
	size_t nops, napis;    /* how many are */
	struct window window;  /* busy clips to it */
	int filtered;          /* a filter or a window is active */
};

/* An API call passes when its name does (for a roctx marker, its text), or
 * when an op it launched passes: a kernel and its launch stay together. */
void selection_build(const struct trace *t, const struct filter *f, const struct window *w,
		     struct selection *out);
void selection_free(struct selection *s);

static inline int selected_op(const struct selection *s, size_t i)
{
	return !s || s->ops[i];
}

#endif
