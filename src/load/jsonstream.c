#include "config.h"
#include "load/jsonstream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"
#include "util/xalloc.h"

static void *alloc_malloc(void *ctx, size_t n)
{
	(void)ctx;
	return xmalloc(n);
}

static void *alloc_realloc(void *ctx, void *ptr, size_t n)
{
	(void)ctx;
	return xrealloc(ptr, n);
}

static void alloc_free(void *ctx, void *ptr)
{
	(void)ctx;
	free(ptr);
}

/* yajl's own message, without its line break (never the verbose one:
 * that quotes the input). */
static void yajl_message(yajl_handle h, char *buf, size_t size)
{
	unsigned char *m = yajl_get_error(h, 0, NULL, 0);
	snprintf(buf, size, "%s", m ? (const char *)m : "?");
	yajl_free_error(h, m);
	size_t n = strlen(buf);
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '.'))
		buf[--n] = '\0';
}

int json_stream(struct instream *in, const char *path, const yajl_callbacks *cb, void *ctx, const int *failed,
		struct rpd_error *err)
{
	yajl_alloc_funcs af = { alloc_malloc, alloc_realloc, alloc_free, NULL };
	yajl_handle h = yajl_alloc(cb, &af, ctx);
	unsigned char *buf = xmalloc(INSTREAM_CHUNK);
	uint64_t offset = 0;
	int rc = 0, first = 1;
	yajl_status st = yajl_status_ok;
	for (;;) {
		ssize_t n = instream_read(in, buf, INSTREAM_CHUNK, err);
		if (n < 0) {
			rc = -1;
			break;
		}
		size_t skip = 0;
		/* A byte order mark, which JSON readers pass over. */
		if (first && n >= 3 && buf[0] == 0xef && buf[1] == 0xbb && buf[2] == 0xbf)
			skip = 3;
		first = 0;
		st = n == 0 ? yajl_complete_parse(h) : yajl_parse(h, buf + skip, (size_t)n - skip);
		/* Where it stopped: the byte at fault, counted from 1, or
		 * the end. */
		if (st != yajl_status_ok) {
			if (n > 0)
				offset += yajl_get_bytes_consumed(h) + skip;
			break;
		}
		if (n == 0)
			break;
		offset += (size_t)n;
	}
	if (rc == 0 && st != yajl_status_ok && !*failed) {
		char m[256];
		yajl_message(h, m, sizeof(m));
		rc = err_set(err, _("%s: not valid JSON (at byte %llu: %s)"), path,
			     (unsigned long long)offset, m);
	} else if (rc == 0 && *failed) {
		rc = -1;
	}
	free(buf);
	yajl_free(h);
	return rc;
}
