/* Allocation that never returns NULL: running out of memory ends the
 * program with one clear line, which is the only sane outcome for a viewer. */
#ifndef RPDTOP_XALLOC_H
#define RPDTOP_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
/* Grow an array of elem-sized items to hold at least need items. */
void *xgrow(void *p, size_t *cap, size_t need, size_t elem);
char *xstrdup(const char *s);

#endif
