#include "config.h"
#include "session/select.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util/threads.h"
#include "util/xalloc.h"

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

static void select_ops(const struct trace *t, const uint8_t *pass, const struct window *w,
		       struct selection *s)
{
	/* A word of 64 rows at a time. */
	for (size_t base = 0; base < t->ops.n; base += 64) {
		size_t end = base + 64 < t->ops.n ? base + 64 : t->ops.n;
		uint64_t word = 0;
		for (size_t i = base; i < end; i++)
			word |= (uint64_t)select_op_belongs(
					!pass || pass[t->ops.name[i]],
					select_in_window(w, t->ops.start[i], t->ops.end[i]))
				<< (i - base);
		s->op_bits[base >> 6] = word;
		s->nops += (size_t)__builtin_popcountll(word);
	}
}

/* API calls by their own name and start. */
static void select_apis(const struct trace *t, const uint8_t *pass, const struct window *w, uint32_t marker,
			struct selection *s)
{
	size_t k = 0;
	for (size_t base = 0; base < t->apis.n; base += 64) {
		size_t end = base + 64 < t->apis.n ? base + 64 : t->apis.n;
		uint64_t word = 0;
		for (size_t i = base; i < end; i++) {
			uint32_t name = api_match_name(t, i, marker, &k);
			int in = select_in_window(w, t->apis.start[i], t->apis.end[i]);
			/* Launches join below, from the ops in view. */
			word |= (uint64_t)select_api_belongs(!pass || pass[name], in, 0) << (i - base);
		}
		s->api_bits[base >> 6] = word;
	}
}

/* The calls that launched an op in view belong with it (the rule's last
 * case): only ops in view are visited. */
static void select_launches(const struct trace *t, struct selection *s)
{
	for (size_t word = 0; t->op_launch && word < selection_words(t->ops.n); word++) {
		for (uint64_t bits = s->op_bits[word]; bits; bits &= bits - 1) {
			size_t i = word * 64 + (size_t)__builtin_ctzll(bits);
			uint32_t a = i < t->ops.n ? t->op_launch[i] : TRACE_NONE;
			if (a != TRACE_NONE && a < t->apis.n)
				selection_set(s->api_bits, a, 1);
		}
	}
}

struct api_job {
	const struct trace *t;
	const uint8_t *pass;
	const struct window *w;
	uint32_t marker;
	struct selection *s;
};

static void *api_worker(void *arg)
{
	struct api_job *j = arg;
	select_apis(j->t, j->pass, j->w, j->marker, j->s);
	return NULL;
}

void selection_build(const struct trace *t, const struct filter *f, const struct window *w,
		     struct selection *out)
{
	memset(out, 0, sizeof(*out));
	out->window = *w;
	out->filtered = f->n > 0 || w->active;
	out->op_bits = xcalloc(selection_words(t->ops.n), sizeof(uint64_t));
	out->api_bits = xcalloc(selection_words(t->apis.n), sizeof(uint64_t));
	uint32_t marker = strtab_find(&t->strings, TRACE_MARKER_NAME, strlen(TRACE_MARKER_NAME));
	uint8_t *pass = NULL;
	/* Every string is judged once: names and markers' texts are all the
	 * trace interns, a few thousand. */
	if (f->n)
		pass = filter_strings(f, t, NULL);
	/* Ops and API calls on two threads: they do not touch each other. */
	struct api_job j = { t, pass, w, marker, out };
	pthread_t th;
	int slot = t->apis.n > 100000 ? threads_acquire(1) : 0;
	int threaded = slot && pthread_create(&th, NULL, api_worker, &j) == 0;
	select_ops(t, pass, w, out);
	if (threaded)
		pthread_join(th, NULL);
	else
		api_worker(&j);
	threads_release(slot);
	if (out->filtered)
		select_launches(t, out);
	for (size_t i = 0; i < selection_words(t->apis.n); i++)
		out->napis += (size_t)__builtin_popcountll(out->api_bits[i]);
	free(pass);
}

void selection_free(struct selection *s)
{
	free(s->op_bits);
	free(s->api_bits);
	memset(s, 0, sizeof(*s));
}

void selection_copy(const struct trace *t, const struct selection *from, struct selection *to)
{
	*to = *from;
	size_t nops = selection_words(t->ops.n), napis = selection_words(t->apis.n);
	to->op_bits = xmalloc_array(nops, sizeof(uint64_t));
	to->api_bits = xmalloc_array(napis, sizeof(uint64_t));
	memcpy(to->op_bits, from->op_bits, nops * sizeof(uint64_t));
	memcpy(to->api_bits, from->api_bits, napis * sizeof(uint64_t));
}
