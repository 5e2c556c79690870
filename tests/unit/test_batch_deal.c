/* Dealing node groups to processes: largest first to the least loaded,
 * every group dealt exactly once, the same deal every time; and the plan
 * sent to them as bytes comes back whole, or not at all. */
#include "config.h"
#include "batch/batch_deal.h"

#include <stdlib.h>

#include "batch/batch_wire.h"
#include "util/xalloc.h"

#include "check.h"

static uint64_t load_of(const uint64_t *bytes, const int *owner, size_t n, int p)
{
	uint64_t sum = 0;
	for (size_t g = 0; g < n; g++)
		if (owner[g] == p)
			sum += bytes[g];
	return sum;
}

/* Three files of two groups (the second file alone, of no node). */
static void make_plan(struct batch_plan *p)
{
	memset(p, 0, sizeof(*p));
	p->npaths = 3;
	p->paths = xcalloc(3, sizeof(*p->paths));
	p->paths[0] = xstrdup("/r/n1-a.db");
	p->paths[1] = xstrdup("/r/x.rpd");
	p->paths[2] = xstrdup("/r/n1-b.db");
	p->group_of = xcalloc(3, sizeof(*p->group_of));
	p->group_of[1] = 1;
	p->ngroups = 2;
	p->groups = xcalloc(2, sizeof(*p->groups));
	p->groups[0].node = xstrdup("n1");
	p->groups[0].bytes = 1234;
	p->groups[0].npaths = 2;
	p->groups[0].paths = xcalloc(2, sizeof(char *));
	p->groups[0].paths[0] = p->paths[0];
	p->groups[0].paths[1] = p->paths[2];
	p->groups[1].bytes = 99;
	p->groups[1].npaths = 1;
	p->groups[1].paths = xcalloc(1, sizeof(char *));
	p->groups[1].paths[0] = p->paths[1];
	p->same_node = 1;
}

static void test_wire(void)
{
	struct batch_plan a, b;
	struct bytes_out out = { 0 };
	make_plan(&a);
	batch_plan_encode(&a, &out);
	CHECK_INT(batch_plan_decode(&b, out.p, out.n), 0);
	CHECK_INT(b.npaths, 3);
	CHECK_INT(b.ngroups, 2);
	CHECK_INT(b.same_node, 1);
	CHECK_INT(b.skip_bad, 0);
	for (size_t f = 0; f < 3 && b.npaths == 3; f++) {
		CHECK_STR(b.paths[f], a.paths[f]);
		CHECK_INT(b.group_of[f], a.group_of[f]);
	}
	if (b.ngroups == 2) {
		CHECK_STR(b.groups[0].node, "n1");
		CHECK(b.groups[1].node == NULL);
		CHECK_INT(b.groups[0].bytes, 1234);
		CHECK_INT(b.groups[0].npaths, 2);
		/* A group's paths are the plan's strings, in the group's order. */
		CHECK(b.groups[0].paths[0] == b.paths[0]);
		CHECK(b.groups[0].paths[1] == b.paths[2]);
		CHECK(b.groups[1].paths[0] == b.paths[1]);
	}
	batch_plan_free(&b);
	/* Every shorter prefix and every flipped byte is refused or whole:
	 * never a read past the end (AddressSanitizer would say). */
	for (size_t n = 0; n < out.n; n++)
		CHECK_INT(batch_plan_decode(&b, out.p, n), -1);
	for (size_t i = 0; i < out.n; i++) {
		unsigned char *bad = xmalloc(out.n);
		memcpy(bad, out.p, out.n);
		bad[i] ^= 0x80;
		if (batch_plan_decode(&b, bad, out.n) == 0) {
			for (size_t g = 0; g < b.ngroups; g++)
				for (size_t k = 0; k < b.groups[g].npaths; k++)
					CHECK(b.groups[g].paths[k] != NULL);
			batch_plan_free(&b);
		}
		free(bad);
	}
	unsigned char longer[4096];
	memcpy(longer, out.p, out.n);
	longer[out.n] = 0;
	CHECK_INT(batch_plan_decode(&b, longer, out.n + 1), -1);
	free(out.p);
	batch_plan_free(&a);
}

int main(void)
{
	test_wire();
	/* 7, 5, 4, 3, 3 on two processes: 7 -> 0, 5 -> 1, 4 -> 1 (the least
	 * loaded, 5 < 7), 3 -> 0 (7 < 9), the other 3 -> 1 (9 < 10). */
	uint64_t b1[] = { 3, 7, 4, 5, 3 };
	int o1[5];
	batch_deal(b1, 5, 2, o1);
	CHECK_INT(o1[1], 0); /* 7 */
	CHECK_INT(o1[3], 1); /* 5 */
	CHECK_INT(o1[2], 1); /* 4 */
	CHECK_INT(o1[0], 0); /* the first 3 (group order among equals) */
	CHECK_INT(o1[4], 1); /* the second 3 */
	CHECK_INT(load_of(b1, o1, 5, 0), 10);
	CHECK_INT(load_of(b1, o1, 5, 1), 12);

	/* One process takes everything; more processes than groups leave
	 * some idle; empty groups still count. */
	int o2[5];
	batch_deal(b1, 5, 1, o2);
	for (size_t g = 0; g < 5; g++)
		CHECK_INT(o2[g], 0);
	int o3[5];
	batch_deal(b1, 5, 8, o3);
	for (size_t i = 0; i < 5; i++)
		for (size_t j = i + 1; j < 5; j++)
			CHECK(o3[i] != o3[j]);
	uint64_t zeros[4] = { 0, 0, 0, 0 };
	int o4[4];
	batch_deal(zeros, 4, 2, o4);
	CHECK_INT(o4[0], 0);
	CHECK_INT(o4[1], 1);
	CHECK_INT(o4[2], 0);
	CHECK_INT(o4[3], 1);

	/* Random sizes: every group has an owner in range, the deal is
	 * repeatable, and no process holds more than the best share plus the
	 * largest group (the greedy bound). */
	srand(7);
	enum { N = 257 };
	uint64_t b[N], total = 0, largest = 0;
	for (size_t g = 0; g < N; g++) {
		b[g] = (uint64_t)(rand() % 100000) * 4096;
		total += b[g];
		largest = b[g] > largest ? b[g] : largest;
	}
	int o[N], again[N];
	batch_deal(b, N, 5, o);
	batch_deal(b, N, 5, again);
	for (size_t g = 0; g < N; g++) {
		CHECK(o[g] >= 0 && o[g] < 5);
		CHECK_INT(o[g], again[g]);
	}
	for (int p = 0; p < 5; p++)
		CHECK(load_of(b, o, N, p) <= total / 5 + largest);
	batch_deal(NULL, 0, 3, NULL);
	return check_done();
}
