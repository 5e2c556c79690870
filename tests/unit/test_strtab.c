/* Interning: equal strings share an id, ids are stable across growth, and
 * strings with NUL bytes keep their length. */
#include "config.h"

#include <stdio.h>

#include "check.h"
#include "trace/strtab.h"
#include "util/idmap.h"

static void test_intern(void)
{
	struct strtab t;
	strtab_init(&t);
	CHECK_INT(strtab_intern(&t, ""), 0);
	uint32_t a = strtab_intern(&t, "hipLaunchKernel");
	uint32_t b = strtab_intern(&t, "hipMemcpyAsync");
	CHECK(a != b);
	CHECK_INT(strtab_intern(&t, "hipLaunchKernel"), a);
	CHECK_STR(strtab_get(&t, b), "hipMemcpyAsync");
	CHECK_INT(strtab_find(&t, "hipMemcpyAsync", 14), b);
	CHECK_INT(strtab_find(&t, "nope", 4), UINT32_MAX);

	uint32_t nul = strtab_intern_len(&t, "a\0b", 3);
	CHECK(nul != strtab_intern_len(&t, "a", 1));
	CHECK_INT(strtab_len(&t, nul), 3);

	/* Many strings force rehashing; every id must still resolve. */
	char buf[32];
	uint32_t first = t.count;
	for (int i = 0; i < 100000; i++) {
		snprintf(buf, sizeof(buf), "kernel_%d", i);
		CHECK_INT(strtab_intern(&t, buf), first + (uint32_t)i);
	}
	snprintf(buf, sizeof(buf), "kernel_%d", 77777);
	CHECK_INT(strtab_intern(&t, buf), first + 77777);
	CHECK_STR(strtab_get(&t, first + 4242), "kernel_4242");
	CHECK_INT(strtab_intern(&t, "hipLaunchKernel"), a);
	strtab_free(&t);
}

static void test_idmap(void)
{
	struct idmap m;
	uint32_t v = 0;
	idmap_init(&m);
	CHECK(!idmap_get(&m, 5, &v));
	for (uint64_t k = 0; k < 50000; k++)
		idmap_put(&m, k << 32 | 1, (uint32_t)k);
	CHECK(idmap_get(&m, (uint64_t)4242 << 32 | 1, &v));
	CHECK_INT(v, 4242);
	CHECK(!idmap_get(&m, 4242, &v));
	idmap_put(&m, 0, 9);
	CHECK(idmap_get(&m, 0, &v));
	CHECK_INT(v, 9);
	idmap_free(&m);
}

int main(void)
{
	test_intern();
	test_idmap();
	return check_done();
}
