/* rocpd as rocprofv3 writes it, checked against SQL over the base tables
 * of the real files and of rpdgen's (a process per uuid, several in one
 * file): every op's launching call is the region of its event's
 * stack_id, a roctx call's text is its event's message, samples are calls
 * without a duration; the API rows read later (the viewer's background)
 * equal those read with the ops; the LZ4 variant reads the same, its
 * messages decoded. LZ4 frames are also checked on their own. */
#include "config.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "demo/demo.h"
#include "load/background.h"
#include "load/load.h"
#include "trace/api_order.h"
#include "util/idmap.h"
#include "util/lz4.h"
#include "util/xalloc.h"

static const struct load_options all = { .what = LOAD_ALL };
static const struct load_options ops_only = { .what = LOAD_OPS };

/* The table suffix of a file's first process. */
static char *suffix_of(sqlite3 *db)
{
	sqlite3_stmt *st;
	char *s = NULL;
	CHECK(sqlite3_prepare_v2(
		      db,
		      "SELECT substr(name, 22) FROM sqlite_master WHERE type = 'table' AND name LIKE "
		      "'rocpd\\_kernel\\_dispatch\\_%' ESCAPE '\\' ORDER BY rowid",
		      -1, &st, NULL) == SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		s = xstrdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return s ? s : xstrdup("");
}

/* Rows of sql as (key, value) into map; returns how many. */
static size_t read_pairs(sqlite3 *db, char *sql, struct idmap *map)
{
	sqlite3_stmt *st;
	size_t n = 0;
	CHECK(sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK);
	sqlite3_free(sql);
	while (sqlite3_step(st) == SQLITE_ROW) {
		idmap_put(map, (uint64_t)sqlite3_column_int64(st, 0), (uint32_t)sqlite3_column_int64(st, 1));
		n++;
	}
	sqlite3_finalize(st);
	return n;
}

static int64_t scalar(sqlite3 *db, char *sql)
{
	sqlite3_stmt *st;
	int64_t v = -1;
	CHECK(sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK);
	sqlite3_free(sql);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* The launcher of every op of the process (the input in), as SQL finds
 * it: op id -> region id. */
static void check_links(const struct trace *t, const struct trace_input *in, sqlite3 *db, const char *s)
{
	struct idmap want;
	idmap_init(&want);
	size_t n = read_pairs(
		db,
		sqlite3_mprintf(
			"SELECT K.id, R.id FROM \"rocpd_kernel_dispatch%w\" K JOIN \"rocpd_event%w\" E "
			"ON E.id = K.event_id JOIN \"rocpd_region%w\" R ON R.id = E.stack_id",
			s, s, s),
		&want);
	n += read_pairs(
		db,
		sqlite3_mprintf(
			"SELECT M.id + %lld, R.id FROM \"rocpd_memory_copy%w\" M JOIN \"rocpd_event%w\" "
			"E ON E.id = M.event_id JOIN \"rocpd_region%w\" R ON R.id = E.stack_id",
			(long long)ROCPD_COPY_ID_BASE, s, s, s),
		&want);
	CHECK_INT(n, in->op_count); /* every op has its launch */
	size_t linked = 0;
	for (size_t i = in->op_first; i < in->op_first + in->op_count; i++) {
		uint32_t region;
		if (!idmap_get(&want, (uint64_t)trace_op_id(t, i), &region))
			continue;
		uint32_t api = t->op_launch[i];
		CHECK(api != TRACE_NONE);
		if (api != TRACE_NONE) {
			CHECK_INT(trace_api_id(t, api), region);
			CHECK(api >= in->api_first && api < in->api_first + in->api_count);
		}
		linked++;
	}
	CHECK_INT(linked, n);
	idmap_free(&want);
}

/* Each roctx call's text equals its event's message, in SQL; returns
 * how many there are. */
static size_t check_texts(const struct trace *t, const struct trace_input *in, sqlite3 *db, const char *s)
{
	char *sql =
		sqlite3_mprintf("SELECT json_extract(E.extdata, '$.message') FROM \"rocpd_region%w\" R JOIN "
				"\"rocpd_event%w\" E ON E.id = R.event_id WHERE R.id = ?1 UNION ALL "
				"SELECT json_extract(E.extdata, '$.message') FROM \"rocpd_sample%w\" S JOIN "
				"\"rocpd_event%w\" E ON E.id = S.event_id WHERE S.id = ?1 - %lld",
				s, s, s, s, (long long)ROCPD_SAMPLE_ID_BASE);
	sqlite3_stmt *st;
	CHECK(sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK);
	sqlite3_free(sql);
	size_t markers = 0;
	for (size_t i = in->api_first; i < in->api_first + in->api_count; i++) {
		if (strcmp(trace_str(t, trace_api_name(t, i)), TRACE_MARKER_NAME) != 0)
			continue;
		markers++;
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, trace_api_id(t, i));
		CHECK(sqlite3_step(st) == SQLITE_ROW);
		CHECK_STR(trace_str(t, trace_api_text(t, i)), (const char *)sqlite3_column_text(st, 0));
	}
	sqlite3_finalize(st);
	/* Every call of a MARKER category is one, with or without a duration. */
	CHECK_INT(
		markers,
		scalar(db,
		       sqlite3_mprintf(
			       "SELECT (SELECT count(*) FROM \"rocpd_region%w\" R JOIN \"rocpd_event%w\" E "
			       "ON "
			       "E.id = R.event_id JOIN \"rocpd_string%w\" C ON C.id = E.category_id "
			       "WHERE C.string LIKE 'MARKER%%') + (SELECT count(*) FROM \"rocpd_sample%w\" S "
			       "JOIN \"rocpd_event%w\" E ON E.id = S.event_id JOIN \"rocpd_string%w\" C ON "
			       "C.id = E.category_id WHERE C.string LIKE 'MARKER%%')",
			       s, s, s, s, s, s)));
	return markers;
}

/* One process of the file: links, texts, and its samples read as calls
 * without a duration, its regions as calls with one. */
static size_t check_process(const struct trace *t, sqlite3 *db, const char *s)
{
	const struct trace_input *in = NULL;
	for (size_t i = 0; i < t->ninputs; i++)
		if (t->inputs[i].uuid && strcmp(t->inputs[i].uuid, s) == 0)
			in = &t->inputs[i];
	CHECK(in != NULL);
	if (!in)
		return 0;
	check_links(t, in, db, s);
	size_t markers = check_texts(t, in, db, s), samples = 0;
	for (size_t i = in->api_first; i < in->api_first + in->api_count; i++) {
		int sample = trace_api_id(t, i) >= ROCPD_SAMPLE_ID_BASE;
		samples += sample;
		if (sample)
			CHECK_INT(t->apis.end[i], t->apis.start[i]);
	}
	CHECK_INT(samples,
		  scalar(db, sqlite3_mprintf(
				     "SELECT count(*) FROM \"rocpd_sample%w\" S JOIN \"rocpd_track%w\" T ON "
				     "T.id = S.track_id WHERE T.tid IS NOT NULL",
				     s, s)));
	CHECK_INT(in->api_count - samples,
		  scalar(db, sqlite3_mprintf("SELECT count(*) FROM \"rocpd_region%w\"", s)));
	return markers;
}

/* Every process of the file; markers says how many roctx calls there are
 * in all (-1: as SQL counts them, checked per process). */
static void check_file(const char *path, const char *what, long markers)
{
	struct trace t, later;
	struct rpd_error err;
	sqlite3 *db;
	fprintf(stderr, "rocpd: %s\n", what);
	CHECK(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK);
	CHECK(trace_load(&t, (const char *const[]){ path }, 1, &all, &err) == 0);
	sqlite3_stmt *st;
	CHECK(sqlite3_prepare_v2(
		      db,
		      "SELECT substr(name, 22) FROM sqlite_master WHERE type = 'table' AND name LIKE "
		      "'rocpd\\_kernel\\_dispatch\\_%' ESCAPE '\\' ORDER BY rowid",
		      -1, &st, NULL) == SQLITE_OK);
	size_t found = 0, parts = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		found += check_process(&t, db, (const char *)sqlite3_column_text(st, 0));
		parts++;
	}
	sqlite3_finalize(st);
	CHECK_INT(parts, t.ninputs);
	CHECK(found > 0);
	if (markers >= 0)
		CHECK_INT(found, markers);
	/* The API rows read after the ops, on another thread, are the same. */
	CHECK(trace_load(&later, (const char *const[]){ path }, 1, &ops_only, &err) == 0);
	struct bg_apis *b = bg_apis_start(&later);
	CHECK(b != NULL);
	struct api_order order = { 0 }, fresh;
	CHECK(b && bg_apis_finish(b, &later, &order, &err) == 0);
	/* The order made on the reading thread, under the trace's numbers of
	 * the threads, is the order made afresh. */
	api_order_build(&later, &fresh);
	CHECK_INT(order.napis, fresh.napis);
	CHECK_INT(order.nthreads, fresh.nthreads);
	CHECK(order.napis == 0 || memcmp(order.rows, fresh.rows, fresh.napis * sizeof(*fresh.rows)) == 0);
	CHECK(memcmp(order.first, fresh.first, (fresh.nthreads + 1) * sizeof(*fresh.first)) == 0);
	CHECK(memcmp(order.pfirst, fresh.pfirst, (fresh.nthreads + 1) * sizeof(*fresh.pfirst)) == 0);
	api_order_free(&order);
	api_order_free(&fresh);
	CHECK_INT(later.apis.n, t.apis.n);
	CHECK_INT(trace_api_texts(&later), trace_api_texts(&t));
	/* The copies' sizes and agents come with the calls, read in one pass
	 * with the ops or after them. */
	CHECK_INT(t.copies.n, later.copies.n);
	CHECK(later.copies.n == 0 || t.copies.n > 0);
	for (size_t i = 0; i < t.ops.n && later.apis.n == t.apis.n; i++)
		CHECK_INT(later.op_launch[i], t.op_launch[i]);
	trace_free(&later);
	trace_free(&t);
	sqlite3_close(db);
}

/* rpdgen's rocpd output: a process per GPU, each its own uuid in one
 * file, read as rocprofv3's files are; the processes and threads by the
 * OS ids the generator gave them. */
static void check_generated(const char *dir)
{
	char path[512];
	struct rpd_error err;
	struct gen_params p = { .seed = 3, .ops = 3000, .gpus = 3, .no_barriers = 1, .pid_base = 7300 };
	struct demo_output out = { .format = INPUT_ROCPD, .node = "gen-node" };
	snprintf(path, sizeof(path), "%s/gen.db", dir);
	CHECK(demo_write_file(path, &p, &out, &err) == 0);
	check_file(path, "generated", -1);
	struct trace t;
	CHECK(trace_load(&t, (const char *const[]){ path }, 1, &all, &err) == 0);
	CHECK_INT(t.ninputs, 3);
	for (size_t i = 0; i < t.nthreads; i++) {
		int64_t pid = t.threads[i].pid, tid = t.threads[i].tid;
		CHECK(pid == 7300 || pid == 7307 || pid == 7314);
		CHECK(tid == pid || tid == pid + 3);
	}
	CHECK_INT(t.nthreads, 6);
	trace_free(&t);
	unlink(path);
}

/* An LZ4 frame of one stored (uncompressed) block, as "LZ4F" + length. */
static void stored_frame(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void)argc;
	const unsigned char *text = sqlite3_value_text(argv[0]);
	uint32_t n = (uint32_t)sqlite3_value_bytes(argv[0]);
	unsigned char *b = xmalloc(8 + 7 + 4 + n + 4);
	memcpy(b, "LZ4F", 4);
	for (int k = 0; k < 4; k++)
		b[4 + k] = (unsigned char)(n >> (8 * k));
	static const unsigned char head[7] = { 0x04, 0x22, 0x4D, 0x18, 0x60, 0x70, 0x73 };
	memcpy(b + 8, head, 7);
	uint32_t size = n | 0x80000000u;
	for (int k = 0; k < 4; k++)
		b[15 + k] = (unsigned char)(size >> (8 * k));
	memcpy(b + 19, text, n);
	memset(b + 19 + n, 0, 4); /* end mark */
	sqlite3_result_blob(ctx, b, (int)(23 + n), free);
}

/* The LZ4 variant: extdata a BLOB column of LZ4 frames. */
static void make_lz4(const char *from, const char *to)
{
	sqlite3 *db, *src;
	CHECK(sqlite3_open_v2(from, &src, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK);
	CHECK(sqlite3_open(to, &db) == SQLITE_OK);
	sqlite3_backup *copy = sqlite3_backup_init(db, "main", src, "main");
	CHECK(sqlite3_backup_step(copy, -1) == SQLITE_DONE);
	sqlite3_backup_finish(copy);
	char *s = suffix_of(db);
	sqlite3_create_function(db, "lz4f", 1, SQLITE_UTF8, NULL, stored_frame, NULL, NULL);
	char *sql = sqlite3_mprintf(
		"PRAGMA foreign_keys = OFF; PRAGMA legacy_alter_table = ON; CREATE TABLE e2 (id INTEGER "
		"PRIMARY KEY, guid TEXT, category_id INTEGER, "
		"stack_id INTEGER, parent_stack_id INTEGER, correlation_id INTEGER, call_stack BLOB, "
		"line_info BLOB, "
		"extdata BLOB); INSERT INTO e2 SELECT id, guid, category_id, stack_id, parent_stack_id, "
		"correlation_id, "
		"lz4f(call_stack), lz4f(line_info), lz4f(extdata) FROM \"rocpd_event%w\"; DROP VIEW IF "
		"EXISTS "
		"rocpd_event; DROP TABLE \"rocpd_event%w\"; ALTER TABLE e2 RENAME TO \"rocpd_event%w\";",
		s, s, s);
	char *msg = NULL;
	CHECK(sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK);
	if (msg)
		fprintf(stderr, "%s\n", msg);
	sqlite3_free(msg);
	sqlite3_free(sql);
	free(s);
	sqlite3_close(db);
	sqlite3_close(src);
}

static void check_lz4_file(const char *plain, const char *dir)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/lz4.db", dir);
	make_lz4(plain, path);
	struct trace a, b;
	struct rpd_error err;
	CHECK(trace_load(&a, (const char *const[]){ plain }, 1, &all, &err) == 0);
	CHECK(trace_load(&b, (const char *const[]){ path }, 1, &all, &err) == 0);
	CHECK_INT(b.ops.n, a.ops.n);
	CHECK_INT(b.apis.n, a.apis.n);
	CHECK_INT(trace_api_texts(&b), trace_api_texts(&a));
	for (size_t i = 0; i < a.apis.n && b.apis.n == a.apis.n; i++) {
		uint32_t x = trace_api_text(&a, i), y = trace_api_text(&b, i);
		CHECK((x == TRACE_NONE) == (y == TRACE_NONE));
		if (x != TRACE_NONE && y != TRACE_NONE)
			CHECK_STR(trace_str(&b, y), trace_str(&a, x));
	}
	trace_free(&a);
	trace_free(&b);
	unlink(path);
}

/* Frames by hand: a compressed block with an overlapping match, a stored
 * block, and damage of every kind refused without reading out of bounds. */
static void test_lz4(void)
{
	static const uint8_t frame[] = {
		0x04, 0x22, 0x4D, 0x18, 0x40, 0x70, 0xDF, /* magic, FLG (v1), BD, HC */
		9,    0,    0,    0,                      /* block of 9 bytes */
		0x35, 'a',  'b',  'c',  3,    0,          /* "abc", then 9 bytes from 3 back */
		0x20, 'x',  'y',                          /* the last literals */
		0x02, 0,    0,    0x80, 'z',  '!',        /* a stored block of 2 */
		0,    0,    0,    0,                      /* end mark */
	};
	uint8_t out[64];
	size_t len;
	CHECK_INT(lz4_frame_decode(frame, sizeof(frame), out, sizeof(out), &len), 0);
	CHECK_INT(len, 16);
	out[len] = '\0';
	CHECK_STR((const char *)out, "abcabcabcabcxyz!");
	CHECK_INT(lz4_frame_decode(frame, sizeof(frame), out, 10, &len), -1); /* does not fit */
	for (size_t cut = 0; cut < sizeof(frame) - 4; cut++)
		CHECK_INT(lz4_frame_decode(frame, cut, out, sizeof(out), &len), -1);
	uint8_t bad[sizeof(frame)];
	memcpy(bad, frame, sizeof(frame));
	bad[15] = 9; /* an offset reaching before the start */
	CHECK_INT(lz4_frame_decode(bad, sizeof(bad), out, sizeof(out), &len), -1);
	/* Random bytes after a valid header: never past the buffers. */
	srand(7);
	for (int k = 0; k < 2000; k++) {
		memcpy(bad, frame, 7);
		for (size_t i = 7; i < sizeof(bad); i++)
			bad[i] = (uint8_t)rand();
		lz4_frame_decode(bad, sizeof(bad), out, sizeof(out), &len);
		CHECK(len <= sizeof(out));
	}
}

int main(void)
{
	test_lz4();
	const char *data = getenv("RPDTOP_TEST_DATA");
	char r0[512], r1[512];
	snprintf(r0, sizeof(r0), "%s/rocpd-rank0.db", data ? data : ".");
	snprintf(r1, sizeof(r1), "%s/rocpd-rank1.db", data ? data : ".");
	if (access(r0, R_OK) != 0 || access(r1, R_OK) != 0) {
		fprintf(stderr, "SKIP (part): %s not found\n", r0);
		return check_done();
	}
	check_file(r0, "rank0", 6); /* three ranges, three marks */
	check_file(r1, "rank1", 6);
	char dir[] = "/tmp/rpdtop-unit.XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	check_generated(dir);
	check_lz4_file(r0, dir);
	rmdir(dir);
	return check_done();
}
