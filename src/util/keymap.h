/* Rows grouped by a small integer key (a string id): a dense map from key
 * to row number, the fastest group-by there is. The rows themselves are
 * the caller's, in the order their keys first came. */
#ifndef RPDTOP_UTIL_KEYMAP_H
#define RPDTOP_UTIL_KEYMAP_H

#include <stddef.h>
#include <stdint.h>

struct keymap {
	uint32_t *row_of; /* by key, UINT32_MAX: none */
	size_t nkeys;
};

static inline void keymap_init(struct keymap *m)
{
	m->row_of = NULL;
	m->nkeys = 0;
}

void keymap_free(struct keymap *m);

/* The row number of key; when it has none yet, next (the caller's count
 * of rows) is recorded for it and *made set, so that the caller adds that
 * row. keys: how many keys there may be (the map grows to it at once). */
uint32_t keymap_row(struct keymap *m, uint32_t key, size_t keys, size_t next, int *made);

#endif
