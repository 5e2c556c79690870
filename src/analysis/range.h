/* What a stretch of time [t0, t1) holds, as Perfetto's area selection and
 * Optiq's top events show it: the GPU ops by name, each GPU's busy time,
 * the API calls by name and the roctx markers by text. An event counts
 * when it overlaps the range (one without a duration: when its time is in
 * it); its time is the part inside the range. Only events in the
 * selection are looked at (calls and markers: in view by their own name,
 * selected_api_named). */
#ifndef RPDTOP_RANGE_H
#define RPDTOP_RANGE_H

#include <stddef.h>
#include <stdint.h>

#include "session/select.h"
#include "trace/trace.h"

struct range_row {
	uint32_t key;   /* a string id; for busy rows, a GPU (index into trace.gpus) */
	uint64_t count; /* events overlapping the range */
	int64_t time;   /* their time inside it; busy rows: the union of it */
};

/* One kind of rows, with their totals. */
struct range_part {
	struct range_row *rows;
	size_t n;
	uint64_t count;
	int64_t time;
};

struct range_stats {
	int64_t t0, t1;
	struct range_part ops;     /* GPU ops by name */
	struct range_part busy;    /* per GPU with ops in the range */
	struct range_part calls;   /* API calls by name (roctx markers apart) */
	struct range_part markers; /* roctx ranges and marks by their text */
};

/* The statistics of [t0, t1) (t0 < t1) over the selection (NULL: every
 * event). Rows are in range_sort order. */
void range_build(const struct trace *t, const struct selection *sel, int64_t t0, int64_t t1,
		 struct range_stats *out);
void range_free(struct range_stats *s);
/* Rows by time, largest first, then by count, then by name (busy rows:
 * by GPU, in the order the busy report lists them). */
void range_sort(const struct trace *t, struct range_stats *s);
/* time as a share of the range's length, in percent. */
double range_share(const struct range_stats *s, int64_t time);

#endif
