/* A set of integers in a known range as a bitmap that also tells each
 * member's rank (how many members are smaller) in constant time: a bit per
 * value and, per 64 values, the members before them. Used to place rows
 * that are kept by id at dense positions. */
#ifndef RPDTOP_UTIL_RANKBITS_H
#define RPDTOP_UTIL_RANKBITS_H

#include <stddef.h>
#include <stdint.h>

struct rankbits {
	int64_t lo;     /* the smallest value the set can hold */
	size_t nbits;   /* values lo .. lo + nbits - 1 */
	uint64_t *has;  /* a bit per value */
	uint32_t *rank; /* per 64 values, the members before them */
	size_t count;   /* members, once sealed */
};

/* An empty set for values lo .. lo + nbits - 1. */
void rankbits_init(struct rankbits *b, int64_t lo, size_t nbits);
void rankbits_free(struct rankbits *b);
/* Add v (in range) before rankbits_seal. */
static inline void rankbits_add(struct rankbits *b, int64_t v)
{
	uint64_t at = (uint64_t)(v - b->lo);
	b->has[at / 64] |= 1ull << (at % 64);
}
/* Count the members and make the ranks. */
void rankbits_seal(struct rankbits *b);

static inline int rankbits_has(const struct rankbits *b, int64_t v)
{
	if (v < b->lo || (uint64_t)(v - b->lo) >= b->nbits)
		return 0;
	uint64_t at = (uint64_t)(v - b->lo);
	return (b->has[at / 64] >> (at % 64)) & 1;
}

/* The members smaller than v, a member (sealed sets). */
static inline size_t rankbits_rank(const struct rankbits *b, int64_t v)
{
	uint64_t at = (uint64_t)(v - b->lo);
	uint64_t below = b->has[at / 64] & ((1ull << (at % 64)) - 1);
	return b->rank[at / 64] + (size_t)__builtin_popcountll(below);
}

#endif
