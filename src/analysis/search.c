#include "config.h"
#include "analysis/search.h"

#include <stdlib.h>
#include <string.h>

#include "util/satmath.h"
#include "util/xalloc.h"

enum { NAME_UNSEEN, NAME_MISS, NAME_HIT };

/* What a walk over the events needs: the query, and per string id whether
 * it matched, judged the first time the id is met. */
struct walk {
	const struct trace *t;
	const struct selection *sel;
	const struct search_query *q;
	uint8_t *op_hit, *call_hit;
};

struct search_query search_query_all(int ops, int calls)
{
	return (struct search_query){ .name = TRACE_NONE, .ops = ops, .calls = calls };
}

static int name_matches(struct walk *w, uint8_t *hit, uint32_t id, int op)
{
	const struct search_query *q = w->q;
	if (q->name != TRACE_NONE)
		return id == q->name;
	if (!q->pattern)
		return 1;
	if (hit[id] == NAME_UNSEEN) {
		const char *s = op && q->op_name ? q->op_name(q->ctx, id) : trace_str(w->t, id);
		hit[id] = filter_passes(q->pattern, s, strlen(s)) ? NAME_HIT : NAME_MISS;
	}
	return hit[id] == NAME_HIT;
}

static int times_match(const struct search_query *q, int64_t start, int64_t end)
{
	if (q->has_duration &&
	    (sat_sub(end, start) < q->min_duration || sat_sub(end, start) >= q->max_duration))
		return 0;
	return !q->has_span || search_overlaps(start, end, q->from, q->to);
}

static int op_matches(struct walk *w, size_t i)
{
	const struct trace *t = w->t;
	if (!selected_op(w->sel, i) || (w->q->kernels_only && t->ops.kind[i] != OP_KERNEL))
		return 0;
	return times_match(w->q, t->ops.start[i], t->ops.end[i]) &&
	       name_matches(w, w->op_hit, t->ops.name[i], 1);
}

static int call_matches(struct walk *w, size_t i)
{
	const struct trace *t = w->t;
	if (!selected_api(w->sel, i) || !times_match(w->q, t->apis.start[i], t->apis.end[i]))
		return 0;
	return name_matches(w, w->call_hit, trace_api_shown_name(t, i), 0);
}

static int walk_begin(struct walk *w, const struct trace *t, const struct selection *sel,
		      const struct search_query *q)
{
	memset(w, 0, sizeof(*w));
	if (t->ops.n > SEARCH_MAX_ROWS || t->apis.n > SEARCH_MAX_ROWS)
		return -1;
	w->t = t;
	w->sel = sel;
	w->q = q;
	size_t n = t->strings.count ? t->strings.count : 1;
	w->op_hit = xcalloc(n, 1);
	w->call_hit = xcalloc(n, 1);
	return 0;
}

static void walk_end(struct walk *w)
{
	free(w->op_hit);
	free(w->call_hit);
}

int search_count(const struct trace *t, const struct selection *sel, const struct search_query *q,
		 size_t *nops, size_t *ncalls)
{
	struct walk w;
	*nops = *ncalls = 0;
	if (walk_begin(&w, t, sel, q))
		return -1;
	for (size_t i = 0; q->ops && i < t->ops.n; i++)
		*nops += (size_t)op_matches(&w, i);
	for (size_t i = 0; q->calls && i < t->apis.n; i++)
		*ncalls += (size_t)call_matches(&w, i);
	walk_end(&w);
	return 0;
}

int search_run(const struct trace *t, const struct selection *sel, const struct search_query *q,
	       struct search_result *out)
{
	struct walk w;
	size_t cap = 0;
	memset(out, 0, sizeof(*out));
	if (walk_begin(&w, t, sel, q))
		return -1;
	for (size_t i = 0; q->ops && i < t->ops.n; i++) {
		if (!op_matches(&w, i))
			continue;
		out->refs = xgrow(out->refs, &cap, out->n + 1, sizeof(*out->refs));
		out->refs[out->n++] = (uint32_t)i;
	}
	out->nops = out->n;
	for (size_t i = 0; q->calls && i < t->apis.n; i++) {
		if (!call_matches(&w, i))
			continue;
		out->refs = xgrow(out->refs, &cap, out->n + 1, sizeof(*out->refs));
		out->refs[out->n++] = (uint32_t)i | SEARCH_CALL;
	}
	out->ncalls = out->n - out->nops;
	walk_end(&w);
	/* Ops came by row, then calls by row: a stable sort by start keeps
	 * that order among instances starting together. */
	search_sort_by_start(t, out->refs, out->n);
	return 0;
}

void search_free(struct search_result *r)
{
	free(r->refs);
	memset(r, 0, sizeof(*r));
}

uint32_t search_name(const struct trace *t, uint32_t ref)
{
	return search_is_call(ref) ? trace_api_shown_name(t, search_row(ref)) : t->ops.name[ref];
}

size_t search_next(const struct trace *t, const struct search_result *r, int64_t time, int dir)
{
	/* The first instance starting after time (dir > 0) or at or after it. */
	size_t lo = 0, hi = r->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int64_t s = search_start(t, r->refs[mid]);
		if (dir > 0 ? s <= time : s < time)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (dir > 0)
		return lo;
	return lo > 0 ? lo - 1 : r->n;
}

/* Keys for sorting: unsigned, so that a radix sort can take them a digit
 * at a time. */
typedef uint64_t (*key_fn)(const struct trace *t, uint32_t ref, int64_t base);

static uint64_t start_key(const struct trace *t, uint32_t ref, int64_t base)
{
	return (uint64_t)(search_start(t, ref) - base);
}

/* Longest first: the key falls as the duration grows. */
static uint64_t duration_key(const struct trace *t, uint32_t ref, int64_t base)
{
	return (uint64_t)(base - (search_end(t, ref) - search_start(t, ref)));
}

#define DIGIT_BITS 12
#define DIGITS (1u << DIGIT_BITS)
#define MAX_PASSES (64 / DIGIT_BITS + 1)

/* A stable sort of refs by key, a digit of 12 bits at a time from the
 * lowest: linear in the number of refs (a search may find millions),
 * with as many passes as the keys' spread needs. The counts of every
 * digit are taken in one walk, in the refs' first order. */
static void radix_sort(const struct trace *t, uint32_t *refs, size_t n, key_fn key, int64_t base,
		       uint64_t spread)
{
	int passes = 0;
	while (passes < MAX_PASSES && (spread >> (passes * DIGIT_BITS)) != 0)
		passes++;
	size_t *count = xcalloc((size_t)passes * DIGITS, sizeof(*count));
	for (size_t i = 0; i < n; i++) {
		uint64_t k = key(t, refs[i], base);
		for (int p = 0; p < passes; p++)
			count[(size_t)p * DIGITS + (k >> (p * DIGIT_BITS) & (DIGITS - 1))]++;
	}
	uint32_t *tmp = xmalloc_huge(n, sizeof(*tmp));
	uint32_t *from = refs, *to = tmp;
	for (int p = 0; p < passes; p++) {
		size_t *c = count + (size_t)p * DIGITS, sum = 0;
		for (size_t d = 0; d < DIGITS; d++) {
			size_t here = c[d];
			c[d] = sum;
			sum += here;
		}
		for (size_t i = 0; i < n; i++)
			to[c[key(t, from[i], base) >> (p * DIGIT_BITS) & (DIGITS - 1)]++] = from[i];
		uint32_t *swap = from;
		from = to;
		to = swap;
	}
	if (from != refs)
		memcpy(refs, from, n * sizeof(*refs));
	free(count);
	free(tmp);
}

/* Refs nearly in order (calls are recorded as they end, a few places
 * after the calls nested in them) are put in order by moving each the
 * little way it is out of place; when that takes too long, the radix
 * sort does the rest. Both keep equal keys in their order. */
static int insertion_sort(const struct trace *t, uint32_t *refs, size_t n, key_fn key, int64_t base)
{
	size_t budget = 16 * n + 1024;
	for (size_t i = 1; i < n; i++) {
		uint32_t x = refs[i];
		uint64_t k = key(t, x, base);
		size_t j = i;
		for (; j > 0 && key(t, refs[j - 1], base) > k; j--) {
			refs[j] = refs[j - 1];
			if (--budget == 0) {
				refs[j - 1] = x;
				return -1;
			}
		}
		refs[j] = x;
	}
	return 0;
}

/* Sort by key unless the refs are in order already (they often are). */
static void sort_by(const struct trace *t, uint32_t *refs, size_t n, key_fn key, int64_t base)
{
	uint64_t most = 0;
	int sorted = 1;
	for (size_t i = 0; i < n; i++) {
		uint64_t k = key(t, refs[i], base);
		if (i > 0 && k < key(t, refs[i - 1], base))
			sorted = 0;
		if (k > most)
			most = k;
	}
	if (!sorted && insertion_sort(t, refs, n, key, base))
		radix_sort(t, refs, n, key, base, most);
}

/* The lane of an instance: its queue, or its thread (after the queues). */
static size_t lane_of(const struct trace *t, uint32_t ref)
{
	return search_is_call(ref) ? t->nqueues + t->apis.thread[search_row(ref)] : t->ops.queue[ref];
}

/* Does instance a come before b: by start, then ops before calls, then
 * by row (the order of the refs' values)? */
static int before(const struct trace *t, uint32_t a, uint32_t b)
{
	int64_t x = search_start(t, a), y = search_start(t, b);
	return x < y || (x == y && a < b);
}

/* A heap of the runs' next refs, the first on top. */
struct runs {
	const struct trace *t;
	const uint32_t *refs;
	size_t *next, *end; /* per run */
	size_t *heap, n;    /* runs with refs left */
};

static int run_before(const struct runs *r, size_t a, size_t b)
{
	return before(r->t, r->refs[r->next[a]], r->refs[r->next[b]]);
}

static void sift_down(struct runs *r, size_t i)
{
	for (;;) {
		size_t least = i, kids[2] = { 2 * i + 1, 2 * i + 2 };
		for (int k = 0; k < 2; k++)
			if (kids[k] < r->n && run_before(r, r->heap[kids[k]], r->heap[least]))
				least = kids[k];
		if (least == i)
			return;
		size_t swap = r->heap[i];
		r->heap[i] = r->heap[least];
		r->heap[least] = swap;
		i = least;
	}
}

/* Merge the sorted runs [first[l], first[l + 1]) of from into to. */
static void merge_runs(const struct trace *t, const uint32_t *from, const size_t *first, size_t nruns,
		       uint32_t *to)
{
	struct runs r = { .t = t, .refs = from };
	r.next = xmalloc_array(nruns + 1, sizeof(*r.next));
	r.end = xmalloc_array(nruns + 1, sizeof(*r.end));
	r.heap = xmalloc_array(nruns + 1, sizeof(*r.heap));
	for (size_t l = 0; l < nruns; l++) {
		r.next[l] = first[l];
		r.end[l] = first[l + 1];
		if (first[l] < first[l + 1])
			r.heap[r.n++] = l;
	}
	for (size_t i = r.n; i-- > 0;)
		sift_down(&r, i);
	for (size_t k = 0; r.n > 0; k++) {
		size_t l = r.heap[0];
		to[k] = from[r.next[l]++];
		if (r.next[l] == r.end[l])
			r.heap[0] = r.heap[--r.n];
		sift_down(&r, 0);
	}
	free(r.next);
	free(r.end);
	free(r.heap);
}

/* By start, as search_run orders them. The instances of one lane (a queue,
 * a thread) nearly always come by start already: they are taken apart by
 * lane (a stable counting sort), each lane's put in order (rarely any
 * work), and the lanes merged; only reads in the order of the rows. */
void search_sort_by_start(const struct trace *t, uint32_t *refs, size_t n)
{
	size_t i = 1;
	while (i < n && before(t, refs[i - 1], refs[i]))
		i++;
	if (i >= n)
		return;
	size_t nlanes = t->nqueues + t->nthreads;
	size_t *first = xcalloc(nlanes + 2, sizeof(*first));
	for (i = 0; i < n; i++)
		first[lane_of(t, refs[i]) + 1]++;
	for (size_t l = 0; l < nlanes; l++)
		first[l + 1] += first[l];
	size_t *fill = xmalloc_array(nlanes + 1, sizeof(*fill));
	memcpy(fill, first, (nlanes + 1) * sizeof(*fill));
	uint32_t *by_lane = xmalloc_huge(n, sizeof(*by_lane));
	for (i = 0; i < n; i++)
		by_lane[fill[lane_of(t, refs[i])]++] = refs[i];
	free(fill);
	for (size_t l = 0; l < nlanes; l++) {
		uint32_t *run = by_lane + first[l];
		size_t len = first[l + 1] - first[l];
		int64_t least = 0;
		for (size_t k = 0; k < len; k++)
			if (k == 0 || search_start(t, run[k]) < least)
				least = search_start(t, run[k]);
		sort_by(t, run, len, start_key, least);
	}
	merge_runs(t, by_lane, first, nlanes, refs);
	free(by_lane);
	free(first);
}

void search_sort_by_duration(const struct trace *t, uint32_t *refs, size_t n)
{
	int64_t most = INT64_MIN;
	for (size_t i = 0; i < n; i++) {
		int64_t d = search_end(t, refs[i]) - search_start(t, refs[i]);
		if (d > most)
			most = d;
	}
	sort_by(t, refs, n, duration_key, most);
}
