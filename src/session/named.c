/* Windows named by roctx ranges and kernels (session/named.h). */
#include "config.h"
#include "session/named.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session/filter.h"
#include "util/i18n.h"
#include "util/sort.h"
#include "util/xalloc.h"

#define MARKER_PREFIX "marker:"
#define KERNEL_PREFIX "kernel:"

static int has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

int window_is_named(const char *text)
{
	return text && (has_prefix(text, MARKER_PREFIX) || has_prefix(text, KERNEL_PREFIX));
}

int window_names_markers(const char *text)
{
	return window_is_named(text) && (has_prefix(text, MARKER_PREFIX) || strstr(text, ".." MARKER_PREFIX));
}

int named_api_cmp(const struct trace *t, uint32_t a, uint32_t b)
{
	int64_t x = t->apis.start[a], y = t->apis.start[b];
	if (x != y)
		return x < y ? -1 : 1;
	x = t->apis.end[a], y = t->apis.end[b];
	if (x != y)
		return x > y ? -1 : 1;
	return (a > b) - (a < b);
}

static int by_api_time(const void *a, const void *b, void *ctx)
{
	return named_api_cmp(ctx, *(const uint32_t *)a, *(const uint32_t *)b);
}

static int by_op_time(const void *a, const void *b, void *ctx)
{
	const struct trace *t = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	if (t->ops.start[x] != t->ops.start[y])
		return t->ops.start[x] < t->ops.start[y] ? -1 : 1;
	return (x > y) - (x < y);
}

uint32_t *named_marker_rows(const struct trace *t, const uint8_t *pass, size_t *n)
{
	uint32_t marker = strtab_find(&t->strings, TRACE_MARKER_NAME, strlen(TRACE_MARKER_NAME));
	uint32_t *rows = NULL;
	size_t cap = 0;
	*n = 0;
	for (size_t i = 0; marker != TRACE_NONE && i < t->apis.n; i++) {
		if (trace_api_name(t, i) != marker)
			continue;
		/* A marker's text, or the marker's name when it has none. */
		uint32_t text = trace_api_shown_name(t, i);
		if (pass && !pass[text])
			continue;
		rows = xgrow(rows, &cap, *n + 1, sizeof(*rows));
		rows[(*n)++] = (uint32_t)i;
	}
	sort_with(rows, *n, sizeof(*rows), by_api_time, (void *)t);
	return rows;
}

uint32_t *named_kernel_rows(const struct trace *t, const uint8_t *pass, size_t *n)
{
	uint32_t *rows = NULL;
	size_t cap = 0;
	*n = 0;
	for (size_t i = 0; i < t->ops.n; i++) {
		if (t->ops.kind[i] != OP_KERNEL || (pass && !pass[t->ops.name[i]]))
			continue;
		rows = xgrow(rows, &cap, *n + 1, sizeof(*rows));
		rows[(*n)++] = (uint32_t)i;
	}
	sort_with(rows, *n, sizeof(*rows), by_op_time, (void *)t);
	return rows;
}

/* One side of a named window: "marker:REGEX" or "kernel:REGEX", with an
 * optional "#N" (N a non-zero integer, negative from the end). */
struct named_part {
	int marker;
	char pattern[512];
	long index; /* 0: all of them */
};

static int split_part(const char *s, size_t len, struct named_part *p, char *err, size_t errsize)
{
	p->marker = has_prefix(s, MARKER_PREFIX);
	if (!p->marker && !has_prefix(s, KERNEL_PREFIX))
		goto bad;
	size_t skip = strlen(MARKER_PREFIX); /* as long as KERNEL_PREFIX */
	const char *hash = NULL;
	for (const char *c = s + skip; c < s + len; c++)
		if (*c == '#')
			hash = c;
	p->index = 0;
	if (hash) {
		char num[32], *end;
		size_t nlen = (size_t)(s + len - hash - 1);
		snprintf(num, sizeof(num), "%.*s", (int)(nlen < sizeof(num) ? nlen : sizeof(num) - 1),
			 hash + 1);
		errno = 0;
		long v = strtol(num, &end, 10);
		if (nlen && nlen < sizeof(num) && !*end && !errno && v != 0 && num[0] != '+' && num[0] != ' ')
			p->index = v;
		else
			hash = NULL; /* a '#' of the pattern */
	}
	size_t plen = (size_t)((hash ? hash : s + len) - (s + skip));
	if (plen == 0 || plen >= sizeof(p->pattern))
		goto bad;
	memcpy(p->pattern, s + skip, plen);
	p->pattern[plen] = '\0';
	return 0;
bad:
	snprintf(err, errsize,
		 _("invalid window '%.*s' (expected marker:REGEX or kernel:REGEX, with #N for the N-th)"),
		 (int)len, s);
	return -1;
}

/* The span [*start, *end) of the part's instances (or of its one). */
static int resolve_part(const struct named_part *p, const struct trace *t, int64_t *start, int64_t *end,
			char *err, size_t errsize)
{
	struct filter f;
	filter_init(&f);
	if (filter_push(&f, p->pattern, err, errsize)) {
		filter_free(&f);
		return -1;
	}
	uint8_t *pass = filter_strings(&f, t, NULL);
	filter_free(&f);
	size_t n;
	uint32_t *rows = p->marker ? named_marker_rows(t, pass, &n) : named_kernel_rows(t, pass, &n);
	free(pass);
	const int64_t *s = p->marker ? t->apis.start : t->ops.start,
		      *e = p->marker ? t->apis.end : t->ops.end;
	int ok = n > 0 && (p->index == 0 || (p->index > 0 ? (size_t)p->index <= n : (size_t)-p->index <= n));
	if (!ok) {
		if (n == 0)
			snprintf(err, errsize,
				 p->marker ? _("window: no roctx range matches '%s'")
					   : _("window: no kernel matches '%s'"),
				 p->pattern);
		else
			snprintf(err, errsize,
				 p->marker ? _("window: no roctx range '%s' #%ld (there are %zu)")
					   : _("window: no kernel '%s' #%ld (there are %zu)"),
				 p->pattern, p->index, n);
		free(rows);
		return -1;
	}
	size_t lo = 0, hi = n - 1;
	if (p->index)
		lo = hi = p->index > 0 ? (size_t)p->index - 1 : n - (size_t)-p->index;
	*start = s[rows[lo]];
	*end = e[rows[lo]];
	for (size_t i = lo; i <= hi; i++)
		*end = e[rows[i]] > *end ? e[rows[i]] : *end;
	free(rows);
	return 0;
}

/* Where B begins in "A..B": the first ".." followed by a prefix. */
static const char *find_range(const char *text)
{
	for (const char *c = strstr(text, ".."); c; c = strstr(c + 1, ".."))
		if (window_is_named(c + 2))
			return c;
	return NULL;
}

int window_named(const char *text, const struct trace *t, struct window *w, char *err, size_t errsize)
{
	const char *dots = find_range(text);
	size_t alen = dots ? (size_t)(dots - text) : strlen(text);
	struct named_part a, b;
	int64_t as, ae, bs, be;
	if (split_part(text, alen, &a, err, errsize) || resolve_part(&a, t, &as, &ae, err, errsize))
		return -1;
	if (dots) {
		if (split_part(dots + 2, strlen(dots + 2), &b, err, errsize) ||
		    resolve_part(&b, t, &bs, &be, err, errsize))
			return -1;
		ae = be;
	}
	/* A range or kernel of no duration is a window of one nanosecond. */
	if (ae <= as && !dots)
		ae = as + 1;
	if (ae <= as) {
		snprintf(err, errsize, _("invalid window '%s' (it ends before it starts)"), text);
		return -1;
	}
	w->active = 1;
	w->start = as;
	w->end = ae;
	return 0;
}
