#include "config.h"
#include "util/sort.h"

#include <stdint.h>
#include <string.h>

#include "util/xalloc.h"

static void insertion(int64_t *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		int64_t x = v[i];
		size_t j = i;
		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

/* Least significant byte first, eight passes over the values with the
 * sign bit flipped (so that negative values come first); a pass whose
 * byte is the same in every value is skipped. */
void sort_int64(int64_t *v, size_t n)
{
	if (n < 64) {
		insertion(v, n);
		return;
	}
	uint64_t *a = (uint64_t *)v, *b = xmalloc_huge(n, sizeof(*b));
	const uint64_t flip = (uint64_t)1 << 63;
	for (size_t i = 0; i < n; i++)
		a[i] ^= flip;
	for (int shift = 0; shift < 64; shift += 8) {
		size_t count[257] = { 0 };
		for (size_t i = 0; i < n; i++)
			count[(a[i] >> shift & 0xff) + 1]++;
		if (count[(a[0] >> shift & 0xff) + 1] == n)
			continue;
		for (int k = 0; k < 256; k++)
			count[k + 1] += count[k];
		for (size_t i = 0; i < n; i++)
			b[count[a[i] >> shift & 0xff]++] = a[i];
		uint64_t *t = a;
		a = b;
		b = t;
	}
	for (size_t i = 0; i < n; i++)
		a[i] ^= flip;
	if (a != (uint64_t *)v) {
		memcpy(v, a, n * sizeof(*v));
		b = a;
	}
	free(b);
}

void sort_nearly_int64(int64_t *v, size_t n)
{
	size_t work = 0;
	for (size_t i = 1; i < n; i++) {
		if (v[i] >= v[i - 1])
			continue;
		/* Its place among those before it (all in order): after the
		 * last that is not above it. */
		int64_t x = v[i];
		size_t lo = 0, hi = i;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (v[mid] <= x)
				lo = mid + 1;
			else
				hi = mid;
		}
		work += i - lo;
		if (work > 4 * n + 4096) {
			sort_int64(v, n);
			return;
		}
		memmove(v + lo + 1, v + lo, (i - lo) * sizeof(*v));
		v[lo] = x;
	}
}

static void swap64(int64_t *a, int64_t *b)
{
	int64_t x = *a;
	*a = *b;
	*b = x;
}

/* The middle of three values. */
static int64_t middle(int64_t a, int64_t b, int64_t c)
{
	if (a > b)
		swap64(&a, &b);
	return c < a ? a : c > b ? b : c;
}

int64_t select_int64(int64_t *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n, rounds = 0;
	for (size_t m = n; m > 1; m /= 2)
		rounds += 2;
	while (hi - lo > 1) {
		/* Pivots that keep missing the middle: sorted, in time of n log n. */
		if (rounds-- == 0) {
			sort_int64(v + lo, hi - lo);
			return v[k];
		}
		int64_t p = middle(v[lo], v[lo + (hi - lo) / 2], v[hi - 1]);
		/* Three parts: below p in [lo, lt), equal in [lt, i), above in [gt, hi). */
		size_t lt = lo, i = lo, gt = hi;
		while (i < gt) {
			if (v[i] < p)
				swap64(&v[lt++], &v[i++]);
			else if (v[i] > p)
				swap64(&v[i], &v[--gt]);
			else
				i++;
		}
		if (k < lt)
			hi = lt;
		else if (k >= gt)
			lo = gt;
		else
			return p;
	}
	return v[k];
}

/* The order of rows a and b: by key (when there is one), then by cmp. */
struct order {
	const int64_t *key; /* NULL: cmp alone */
	sort_index_cmp cmp;
	const void *ctx;
};

static inline int order_cmp(const struct order *o, uint32_t a, uint32_t b)
{
	if (o->key && o->key[a] != o->key[b])
		return o->key[a] < o->key[b] ? -1 : 1;
	return o->cmp(o->ctx, a, b);
}

/* Heap of the runs' heads, the least on top (ties: the lower run). */
struct runs_heap {
	const uint32_t *tmp;
	size_t *at, *end; /* per run: its next element and its end in tmp */
	int64_t *head;    /* per run, with a key: its next element's, read once */
	uint32_t *run;    /* the heap: run numbers */
	size_t n;
	const struct order *order;
};

static inline int head_less(const struct runs_heap *h, uint32_t a, uint32_t b)
{
	int c;
	if (h->order->key && h->head[a] != h->head[b])
		c = h->head[a] < h->head[b] ? -1 : 1;
	else
		c = h->order->cmp(h->order->ctx, h->tmp[h->at[a]], h->tmp[h->at[b]]);
	return c < 0 || (c == 0 && a < b);
}

static inline void sift_down(struct runs_heap *h, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		if (l < h->n && head_less(h, h->run[l], h->run[m]))
			m = l;
		if (l + 1 < h->n && head_less(h, h->run[l + 1], h->run[m]))
			m = l + 1;
		if (m == i)
			return;
		uint32_t x = h->run[i];
		h->run[i] = h->run[m];
		h->run[m] = x;
		i = m;
	}
}

/* sort_by_runs under an order; inlined twice, with a key and without, so
 * that the keyed one reads a row's key in place of a call. */
static inline int by_runs(uint32_t *v, size_t n, const struct order *o, size_t max_runs)
{
	if (n < 2)
		return 0;
	if (max_runs > 255)
		max_runs = 255;
	/* Tails of the runs, greatest first: each element goes to the run
	 * with the greatest tail not above it, found by a binary search. */
	uint32_t tails[255];
	size_t nruns = 0;
	uint8_t *run_of = xmalloc_huge(n, 1);
	for (size_t i = 0; i < n; i++) {
		size_t lo = 0, hi = nruns;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (order_cmp(o, tails[mid], v[i]) <= 0)
				hi = mid;
			else
				lo = mid + 1;
		}
		if (lo == nruns && nruns == max_runs) {
			free(run_of);
			return -1;
		}
		nruns += lo == nruns;
		tails[lo] = v[i];
		run_of[i] = (uint8_t)lo;
	}
	/* The runs laid out one after another, each in its order. */
	size_t at[256] = { 0 }, end[256];
	for (size_t i = 0; i < n; i++)
		at[run_of[i] + 1]++;
	for (size_t r = 0; r < nruns; r++)
		at[r + 1] += at[r];
	memcpy(end, at + 1, nruns * sizeof(*end));
	uint32_t *tmp = xmalloc_huge(n, sizeof(*tmp));
	size_t fill[256];
	memcpy(fill, at, nruns * sizeof(*fill));
	for (size_t i = 0; i < n; i++)
		tmp[fill[run_of[i]]++] = v[i];
	free(run_of);
	uint32_t heap[255];
	int64_t head[255];
	struct runs_heap h = { tmp, at, end, head, heap, nruns, o };
	for (size_t r = 0; r < nruns; r++) {
		heap[r] = (uint32_t)r;
		head[r] = o->key ? o->key[tmp[at[r]]] : 0;
	}
	for (size_t i = nruns / 2; i-- > 0;)
		sift_down(&h, i);
	for (size_t k = 0; k < n; k++) {
		uint32_t r = heap[0];
		v[k] = tmp[at[r]++];
		if (at[r] == end[r])
			heap[0] = heap[--h.n];
		else if (o->key)
			head[r] = o->key[tmp[at[r]]];
		sift_down(&h, 0);
	}
	free(tmp);
	return 0;
}

int sort_by_runs(uint32_t *v, size_t n, sort_index_cmp cmp, const void *ctx, size_t max_runs)
{
	struct order o = { NULL, cmp, ctx };
	return by_runs(v, n, &o, max_runs);
}

struct index_cmp {
	sort_index_cmp cmp;
	const void *ctx;
};

static int by_index_cmp(const void *a, const void *b, void *ctx)
{
	const struct index_cmp *c = ctx;
	return c->cmp(c->ctx, *(const uint32_t *)a, *(const uint32_t *)b);
}

/* The first of v[lo, hi) that comes after x (ties: not after), or that
 * does not come before it. */
static inline size_t first_after(const uint32_t *v, size_t lo, size_t hi, uint32_t x, const struct order *o,
				 int ties_after)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = order_cmp(o, v[mid], x);
		if (c > 0 || (c == 0 && !ties_after))
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* Merge l[0, a) and r[0, b), both in order, into dst; ties go to l. Only
 * where they overlap is each element compared. */
static inline void merge_into(const uint32_t *l, size_t a, const uint32_t *r, size_t b, uint32_t *dst,
			      const struct order *o)
{
	size_t i = a && b ? first_after(l, 0, a, r[0], o, 1) : a;
	size_t end = a && b ? first_after(r, 0, b, l[a - 1], o, 0) : b, j = 0, k = i;
	memcpy(dst, l, i * sizeof(*dst));
	while (i < a && j < end)
		dst[k++] = order_cmp(o, r[j], l[i]) < 0 ? r[j++] : l[i++];
	memcpy(dst + k, l + i, (a - i) * sizeof(*dst));
	k += a - i;
	memcpy(dst + k, r + j, (b - j) * sizeof(*dst));
}

/* Where v's ascending stretches begin (v[0, sorted) is the first), when
 * they are long on average: their count, or 0. */
static size_t find_stretches(const uint32_t *v, size_t n, size_t sorted, const struct order *o,
			     size_t **edges)
{
	size_t most = 64 + n / 64, ns = 1;
	size_t *edge = xmalloc_array(most + 1, sizeof(*edge));
	edge[0] = 0;
	for (size_t i = sorted; i < n; i++)
		if (order_cmp(o, v[i - 1], v[i]) > 0) {
			if (ns == most) {
				free(edge);
				return 0;
			}
			edge[ns++] = i;
		}
	edge[ns] = n;
	*edges = edge;
	return ns;
}

/* Sort v by merging its ascending stretches into it one after another:
 * what is merged so far and comes before every stretch still to come is
 * final, the rest waits for the next. Calls recorded in blocks, each put
 * in order already, come so (long stretches, each overlapping a few
 * others in time): each element is merged once for each stretch it
 * overlaps, and ties keep the input's order. -1 when the stretches are
 * short (rows dealt into one another) or the merging grows past a few
 * passes' worth; v then holds its rows in some order still. */
static inline int by_stretches(uint32_t *v, size_t n, size_t sorted, const struct order *o)
{
	size_t *edge, ns = find_stretches(v, n, sorted, o, &edge);
	if (!ns)
		return -1;
	/* least[k]: the first of the stretches from k on that comes first. */
	uint32_t *least = xmalloc_array(ns, sizeof(*least));
	least[ns - 1] = v[edge[ns - 1]];
	for (size_t k = ns - 1; k-- > 0;)
		least[k] = order_cmp(o, v[edge[k]], least[k + 1]) < 0 ? v[edge[k]] : least[k + 1];
	uint32_t *buf[2] = { xmalloc_huge(n, sizeof(*v)), xmalloc_huge(n, sizeof(*v)) };
	size_t waiting = edge[1], done = 0, work = 0;
	int cur = 0, rc = 0;
	memcpy(buf[0], v, waiting * sizeof(*v));
	for (size_t k = 1; k < ns; k++) {
		/* What is final goes back into v, below the stretches not read. */
		size_t fin = first_after(buf[cur], 0, waiting, least[k], o, 1);
		memcpy(v + done, buf[cur], fin * sizeof(*v));
		done += fin;
		size_t len = edge[k + 1] - edge[k];
		merge_into(buf[cur] + fin, waiting - fin, v + edge[k], len, buf[!cur], o);
		waiting += len - fin;
		cur = !cur;
		work += waiting;
		if (work > 8 * n && k + 1 < ns) {
			/* v: what is final, then what waits, then the rest. */
			rc = -1;
			break;
		}
	}
	memcpy(v + done, buf[cur], waiting * sizeof(*v));
	free(buf[0]);
	free(buf[1]);
	free(least);
	free(edge);
	return rc;
}

static inline void nearly(uint32_t *v, size_t n, const struct order *o)
{
	size_t sorted = 1;
	while (sorted < n && order_cmp(o, v[sorted - 1], v[sorted]) <= 0)
		sorted++;
	if (sorted >= n || by_stretches(v, n, sorted, o) == 0 || by_runs(v, n, o, 64) == 0)
		return;
	struct index_cmp c = { o->cmp, o->ctx };
	sort_with(v, n, sizeof(*v), by_index_cmp, &c);
}

void sort_nearly(uint32_t *v, size_t n, sort_index_cmp cmp, const void *ctx)
{
	struct order o = { NULL, cmp, ctx };
	nearly(v, n, &o);
}

void sort_nearly_keyed(uint32_t *v, size_t n, const int64_t *key, sort_index_cmp cmp, const void *ctx)
{
	struct order o = { key, cmp, ctx };
	nearly(v, n, &o);
}
