/* Instances: the events a search, a histogram bucket or a range lists,
 * in time order. A query keeps an event when its name matches (a pattern,
 * or one name), its duration is in a span and it overlaps a stretch of
 * time; only events in the selection are looked at. A pattern is matched
 * once per distinct name, never once per event. */
#ifndef RPDTOP_ANALYSIS_SEARCH_H
#define RPDTOP_ANALYSIS_SEARCH_H

#include <stddef.h>
#include <stdint.h>

#include "session/filter.h"
#include "session/select.h"
#include "trace/trace.h"

/* Does an event of [start, end) overlap [from, to)? One without a
 * duration does when its time is in [from, to). */
static inline int search_overlaps(int64_t start, int64_t end, int64_t from, int64_t to)
{
	if (end <= start)
		return start >= from && start < to;
	return start < to && end > from;
}

/* The part of [start, end) inside [from, to), in ns. */
static inline int64_t search_clipped(int64_t start, int64_t end, int64_t from, int64_t to)
{
	int64_t a = start > from ? start : from, b = end < to ? end : to;
	return b > a ? b - a : 0;
}

/* An instance is a reference: an op's row, or an API call's row with this
 * bit set. */
#define SEARCH_CALL 0x80000000u
#define SEARCH_MAX_ROWS 0x7fffffffu

/* The name an op is shown by (demangled, say), for a pattern to match. */
typedef const char *(*search_name_fn)(void *ctx, uint32_t id);

struct search_query {
	const struct filter *pattern; /* names passing it (NULL: any name) */
	uint32_t name;                /* only this name (TRACE_NONE: any); a call's shown name */
	int ops, calls;               /* the kinds of events looked at */
	int kernels_only;             /* ops: kernels only */
	int has_duration;             /* durations in [min_duration, max_duration) */
	int64_t min_duration, max_duration;
	int has_span; /* events overlapping [from, to) (one without a duration: at a time in it) */
	int64_t from, to;
	search_name_fn op_name; /* NULL: ops by their names as recorded */
	void *ctx;
};

/* A query for every event of the kinds given, names as recorded. */
struct search_query search_query_all(int ops, int calls);

struct search_result {
	uint32_t *refs; /* by start, then ops before calls, then row */
	size_t n;
	size_t nops, ncalls;
};

/* The instances the query keeps of the selection (NULL: every event).
 * -1 when the trace has more rows than a reference can name. */
int search_run(const struct trace *t, const struct selection *sel, const struct search_query *q,
	       struct search_result *out);
/* Only how many there are (for a prompt's count while typing). */
int search_count(const struct trace *t, const struct selection *sel, const struct search_query *q,
		 size_t *nops, size_t *ncalls);
void search_free(struct search_result *r);

static inline int search_is_call(uint32_t ref)
{
	return (ref & SEARCH_CALL) != 0;
}

static inline uint32_t search_row(uint32_t ref)
{
	return ref & ~SEARCH_CALL;
}

static inline int64_t search_start(const struct trace *t, uint32_t ref)
{
	return search_is_call(ref) ? t->apis.start[search_row(ref)] : t->ops.start[ref];
}

static inline int64_t search_end(const struct trace *t, uint32_t ref)
{
	return search_is_call(ref) ? t->apis.end[search_row(ref)] : t->ops.end[ref];
}

/* The name an instance is shown by (a call's: a roctx marker's text). */
uint32_t search_name(const struct trace *t, uint32_t ref);

/* The place in r of the first instance starting after time (dir > 0) or
 * the last starting before it (dir < 0); r->n when there is none. */
size_t search_next(const struct trace *t, const struct search_result *r, int64_t time, int dir);

/* Put refs in order of duration, longest first; equal durations keep
 * their order (by start, when they came so). */
void search_sort_by_duration(const struct trace *t, uint32_t *refs, size_t n);
/* Put refs in order of start (stable). */
void search_sort_by_start(const struct trace *t, uint32_t *refs, size_t n);

#endif
