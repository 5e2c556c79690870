/* A cache file is an input too: one whose columns hold out-of-range
 * indexes or broken orders, its hashes made anew so that only what it
 * holds can betray it, is refused; one changed at random and re-hashed is
 * refused or gives a trace every report can go over (under the sanitizers
 * in the ASan build: no read out of bounds). */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../fuzz/every_report.h"
#include "check.h"
#include "demo/demo.h"
#include "load/cache_format.h"
#include "load/load.h"
#include "trace/api_order.h"

static const char key[] = "the inputs";

/* bytes as a file of its own, read back as a cache file of level. */
static int read_bytes(const unsigned char *bytes, size_t n, const char *path, int level, struct trace *t)
{
	FILE *f = fopen(path, "wb");
	CHECK(f != NULL);
	CHECK(fwrite(bytes, 1, n, f) == n);
	CHECK(fclose(f) == 0);
	FILE *r = fopen(path, "rb");
	int rc = cache_format_read(fileno(r), n, t, level, level, key);
	fclose(r);
	return rc;
}

/* Every report of the registry over t, as a batch run makes it (asks of
 * the inputs, which a cache file cannot answer, left unanswered). */
/* One index of column id set out of range (or its order broken), the
 * hashes made anew: refused. Returns 1 when the column was there. */
static int refused_when_broken(const unsigned char *good, size_t n, const char *path, uint32_t id)
{
	size_t off, item, count;
	if (cache_format_section(good, n, id, &off, &item, &count) || count < 2)
		return 0;
	unsigned char *bad = malloc(n);
	memcpy(bad, good, n);
	unsigned char *x = bad + off + count / 2 * item;
	if (item == 8) {
		/* An id or a run's row: the one before it again (no longer rising). */
		memcpy(x, x - item, item);
	} else if (item == 4) {
		uint32_t v = 0xfffffff0u;
		memcpy(x, &v, 4);
	} else {
		memset(x, 0xee, item);
	}
	CHECK(cache_format_rehash(bad, n) == 0);
	struct trace t;
	int rc = read_bytes(bad, n, path, CACHE_ALL, &t);
	if (rc == 0) {
		fprintf(stderr, "column %u: a broken file was taken\n", id);
		trace_free(&t);
	}
	CHECK(rc != 0);
	free(bad);
	return 1;
}

enum order_break { ORDER_TWICE, ORDER_SWAPPED, ORDER_THREADS };

/* The kept order of the calls broken one way (t: the trace written),
 * the hashes made anew: refused? */
static int order_refused(const unsigned char *good, size_t n, const char *path, const struct trace *t,
			 enum order_break how)
{
	size_t off, item, count;
	if (cache_format_section(good, n, 35, &off, &item, &count) || item != 4 || count != t->apis.n)
		return 0;
	unsigned char *bad = malloc(n);
	memcpy(bad, good, n);
	uint32_t *v = (uint32_t *)(void *)(bad + off);
	/* The first two neighbours of one thread that start apart, and the
	 * first place where the thread changes. */
	size_t apart = 0, change = 0;
	for (size_t i = 1; i < count && (!apart || !change); i++) {
		int same = t->apis.thread[v[i - 1]] == t->apis.thread[v[i]];
		if (!apart && same && t->apis.start[v[i - 1]] < t->apis.start[v[i]])
			apart = i;
		if (!change && !same)
			change = i;
	}
	CHECK(apart > 0 && change > 0);
	uint32_t keep = v[apart];
	if (how == ORDER_TWICE) {
		v[apart] = v[apart - 1];
	} else if (how == ORDER_SWAPPED) {
		v[apart] = v[apart - 1];
		v[apart - 1] = keep;
	} else {
		/* The first call of the next thread moved before the last of its own. */
		keep = v[change];
		v[change] = v[change - 1];
		v[change - 1] = keep;
	}
	CHECK(cache_format_rehash(bad, n) == 0);
	struct trace back;
	int rc = read_bytes(bad, n, path, CACHE_ALL, &back);
	if (rc == 0)
		trace_free(&back);
	free(bad);
	return rc != 0;
}

/* A simple generator, the same every run. */
static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

int main(void)
{
	char dir[] = "/tmp/rpdtop-cache.XXXXXX", in[64], cache[64], probe[64];
	CHECK(mkdtemp(dir) != NULL);
	snprintf(in, sizeof(in), "%s/in.rpd", dir);
	snprintf(cache, sizeof(cache), "%s/c.rpdc", dir);
	snprintf(probe, sizeof(probe), "%s/probe.rpdc", dir);
	struct gen_params gp = { .seed = 11, .ops = 3000, .gpus = 2, .collectives = 1, .graphs = 1 };
	struct demo_output out = { .format = INPUT_RPD };
	struct rpd_error err;
	CHECK(demo_write_file(in, &gp, &out, &err) == 0);
	struct trace t;
	struct load_options all = { .what = LOAD_ALL };
	const char *paths[] = { in };
	CHECK(trace_load(&t, paths, 1, &all, &err) == 0);
	struct api_order built;
	api_order_build(&t, &built);
	FILE *f = fopen(cache, "wb+");
	CHECK(f != NULL);
	CHECK(cache_format_write(fileno(f), &t, built.rows, CACHE_ALL, key, NULL) == 0);
	long n = ftell(f) > 0 ? ftell(f) : (fseek(f, 0, SEEK_END), ftell(f));
	CHECK(n > 0);
	unsigned char *good = malloc((size_t)n);
	rewind(f);
	CHECK(fread(good, 1, (size_t)n, f) == (size_t)n);
	fclose(f);

	/* As written, and re-hashed unchanged: taken, with the order of the
	 * calls that was kept, which an order built of the file's trace
	 * takes as it is. */
	struct trace back;
	CHECK(read_bytes(good, (size_t)n, probe, CACHE_ALL, &back) == 0);
	CHECK(back.call_order != NULL && back.apis.n == t.apis.n && t.apis.n > 1000);
	CHECK(back.call_order && memcmp(back.call_order, built.rows, t.apis.n * sizeof(*built.rows)) == 0);
	struct api_order kept;
	api_order_build(&back, &kept);
	CHECK(kept.borrowed && kept.rows == back.call_order);
	CHECK(memcmp(kept.first, built.first, (t.nthreads + 1) * sizeof(*kept.first)) == 0);
	CHECK(kept.pfirst[t.nthreads] == built.pfirst[t.nthreads] &&
	      memcmp(kept.parents, built.parents, built.pfirst[t.nthreads] * sizeof(*kept.parents)) == 0);
	api_order_free(&kept);
	every_report(&back);
	/* Rows about to change drop the order they no longer have. */
	trace_own_apis(&back);
	CHECK(back.call_order == NULL);
	trace_free(&back);
	/* A load of the ops alone leaves it out with the calls. */
	FILE *r = fopen(cache, "rb");
	CHECK(r && cache_format_read(fileno(r), (size_t)n, &back, CACHE_ALL, CACHE_OPS, key) == 0);
	CHECK(back.call_order == NULL && back.apis.n == 0);
	trace_free(&back);
	fclose(r);
	/* An order that is not the calls': a row twice, two of a thread out
	 * of start order, a thread's calls among another's. */
	CHECK(order_refused(good, (size_t)n, probe, &t, ORDER_TWICE));
	CHECK(order_refused(good, (size_t)n, probe, &t, ORDER_SWAPPED));
	CHECK(order_refused(good, (size_t)n, probe, &t, ORDER_THREADS));
	api_order_free(&built);
	trace_free(&t);
	CHECK(cache_format_rehash(good, (size_t)n) == 0);
	CHECK(read_bytes(good, (size_t)n, probe, CACHE_ALL, &t) == 0);
	trace_free(&t);

	/* Each column of indexes or of rising ids, broken: refused. */
	static const uint32_t columns[] = {
		3, 6, 7, 8, 9, 10, 14, 15, 20, 21, 25, 27, 28, 29, 30, 33, 34, 35
	};
	size_t tried = 0;
	for (size_t i = 0; i < sizeof(columns) / sizeof(columns[0]); i++)
		tried += (size_t)refused_when_broken(good, (size_t)n, probe, columns[i]);
	/* The ops', the API rows', the launches' and the graphs' at least. */
	CHECK(tried >= 9);

	/* Random changes inside the columns, re-hashed: refused, or a trace
	 * every report goes over. */
	uint64_t seed = 0x9e3779b97f4a7c15u;
	size_t taken = 0;
	unsigned char *bad = malloc((size_t)n);
	for (int round = 0; round < 300; round++) {
		memcpy(bad, good, (size_t)n);
		size_t off, item, count;
		uint32_t id = (uint32_t)(next(&seed) % 36);
		if (cache_format_section(bad, (size_t)n, id, &off, &item, &count) || count == 0)
			continue;
		for (int k = 0; k < 4; k++)
			bad[off + next(&seed) % (count * item)] ^= (unsigned char)(1u << (next(&seed) % 8));
		CHECK(cache_format_rehash(bad, (size_t)n) == 0);
		if (read_bytes(bad, (size_t)n, probe, CACHE_ALL, &t) == 0) {
			every_report(&t);
			trace_free(&t);
			taken++;
		}
	}
	/* Times and durations change without breaking anything: some are taken. */
	CHECK(taken > 0);
	free(bad);
	free(good);
	unlink(in);
	unlink(cache);
	unlink(probe);
	rmdir(dir);
	return check_done();
}
