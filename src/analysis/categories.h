/* GPU time by category: named patterns over kernel names (as raptor's
 * category files have them). A kernel belongs to the first category, in
 * the order given, whose pattern matches its name; kernels matching none
 * are "other". Totals count the part of each kernel inside the window. */
#ifndef RPDTOP_CATEGORIES_H
#define RPDTOP_CATEGORIES_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/part.h"
#include "session/filter.h"
#include "session/select.h"
#include "trace/trace.h"

#define CATEGORIES_MAX 64
#define CATEGORIES_OTHER "other"

struct categories {
	char *names[CATEGORIES_MAX];
	struct filter patterns[CATEGORIES_MAX];
	size_t n;
};

void categories_init(struct categories *c);
void categories_free(struct categories *c);
/* A copy whose patterns are compiled anew, for another thread. */
void categories_copy(const struct categories *from, struct categories *to);
/* Add a category after the others (it is tried after them). -1 with the
 * reason in err for a bad pattern or too many categories. */
int categories_add(struct categories *c, const char *name, const char *pattern, char *err, size_t errsize);
/* The categories used when the settings file names none: communication
 * (with the pattern comm), GEMM, attention, normalisation, elementwise. */
void categories_defaults(struct categories *c, const char *comm);

struct category_row {
	size_t category; /* index into names; n: other */
	uint64_t calls;
	int64_t total;
};

struct category_times {
	struct category_row *rows; /* every category and other: most time first,
				    * then in the order given, other after them */
	size_t n;
	int64_t total; /* time of all kernels */
};

void categories_by_kernel(const struct trace *t, const struct selection *sel, const struct categories *c,
			  struct category_times *out);
void category_times_free(struct category_times *ct);
/* Put the rows in their order (merged from partial results). */
void category_times_sort(struct category_times *ct);
/* The name of a row's category. */
const char *category_row_name(const struct categories *c, const struct category_row *r);

/* Kernel time by category, each category's calls and time summed. */
struct categories_part {
	struct category_times ct; /* a row per category, in their order */
};

void categories_part_init(struct categories_part *p, const struct categories *c);
void categories_part_free(struct categories_part *p);
void categories_part_add(struct categories_part *p, const struct trace *t, const struct selection *sel,
			 const struct categories *c);
void categories_part_encode(const struct categories_part *p, struct bytes_out *b);
int categories_part_merge(struct categories_part *p, const struct part_in *in);
void categories_part_finish(struct categories_part *p, struct category_times *out);

#endif
