#include "config.h"
#include "session/select.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util/threads.h"
#include "util/xalloc.h"

static void select_ops(const struct trace *t, const uint8_t *pass, const uint8_t *op_place,
		       const struct window *w, struct selection *s)
{
	/* A word of 64 rows at a time. */
	for (size_t base = 0; base < t->ops.n; base += 64) {
		size_t end = base + 64 < t->ops.n ? base + 64 : t->ops.n;
		uint64_t word = 0, place = 0;
		for (size_t i = base; i < end; i++) {
			int in = select_in_window(w, t->ops.start[i], t->ops.end[i]) &&
				 (!op_place || op_place[i]);
			word |= (uint64_t)select_op_belongs(!pass || pass[t->ops.name[i]], in) << (i - base);
			place |= (uint64_t)in << (i - base);
		}
		s->op_bits[base >> 6] = word;
		s->place_bits[base >> 6] = place;
		s->nops += (size_t)__builtin_popcountll(word);
	}
}

/* Host copies as ops, by their name, the window and their input: they
 * run on no GPU, so a GPU filter keeps none. */
static void select_host_copies(const struct trace *t, const uint8_t *pass, const struct select_places *p,
			       const struct window *w, struct selection *s)
{
	const struct trace_host_copies *h = &t->host_copies;
	for (size_t i = 0; i < h->n; i++) {
		int in = select_in_window(w, h->start[i], h->end[i]) && !(p && p->gpus) &&
			 (!p || !p->inputs || p->inputs[h->input[i]]);
		selection_set(s->host_bits, i, select_op_belongs(!pass || pass[h->name[i]], in));
		selection_set(s->host_place, i, in);
	}
}

/* API calls by their own name and start. */
static void select_apis(const struct trace *t, const uint8_t *pass, const uint8_t *thread_place,
			const struct window *w, struct selection *s)
{
	for (size_t base = 0; base < t->apis.n; base += 64) {
		size_t end = base + 64 < t->apis.n ? base + 64 : t->apis.n;
		uint64_t word = 0, named = 0;
		for (size_t i = base; i < end; i++) {
			/* Matched by its name, or a marker by its text. */
			uint32_t name = trace_api_shown_name(t, i);
			int in = select_in_window(w, t->apis.start[i], t->apis.end[i]) &&
				 (!thread_place || thread_place[t->apis.thread[i]]);
			/* Launches join below, from the ops in view. */
			word |= (uint64_t)select_api_belongs(!pass || pass[name], in, 0) << (i - base);
			named |= (uint64_t)(!pass || pass[name]) << (i - base);
		}
		s->api_bits[base >> 6] = word;
		if (s->named_bits)
			s->named_bits[base >> 6] = named;
	}
}

/* The calls that launched an op in view belong with it (the rule's last
 * case): only ops in view are visited. */
static void select_launches(const struct trace *t, struct selection *s)
{
	for (size_t word = 0; t->op_launch && word < selection_words(t->ops.n); word++) {
		for (uint64_t bits = s->op_bits[word]; bits; bits &= bits - 1) {
			size_t i = word * 64 + (size_t)__builtin_ctzll(bits);
			uint32_t a = i < t->op_launch_n ? t->op_launch[i] : TRACE_NONE;
			if (a != TRACE_NONE && a < t->apis.n)
				selection_set(s->api_bits, a, 1);
		}
	}
}

/* The kept calls grouped by thread, each thread's in start order: the
 * selection's bits are walked in row order (the columns read in order,
 * not scattered), then each thread's run, nearly in order, is sorted. */
static uint32_t *kept_by_thread(const struct trace *t, const struct selection *s, size_t *first)
{
	memset(first, 0, (t->nthreads + 1) * sizeof(*first));
	size_t words = (t->apis.n + 63) / 64;
	for (size_t w = 0; w < words; w++)
		for (uint64_t bits = s->api_bits[w]; bits; bits &= bits - 1)
			first[t->apis.thread[w * 64 + (size_t)__builtin_ctzll(bits)] + 1]++;
	for (size_t k = 0; k < t->nthreads; k++)
		first[k + 1] += first[k];
	uint32_t *kept = xmalloc_huge(first[t->nthreads] ? first[t->nthreads] : 1, sizeof(*kept));
	size_t *fill = xmalloc_array(t->nthreads ? t->nthreads : 1, sizeof(*fill));
	memcpy(fill, first, t->nthreads * sizeof(*fill));
	for (size_t w = 0; w < words; w++) {
		for (uint64_t bits = s->api_bits[w]; bits; bits &= bits - 1) {
			size_t i = w * 64 + (size_t)__builtin_ctzll(bits);
			kept[fill[t->apis.thread[i]]++] = (uint32_t)i;
		}
	}
	free(fill);
	for (size_t k = 0; k < t->nthreads; k++)
		api_order_sort(t, kept + first[k], first[k + 1] - first[k]);
	return kept;
}

/* The rule's enclosing case, a thread at a time in start order: a call E
 * encloses a kept call K when K starts no earlier and ends no later. Of
 * the kept calls starting at or after E's start, the earliest end is kept
 * as a suffix minimum; E encloses one of them when that end is no later
 * than its own. Only the calls that enclose some call are tried, in start
 * order, the kept calls' place only moving forward. */
static void select_enclosing(const struct trace *t, const struct api_order *o, struct selection *s)
{
	size_t *first = xmalloc_array(t->nthreads + 1, sizeof(*first));
	uint32_t *kept = kept_by_thread(t, s, first);
	size_t most = 0;
	for (size_t k = 0; k < t->nthreads; k++)
		if (first[k + 1] - first[k] > most)
			most = first[k + 1] - first[k];
	int64_t *min_end = xmalloc_huge(most ? most : 1, sizeof(*min_end));
	for (size_t k = 0; k < t->nthreads; k++) {
		const uint32_t *kk = kept + first[k];
		size_t nk = first[k + 1] - first[k];
		if (nk == 0 || o->pfirst[k] == o->pfirst[k + 1])
			continue;
		min_end[nk - 1] = t->apis.end[kk[nk - 1]];
		for (size_t i = nk - 1; i-- > 0;) {
			int64_t e = t->apis.end[kk[i]];
			min_end[i] = e < min_end[i + 1] ? e : min_end[i + 1];
		}
		size_t p = 0;
		for (size_t j = o->pfirst[k]; j < o->pfirst[k + 1]; j++) {
			uint32_t e = o->rows[o->parents[j]];
			while (p < nk && t->apis.start[kk[p]] < t->apis.start[e])
				p++;
			if (p == nk)
				break;
			if (min_end[p] <= t->apis.end[e])
				selection_set(s->api_bits, e, 1);
		}
	}
	free(min_end);
	free(kept);
	free(first);
}

struct api_job {
	const struct trace *t;
	const uint8_t *pass, *thread_place;
	const struct window *w;
	struct selection *s;
};

static void *api_worker(void *arg)
{
	struct api_job *j = arg;
	select_apis(j->t, j->pass, j->thread_place, j->w, j->s);
	return NULL;
}

/* A byte per op: its GPU and its input are kept (inputs' ops are runs). */
static uint8_t *op_places(const struct trace *t, const struct select_places *p)
{
	uint8_t *on = xcalloc(t->ops.n ? t->ops.n : 1, 1);
	for (size_t k = 0; k < t->ninputs; k++) {
		const struct trace_input *in = &t->inputs[k];
		if (p->inputs && !p->inputs[k])
			continue;
		for (size_t i = in->op_first; i < in->op_first + in->op_count && i < t->ops.n; i++)
			on[i] = !p->gpus || p->gpus[trace_op_gpu(t, i)];
	}
	return on;
}

/* A byte per thread: its calls may be kept by their own name (their input
 * is kept, and no GPU filter is on: a call runs on no GPU). */
static uint8_t *thread_places(const struct trace *t, const struct select_places *p)
{
	uint8_t *on = xcalloc(t->nthreads ? t->nthreads : 1, 1);
	for (size_t k = 0; k < t->nthreads; k++)
		on[k] = !p->gpus && (!p->inputs || p->inputs[t->threads[k].input]);
	return on;
}

void selection_build(const struct trace *t, const struct filter *f, const struct window *w,
		     const struct api_order *order, struct selection *out)
{
	selection_build_places(t, f, NULL, w, order, out);
}

void selection_build_places(const struct trace *t, const struct filter *f, const struct select_places *places,
			    const struct window *w, const struct api_order *order, struct selection *out)
{
	int placed = places && (places->gpus || places->inputs);
	memset(out, 0, sizeof(*out));
	out->window = *w;
	out->filtered = f->n > 0 || w->active || placed;
	out->op_bits = xcalloc(selection_words(t->ops.n), sizeof(uint64_t));
	out->place_bits = xcalloc(selection_words(t->ops.n), sizeof(uint64_t));
	out->api_bits = xcalloc(selection_words(t->apis.n), sizeof(uint64_t));
	out->host_bits = xcalloc(selection_words(t->host_copies.n), sizeof(uint64_t));
	out->host_place = xcalloc(selection_words(t->host_copies.n), sizeof(uint64_t));
	uint8_t *pass = NULL;
	/* Every string is judged once: names and markers' texts are all the
	 * trace interns, a few thousand. */
	if (f->n) {
		pass = filter_strings(f, t, NULL);
		out->named_bits = xcalloc(selection_words(t->apis.n), sizeof(uint64_t));
	}
	/* Ops and API calls on two threads: they do not touch each other. */
	uint8_t *op_place = placed ? op_places(t, places) : NULL;
	if (placed) {
		out->gpu_view = xcalloc(t->ngpus ? t->ngpus : 1, 1);
		for (size_t i = 0; i < t->ops.n; i++)
			if (op_place[i])
				out->gpu_view[trace_op_gpu(t, i)] = 1;
	}
	uint8_t *thread_place = placed ? thread_places(t, places) : NULL;
	struct api_job j = { t, pass, thread_place, w, out };
	pthread_t th;
	int slot = t->apis.n > 100000 ? threads_acquire(1) : 0;
	int threaded = slot && pthread_create(&th, NULL, api_worker, &j) == 0;
	select_ops(t, pass, op_place, w, out);
	select_host_copies(t, pass, placed ? places : NULL, w, out);
	if (threaded)
		pthread_join(th, NULL);
	else
		api_worker(&j);
	threads_release(slot);
	if (out->filtered) {
		select_launches(t, out);
		struct api_order own = { 0 };
		if (t->apis.n && (!order || order->napis != t->apis.n)) {
			api_order_build(t, &own);
			order = &own;
		}
		if (t->apis.n)
			select_enclosing(t, order, out);
		api_order_free(&own);
	}
	for (size_t i = 0; i < selection_words(t->apis.n); i++) {
		out->napis += (size_t)__builtin_popcountll(out->api_bits[i]);
		/* Of those in view, the calls whose own name passes. */
		if (out->named_bits)
			out->named_bits[i] &= out->api_bits[i];
	}
	free(op_place);
	free(thread_place);
	free(pass);
}

void selection_free(struct selection *s)
{
	free(s->op_bits);
	free(s->place_bits);
	free(s->gpu_view);
	free(s->api_bits);
	free(s->named_bits);
	free(s->host_bits);
	free(s->host_place);
	memset(s, 0, sizeof(*s));
}

void selection_copy(const struct trace *t, const struct selection *from, struct selection *to)
{
	*to = *from;
	size_t nops = selection_words(t->ops.n), napis = selection_words(t->apis.n);
	to->op_bits = xmalloc_array(nops, sizeof(uint64_t));
	to->place_bits = xmalloc_array(nops, sizeof(uint64_t));
	memcpy(to->place_bits, from->place_bits, nops * sizeof(uint64_t));
	if (from->gpu_view) {
		to->gpu_view = xmalloc(t->ngpus ? t->ngpus : 1);
		memcpy(to->gpu_view, from->gpu_view, t->ngpus);
	}
	to->api_bits = xmalloc_array(napis, sizeof(uint64_t));
	memcpy(to->op_bits, from->op_bits, nops * sizeof(uint64_t));
	memcpy(to->api_bits, from->api_bits, napis * sizeof(uint64_t));
	size_t nhost = selection_words(t->host_copies.n);
	to->host_bits = xmalloc_array(nhost, sizeof(uint64_t));
	to->host_place = xmalloc_array(nhost, sizeof(uint64_t));
	memcpy(to->host_bits, from->host_bits, nhost * sizeof(uint64_t));
	memcpy(to->host_place, from->host_place, nhost * sizeof(uint64_t));
	if (from->named_bits) {
		to->named_bits = xmalloc_array(napis, sizeof(uint64_t));
		memcpy(to->named_bits, from->named_bits, napis * sizeof(uint64_t));
	}
}
