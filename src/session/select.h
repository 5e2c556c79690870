/* The part of the trace in view, as one bit per op and per API call.
 * Every analysis takes a selection (NULL: everything). The rule is
 * written once, below, for the viewer, the reports and the export:
 *
 * - an event is in the window when it overlaps it: it starts before the
 *   window ends and ends after the window starts (an event without a
 *   duration: when its time is inside the window);
 * - an op belongs when its name passes the filter, it is in the window,
 *   and its GPU and input pass the place filters (--gpu, --input) if any;
 * - an API call belongs when its shown name (a roctx marker's text)
 *   passes the filter, it is in the window and its input passes (a GPU
 *   filter keeps no call by itself: calls run on no GPU), or when it
 *   launched an op that belongs: a kernel and its launch stay together,
 *   even when the launch came before the window;
 * - and an API call or marker range belongs when it encloses, on its
 *   thread, a call that belongs (starts no later and ends no earlier):
 *   what is kept keeps its context (the roctx ranges around a launch).
 *
 * What is listed by name (the api, markers, ranges and steps reports and
 * their panes: selected_api_named) is, of the calls in view, those whose
 * own shown name passes the filter: the name filter selects names there,
 * and the launches and enclosing calls kept as context stay the export's
 * and the timeline's.
 *
 * A host-to-host copy (trace/host_copies.h: no GPU op, listed by the
 * profile only) belongs as an op does, but runs on no GPU: a GPU filter
 * keeps none.
 *
 * Time sums (a profile's totals and shares, busy time) count the part of
 * each event inside the window; per-instance statistics (minimum,
 * maximum, average, percentiles) take whole durations. */
#ifndef RPDTOP_SELECT_H
#define RPDTOP_SELECT_H

#include <stddef.h>
#include <stdint.h>

#include "session/filter.h"
#include "session/window.h"
#include "trace/api_order.h"
#include "trace/trace.h"
#include "util/satmath.h"

struct selection {
	uint64_t *op_bits;    /* a bit per op: in view */
	uint64_t *place_bits; /* a bit per op: in the window and the places kept,
			       * the name filter or not */
	uint64_t *api_bits;   /* a bit per API call: in view */
	uint64_t *named_bits; /* a bit per API call: in view and its own shown
			       * name passes the filter; NULL without a name
			       * filter (then api_bits) */
	size_t nops, napis;   /* how many are */
	uint64_t *host_bits;  /* a bit per host copy: in view */
	uint64_t *host_place; /* a bit per host copy: in the window and the
			       * places kept, the name filter or not */
	uint8_t *gpu_view;    /* with place filters, a byte per GPU: some op of a
			       * kept input ran on it and it is kept; else NULL */
	struct window window; /* busy clips to it */
	int filtered;         /* a filter or a window is active */
};

/* Is an event of [start, end) in the window? */
static inline int select_in_window(const struct window *w, int64_t start, int64_t end)
{
	if (!w->active)
		return 1;
	if (end <= start)
		return start >= w->start && start < w->end;
	return start < w->end && end > w->start;
}

/* The part of [start, end) inside the window; without one, the duration
 * as recorded (even a negative one, as SQL sums it). */
/* [*start, *end) cut to the window (w NULL or inactive: as it is). */
static inline void select_clip(const struct window *w, int64_t *start, int64_t *end)
{
	if (!w || !w->active)
		return;
	*start = *start > w->start ? *start : w->start;
	*end = *end < w->end ? *end : w->end;
}

static inline int64_t select_clipped(const struct window *w, int64_t start, int64_t end)
{
	/* Without a window an op counts as it is, whatever its length. */
	if (!w || !w->active)
		return sat_sub(end, start);
	select_clip(w, &start, &end);
	return end > start ? sat_sub(end, start) : 0;
}

static inline int select_op_belongs(int name_passes, int in_window)
{
	return name_passes && in_window;
}

static inline int select_api_belongs(int name_passes, int in_window, int launched_kept_op)
{
	return (name_passes && in_window) || launched_kept_op;
}

/* The selection the filter and window make of t. order is t's API order
 * when the caller keeps one (NULL: made and dropped here when needed). */
void selection_build(const struct trace *t, const struct filter *f, const struct window *w,
		     const struct api_order *order, struct selection *out);

/* Which GPUs and inputs the place filters keep: a byte per GPU and per
 * input of the trace (NULL: all of them). */
struct select_places {
	const uint8_t *gpus, *inputs;
};

/* The same with place filters (places NULL: every place). */
void selection_build_places(const struct trace *t, const struct filter *f, const struct select_places *places,
			    const struct window *w, const struct api_order *order, struct selection *out);
void selection_free(struct selection *s);
/* A copy of from (of t's rows) that lives on by itself. */
void selection_copy(const struct trace *t, const struct selection *from, struct selection *to);

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

/* Is op i in the window and on a GPU and input kept, whatever its name?
 * (The base of shares.) */
static inline int selected_place(const struct selection *s, size_t i)
{
	return !s || selection_bit(s->place_bits, i);
}

/* Host copy i (trace.host_copies) in view, and in the window and places
 * kept whatever its name. */
static inline int selected_host_copy(const struct selection *s, size_t i)
{
	return !s || selection_bit(s->host_bits, i);
}

static inline int selected_host_place(const struct selection *s, size_t i)
{
	return !s || selection_bit(s->host_place, i);
}

static inline int selected_api(const struct selection *s, size_t i)
{
	return !s || selection_bit(s->api_bits, i);
}

/* Is API call i in view by its own name (listed where rows are names)? */
static inline int selected_api_named(const struct selection *s, size_t i)
{
	return !s || selection_bit(s->named_bits ? s->named_bits : s->api_bits, i);
}

#endif
