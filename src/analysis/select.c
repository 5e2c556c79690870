#include "config.h"
#include "analysis/select.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* The string ids a filter needs to judge: op names, API names, and the
 * text of markers. Other strings (arguments) are never matched. */
/* The string an API call is matched by: its name, or a marker's text. The
 * texts are walked along with the rows (*k): both rise. */
static uint32_t api_match_name(const struct trace *t, size_t i, uint32_t marker, size_t *k)
{
	uint32_t name = t->apis.name[i];
	if (name != marker)
		return name;
	while (*k < t->texts.n && t->texts.api[*k] < i)
		(*k)++;
	return *k < t->texts.n && t->texts.api[*k] == i ? t->texts.text[*k] : name;
}

static uint8_t *wanted_strings(const struct trace *t, uint32_t marker)
{
	uint8_t *want = xcalloc(t->strings.count ? t->strings.count : 1, 1);
	size_t k = 0;
	for (size_t i = 0; i < t->ops.n; i++)
		want[t->ops.name[i]] = 1;
	for (size_t i = 0; i < t->apis.n; i++)
		want[api_match_name(t, i, marker, &k)] = 1;
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
	size_t k = 0;
	for (size_t i = 0; i < t->apis.n; i++) {
		uint32_t name = api_match_name(t, i, marker, &k);
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
