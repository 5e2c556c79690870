#include "config.h"
#include "analysis/select.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* The string ids a filter needs to judge: op names, API names, and the
 * text of markers. Other strings (arguments) are never matched. */
static uint8_t *wanted_strings(const struct trace *t, uint32_t marker)
{
	uint8_t *want = xcalloc(t->strings.count ? t->strings.count : 1, 1);
	for (size_t i = 0; i < t->ops.n; i++)
		want[t->ops.name[i]] = 1;
	for (size_t i = 0; i < t->apis.n; i++)
		want[t->apis.name[i] == marker ? t->apis.args[i] : t->apis.name[i]] = 1;
	return want;
}

static void select_ops(const struct trace *t, const uint8_t *pass, const struct window *w,
		       struct selection *s)
{
	for (size_t i = 0; i < t->ops.n; i++) {
		s->ops[i] = (!pass || pass[t->ops.name[i]]) && window_has(w, t->ops.start[i]);
		s->nops += s->ops[i];
	}
}

static void select_apis(const struct trace *t, const uint8_t *pass, const struct window *w,
			uint32_t marker, struct selection *s)
{
	for (size_t i = 0; i < t->apis.n; i++) {
		uint32_t name = t->apis.name[i] == marker ? t->apis.args[i] : t->apis.name[i];
		s->apis[i] = (!pass || pass[name]) && window_has(w, t->apis.start[i]);
	}
	/* A launch goes with the ops it launched. */
	for (size_t i = 0; pass && t->op_launch && i < t->ops.n; i++) {
		uint32_t a = t->op_launch[i];
		if (a != TRACE_NONE && s->ops[i] && window_has(w, t->apis.start[a]))
			s->apis[a] = 1;
	}
	for (size_t i = 0; i < t->apis.n; i++)
		s->napis += s->apis[i];
}

void selection_build(const struct trace *t, const struct filter *f, const struct window *w,
		     struct selection *out)
{
	memset(out, 0, sizeof(*out));
	out->window = *w;
	out->filtered = f->n > 0 || w->active;
	out->ops = xmalloc(t->ops.n ? t->ops.n : 1);
	out->apis = xmalloc(t->apis.n ? t->apis.n : 1);
	uint32_t marker = strtab_find(&t->strings, "UserMarker", 10);
	uint8_t *pass = NULL;
	if (f->n) {
		uint8_t *want = wanted_strings(t, marker);
		pass = filter_strings(f, t, want);
		free(want);
	}
	select_ops(t, pass, w, out);
	select_apis(t, pass, w, marker, out);
	free(pass);
}

void selection_free(struct selection *s)
{
	free(s->ops);
	free(s->apis);
	memset(s, 0, sizeof(*s));
}
