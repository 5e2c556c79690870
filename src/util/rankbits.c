#include "config.h"
#include "util/rankbits.h"

#include <stdlib.h>

#include "util/xalloc.h"

void rankbits_init(struct rankbits *b, int64_t lo, size_t nbits)
{
	size_t words = nbits / 64 + 1;
	b->lo = lo;
	b->nbits = nbits;
	b->has = xcalloc(words, sizeof(*b->has));
	b->rank = xmalloc_array(words, sizeof(*b->rank));
	b->count = 0;
}

void rankbits_free(struct rankbits *b)
{
	free(b->has);
	free(b->rank);
	b->has = NULL;
	b->rank = NULL;
}

void rankbits_seal(struct rankbits *b)
{
	size_t words = b->nbits / 64 + 1, before = 0;
	for (size_t w = 0; w < words; w++) {
		b->rank[w] = (uint32_t)before;
		before += (size_t)__builtin_popcountll(b->has[w]);
	}
	b->count = before;
}
