/* Id sets in their three forms (a flat bitmap, bitmap pages, a hash),
 * checked against a plain sorted array: membership of members and of
 * their neighbours, the members listed rising, merges across forms, and
 * the move from pages to a hash when the members are too scattered. */
#include "config.h"

#include <stdlib.h>

#include "check.h"
#include "export/idset.h"
#include "util/xalloc.h"

static int by_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* Sort and drop repeats; returns the new length. */
static size_t unique(int64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), by_id);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (!k || v[k - 1] != v[i])
			v[k++] = v[i];
	return k;
}

static int in_oracle(const int64_t *v, size_t n, int64_t id)
{
	return bsearch(&id, v, n, sizeof(*v), by_id) != NULL;
}

/* s against the oracle v (sorted, unique): count, bounds, members, and
 * each member's neighbours. */
static void check_same(const struct idset *s, const int64_t *v, size_t n)
{
	CHECK_INT(s->count, n);
	if (n) {
		CHECK_INT(s->min, v[0]);
		CHECK_INT(s->max, v[n - 1]);
	}
	int64_t *got;
	size_t k = idset_members(s, &got);
	CHECK_INT(k, n);
	int same = k == n;
	for (size_t i = 0; same && i < n; i++)
		same = got[i] == v[i];
	CHECK(same);
	free(got);
	int wrong = 0;
	for (size_t i = 0; i < n; i++) {
		wrong += !idset_has(s, v[i]);
		wrong += idset_has(s, v[i] - 1) != in_oracle(v, n, v[i] - 1);
		wrong += idset_has(s, v[i] + 1) != in_oracle(v, n, v[i] + 1);
	}
	CHECK_INT(wrong, 0);
}

/* Ids the way real traces hold them: runs of a session's ids at its
 * number times 2^32, plus a few strays. */
static size_t session_ids(int64_t *v, size_t runs, size_t per_run, unsigned seed)
{
	size_t n = 0;
	srand(seed);
	for (size_t r = 0; r < runs; r++) {
		int64_t base = ((int64_t)(r + 1) << 32) + (int64_t)(rand() % 5000);
		for (size_t i = 0; i < per_run; i++)
			if (rand() % 3)
				v[n++] = base + (int64_t)i;
	}
	return n;
}

static void check_form(enum idset_mode want, int64_t lo, int64_t hi, int64_t *v, size_t n)
{
	struct idset s;
	idset_init(&s, lo, hi);
	for (size_t i = 0; i < n; i++)
		idset_add(&s, v[i]);
	for (size_t i = 0; i < n; i += 7)
		idset_add(&s, v[i]); /* repeats change nothing */
	idset_add(&s, lo - 1);       /* outside the range: never a member */
	idset_add(&s, hi + 1);
	size_t k = unique(v, n);
	CHECK_INT(s.mode, want);
	check_same(&s, v, k);
	CHECK(!idset_has(&s, lo - 1));
	CHECK(!idset_has(&s, hi + 1));
	idset_free(&s);
}

static void check_forms(void)
{
	size_t cap = 200000;
	int64_t *v = xmalloc_array(cap, sizeof(*v));
	/* Flat: ids 1000..50999, every third missing. */
	size_t n = 0;
	for (int64_t id = 1000; id < 51000; id++)
		if (id % 3)
			v[n++] = id;
	check_form(IDSET_FLAT, 1000, 50999, v, n);
	/* Paged: 40 sessions of 3000 ids. */
	n = session_ids(v, 40, 3000, 7);
	check_form(IDSET_PAGED, (int64_t)1 << 32, (int64_t)50 << 32, v, n);
	/* Scattered: one id per page, past the pages' budget, ends in a hash. */
	n = 0;
	for (size_t i = 0; i < 40000; i++)
		v[n++] = ((int64_t)i << 20) + (int64_t)(i % 4096);
	check_form(IDSET_HASH, 0, (int64_t)1 << 40, v, n);
	/* Negative and extreme ids. */
	n = 0;
	v[n++] = INT64_MIN + 1;
	v[n++] = -5;
	v[n++] = 0;
	v[n++] = INT64_MAX - 1;
	check_form(IDSET_PAGED, INT64_MIN + 1, INT64_MAX - 1, v, n);
	free(v);
}

static void check_merges(void)
{
	size_t cap = 100000;
	int64_t *a = xmalloc_array(cap, sizeof(*a)), *b = xmalloc_array(cap, sizeof(*b));
	int64_t *all = xmalloc_array(2 * cap, sizeof(*all));
	size_t na = session_ids(a, 10, 4000, 1), nb = session_ids(b, 12, 4000, 2);
	int64_t lo = (int64_t)1 << 32, hi = (int64_t)20 << 32;
	struct idset sa, sb;
	idset_init(&sa, lo, hi);
	idset_init(&sb, lo, hi);
	for (size_t i = 0; i < na; i++)
		idset_add(&sa, a[i]);
	for (size_t i = 0; i < nb; i++)
		idset_add(&sb, b[i]);
	idset_merge(&sa, &sb);
	memcpy(all, a, na * sizeof(*a));
	memcpy(all + na, b, nb * sizeof(*b));
	size_t n = unique(all, na + nb);
	check_same(&sa, all, n);
	idset_free(&sa);
	idset_free(&sb);
	/* Two flat sets over one range. */
	struct idset fa, fb;
	idset_init(&fa, 0, 99999);
	idset_init(&fb, 0, 99999);
	n = 0;
	for (int64_t id = 0; id < 100000; id++) {
		if (id % 5 == 0)
			idset_add(&fa, id);
		if (id % 7 == 0)
			idset_add(&fb, id);
		if (id % 5 == 0 || id % 7 == 0)
			all[n++] = id;
	}
	idset_merge(&fa, &fb);
	CHECK_INT(fa.mode, IDSET_FLAT);
	check_same(&fa, all, n);
	idset_free(&fa);
	idset_free(&fb);
	free(a);
	free(b);
	free(all);
}

int main(void)
{
	check_forms();
	check_merges();
	return check_done();
}
