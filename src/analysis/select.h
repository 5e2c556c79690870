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
	uint64_t *op_bits;    /* a bit per op: in view */
	uint64_t *api_bits;   /* a bit per API call: in view */
	size_t nops, napis;   /* how many are */
	struct window window; /* busy clips to it */
	int filtered;         /* a filter or a window is active */
};

/* An API call passes when its name does (for a roctx marker, its text), or
 * when an op it launched passes: a kernel and its launch stay together. */
void selection_build(const struct trace *t, const struct filter *f, const struct window *w,
		     struct selection *out);
void selection_free(struct selection *s);

static inline int selection_bit(const uint64_t *bits, size_t i)
{
	return (int)(bits[i >> 6] >> (i & 63) & 1);
}

static inline void selection_set(uint64_t *bits, size_t i, int on)
{
	bits[i >> 6] = (bits[i >> 6] & ~((uint64_t)1 << (i & 63))) | (uint64_t)(on != 0) << (i & 63);
}

/* Words of a bit set of n rows. */
static inline size_t selection_words(size_t n)
{
	return (n + 63) / 64 + 1;
}

static inline int selected_op(const struct selection *s, size_t i)
{
	return !s || selection_bit(s->op_bits, i);
}

static inline int selected_api(const struct selection *s, size_t i)
{
	return !s || selection_bit(s->api_bits, i);
}

#endif
