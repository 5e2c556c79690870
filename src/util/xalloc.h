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
/* Ask for p's n bytes to be backed by huge pages where the kernel gives
 * them only on request (a fault then maps 2 MB, not 4 kB), when the
 * environment's RPDTOP_HUGE_PAGES is 1 (else nothing). Only for blocks
 * sized once, to be filled: growing one by realloc after this moves huge
 * pages around, which costs more than it saves. Returns p. */
void *xhuge(void *p, size_t n);
/* An array of n items of size bytes (room for one when n is 0); a size
 * that overflows is out of memory, never a short block. */
void *xmalloc_array(size_t n, size_t size);
void *xrealloc_array(void *p, size_t n, size_t size);
/* xmalloc_array, then xhuge. */
void *xmalloc_huge(size_t n, size_t size);
/* Run fn before the program ends for want of memory (the viewer gives the
 * terminal back); NULL for none. */
void xalloc_on_fatal(void (*fn)(void));
/* Memory of n bytes could not be had (from another allocator): the
 * message, the fatal hook, and exit 1. */
void xalloc_die(size_t n) __attribute__((noreturn));
char *xstrdup(const char *s);

#endif
