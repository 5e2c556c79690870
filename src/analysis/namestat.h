/* Figures by name that merge: per name (a string id) a count of
 * instances, a second count, exact sums and the mergeable statistic of
 * the instances' whole durations (analysis/durstat.h). The API calls'
 * and the roctx ranges' reports keep theirs here, so that a report made
 * of many partial results equals that of one trace. */
#ifndef RPDTOP_NAMESTAT_H
#define RPDTOP_NAMESTAT_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/durstat.h"
#include "analysis/part.h"
#include "trace/trace.h"
#include "util/bytes.h"
#include "util/keymap.h"

#define NAMESTAT_SUMS 2

struct namestat_row {
	uint32_t name;
	uint64_t calls, count;
	__int128 sum[NAMESTAT_SUMS]; /* what each report sums; sum[0] is its total */
	struct durstat st;           /* of the whole durations (their sum too) */
};

struct namestat {
	struct namestat_row *rows; /* in the order their names came */
	size_t n, cap;
	struct keymap map; /* row by string id */
	uint64_t calls;
	__int128 total; /* of every row's sum[0] */
};

void namestat_init(struct namestat *a);
void namestat_free(struct namestat *a);
/* The row of name, made when new; nstrings: how many string ids there
 * are. */
struct namestat_row *namestat_row(struct namestat *a, uint32_t name, size_t nstrings);
/* One instance of name: its whole duration and its part in the total. */
void namestat_add(struct namestat *a, struct namestat_row *r, int64_t whole, int64_t in_total);
/* Add b's rows to a's, a's names first and b's new ones after them in
 * b's order (both of one trace's string ids; nstrings as above). */
void namestat_merge_rows(struct namestat *a, const struct namestat *b, size_t nstrings);
/* As bytes, names by their text (t holds a's string ids). */
void namestat_encode(const struct namestat *a, const struct trace *t, struct bytes_out *b);
/* Merge one part's bytes into a, interning the names in the whole's
 * strings; -1 when they are malformed. */
int namestat_merge(struct namestat *a, const struct part_in *in);

#endif
