#include "config.h"
#include "load/json_kind.h"

#include <string.h>
#include <yajl/yajl_parse.h>

#include "load/instream.h"

/* The first key, as the parse meets it. */
struct probe {
	int depth;
	int done;      /* the answer is in */
	int rocprofv3; /* the first key is rocprofv3's */
};

static int stop(struct probe *p)
{
	p->done = 1;
	return 0;
}

static int on_scalar(void *ctx)
{
	struct probe *p = ctx;
	return p->depth == 0 ? stop(p) : 1;
}

static int on_null(void *ctx)
{
	return on_scalar(ctx);
}

static int on_boolean(void *ctx, int v)
{
	(void)v;
	return on_scalar(ctx);
}

static int on_number(void *ctx, const char *s, size_t n)
{
	(void)s;
	(void)n;
	return on_scalar(ctx);
}

static int on_string(void *ctx, const unsigned char *s, size_t n)
{
	(void)s;
	(void)n;
	return on_scalar(ctx);
}

static int on_start_map(void *ctx)
{
	struct probe *p = ctx;
	p->depth++;
	return 1;
}

static int on_start_array(void *ctx)
{
	struct probe *p = ctx;
	return p->depth == 0 ? stop(p) : (p->depth++, 1);
}

static int on_end(void *ctx)
{
	/* An object ends before any key: {} */
	return stop(ctx);
}

static int on_key(void *ctx, const unsigned char *s, size_t n)
{
	struct probe *p = ctx;
	static const char key[] = "rocprofiler-sdk-tool";
	p->rocprofv3 = n == sizeof(key) - 1 && memcmp(s, key, n) == 0;
	return stop(p);
}

/* The first key of the object (at most this far into the content). */
#define PROBE_LIMIT ((size_t)1 << 20)

enum json_kind json_kind(const char *path)
{
	struct instream s;
	struct rpd_error err;
	if (instream_open(&s, path, &err))
		return JSON_NONE;
	static const yajl_callbacks cb = {
		.yajl_null = on_null,
		.yajl_boolean = on_boolean,
		.yajl_number = on_number,
		.yajl_string = on_string,
		.yajl_start_map = on_start_map,
		.yajl_map_key = on_key,
		.yajl_end_map = on_end,
		.yajl_start_array = on_start_array,
		.yajl_end_array = on_end,
	};
	struct probe p = { 0 };
	yajl_handle y = yajl_alloc(&cb, NULL, &p);
	unsigned char buf[4096];
	/* Gzip data is no database: what it holds its reading says. */
	enum json_kind kind = s.gz ? JSON_KINETO : JSON_NONE;
	int first = 1, opened = s.gz;
	for (size_t seen = 0; seen < PROBE_LIMIT && !p.done;) {
		ssize_t r = instream_read(&s, buf, sizeof(buf), &err);
		if (r <= 0)
			break;
		size_t i = 0;
		if (first && r >= 3 && buf[0] == 0xef && buf[1] == 0xbb && buf[2] == 0xbf)
			i = 3;
		first = 0;
		if (!opened) {
			/* White space before the object: a megabyte of it is no trace. */
			size_t k = i;
			while (k < (size_t)r &&
			       (buf[k] == ' ' || buf[k] == '\t' || buf[k] == '\n' || buf[k] == '\r'))
				k++;
			if (k < (size_t)r && buf[k] != '{' && buf[k] != '[')
				break;
			opened = k < (size_t)r;
			if (opened)
				kind = JSON_KINETO;
		}
		if (opened && yajl_parse(y, buf + i, (size_t)r - i) != yajl_status_ok)
			break;
		seen += (size_t)r;
	}
	if (p.done && p.rocprofv3)
		kind = JSON_ROCPROFV3;
	yajl_free(y);
	instream_close(&s);
	return kind;
}
