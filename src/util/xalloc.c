#include "config.h"
#include "util/xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "util/i18n.h"

static void out_of_memory(size_t n)
{
	fprintf(stderr, _("rpdtop: out of memory (%zu bytes)\n"), n);
	exit(1);
}

#define HUGE_FROM ((size_t)8 << 20)
#define HUGE_PAGE ((uintptr_t)2 << 20)

void *xhuge(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
	if (p && n >= HUGE_FROM) {
		uintptr_t from = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
		uintptr_t to = ((uintptr_t)p + n) & ~(HUGE_PAGE - 1);
		if (to > from)
			madvise((void *)from, to - from, MADV_HUGEPAGE);
	}
#else
	(void)n;
#endif
	return p;
}

void *xmalloc_huge(size_t n)
{
	return xhuge(xmalloc(n), n);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		out_of_memory(n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		out_of_memory(n * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		out_of_memory(n);
	return q;
}

void *xgrow(void *p, size_t *cap, size_t need, size_t elem)
{
	size_t c = *cap;
	if (need <= c)
		return p;
	if (c < 16)
		c = 16;
	while (c < need)
		c += c / 2;
	if (c > ((size_t)-1) / elem)
		out_of_memory((size_t)-1);
	*cap = c;
	return xrealloc(p, c * elem);
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xmalloc(n), s, n);
}
