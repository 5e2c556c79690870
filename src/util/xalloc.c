#include "config.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"

static void out_of_memory(size_t n)
{
	fprintf(stderr, _("rpdtop: out of memory (%zu bytes)\n"), n);
	exit(1);
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
