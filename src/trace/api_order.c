/* A trace's API calls by thread and start, built once for its rows; the
 * selection's enclosing rule walks it (session/select.c). */
#include "config.h"
#include "trace/api_order.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util/sort.h"
#include "util/threads.h"
#include "util/xalloc.h"

static int call_cmp(const struct trace *t, uint32_t a, uint32_t b)
{
	int64_t x = t->apis.start[a], y = t->apis.start[b];
	if (x != y)
		return x < y ? -1 : 1;
	x = t->apis.end[a], y = t->apis.end[b];
	return (x < y) - (x > y);
}

int api_call_cmp(const void *ctx, uint32_t a, uint32_t b)
{
	return call_cmp(ctx, a, b);
}

/* A subtree of nested calls, its calls linked in start order. */
struct subtree {
	uint32_t root, head, tail; /* places in v */
};

/* Would call c nest among the subtrees on the stack: those it would take
 * as children end within it, and the one below them ends before it starts. */
static int nests(const struct trace *t, const uint32_t *v, const struct subtree *stack, size_t depth,
		 uint32_t c)
{
	const int64_t *start = t->apis.start, *end = t->apis.end;
	while (depth > 0 && start[v[stack[depth - 1].root]] >= start[c]) {
		if (end[v[stack[depth - 1].root]] > end[c])
			return 0;
		depth--;
	}
	return depth == 0 || end[v[stack[depth - 1].root]] <= start[c];
}

/* One stretch of calls being put in order: v[from, i), the stack of its
 * subtrees, the links of each place (next[p - from]) and room for its
 * order; each grown as the stretch does (a stretch is a block of the
 * trace, often far shorter than the thread's calls). */
struct stretch {
	size_t from;
	struct subtree *stack;
	size_t depth, stack_cap;
	uint32_t *next, *out;
	size_t cap;
};

/* The stretch's subtrees in order, put back in v[from, to); the next
 * stretch starts at to. A list that lost a call leaves v as it was. */
static void put_stretch(struct stretch *s, uint32_t *v, size_t to)
{
	size_t n = to - s->from, k = 0;
	for (size_t d = 0; d < s->depth; d++)
		for (uint32_t p = s->stack[d].head; p != UINT32_MAX && k < n;
		     p = p == s->stack[d].tail ? UINT32_MAX : s->next[p - s->from])
			s->out[k++] = v[p];
	if (k == n)
		memcpy(v + s->from, s->out, n * sizeof(*v));
	s->from = to;
	s->depth = 0;
}

/* Calls recorded as they end come after the calls they enclose: for
 * nested calls that is the tree's post-order, and start order is its
 * pre-order. Each call takes as children the subtrees just before it
 * that it encloses, one pass with a stack. A call that does not nest so
 * (it overlaps one before it, or it starts a stretch of calls recorded
 * apart from those before, as a trace written in blocks has) ends the
 * stretch put in order so far and starts the next: what is left out of
 * order then is a few ascending stretches, for the sort to merge. */
static void nested_order(const struct trace *t, uint32_t *v, size_t n)
{
	const int64_t *start = t->apis.start;
	struct stretch st = { .stack_cap = 64, .cap = 1024 };
	st.stack = xmalloc_array(st.stack_cap, sizeof(*st.stack));
	st.next = xmalloc_array(st.cap, sizeof(*st.next));
	st.out = xmalloc_array(st.cap, sizeof(*st.out));
	for (uint32_t i = 0; i < n; i++) {
		uint32_t c = v[i];
		if (!nests(t, v, st.stack, st.depth, c))
			put_stretch(&st, v, i);
		if (i - st.from == st.cap) {
			size_t cap = st.cap;
			st.next = xgrow(st.next, &st.cap, cap + 1, sizeof(*st.next));
			st.out = xrealloc_array(st.out, st.cap, sizeof(*st.out));
		}
		struct subtree s = { i, i, i };
		/* Popped last to first: each goes in front of the ones after;
		 * the first popped ends the new subtree. */
		uint32_t kids = UINT32_MAX;
		while (st.depth > 0 && start[v[st.stack[st.depth - 1].root]] >= start[c]) {
			struct subtree *p = &st.stack[--st.depth];
			if (kids == UINT32_MAX)
				s.tail = p->tail;
			st.next[p->tail - st.from] = kids;
			kids = p->head;
		}
		st.next[i - st.from] = kids;
		if (st.depth == st.stack_cap)
			st.stack = xgrow(st.stack, &st.stack_cap, st.depth + 1, sizeof(*st.stack));
		st.stack[st.depth++] = s;
	}
	put_stretch(&st, v, n);
	free(st.out);
	free(st.next);
	free(st.stack);
}

/* Calls are recorded as they end, each after the calls nested in it: when
 * they nest, the stack above puts them in start order in one pass (but for
 * a call without a duration at the end of one call and the start of the
 * next, which pre-order puts before the next). What is still out of order
 * then (those, or calls that overlap rather than nest) makes a few
 * ascending runs, merged; a thread far from order is left to qsort. */
static int in_order(const struct trace *t, const uint32_t *v, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (call_cmp(t, v[i - 1], v[i]) > 0)
			return 0;
	return 1;
}

void api_order_sort(const struct trace *t, uint32_t *v, size_t n)
{
	if (in_order(t, v, n))
		return;
	nested_order(t, v, n);
	if (in_order(t, v, n))
		return;
	sort_nearly_keyed(v, n, t->apis.start, api_call_cmp, t);
}

/* The calls that enclose another of their thread: E does when some call
 * after it in start order ends no later than E (a suffix minimum of the
 * ends, walked backwards; each thread's found so are then turned round). */
static void find_parents(const struct trace *t, struct api_order *o)
{
	size_t nt = t->nthreads, n = 0, cap = 0;
	uint32_t *v = NULL;
	o->pfirst = xcalloc(nt + 1, sizeof(*o->pfirst));
	for (size_t k = 0; k < nt; k++) {
		o->pfirst[k] = n;
		int64_t min_end = INT64_MAX;
		for (size_t i = o->first[k + 1]; i-- > o->first[k];) {
			int64_t end = t->apis.end[o->rows[i]];
			if (min_end <= end) {
				if (n == cap)
					v = xgrow(v, &cap, n + 1, sizeof(*v));
				v[n++] = (uint32_t)i;
			}
			min_end = end < min_end ? end : min_end;
		}
		for (size_t a = o->pfirst[k], b = n; a + 1 < b; a++, b--) {
			uint32_t x = v[a];
			v[a] = v[b - 1];
			v[b - 1] = x;
		}
	}
	o->pfirst[nt] = n;
	o->parents = xrealloc_array(v, n ? n : 1, sizeof(*v));
}

/* The calls' order, sorted (kept: the order a cache file kept, or NULL). */
static void build(const struct trace *t, const uint32_t *kept, struct api_order *o)
{
	size_t nt = t->nthreads;
	o->napis = t->apis.n;
	o->nthreads = nt;
	o->borrowed = 0;
	o->first = xcalloc(nt + 1, sizeof(*o->first));
	for (size_t i = 0; i < t->apis.n; i++)
		o->first[t->apis.thread[i] + 1]++;
	for (size_t k = 0; k < nt; k++)
		o->first[k + 1] += o->first[k];
	if (kept) {
		o->rows = (uint32_t *)kept;
		o->borrowed = 1;
		find_parents(t, o);
		return;
	}
	size_t *fill = xmalloc_array(nt ? nt : 1, sizeof(*fill));
	memcpy(fill, o->first, nt * sizeof(*fill));
	o->rows = xmalloc_huge(t->apis.n ? t->apis.n : 1, sizeof(*o->rows));
	for (size_t i = 0; i < t->apis.n; i++)
		o->rows[fill[t->apis.thread[i]]++] = (uint32_t)i;
	free(fill);
	for (size_t k = 0; k < nt; k++)
		api_order_sort(t, o->rows + o->first[k], o->first[k + 1] - o->first[k]);
	find_parents(t, o);
}

void api_order_build(const struct trace *t, struct api_order *o)
{
	/* A cache file kept the order (checked as it was read). */
	build(t, t->call_order, o);
}

struct api_order_job {
	pthread_t thread;
	const struct trace *t;
	struct api_order order;
};

static void *sort_job(void *arg)
{
	struct api_order_job *j = arg;
	/* The loader may drop a kept order meanwhile: a job sorts. */
	build(j->t, NULL, &j->order);
	return NULL;
}

struct api_order_job *api_order_start(const struct trace *t)
{
	if (!t->apis.n || threads_acquire(1) < 1)
		return NULL;
	struct api_order_job *j = xcalloc(1, sizeof(*j));
	j->t = t;
	if (pthread_create(&j->thread, NULL, sort_job, j) != 0) {
		threads_release(1);
		free(j);
		return NULL;
	}
	return j;
}

void api_order_finish(struct api_order_job *j, struct api_order *out)
{
	memset(out, 0, sizeof(*out));
	if (!j)
		return;
	pthread_join(j->thread, NULL);
	threads_release(1);
	*out = j->order;
	free(j);
}

void api_order_cancel(struct api_order_job **j)
{
	struct api_order dropped;
	api_order_finish(*j, &dropped);
	api_order_free(&dropped);
	*j = NULL;
}

int api_order_fits(const struct api_order *o, const struct trace *t)
{
	return o->rows && o->napis == t->apis.n && o->nthreads == t->nthreads;
}

void api_order_free(struct api_order *o)
{
	if (!o->borrowed)
		free(o->rows);
	free(o->first);
	free(o->parents);
	free(o->pfirst);
	memset(o, 0, sizeof(*o));
}

void api_order_rethread(struct api_order *o, const struct trace *t)
{
	/* The rows kept their places: only the threads' numbers changed. A
	 * thread's run moves to where its new number puts it. */
	size_t nt = t->nthreads, old_nt = o->nthreads;
	size_t *first = xcalloc(nt + 1, sizeof(*first));
	for (size_t k = 0; k < old_nt; k++)
		if (o->first[k + 1] > o->first[k])
			first[t->apis.thread[o->rows[o->first[k]]] + 1] += o->first[k + 1] - o->first[k];
	for (size_t k = 0; k < nt; k++)
		first[k + 1] += first[k];
	uint32_t *rows = xmalloc_huge(o->napis ? o->napis : 1, sizeof(*rows));
	for (size_t k = 0; k < old_nt; k++) {
		size_t n = o->first[k + 1] - o->first[k];
		if (n)
			memcpy(rows + first[t->apis.thread[o->rows[o->first[k]]]], o->rows + o->first[k],
			       n * sizeof(*rows));
	}
	if (!o->borrowed)
		free(o->rows);
	o->borrowed = 0;
	free(o->first);
	free(o->parents);
	free(o->pfirst);
	o->rows = rows;
	o->first = first;
	o->nthreads = nt;
	find_parents(t, o);
}
