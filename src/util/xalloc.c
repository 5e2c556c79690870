#include "config.h"
#include "util/xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "util/i18n.h"

static void (*on_fatal)(void);

void xalloc_on_fatal(void (*fn)(void))
{
	on_fatal = fn;
}

static __attribute__((noreturn)) void out_of_memory(size_t n)
{
	if (on_fatal)
		on_fatal();
	fprintf(stderr, _("rpdtop: out of memory (%zu bytes)\n"), n);
	exit(1);
}

void xalloc_die(size_t n)
{
	out_of_memory(n);
}

#define HUGE_FROM ((size_t)8 << 20)
#define HUGE_PAGE ((uintptr_t)2 << 20)

/* Huge pages are asked for only when RPDTOP_HUGE_PAGES is 1: on virtual
 * machines that zero and reclaim pages lazily, a huge page's first touch
 * costs more than the faults it saves (-r api on a trace of 10M ops took
 * 15 % longer with them), while a node given its memory whole may gain.
 * Read once, before main and its threads. */
static int huge_pages;

__attribute__((constructor)) static void huge_pages_init(void)
{
	const char *v = getenv("RPDTOP_HUGE_PAGES");
	huge_pages = v && strcmp(v, "1") == 0;
}

void *xhuge(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
	if (huge_pages && p && n >= HUGE_FROM) {
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

/* n * size, or out of memory when it does not fit a size_t. */
static size_t array_bytes(size_t n, size_t size)
{
	n = n ? n : 1;
	if (size && n > SIZE_MAX / size)
		out_of_memory(SIZE_MAX);
	return n * size;
}

void *xmalloc_array(size_t n, size_t size)
{
	return xmalloc(array_bytes(n, size));
}

void *xrealloc_array(void *p, size_t n, size_t size)
{
	return xrealloc(p, array_bytes(n, size));
}

void *xmalloc_huge(size_t n, size_t size)
{
	size_t bytes = array_bytes(n, size);
	return xhuge(xmalloc(bytes), bytes);
}

/* Tests make large blocks fail as if memory ran out (RPDTOP_TEST_ALLOC_LIMIT
 * bytes): the viewer's way out is then seen in a terminal. */
static int refused(size_t n)
{
	if (n < ((size_t)64 << 10))
		return 0;
	const char *limit = getenv("RPDTOP_TEST_ALLOC_LIMIT");
	return limit && *limit && n > (size_t)strtoull(limit, NULL, 10);
}

void *xmalloc(size_t n)
{
	void *p = refused(n) ? NULL : malloc(n ? n : 1);
	if (!p)
		out_of_memory(n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = refused(n * size) ? NULL : calloc(n ? n : 1, size ? size : 1);
	if (!p)
		out_of_memory(n * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = refused(n) ? NULL : realloc(p, n ? n : 1);
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
