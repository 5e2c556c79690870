/* A mergeable statistic of durations: what top and ktop show of a name
 * (count, min, max, mean, std, nearest-rank percentiles, excess over the
 * fastest), built the same from one trace or from the partial results of
 * many, so that a report read node by node equals the whole load.
 *
 * Counts, sums and extremes are exact (the sums in integers wide enough
 * never to overflow). The durations themselves are kept while there are
 * at most DURSTAT_EXACT_MAX of them, and the percentiles are exact; past
 * that they go into a log-linear sketch: magnitudes below 2^(BITS+1)
 * exactly, above that by their exponent and the BITS bits after the
 * leading one, a bucket standing for its midpoint (clamped to min and
 * max): a relative error of at most 2^-(BITS+1), 0.39 % for BITS = 7.
 * Merging exact lists past the limit turns them into the sketch, so a
 * result depends only on the multiset of durations, never on grouping. */
#ifndef RPDTOP_DURSTAT_H
#define RPDTOP_DURSTAT_H

#include <stddef.h>
#include <stdint.h>

#include "util/bytes.h"

#define DURSTAT_EXACT_MAX 4096
#define DURSTAT_BITS 7
/* Buckets per sign: 2^(BITS+1) exact, then 2^BITS for each exponent
 * BITS+1 .. 63. */
#define DURSTAT_BUCKETS ((1u << (DURSTAT_BITS + 1)) + (63u - DURSTAT_BITS) * (1u << DURSTAT_BITS))

struct durstat {
	uint64_t n;
	int64_t min, max;
	__int128 sum;   /* of the durations */
	uint64_t sq[3]; /* of their squares, 192 bits, lowest limb first */
	int64_t *v;     /* the durations while exact (sketch NULL) */
	size_t nv, vcap;
	int sorted;    /* v is sorted (durstat_finish) */
	uint64_t *pos; /* sketch: counts by bucket of durations >= 0 */
	uint64_t *neg; /* and of negative ones (NULL until one comes) */
};

void durstat_init(struct durstat *s);
void durstat_free(struct durstat *s);
void durstat_add(struct durstat *s, int64_t d);
/* Add everything src holds to dst (src unchanged). */
void durstat_merge(struct durstat *dst, const struct durstat *src);
/* Ready for the questions below (sorts the exact durations). */
void durstat_finish(struct durstat *s);

/* Are the percentiles exact (at most DURSTAT_EXACT_MAX durations)? */
static inline int durstat_exact(const struct durstat *s)
{
	return s->pos == NULL;
}

/* The nearest-rank percentile (0 when empty): the value at rank
 * ceil(pct / 100 * n), or its bucket's representative (the first and
 * last ranks: min and max). */
int64_t durstat_percentile(const struct durstat *s, unsigned pct);
/* Population variance, from the exact sums. */
long double durstat_variance(const struct durstat *s);
/* Its square root rounded to whole nanoseconds. */
int64_t durstat_std(const struct durstat *s);
/* The mean truncated to whole nanoseconds (0 when empty). */
int64_t durstat_avg(const struct durstat *s);
/* The sum, held within the 64-bit range. */
int64_t durstat_sum(const struct durstat *s);
/* The sum of each duration's excess over the fastest, held below 2^63. */
int64_t durstat_excess(const struct durstat *s);

/* The nearest-rank percentile of n > 0 sorted values: the value at rank
 * ceil(pct / 100 * n) (counting from 1; the first for a rank of 0). */
int64_t percentile_nearest_rank(const int64_t *sorted, size_t n, unsigned pct);

/* As bytes (bytes.h) and back; decode returns -1 on malformed input. */
void durstat_encode(const struct durstat *s, struct bytes_out *b);
int durstat_decode(struct durstat *s, struct bytes_in *b);
/* Decode a statistic and merge it into into; -1 when malformed. */
int durstat_merge_bytes(struct durstat *into, struct bytes_in *b);

#endif
