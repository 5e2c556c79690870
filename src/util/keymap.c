#include "config.h"
#include "util/keymap.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void keymap_free(struct keymap *m)
{
	free(m->row_of);
	keymap_init(m);
}

uint32_t keymap_row(struct keymap *m, uint32_t key, size_t keys, size_t next, int *made)
{
	if (key >= m->nkeys) {
		size_t n = keys > key ? keys : (size_t)key + 1;
		m->row_of = xrealloc_array(m->row_of, n, sizeof(*m->row_of));
		memset(m->row_of + m->nkeys, 0xff, (n - m->nkeys) * sizeof(*m->row_of));
		m->nkeys = n;
	}
	*made = m->row_of[key] == UINT32_MAX;
	if (*made)
		m->row_of[key] = (uint32_t)next;
	return m->row_of[key];
}
