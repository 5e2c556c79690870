/* The loader: a generated trace read back from its rpd file equals the
 * trace built in memory, in schema versions 2 and 3; the real traces load
 * with the row counts their README gives. */
#include "config.h"

#include <setjmp.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/api_calls.h"
#include "check.h"
#include "demo/demo.h"
#include "load/background.h"
#include "load/kineto.h"
#include "load/kineto_parse.h"
#include "load/load.h"
#include "load/nsys_rows.h"
#include "load/rocprofv3.h"
#include "load/rocprofv3_parse.h"
#include "load/span.h"
#include "sqlfile/dbfile.h"
#include "sqlfile/dbfile_read.h"
#include "sqlfile/pagescan.h"
#include "trace/api_order.h"
#include "util/busguard.h"
#include "util/threads.h"
#include "util/xalloc.h"

static const struct gen_params params = { .seed = 5, .ops = 3000, .gpus = 3 };
static const struct load_options all = { .what = LOAD_ALL };
static const struct load_options ops_only = { .what = LOAD_OPS };

static const char *str(const struct trace *t, uint32_t id)
{
	return trace_str(t, id);
}

/* An API row's text ("" for none). */
static const char *text(const struct trace *t, size_t api)
{
	uint32_t id = trace_api_text(t, api);
	return id == TRACE_NONE ? "" : trace_str(t, id);
}

static size_t launched_ops(const struct trace *t)
{
	size_t n = 0;
	for (size_t i = 0; t->op_launch && i < t->ops.n; i++)
		n += t->op_launch[i] != TRACE_NONE;
	return n;
}

/* Rows compared by content, since string ids differ between the two. */
static void check_same(const struct trace *a, const struct trace *b)
{
	CHECK_INT(b->ops.n, a->ops.n);
	CHECK_INT(b->apis.n, a->apis.n);
	CHECK_INT(launched_ops(b), launched_ops(a));
	CHECK_INT(b->ngpus, a->ngpus);
	CHECK_INT(b->nqueues, a->nqueues);
	CHECK_INT(b->nthreads, a->nthreads);
	if (check_failures)
		return;
	for (size_t i = 0; i < a->ops.n; i++) {
		CHECK_INT(b->ops.start[i], a->ops.start[i]);
		CHECK_INT(b->ops.end[i], a->ops.end[i]);
		CHECK_STR(str(b, b->ops.name[i]), str(a, a->ops.name[i]));
		CHECK_INT(b->ops.kind[i], a->ops.kind[i]);
		CHECK_INT(b->op_launch[i], a->op_launch[i]);
		if (check_failures)
			return;
	}
	for (size_t i = 0; i < a->apis.n; i++) {
		CHECK_STR(str(b, trace_api_name(b, i)), str(a, trace_api_name(a, i)));
		/* Only markers' args (their text) are read. */
		if (strcmp(str(a, trace_api_name(a, i)), "UserMarker") == 0)
			CHECK_STR(text(b, i), text(a, i));
		else
			CHECK_INT(trace_api_text(b, i), TRACE_NONE);
		CHECK_INT(b->apis.start[i], a->apis.start[i]);
		CHECK_INT(b->threads[b->apis.thread[i]].tid, a->threads[a->apis.thread[i]].tid);
		if (check_failures)
			return;
	}
}

/* Schema version 3 keeps args in rocpd_ustring and adds category and domain
 * columns; the ustring ids are shifted so that a mix-up shows. */
static const char to_v3[] =
	"DROP VIEW api; DROP VIEW copy; DROP VIEW copyop; DROP VIEW ktop;"
	"CREATE TABLE rocpd_ustring (id integer NOT NULL PRIMARY KEY AUTOINCREMENT, string varchar(4096) NOT "
	"NULL);"
	"INSERT INTO rocpd_ustring SELECT id + 100000, string FROM rocpd_string;"
	"CREATE TABLE api3 (id integer NOT NULL PRIMARY KEY AUTOINCREMENT, pid integer NOT NULL,"
	" tid integer NOT NULL, start integer NOT NULL, end integer NOT NULL, apiName_id bigint NOT NULL,"
	" category_id bigint NOT NULL, domain_id bigint NOT NULL, args_id bigint NOT NULL);"
	"INSERT INTO api3 SELECT id, pid, tid, start, end, apiName_id, 1, 1, args_id + 100000 FROM rocpd_api;"
	"DROP TABLE rocpd_api; ALTER TABLE api3 RENAME TO rocpd_api;"
	"UPDATE rocpd_metadata SET value = '3' WHERE tag = 'schema_version';";

static void test_roundtrip(const char *dir)
{
	char path[512];
	struct rpd_error err;
	struct trace mem, file;
	snprintf(path, sizeof(path), "%s/gen.rpd", dir);
	demo_trace_build(&mem, &params);
	struct demo_output rpd = { .format = INPUT_RPD };
	CHECK(demo_write_file(path, &params, &rpd, &err) == 0);
	/* The writer refuses to replace a file without force. */
	CHECK(demo_write_file(path, &params, &rpd, &err) != 0);
	CHECK(strstr(err.msg, "already exists") != NULL);

	const char *paths[] = { path };
	CHECK(trace_load(&file, paths, 1, &all, &err) == 0);
	CHECK_INT(file.inputs[0].schema_version, 2);
	check_same(&mem, &file);
	trace_free(&file);

	sqlite3 *db;
	CHECK(sqlite3_open(path, &db) == SQLITE_OK);
	CHECK(sqlite3_exec(db, to_v3, NULL, NULL, NULL) == SQLITE_OK);
	sqlite3_close(db);
	CHECK(trace_load(&file, paths, 1, &all, &err) == 0);
	CHECK_INT(file.inputs[0].schema_version, 3);
	check_same(&mem, &file);
	trace_free(&file);
	trace_free(&mem);
	unlink(path);
}

/* Every column of two loads of one file, string ids compared by text. */
static void check_identical(const struct trace *a, const struct trace *b)
{
	CHECK_INT(b->ops.n, a->ops.n);
	CHECK_INT(b->apis.n, a->apis.n);
	CHECK_INT(launched_ops(b), launched_ops(a));
	CHECK_INT(trace_api_texts(b), trace_api_texts(a));
	CHECK_INT(b->nqueues, a->nqueues);
	CHECK_INT(b->nthreads, a->nthreads);
	if (check_failures)
		return;
	for (size_t i = 0; i < a->ops.n && !check_failures; i++) {
		CHECK_INT(trace_op_id(b, i), trace_op_id(a, i));
		CHECK_INT(b->ops.start[i], a->ops.start[i]);
		CHECK_INT(b->ops.end[i], a->ops.end[i]);
		CHECK_STR(str(b, b->ops.name[i]), str(a, a->ops.name[i]));
		CHECK_INT(b->ops.queue[i], a->ops.queue[i]);
		CHECK_INT(b->ops.kind[i], a->ops.kind[i]);
		CHECK_INT(b->op_launch[i], a->op_launch[i]);
	}
	for (size_t i = 0; i < a->apis.n && !check_failures; i++) {
		CHECK_INT(trace_api_id(b, i), trace_api_id(a, i));
		CHECK_INT(b->apis.start[i], a->apis.start[i]);
		CHECK_INT(b->apis.end[i], a->apis.end[i]);
		CHECK_STR(str(b, trace_api_name(b, i)), str(a, trace_api_name(a, i)));
		CHECK_STR(text(b, i), text(a, i));
		CHECK_INT(b->apis.thread[i], a->apis.thread[i]);
	}
}

/* The rows read from the file's pages (two threads) equal those read
 * through SQL, also after changes that make the page reader step aside. */
static void check_paths_agree(const char *path, const char *what, unsigned long paged)
{
	struct trace pages, sql;
	struct rpd_error err;
	const char *paths[] = { path };
	struct load_options two = { .what = LOAD_ALL };
	threads_set_limit(2);
	fprintf(stderr, "paths agree: %s\n", what);
	unsetenv("RPDTOP_PAGESCAN");
	unsigned long before = pagescan_tables_read();
	CHECK(trace_load(&pages, paths, 1, &two, &err) == 0);
	/* How many of the ops, API rows and links were read from pages. */
	CHECK_INT(pagescan_tables_read() - before, paged);
	setenv("RPDTOP_PAGESCAN", "0", 1);
	CHECK(trace_load(&sql, paths, 1, &two, &err) == 0);
	unsetenv("RPDTOP_PAGESCAN");
	check_identical(&sql, &pages);
	trace_free(&pages);
	trace_free(&sql);
}

static int sum_row(void *ctx, size_t row, const int64_t *v)
{
	int64_t *s = ctx;
	(void)row;
	s[0] += v[0];
	s[1] += v[1] * 3 + v[2];
	s[2]++;
	return s[3] && s[2] == s[3];
}

static void sum_reset(void *ctx)
{
	int64_t *s = ctx;
	s[0] = s[1] = s[2] = 0;
}

/* One table scanned from its pages and through SQL gives the same rows;
 * the scan stops when asked to. */
static void check_scan_agree(const char *path, const char *what)
{
	static const char *const cols[] = { "rowid", "api_id", "op_id" };
	sqlite3 *db;
	struct rpd_error err;
	CHECK(dbfile_open(path, &db, &err) == 0);
	int64_t pages[4] = { 0 }, sql[4] = { 0 }, stop[4] = { 0, 0, 0, 10 };
	fprintf(stderr, "scans agree: %s\n", what);
	unsigned long before = pagescan_tables_read();
	CHECK_INT(pagescan_or_sql(db, "rocpd_api_ops", cols, 3, sum_row, sum_reset, pages), SQLITE_OK);
	unsigned long paged = pagescan_tables_read() - before;
	setenv("RPDTOP_PAGESCAN", "0", 1);
	CHECK_INT(pagescan_or_sql(db, "rocpd_api_ops", cols, 3, sum_row, sum_reset, sql), SQLITE_OK);
	unsetenv("RPDTOP_PAGESCAN");
	CHECK_INT(pages[0], sql[0]);
	CHECK_INT(pages[1], sql[1]);
	CHECK_INT(pages[2], sql[2]);
	CHECK(pages[2] > 0);
	/* Leaves counted by reads of their headers, not through a mapping, as
	 * asked or for a file that cannot be mapped: the pages read as often. */
	static const char *const ways[2][2] = { { "RPDTOP_PAGESCAN_MAP", "0" },
						{ "RPDTOP_TEST_MAP_FAIL", "1" } };
	for (int w = 0; w < 2; w++) {
		int64_t read[4] = { 0 };
		before = pagescan_tables_read();
		setenv(ways[w][0], ways[w][1], 1);
		CHECK_INT(pagescan_or_sql(db, "rocpd_api_ops", cols, 3, sum_row, sum_reset, read), SQLITE_OK);
		unsetenv(ways[w][0]);
		CHECK_INT(pagescan_tables_read() - before, paged);
		for (int k = 0; k < 3; k++)
			CHECK_INT(read[k], sql[k]);
	}
	CHECK_INT(pagescan_or_sql(db, "rocpd_api_ops", cols, 3, sum_row, sum_reset, stop), SQLITE_ABORT);
	CHECK_INT(stop[2], 10);
	sqlite3_close(db);
}

/* Rows of the widths table, kept in order. */
struct kept_rows {
	int64_t v[800][5];
	size_t n;
};

static int keep_row(void *ctx, size_t row, const int64_t *v)
{
	struct kept_rows *k = ctx;
	(void)row;
	if (k->n < 800)
		memcpy(k->v[k->n++], v, sizeof(k->v[0]));
	return 0;
}

static void keep_reset(void *ctx)
{
	((struct kept_rows *)ctx)->n = 0;
}

/* The table's rows read from its pages equal those read by SQL. */
static void check_decoded_as_sql(sqlite3 *db, const char *table, const char *const *cols, size_t rows)
{
	static struct kept_rows pages, sql;
	pages.n = sql.n = 0;
	unsigned long before = pagescan_tables_read();
	CHECK_INT(pagescan_or_sql(db, table, cols, 5, keep_row, keep_reset, &pages), SQLITE_OK);
	CHECK_INT(pagescan_tables_read() - before, 1);
	setenv("RPDTOP_PAGESCAN", "0", 1);
	CHECK_INT(pagescan_or_sql(db, table, cols, 5, keep_row, keep_reset, &sql), SQLITE_OK);
	unsetenv("RPDTOP_PAGESCAN");
	CHECK_INT(pages.n, rows);
	CHECK_INT(sql.n, rows);
	for (size_t i = 0; i < pages.n && i < sql.n && !check_failures; i++)
		for (int k = 0; k < 5; k++)
			CHECK_INT(pages.v[i][k], sql.v[i][k]);
}

/* A record shorter than its header says, among records of its header:
 * the pages are not read (SQL judges the table). */
static void test_short_record(const char *dir)
{
	static const char *const cols[] = { "rowid", "a", "b" };
	char path[256];
	snprintf(path, sizeof(path), "%s/short.db", dir);
	sqlite3 *db;
	CHECK(sqlite3_open(path, &db) == SQLITE_OK);
	CHECK(sqlite3_exec(
		      db,
		      "PRAGMA page_size = 4096; CREATE TABLE x(id INTEGER PRIMARY KEY, a INTEGER, b INTEGER);"
		      "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 49) "
		      "INSERT INTO x(a, b) SELECT 1000 + i, 100000 + i FROM n;",
		      NULL, NULL, NULL) == SQLITE_OK);
	sqlite3_stmt *st;
	CHECK(sqlite3_prepare_v2(db, "SELECT rootpage FROM sqlite_master WHERE name = 'x'", -1, &st, NULL) ==
	      SQLITE_OK);
	CHECK(sqlite3_step(st) == SQLITE_ROW);
	long root = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	/* The 20th cell's payload size, one byte, one less. */
	FILE *f = fopen(path, "r+b");
	uint8_t page[4096];
	CHECK(f && fseek(f, (root - 1) * 4096, SEEK_SET) == 0 &&
	      fread(page, 1, sizeof(page), f) == sizeof(page));
	CHECK_INT(page[0], 0x0d);
	unsigned cell = (unsigned)page[8 + 2 * 20] << 8 | page[9 + 2 * 20];
	CHECK(cell < sizeof(page) && page[cell] > 1 && page[cell] < 0x80);
	page[cell]--;
	CHECK(fseek(f, (root - 1) * 4096, SEEK_SET) == 0 && fwrite(page, 1, sizeof(page), f) == sizeof(page));
	CHECK(fclose(f) == 0);
	CHECK(sqlite3_open(path, &db) == SQLITE_OK);
	static struct kept_rows rows;
	rows.n = 0;
	unsigned long before = pagescan_tables_read();
	pagescan_or_sql(db, "x", cols, 3, keep_row, keep_reset, &rows);
	CHECK_INT(pagescan_tables_read() - before, 0);
	sqlite3_close(db);
	unlink(path);
}

/* Integers of every stored width and sign, 0 and 1 (stored without a
 * body), NULLs, and texts short and long before the columns read (a long
 * one takes a header of several bytes): the page reader gives what SQL
 * gives, row for row. */
static void test_decode_widths(const char *dir)
{
	static const char *const cols[] = { "rowid", "a", "b", "c", "d" };
	char path[256];
	snprintf(path, sizeof(path), "%s/widths.db", dir);
	sqlite3 *db;
	CHECK(sqlite3_open(path, &db) == SQLITE_OK);
	CHECK(sqlite3_exec(db,
			   "CREATE TABLE w(id INTEGER PRIMARY KEY, s TEXT, a INTEGER, b INTEGER, c INTEGER, "
			   "d INTEGER);"
			   "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 299) "
			   "INSERT INTO w(s, a, b, c, d) SELECT "
			   "CASE i % 3 WHEN 0 THEN 'x' WHEN 1 THEN substr(printf('%0300d', 0), 1, 70 + i) "
			   "ELSE NULL END, "
			   "(i % 2 * 2 - 1) * (1 << (i % 63)), (i % 2) * ((i * 2654435761) % 4294967296), "
			   "CASE i % 5 WHEN 0 THEN 0 WHEN 1 THEN 1 WHEN 2 THEN -1 ELSE -i * 1000003 END, "
			   "CASE WHEN i % 7 = 0 THEN 9223372036854775807 ELSE -140737488355328 + i END "
			   "FROM n;",
			   NULL, NULL, NULL) == SQLITE_OK);
	check_decoded_as_sql(db, "w", cols, 300);
	/* Runs of rows with the same header (a value a load, its place
	 * noted at the run's first row), their values changing within the
	 * run: widths of 1 to 8 bytes, 0 and 1 stored as types of their own,
	 * NULL, and a text and columns not read before them whose lengths
	 * move the places (a header past 8 bytes). */
	CHECK(sqlite3_exec(db,
			   "CREATE TABLE r(id INTEGER PRIMARY KEY, s TEXT, e INTEGER, f INTEGER, a INTEGER, "
			   "b INTEGER, c INTEGER, d INTEGER);"
			   "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 599) "
			   "INSERT INTO r(s, e, f, a, b, c, d) SELECT "
			   "substr('abcdefghijklmnop', 1, 1 + i / 12 % 9), i / 8 % 2 * 70000, i / 28 % 2, "
			   "(1 << (8 * (i / 4 % 8))) + i % 4, "
			   "CASE i / 4 % 3 WHEN 0 THEN 0 WHEN 1 THEN 1 ELSE 300 + i END, "
			   "CASE WHEN i / 4 % 5 = 0 THEN NULL ELSE -(i % 4) - 1000 * (i / 4 % 5) END, "
			   "3489389198178419 + i * 17 "
			   "FROM n;",
			   NULL, NULL, NULL) == SQLITE_OK);
	check_decoded_as_sql(db, "r", cols, 600);
	sqlite3_close(db);
	unlink(path);
	test_short_record(dir);
}

/* Ids that run without gaps are kept as their first only; with gaps, whole.
 * Either way every row gives its database id. */
static void check_ids(const char *path, int kept)
{
	struct trace t;
	struct rpd_error err;
	const char *paths[] = { path };
	CHECK(trace_load(&t, paths, 1, &all, &err) == 0);
	CHECK_INT(t.ops.id != NULL, kept);
	CHECK_INT(t.apis.id != NULL, kept);
	sqlite3 *db;
	sqlite3_stmt *st;
	CHECK(sqlite3_open(path, &db) == SQLITE_OK);
	CHECK(sqlite3_prepare_v2(db, "SELECT id FROM rocpd_op ORDER BY id", -1, &st, NULL) == SQLITE_OK);
	for (size_t i = 0; sqlite3_step(st) == SQLITE_ROW && !check_failures; i++) {
		CHECK_INT(trace_op_id(&t, i), sqlite3_column_int64(st, 0));
		CHECK_INT(trace_op_row(&t, 0, sqlite3_column_int64(st, 0)), i);
	}
	sqlite3_finalize(st);
	CHECK(sqlite3_prepare_v2(db, "SELECT id FROM rocpd_api ORDER BY id", -1, &st, NULL) == SQLITE_OK);
	for (size_t i = 0; sqlite3_step(st) == SQLITE_ROW && !check_failures; i++)
		CHECK_INT(trace_api_id(&t, i), sqlite3_column_int64(st, 0));
	sqlite3_finalize(st);
	sqlite3_close(db);
	trace_free(&t);
}

static void exec_ok(const char *path, const char *sql)
{
	sqlite3 *db;
	CHECK(sqlite3_open(path, &db) == SQLITE_OK);
	CHECK(sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK);
	sqlite3_close(db);
}

/* API rows read on another thread and moved in equal those read with the
 * ops; a read can also be dropped. */
static void check_background(const char *path)
{
	struct trace all_at_once, ops;
	struct rpd_error err;
	const char *paths[] = { path };
	CHECK(trace_load(&all_at_once, paths, 1, &all, &err) == 0);
	CHECK(trace_load(&ops, paths, 1, &ops_only, &err) == 0);
	struct bg_apis *b = bg_apis_start(&ops);
	CHECK(b != NULL);
	while (b && !bg_apis_done(b))
		usleep(1000);
	CHECK_INT(ops.apis.n, 0); /* nothing moves in before finish */
	struct api_order order = { 0 }, fresh;
	CHECK(b && bg_apis_finish(b, &ops, &order, &err) == 0);
	/* The order made on the reading thread, under the trace's numbers of
	 * the threads, is the order made afresh. */
	api_order_build(&ops, &fresh);
	CHECK_INT(order.napis, fresh.napis);
	CHECK_INT(order.nthreads, fresh.nthreads);
	CHECK(order.napis == 0 || memcmp(order.rows, fresh.rows, fresh.napis * sizeof(*fresh.rows)) == 0);
	CHECK(memcmp(order.first, fresh.first, (fresh.nthreads + 1) * sizeof(*fresh.first)) == 0);
	CHECK(memcmp(order.pfirst, fresh.pfirst, (fresh.nthreads + 1) * sizeof(*fresh.pfirst)) == 0);
	api_order_free(&order);
	api_order_free(&fresh);
	check_identical(&all_at_once, &ops);
	trace_free(&ops);
	CHECK(trace_load(&ops, paths, 1, &ops_only, &err) == 0);
	bg_apis_cancel(bg_apis_start(&ops));
	CHECK_INT(ops.apis.n, 0);
	trace_free(&ops);
	trace_free(&all_at_once);
}

/* The process-wide cap on threads: places are handed out up to it and
 * come back; a load under a cap of one reads the same trace. */
static void test_cap(const char *path)
{
	threads_set_limit(3);
	CHECK_INT(threads_limit(), 3);
	CHECK_INT(threads_acquire(5), 2); /* the main thread holds one */
	CHECK_INT(threads_acquire(1), 0);
	threads_release(2);
	threads_lend();
	CHECK_INT(threads_acquire(9), 3);
	threads_release(3);
	threads_reclaim();
	threads_set_limit(1);
	CHECK_INT(threads_acquire(1), 0);
	struct trace one, two;
	struct rpd_error err;
	const char *paths[] = { path, path };
	CHECK(trace_load(&one, paths, 2, &all, &err) == 0);
	threads_set_limit(2);
	CHECK(trace_load(&two, paths, 2, &all, &err) == 0);
	check_identical(&one, &two);
	trace_free(&one);
	trace_free(&two);
	threads_set_limit(0);
}

/* Reading only the launching calls gives every op the call a whole read
 * gives it; the fewer rows are read when the links and calls allow
 * (fast), else the whole table is. */
static void check_launches(const char *path, const char *what, int fast)
{
	struct trace full, some;
	struct rpd_error err;
	const char *paths[] = { path };
	struct load_options launches = { .what = LOAD_ALL | LOAD_LAUNCHES };
	fprintf(stderr, "launching calls: %s\n", what);
	CHECK(trace_load(&full, paths, 1, &all, &err) == 0);
	CHECK(trace_load(&some, paths, 1, &launches, &err) == 0);
	CHECK_INT(some.ops.n, full.ops.n);
	size_t launched = 0;
	for (size_t i = 0; i < full.ops.n && !check_failures; i++) {
		uint32_t a = trace_op_launch(&full, (uint32_t)i), b = trace_op_launch(&some, (uint32_t)i);
		CHECK_INT(b == TRACE_NONE, a == TRACE_NONE);
		if (a == TRACE_NONE || b == TRACE_NONE)
			continue;
		launched++;
		CHECK_INT(trace_api_id(&some, b), trace_api_id(&full, a));
		CHECK_INT(some.apis.start[b], full.apis.start[a]);
		CHECK_INT(some.apis.end[b], full.apis.end[a]);
		CHECK_STR(str(&some, trace_api_name(&some, b)), str(&full, trace_api_name(&full, a)));
		CHECK_INT(some.threads[some.apis.thread[b]].tid, full.threads[full.apis.thread[a]].tid);
	}
	CHECK(launched > 0);
	if (fast)
		CHECK(some.apis.n < full.apis.n);
	else
		CHECK_INT(some.apis.n, full.apis.n);
	trace_free(&full);
	trace_free(&some);
}

/* The API rows read without the markers' (LOAD_NO_MARKERS) or with the
 * markers' alone (LOAD_MARKERS_ONLY), on three threads, are those rows of
 * a whole read, in its order, with the same texts; without the markers,
 * the same links and graph launches; the markers alone have no links.
 * Through SQL (pages 0) every row stays. */
static void check_kept(const char *path, unsigned keep, const char *what, int pages)
{
	struct trace full, kept;
	struct rpd_error err;
	const char *paths[] = { path };
	struct load_options lo = { .what = LOAD_ALL | keep };
	int markers_only = keep == LOAD_MARKERS_ONLY;
	fprintf(stderr, "%s: %s\n", markers_only ? "markers alone" : "calls without markers", what);
	threads_set_limit(3);
	if (!pages)
		setenv("RPDTOP_PAGESCAN", "0", 1);
	CHECK(trace_load(&full, paths, 1, &all, &err) == 0);
	CHECK(trace_load(&kept, paths, 1, &lo, &err) == 0);
	unsetenv("RPDTOP_PAGESCAN");
	threads_set_limit(0);
	uint32_t marker = api_marker_name(&full);
	size_t j = 0, left = 0;
	for (size_t i = 0; i < full.apis.n && !check_failures; i++) {
		if (pages && (trace_api_name(&full, i) == marker) != markers_only) {
			left++;
			continue;
		}
		CHECK(j < kept.apis.n);
		if (j >= kept.apis.n)
			break;
		CHECK_INT(trace_api_id(&kept, j), trace_api_id(&full, i));
		CHECK_INT(kept.apis.start[j], full.apis.start[i]);
		CHECK_INT(kept.apis.end[j], full.apis.end[i]);
		CHECK_STR(str(&kept, trace_api_shown_name(&kept, (uint32_t)j)),
			  str(&full, trace_api_shown_name(&full, (uint32_t)i)));
		CHECK_INT(kept.threads[kept.apis.thread[j]].tid, full.threads[full.apis.thread[i]].tid);
		j++;
	}
	CHECK_INT(j, kept.apis.n);
	CHECK(!pages || left > 0);
	/* The room reserved for the rows left out is given back. */
	CHECK(!pages || kept.apis.cap < full.apis.n);
	CHECK_INT(kept.ops.n, full.ops.n);
	size_t launched = 0;
	for (size_t i = 0; i < full.ops.n && !check_failures; i++) {
		uint32_t a = trace_op_launch(&full, (uint32_t)i), b = trace_op_launch(&kept, (uint32_t)i);
		launched += b != TRACE_NONE;
		if (markers_only)
			continue;
		CHECK_INT(b == TRACE_NONE, a == TRACE_NONE);
		if (a != TRACE_NONE && b != TRACE_NONE)
			CHECK_INT(trace_api_id(&kept, b), trace_api_id(&full, a));
	}
	CHECK(markers_only ? launched == 0 : launched > 0);
	CHECK_INT(kept.graphs.n, markers_only ? 0 : full.graphs.n);
	for (size_t i = 0; !markers_only && i < full.graphs.n && i < kept.graphs.n; i++) {
		CHECK_INT(trace_api_id(&kept, kept.graphs.api[i]), trace_api_id(&full, full.graphs.api[i]));
		CHECK_STR(str(&kept, kept.graphs.exec[i]), str(&full, full.graphs.exec[i]));
	}
	trace_free(&full);
	trace_free(&kept);
}

static void check_no_markers(const char *path, const char *what, int pages)
{
	check_kept(path, LOAD_NO_MARKERS, what, pages);
	check_kept(path, LOAD_MARKERS_ONLY, what, pages);
}

/* The calls put in order while the rest of the file is read equal the
 * order made of the trace after; without a thread to spare, none is made. */
static void check_order_while_read(const char *path)
{
	struct trace t;
	struct api_order made, built;
	struct rpd_error err;
	const char *paths[] = { path };
	struct load_options lo = { .what = LOAD_ALL, .order = &made };
	memset(&made, 0, sizeof(made));
	CHECK(trace_load(&t, paths, 1, &lo, &err) == 0);
	CHECK(made.rows != NULL && api_order_fits(&made, &t));
	api_order_build(&t, &built);
	CHECK(built.napis > 0);
	if (made.rows && made.napis == built.napis && made.nthreads == built.nthreads) {
		CHECK(memcmp(made.rows, built.rows, built.napis * sizeof(*built.rows)) == 0);
		CHECK(memcmp(made.first, built.first, (built.nthreads + 1) * sizeof(*built.first)) == 0);
		CHECK(memcmp(made.pfirst, built.pfirst, (built.nthreads + 1) * sizeof(*built.pfirst)) == 0);
		CHECK(memcmp(made.parents, built.parents,
			     built.pfirst[built.nthreads] * sizeof(*built.parents)) == 0);
	}
	CHECK(built.pfirst[built.nthreads] > 0);
	api_order_free(&made);
	api_order_free(&built);
	trace_free(&t);
	threads_set_limit(1);
	CHECK(trace_load(&t, paths, 1, &lo, &err) == 0);
	CHECK(made.rows == NULL);
	trace_free(&t);
	threads_set_limit(0);
	struct load_options launches = { .what = LOAD_ALL | LOAD_LAUNCHES, .order = &made };
	CHECK(trace_load(&t, paths, 1, &launches, &err) == 0);
	CHECK(made.rows == NULL); /* not every call was read */
	trace_free(&t);
}

/* A generated trace written as the rpd file dir/name (its path in path). */
static void write_rpd(const char *dir, const char *name, const struct gen_params *p, char *path, size_t size)
{
	struct rpd_error err;
	struct demo_output rpd = { .format = INPUT_RPD };
	snprintf(path, size, "%s/%s", dir, name);
	CHECK(demo_write_file(path, p, &rpd, &err) == 0);
}

/* A file cut short while its leaves are counted through the mapping
 * (copied over as it is read): the pages past its end raise SIGBUS, and
 * the count declines instead of the process dying. */
static void test_count_cut_short(const char *dir)
{
	char path[512];
	struct gen_params p = { .seed = 4, .ops = 40000, .gpus = 1 };
	write_rpd(dir, "cut.rpd", &p, path, sizeof(path));
	static const char *const cols[] = { "id", "start" };
	sqlite3 *db;
	struct rpd_error err;
	struct pagescan ps;
	struct pagescan_table tab;
	struct pagescan_part parts[2];
	size_t rows;
	CHECK(dbfile_open(path, &db, &err) == 0);
	CHECK_INT(pagescan_begin(&ps, db), FAST_DONE);
	CHECK(ps.fd >= 0);
	CHECK_INT(pagescan_open_table(&ps, "rocpd_api", cols, 2, &tab), FAST_DONE);
	CHECK_INT(pagescan_count(&ps, &tab, 2, parts, &rows), FAST_DONE);
	CHECK(rows > 0);
	CHECK(truncate(path, ps.fd_size / 3) == 0);
	CHECK_INT(pagescan_count(&ps, &tab, 2, parts, &rows), FAST_DECLINED);
	pagescan_table_free(&tab);
	pagescan_end(&ps);
	sqlite3_close(db);
	unlink(path);
}

/* A SIGBUS of no armed reader still ends the process as the handler
 * before would; an armed one jumps back. The child starts from the
 * default action, so that a sanitizer's own handler of SIGBUS does not
 * report the deliberate signal as a fault. */
static void test_busguard(void)
{
	for (volatile int armed = 0; armed < 2; armed++) {
		pid_t pid = fork();
		CHECK(pid >= 0);
		if (pid == 0) {
			sigjmp_buf jump;
			signal(SIGBUS, SIG_DFL);
			busguard_install();
			if (sigsetjmp(jump, 1))
				_exit(7);
			if (armed)
				busguard_arm(&jump);
			raise(SIGBUS);
			_exit(0);
		}
		int status = 0;
		CHECK(waitpid(pid, &status, 0) == pid);
		if (armed)
			CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 7);
		else
			CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS);
	}
}

/* Each graph launch call's graph, by its API id and the graph's name. */
static void graphs_of(const char *path, unsigned what, int pages, int64_t *id, char (*exec)[32], size_t *n)
{
	struct trace t;
	struct rpd_error err;
	const char *paths[] = { path };
	struct load_options lo = { .what = what };
	if (!pages)
		setenv("RPDTOP_PAGESCAN", "0", 1);
	CHECK(trace_load(&t, paths, 1, &lo, &err) == 0);
	unsetenv("RPDTOP_PAGESCAN");
	*n = t.graphs.n < 64 ? t.graphs.n : 64;
	for (size_t i = 0; i < *n; i++) {
		id[i] = trace_api_id(&t, t.graphs.api[i]);
		snprintf(exec[i], sizeof(exec[i]), "%s", str(&t, t.graphs.exec[i]));
	}
	trace_free(&t);
}

/* The graphs of the graph launch calls the page reader met equal those
 * SQL finds, with every call read or the launching ones alone; so they do
 * with a call whose args are missing, and past 8 names of graph launches
 * (then found the way SQL finds them). */
static void check_graph_names(const char *path, size_t want)
{
	static int64_t id[4][64];
	static char exec[4][64][32];
	size_t n[4];
	graphs_of(path, LOAD_ALL, 0, id[0], exec[0], &n[0]);
	graphs_of(path, LOAD_ALL, 1, id[1], exec[1], &n[1]);
	graphs_of(path, LOAD_ALL | LOAD_LAUNCHES, 1, id[2], exec[2], &n[2]);
	graphs_of(path, LOAD_ALL | LOAD_LAUNCHES, 0, id[3], exec[3], &n[3]);
	CHECK_INT(n[0], want);
	for (int w = 1; w < 4; w++) {
		CHECK_INT(n[w], n[0]);
		for (size_t i = 0; i < n[0] && i < n[w]; i++) {
			CHECK_INT(id[w][i], id[0][i]);
			CHECK_STR(exec[w][i], exec[0][i]);
		}
	}
}

static void test_graph_names(const char *dir)
{
	char path[512];
	struct gen_params p = { .seed = 3, .ops = 2000, .gpus = 1, .graphs = 1 };
	write_rpd(dir, "graphs.rpd", &p, path, sizeof(path));
	sqlite3 *db;
	CHECK(sqlite3_open(path, &db) == SQLITE_OK);
	sqlite3_stmt *st;
	CHECK(sqlite3_prepare_v2(
		      db,
		      "SELECT count(*) FROM rocpd_api a JOIN rocpd_string s ON s.id = a.apiName_id "
		      "WHERE s.string = 'hipGraphLaunch'",
		      -1, &st, NULL) == SQLITE_OK);
	CHECK(sqlite3_step(st) == SQLITE_ROW);
	size_t launches = (size_t)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	CHECK(launches > 2 && launches <= 64);
	check_graph_names(path, launches);
	exec_ok(path,
		"UPDATE rocpd_api SET args_id = 999999999 WHERE id = (SELECT min(a.id) FROM rocpd_api a "
		"JOIN rocpd_string s ON s.id = a.apiName_id WHERE s.string = 'hipGraphLaunch')");
	check_graph_names(path, launches - 1);
	exec_ok(path,
		"INSERT INTO rocpd_string (string) VALUES ('hipGraphLaunch_a'), ('hipGraphLaunch_b'), "
		"('hipGraphLaunch_c'), ('hipGraphLaunch_d'), ('hipGraphLaunch_e'), ('hipGraphLaunch_f'), "
		"('hipGraphLaunch_g'), ('hipGraphLaunch_h'), ('cuGraphLaunchx')");
	check_graph_names(path, launches - 1);
	unlink(path);
	/* Graph launch calls in every part of a read on three threads. */
	struct gen_params big = { .seed = 5, .ops = 40000, .gpus = 2, .graphs = 1 };
	write_rpd(dir, "graphs-big.rpd", &big, path, sizeof(path));
	check_no_markers(path, "graph launches", 1);
	unlink(path);
}

/* The leaves kept for a few rowids are exactly those whose range holds
 * one: leaf i holds the keys above upper[i - 1] up to upper[i]. */
static void test_keep_keys(void)
{
	unsigned seed = 7;
	for (int round = 0; round < 200 && !check_failures; round++) {
		size_t nleaves = (size_t)(rand_r(&seed) % 40), nkeys = (size_t)(rand_r(&seed) % 12);
		struct pagescan_table tab = { 0 };
		tab.leaf = xmalloc_array(nleaves + 1, sizeof(*tab.leaf));
		tab.upper = xmalloc_array(nleaves + 1, sizeof(*tab.upper));
		int64_t *upper = xmalloc_array(nleaves + 1, sizeof(*upper)), u = -5, keys[12];
		for (size_t i = 0; i < nleaves; i++) {
			u += 1 + rand_r(&seed) % 4;
			tab.leaf[i] = (uint32_t)(i + 2);
			tab.upper[i] = upper[i] = i + 1 == nleaves && round % 2 ? INT64_MAX : u;
		}
		tab.nleaves = nleaves;
		int64_t k = -8;
		for (size_t j = 0; j < nkeys; j++)
			keys[j] = k += rand_r(&seed) % 9;
		pagescan_keep_keys(&tab, keys, nkeys);
		size_t kept = 0;
		for (size_t i = 0; i < nleaves; i++) {
			int64_t below = i ? upper[i - 1] : INT64_MIN;
			int holds = 0;
			for (size_t j = 0; j < nkeys; j++)
				holds |= keys[j] > below && keys[j] <= upper[i];
			if (!holds)
				continue;
			CHECK(kept < tab.nleaves);
			if (kept >= tab.nleaves)
				break;
			CHECK_INT(tab.leaf[kept], i + 2);
			CHECK_INT(tab.upper[kept], upper[i]);
			kept++;
		}
		CHECK_INT(tab.nleaves, kept);
		free(upper);
		pagescan_table_free(&tab);
	}
}

/* Launching calls far apart: the leaves between them are left unread, and
 * every op still gets its call. */
static void test_launches_apart(const char *dir)
{
	char path[512];
	struct gen_params p = { .seed = 11, .ops = 40000, .gpus = 2 };
	write_rpd(dir, "apart.rpd", &p, path, sizeof(path));
	exec_ok(path, "DELETE FROM rocpd_api_ops WHERE api_id % 2000 >= 150");
	check_launches(path, "launching calls far apart", 1);
	/* A launching call's id past 32 bits, whose low 32 bits are another
	 * call's id. */
	exec_ok(path,
		"CREATE TEMP TABLE m AS SELECT max(api_id) AS id FROM rocpd_api_ops;"
		"UPDATE rocpd_api_ops SET api_id = 4294967295 + api_id WHERE api_id = (SELECT id FROM m);"
		"UPDATE rocpd_api SET id = 4294967295 + id WHERE id = (SELECT id FROM m)");
	check_launches(path, "a launching call's id past 32 bits", 1);
	unlink(path);
}

static void test_paths(const char *dir)
{
	char path[512];
	struct gen_params big = { .seed = 9, .ops = 60000, .gpus = 2 };
	write_rpd(dir, "paths.rpd", &big, path, sizeof(path));
	check_paths_agree(path, "generated", 3);
	check_launches(path, "generated", 1);
	check_no_markers(path, "generated", 1);
	check_no_markers(path, "generated, through SQL", 0);
	test_cap(path);
	check_ids(path, 0);
	check_scan_agree(path, "generated");
	check_background(path);
	check_order_while_read(path);
	/* Gaps in the ids, links to missing rows, a value that is text. */
	exec_ok(path, "DELETE FROM rocpd_op WHERE id % 7 = 0; DELETE FROM rocpd_api WHERE id % 11 = 0;"
		      "UPDATE rocpd_op SET start = 'x' WHERE id = 5;");
	check_paths_agree(path, "gaps and text", 2);
	exec_ok(path, "UPDATE rocpd_op SET start = 0 WHERE id = 5;");
	check_paths_agree(path, "gaps", 3);
	check_launches(path, "links to missing calls", 0);
	check_no_markers(path, "links to missing calls", 1);
	exec_ok(path, "DELETE FROM rocpd_api_ops WHERE api_id NOT IN (SELECT id FROM rocpd_api)");
	check_launches(path, "ids with gaps", 1);
	check_no_markers(path, "ids with gaps", 1);
	check_ids(path, 1);
	exec_ok(path, "UPDATE rocpd_op SET start = start WHERE id = 5 AND 0;"
		      "ALTER TABLE rocpd_op ADD COLUMN extra integer DEFAULT 3;"
		      "INSERT INTO rocpd_op (gpuId, queueId, sequenceId, completionSignal, start, end,"
		      " description_id, opType_id, extra) SELECT gpuId, queueId, 0, '', start, end,"
		      " description_id, opType_id, 4 FROM rocpd_op WHERE id = 1;");
	check_paths_agree(path, "added column (not read)", 3);
	exec_ok(path, "ALTER TABLE rocpd_op RENAME COLUMN opType_id TO t; ALTER TABLE rocpd_op ADD COLUMN "
		      "opType_id integer DEFAULT 2;");
	check_paths_agree(path, "added column (read)", 2);
	exec_ok(path, "DELETE FROM rocpd_op WHERE extra = 4; ALTER TABLE rocpd_op DROP COLUMN extra; ALTER "
		      "TABLE rocpd_op DROP COLUMN opType_id;"
		      "ALTER TABLE rocpd_op RENAME COLUMN t TO opType_id; VACUUM;");
	check_paths_agree(path, "column dropped", 3);
	/* Commits still in the write-ahead log are read, through SQL. */
	sqlite3 *db;
	CHECK(sqlite3_open(path, &db) == SQLITE_OK);
	CHECK(sqlite3_exec(db,
			   "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;"
			   "UPDATE rocpd_op SET end = end + 1;",
			   NULL, NULL, NULL) == SQLITE_OK);
	check_paths_agree(path, "write-ahead log", 0);
	sqlite3_close(db);
	check_paths_agree(path, "write-ahead log checkpointed", 3);
	exec_ok(path, "PRAGMA journal_mode = DELETE; PRAGMA page_size = 65536; VACUUM;");
	check_paths_agree(path, "64 KiB pages", 3);
	check_scan_agree(path, "64 KiB pages");
	/* A scan whose pages give out near the end starts over in SQL and
	 * still gives each row once. */
	exec_ok(path, "UPDATE rocpd_api_ops SET op_id = 'x' WHERE rowid = (SELECT max(rowid) - 3 FROM "
		      "rocpd_api_ops)");
	check_scan_agree(path, "text in the last leaf");
	unlink(path);
}

/* Tables whose integer key is declared "PRIMARY KEY DESC": SQLite then
 * keeps the key as a column of its own, not as the rowid. */
static void rekey(const char *path, const char *table, const char *columns, const char *order)
{
	char sql[2048];
	snprintf(
		sql, sizeof(sql),
		"DROP VIEW IF EXISTS op; DROP VIEW IF EXISTS api; DROP VIEW IF EXISTS top; DROP VIEW IF "
		"EXISTS busy; DROP VIEW IF EXISTS ktop; DROP VIEW IF EXISTS kernel; DROP VIEW IF EXISTS copy;"
		"DROP VIEW IF EXISTS copyop;"
		"CREATE TABLE k (\"id\" integer NOT NULL PRIMARY KEY DESC, %s);"
		"INSERT INTO k SELECT * FROM %s ORDER BY %s; DROP TABLE %s; ALTER TABLE k RENAME TO %s;",
		columns, table, order, table, table);
	exec_ok(path, sql);
}

static void test_desc_keys(const char *dir)
{
	static const char op_cols[] = "\"gpuId\" integer, \"queueId\" integer, \"sequenceId\" integer, "
				      "\"completionSignal\" varchar(18), \"start\" integer, \"end\" integer, "
				      "\"description_id\" integer, \"opType_id\" integer";
	static const char api_cols[] = "\"pid\" integer, \"tid\" integer, \"start\" integer, \"end\" "
				       "integer, \"apiName_id\" integer, \"args_id\" integer";
	char path[512];
	struct rpd_error err;
	struct gen_params small = { .seed = 4, .ops = 5000, .gpus = 2 };
	write_rpd(dir, "desc.rpd", &small, path, sizeof(path));
	exec_ok(path,
		"UPDATE rocpd_op SET id = id + 100000; UPDATE rocpd_api_ops SET op_id = op_id + 100000;");
	struct trace ref;
	const char *paths[] = { path };
	CHECK(trace_load(&ref, paths, 1, &all, &err) == 0);
	CHECK_INT(trace_op_id(&ref, 0), 100001);
	/* Keys in rowid order but not equal to the rowid (1, 2, ...): read
	 * as stored. */
	rekey(path, "rocpd_op", op_cols, "id");
	check_paths_agree(path, "keys that are not the rowid, rising", 3);
	rekey(path, "rocpd_api", api_cols, "id");
	check_launches(path, "call ids that are not the rowid, rising", 1);
	struct trace t;
	CHECK(trace_load(&t, paths, 1, &all, &err) == 0);
	check_identical(&ref, &t);
	trace_free(&t);
	/* Keys that fall in rowid order: the loader reads them in id order. */
	rekey(path, "rocpd_op", op_cols, "id DESC");
	rekey(path, "rocpd_api", api_cols, "random()");
	check_paths_agree(path, "keys that are not the rowid, any order", 1);
	check_launches(path, "call ids that are not the rowid, in any order", 0);
	CHECK(trace_load(&t, paths, 1, &all, &err) == 0);
	check_identical(&ref, &t);
	trace_free(&t);
	trace_free(&ref);
	unlink(path);
}

static size_t count_name(const struct trace *t, const char *name)
{
	size_t n = 0;
	for (size_t i = 0; i < t->apis.n; i++)
		n += strcmp(str(t, trace_api_name(t, i)), name) == 0;
	return n;
}

/* Rows as sorted text, so that traces whose rows come in another order
 * (rocpd keeps kernels and copies in two tables) can be compared. */
static int by_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char **canonical_ops(const struct trace *t)
{
	char **rows = xmalloc_array(t->ops.n, sizeof(*rows));
	for (size_t i = 0; i < t->ops.n; i++) {
		uint32_t a = t->op_launch[i];
		char buf[4096];
		const struct trace_queue *q = &t->queues[t->ops.queue[i]];
		/* Queue numbers are not compared: rocpd numbers queues across
		 * GPUs, rpd within each. */
		snprintf(buf, sizeof(buf), "%lld %lld %s %d gpu%lld launch %lld %s",
			 (long long)t->ops.start[i], (long long)t->ops.end[i], str(t, t->ops.name[i]),
			 t->ops.kind[i], (long long)t->gpus[q->gpu].device,
			 a == TRACE_NONE ? -1LL : (long long)t->apis.start[a],
			 a == TRACE_NONE ? "-" : str(t, trace_api_name(t, a)));
		rows[i] = xstrdup(buf);
	}
	qsort(rows, t->ops.n, sizeof(*rows), by_text);
	return rows;
}

/* API rows; arguments only for markers, whose text rocpd keeps. A call
 * without a duration other than a marker is a rocpd sample, which keeps
 * no name: its name is not compared. */
static char **canonical_apis(const struct trace *t)
{
	char **rows = xmalloc_array(t->apis.n, sizeof(*rows));
	for (size_t i = 0; i < t->apis.n; i++) {
		const char *name = str(t, trace_api_name(t, i));
		if (t->apis.start[i] == t->apis.end[i] && strcmp(name, "UserMarker") != 0)
			name = "-";
		const struct trace_thread *th = &t->threads[t->apis.thread[i]];
		char buf[4096];
		snprintf(buf, sizeof(buf), "%lld %lld %s %s %lld/%lld", (long long)t->apis.start[i],
			 (long long)t->apis.end[i], name, strcmp(name, "UserMarker") == 0 ? text(t, i) : "",
			 (long long)th->pid, (long long)th->tid);
		rows[i] = xstrdup(buf);
	}
	qsort(rows, t->apis.n, sizeof(*rows), by_text);
	return rows;
}

static void check_same_rows(char **a, char **b, size_t n, const char *what)
{
	for (size_t i = 0; i < n; i++) {
		if (strcmp(a[i], b[i]) != 0 && !check_failures) {
			fprintf(stderr, "%s differ:\n  %s\n  %s\n", what, a[i], b[i]);
			check_failures++;
		}
	}
	for (size_t i = 0; i < n; i++) {
		free(a[i]);
		free(b[i]);
	}
	free(a);
	free(b);
}

/* The same generated trace, written as rocpd, reads back as the same rows. */
static void test_rocpd(const char *dir)
{
	char path[512];
	struct rpd_error err;
	struct trace mem, file;
	struct gen_params p = params;
	p.no_barriers = 1;
	snprintf(path, sizeof(path), "%s/gen.db", dir);
	demo_trace_build(&mem, &p);
	struct demo_output rocpd = { .format = INPUT_ROCPD, .node = "node7" };
	CHECK(demo_write_file(path, &p, &rocpd, &err) == 0);
	const char *paths[] = { path };
	CHECK(trace_load(&file, paths, 1, &all, &err) == 0);
	CHECK_INT(file.inputs[0].format, INPUT_ROCPD);
	CHECK_STR(file.domains[file.inputs[0].domain].node, "node7");
	CHECK_INT(file.ops.n, mem.ops.n);
	CHECK_INT(file.apis.n, mem.apis.n);
	CHECK_INT(launched_ops(&file), launched_ops(&mem));
	CHECK_INT(file.nqueues, mem.nqueues);
	if (file.ops.n == mem.ops.n && file.apis.n == mem.apis.n) {
		check_same_rows(canonical_ops(&mem), canonical_ops(&file), mem.ops.n, "ops");
		check_same_rows(canonical_apis(&mem), canonical_apis(&file), mem.apis.n, "api rows");
	}
	trace_free(&file);
	trace_free(&mem);
	unlink(path);
}

static void test_real(void)
{
	const char *data = getenv("RPDTOP_TEST_DATA");
	char path[1024];
	struct trace t;
	struct rpd_error err;
	snprintf(path, sizeof(path), "%s/mytrace.rpd", data ? data : "");
	if (!data || access(path, R_OK) != 0) {
		fprintf(stderr, "SKIP (part): %s not found\n", path);
		return;
	}
	const char *paths[] = { path };
	check_paths_agree(path, "mytrace.rpd", 3);
	check_background(path);
	CHECK(trace_load(&t, paths, 1, &all, &err) == 0);
	CHECK_INT(t.ops.n, 10124);
	CHECK_INT(t.apis.n, 14736);
	CHECK_INT(t.links.n, 0); /* done with once op_launch is made */
	CHECK_INT(count_name(&t, "UserMarker"), 11884);
	CHECK_INT(count_name(&t, "hipLaunchKernel"), 972);
	CHECK_INT(t.op_first_start, 3489389201751353LL);
	CHECK_INT(t.op_last_end, 3489389654719306LL);
	size_t launched = 0;
	for (size_t i = 0; i < t.ops.n; i++)
		launched += t.op_launch[i] != TRACE_NONE;
	CHECK_INT(launched, 10124);
	/* Ids above 2^32 are kept whole. */
	CHECK_INT(trace_op_id(&t, 0), 4294967297LL);
	trace_free(&t);

	/* Reports load the ops alone; the API rows can follow. */
	CHECK(trace_load(&t, paths, 1, &ops_only, &err) == 0);
	CHECK_INT(t.ops.n, 10124);
	CHECK_INT(t.apis.n, 0);
	CHECK(trace_load_apis(&t, &err) == 0);
	CHECK_INT(t.apis.n, 14736);
	CHECK_INT(t.links.n, 0); /* done with once op_launch is made */
	CHECK_INT(count_name(&t, "UserMarker"), 11884);
	launched = 0;
	for (size_t i = 0; i < t.ops.n; i++)
		launched += t.op_launch[i] != TRACE_NONE;
	CHECK_INT(launched, 10124);
	trace_free(&t);
}

static void copy_file(const char *from, const char *to)
{
	FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
	char buf[65536];
	size_t n;
	CHECK(in && out);
	while (in && out && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		CHECK(fwrite(buf, 1, n, out) == n);
	if (in)
		fclose(in);
	if (out)
		CHECK(fclose(out) == 0);
}

/* The span of the inputs' ops read without loading them is the one the
 * load finds, the same inputs left out or failing as it. */
static void check_span(const char *const *paths, size_t n, int skip_bad, const char *what)
{
	struct load_options o = { .what = LOAD_OPS, .skip_bad = skip_bad, .allow_empty = 1 };
	struct load_skipped skipped = { 0 };
	struct rpd_error err_load = { { 0 } }, err_span = { { 0 } };
	struct op_span s;
	struct trace t;
	o.skipped = skip_bad ? &skipped : NULL;
	int rc_load = trace_load(&t, paths, n, &o, &err_load);
	int rc_span = load_span(paths, n, skip_bad, &s, &err_span);
	CHECK_INT(rc_span, rc_load);
	if (rc_load == 0 && rc_span == 0) {
		CHECK_INT(s.ops, t.ops.n);
		CHECK_INT(s.first, t.op_first_start);
		CHECK_INT(s.last, t.op_last_end);
		trace_free(&t);
	} else {
		CHECK_STR(err_span.msg, err_load.msg);
	}
	if (check_failures)
		fprintf(stderr, "span of %s\n", what);
	load_skipped_free(&skipped);
}

static void test_span(const char *dir)
{
	char rpd[512], db[512], copy[512], bad[512], missing[512];
	struct rpd_error err;
	struct gen_params p = params;
	struct demo_output as_rpd = { .format = INPUT_RPD },
			   as_rocpd = { .format = INPUT_ROCPD, .node = "n1" };
	snprintf(rpd, sizeof(rpd), "%s/span.rpd", dir);
	snprintf(db, sizeof(db), "%s/span.db", dir);
	snprintf(copy, sizeof(copy), "%s/span-copy.db", dir);
	snprintf(bad, sizeof(bad), "%s/bad.db", dir);
	snprintf(missing, sizeof(missing), "%s/none.rpd", dir);
	CHECK(demo_write_file(rpd, &p, &as_rpd, &err) == 0);
	p.seed = 6;
	p.no_barriers = 1;
	CHECK(demo_write_file(db, &p, &as_rocpd, &err) == 0);
	/* The same process again under another name: counted once. */
	copy_file(db, copy);
	FILE *f = fopen(bad, "w");
	CHECK(f && fputs("not a database", f) >= 0 && fclose(f) == 0);
	const char *one[] = { rpd }, *both[] = { rpd, db }, *twice[] = { db, copy },
		   *with_bad[] = { rpd, bad, db }, *with_missing[] = { missing, rpd };
	check_span(one, 1, 0, "an rpd file");
	check_span(both, 2, 0, "an rpd and a rocpd file");
	check_span(twice, 2, 0, "a process twice");
	check_span(with_bad, 3, 0, "a bad input");
	check_span(with_bad, 3, 1, "a bad input skipped");
	check_span(with_missing, 2, 0, "a missing input");
	check_span(with_missing, 2, 1, "a missing input skipped");
	const char *data = getenv("RPDTOP_TEST_DATA");
	const char *real[] = { "mytrace.rpd", "matmul_result.rpd", "rocpd-rank0.db", "rocpd-rank1.db" };
	for (size_t i = 0; data && i < sizeof(real) / sizeof(real[0]); i++) {
		char path[1024];
		snprintf(path, sizeof(path), "%s/%s", data, real[i]);
		const char *paths[] = { path };
		if (access(path, R_OK) == 0)
			check_span(paths, 1, 0, real[i]);
	}
	unlink(rpd);
	unlink(db);
	unlink(copy);
	unlink(bad);
}

/* A Kineto trace read every way the load reads one: in one pass (the
 * viewer's load brings the API rows with the ops), its ops first and its
 * API rows after (at once, and apart on another thread), its span alone;
 * beside an rpd file, whose API rows the viewer's load then reads too. */
static void test_kineto_ways(const char *dir)
{
	char json[512], rpd[512];
	struct rpd_error err;
	struct gen_params p = params;
	p.graphs = 1;
	p.no_barriers = 1;
	struct demo_output as_kineto = { .format = INPUT_KINETO }, as_rpd = { .format = INPUT_RPD };
	snprintf(json, sizeof(json), "%s/ways.json.gz", dir);
	snprintf(rpd, sizeof(rpd), "%s/ways.rpd", dir);
	CHECK(demo_write_file(json, &p, &as_kineto, &err) == 0);
	CHECK(demo_write_file(rpd, &p, &as_rpd, &err) == 0);
	const char *paths[] = { json }, *mixed[] = { rpd, json };
	struct trace whole, viewer, later, apart;
	CHECK(trace_load(&whole, paths, 1, &all, &err) == 0);
	CHECK(whole.apis_read && whole.apis.n > 0 && launched_ops(&whole) == whole.ops.n);
	CHECK(trace_load(&viewer, paths, 1, &ops_only, &err) == 0);
	CHECK(viewer.apis_read);
	check_same(&whole, &viewer);
	/* The ops alone (ids kept), then the API rows. */
	for (int way = 0; way < 2; way++) {
		struct trace *t = way ? &apart : &later;
		trace_init(t);
		CHECK(kineto_read(t, json, LOAD_OPS | LOAD_NO_OP_IDS, &err) == 0);
		trace_finish(t);
		CHECK_INT(t->apis.n, 0);
		CHECK(!t->apis_read && !t->inputs[0].apis_with_ops);
		if (way == 0) {
			CHECK(trace_load_apis(t, &err) == 0);
		} else {
			struct bg_apis *b = bg_apis_start(t);
			struct api_order order = { 0 };
			CHECK(b != NULL);
			CHECK(b && bg_apis_finish(b, t, &order, &err) == 0);
			api_order_free(&order);
		}
		check_same(&whole, t);
		trace_free(t);
	}
	/* A trace that has its API rows is not read again. */
	CHECK(bg_apis_start(&viewer) == NULL);
	check_span(paths, 1, 0, "a Kineto trace");
	check_span(mixed, 2, 0, "an rpd file and a Kineto trace");
	struct trace one_rpd, mix;
	CHECK(trace_load(&one_rpd, mixed, 1, &all, &err) == 0);
	CHECK(trace_load(&mix, mixed, 2, &ops_only, &err) == 0);
	CHECK(mix.apis_read);
	CHECK_INT(mix.apis.n, one_rpd.apis.n + whole.apis.n);
	CHECK_INT(launched_ops(&mix), launched_ops(&one_rpd) + launched_ops(&whole));
	trace_free(&mix);
	trace_free(&one_rpd);
	trace_free(&viewer);
	trace_free(&whole);
	unlink(json);
	unlink(rpd);
}

/* A rocprofv3 JSON trace read every way the load reads one: in one pass
 * (the viewer's load brings the API rows with the ops), its ops first and
 * its API rows after (at once, and apart on another thread), its span
 * alone; beside an rpd file, whose API rows the viewer's load then reads
 * too; and as the same trace written as an rpd file: as many ops, calls,
 * launches, texts and copies' sizes. */
static void test_rocprofv3_ways(const char *dir)
{
	char json[512], rpd[512];
	struct rpd_error err;
	struct gen_params p = params;
	p.graphs = 1;
	p.no_barriers = 1;
	struct demo_output as_json = { .format = INPUT_ROCPROFV3 }, as_rpd = { .format = INPUT_RPD };
	snprintf(json, sizeof(json), "%s/ways-rocprofv3.json.gz", dir);
	snprintf(rpd, sizeof(rpd), "%s/ways-rocprofv3.rpd", dir);
	CHECK(demo_write_file(json, &p, &as_json, &err) == 0);
	CHECK(demo_write_file(rpd, &p, &as_rpd, &err) == 0);
	const char *paths[] = { json }, *mixed[] = { rpd, json };
	struct trace whole, viewer, later, apart;
	CHECK(trace_load(&whole, paths, 1, &all, &err) == 0);
	CHECK(whole.apis_read && whole.apis.n > 0 && launched_ops(&whole) == whole.ops.n);
	CHECK_INT(whole.inputs[0].format, INPUT_ROCPROFV3);
	CHECK(trace_load(&viewer, paths, 1, &ops_only, &err) == 0);
	CHECK(viewer.apis_read);
	check_same(&whole, &viewer);
	/* The ops alone (ids kept), then the API rows. */
	for (int way = 0; way < 2; way++) {
		struct trace *t = way ? &apart : &later;
		trace_init(t);
		CHECK(rocprofv3_read(t, json, LOAD_OPS | LOAD_NO_OP_IDS, &err) == 0);
		trace_finish(t);
		CHECK_INT(t->apis.n, 0);
		CHECK(!t->apis_read && !t->inputs[0].apis_with_ops);
		if (way == 0) {
			CHECK(trace_load_apis(t, &err) == 0);
		} else {
			struct bg_apis *b = bg_apis_start(t);
			struct api_order order = { 0 };
			CHECK(b != NULL);
			CHECK(b && bg_apis_finish(b, t, &order, &err) == 0);
			api_order_free(&order);
		}
		check_same(&whole, t);
		CHECK_INT(t->copies.n, whole.copies.n);
		trace_free(t);
	}
	CHECK(bg_apis_start(&viewer) == NULL);
	check_span(paths, 1, 0, "a rocprofv3 trace");
	check_span(mixed, 2, 0, "an rpd file and a rocprofv3 trace");
	/* The same trace as an rpd file (its rows in another order). */
	struct trace one_rpd, mix;
	CHECK(trace_load(&one_rpd, mixed, 1, &all, &err) == 0);
	CHECK_INT(whole.ops.n, one_rpd.ops.n);
	CHECK_INT(whole.apis.n, one_rpd.apis.n);
	CHECK_INT(launched_ops(&whole), launched_ops(&one_rpd));
	CHECK_INT(whole.copies.n, one_rpd.copies.n);
	CHECK_INT(trace_api_texts(&whole), trace_api_texts(&one_rpd));
	CHECK_INT(whole.ngpus, one_rpd.ngpus);
	CHECK_INT(whole.nthreads, one_rpd.nthreads);
	CHECK(trace_load(&mix, mixed, 2, &ops_only, &err) == 0);
	CHECK(mix.apis_read);
	CHECK_INT(mix.apis.n, one_rpd.apis.n + whole.apis.n);
	CHECK_INT(launched_ops(&mix), launched_ops(&one_rpd) + launched_ops(&whole));
	trace_free(&mix);
	trace_free(&one_rpd);
	trace_free(&viewer);
	trace_free(&whole);
	unlink(json);
	unlink(rpd);
}

/* Whole numbers of 64 bits without sign, as rocprofv3's ids are read. */
static void test_rocprofv3_numbers(void)
{
	uint64_t v = 0;
	CHECK_INT(rocprofv3_u64("18446744073709551615", 20, &v), R3BAD_NONE);
	CHECK(v == UINT64_MAX);
	CHECK_INT(rocprofv3_u64("18446744073709551616", 20, &v), R3BAD_RANGE);
	CHECK_INT(rocprofv3_u64("4.2e1", 5, &v), R3BAD_NONE);
	CHECK(v == 42);
	CHECK_INT(rocprofv3_u64("-0", 2, &v), R3BAD_NONE);
	CHECK(v == 0);
	CHECK_INT(rocprofv3_u64("-1", 2, &v), R3BAD_NEGATIVE);
	CHECK_INT(rocprofv3_u64("-1e400", 6, &v), R3BAD_NEGATIVE);
	CHECK_INT(rocprofv3_u64("1e400", 5, &v), R3BAD_RANGE);
	CHECK_INT(rocprofv3_u64("1.5", 3, &v), R3BAD_WHOLE);
}

/* A file of another tool whose ops and calls are tables of their own (an
 * Nsight Systems export, a rocprof results.db) read every way the load
 * reads one: at once, its ops first and its API rows after (at once, and
 * apart on another thread, as the viewer reads them), its span alone;
 * beside an rpd file; and as the same trace written as an rpd file: the
 * same ops, calls and launches, and copies' sizes where the format has
 * them. */
struct tabled_way {
	int format, version;
	const char *file, *what; /* a file name, what it is */
	int copies;              /* copies' sizes are read */
};

/* The rows of an Nsight Systems export walked as the export walks them:
 * each op's and call's number is the id the reader gave the row. */
struct numbered {
	const struct trace *t;
	size_t ops, calls, wrong;
};

static int numbered_op(void *ctx, const struct nsys_row *r)
{
	struct numbered *n = ctx;
	uint32_t at = trace_op_row(n->t, 0, r->id);
	n->ops++;
	n->wrong += at == TRACE_NONE || n->t->ops.start[at] != r->start || n->t->ops.end[at] != r->end;
	return 0;
}

static int numbered_call(void *ctx, const struct nsys_row *r)
{
	struct numbered *n = ctx;
	if (r->id == 0)
		return 0;
	uint32_t at = trace_api_find(n->t, 0, n->t->apis.n, r->id);
	n->calls++;
	n->wrong += at == TRACE_NONE || n->t->apis.start[at] != r->start;
	return 0;
}

static void numbered_forget(void *ctx, enum nsys_table table)
{
	struct numbered *n = ctx;
	(void)table;
	n->ops = n->calls = n->wrong = 0;
}

/* Through the tables' pages and through SQL alike. */
static void check_numbering(const char *path, const char *what)
{
	struct trace t;
	struct rpd_error err;
	const char *paths[] = { path };
	fprintf(stderr, "numbering: %s\n", what);
	CHECK(trace_load(&t, paths, 1, &all, &err) == 0);
	for (int sql = 0; sql < 2; sql++) {
		sqlite3 *db;
		struct nsys_file f;
		struct numbered n = { .t = &t };
		if (sql)
			setenv("RPDTOP_PAGESCAN", "0", 1);
		CHECK(dbfile_open(path, &db, &err) == 0);
		CHECK(nsys_detect(db, path, &f, &err) == 0);
		CHECK_INT(nsys_rows_each(db, &f, 0, numbered_op, numbered_forget, &n), SQLITE_OK);
		struct numbered c = { .t = &t };
		CHECK_INT(nsys_rows_each(db, &f, 1, numbered_call, numbered_forget, &c), SQLITE_OK);
		CHECK_INT(n.ops, t.ops.n);
		CHECK_INT(c.calls, t.apis.n);
		CHECK_INT(n.wrong + c.wrong, 0);
		sqlite3_close(db);
		unsetenv("RPDTOP_PAGESCAN");
	}
	trace_free(&t);
}

static void test_tabled_ways(const char *dir, const struct tabled_way *w)
{
	char file[512], rpd[512], with_rpd[600];
	struct rpd_error err;
	struct gen_params p = params;
	p.graphs = 1;
	p.no_barriers = 1;
	struct demo_output as_file = { .format = w->format }, as_rpd = { .format = INPUT_RPD };
	snprintf(file, sizeof(file), "%s/%s", dir, w->file);
	snprintf(rpd, sizeof(rpd), "%s/ways-%d.rpd", dir, w->format);
	snprintf(with_rpd, sizeof(with_rpd), "an rpd file and %s", w->what);
	CHECK(demo_write_file(file, &p, &as_file, &err) == 0);
	CHECK(demo_write_file(rpd, &p, &as_rpd, &err) == 0);
	const char *paths[] = { file }, *mixed[] = { rpd, file };
	struct trace whole, as_rpd_file, t;
	CHECK(trace_load(&whole, paths, 1, &all, &err) == 0);
	CHECK(whole.apis_read && whole.apis.n > 0 && launched_ops(&whole) > 0);
	CHECK_INT(whole.inputs[0].format, w->format);
	CHECK_INT(whole.inputs[0].schema_version, w->version);
	CHECK(trace_load(&as_rpd_file, mixed, 1, &all, &err) == 0);
	CHECK_INT(whole.ops.n, as_rpd_file.ops.n);
	CHECK_INT(whole.apis.n, as_rpd_file.apis.n);
	CHECK_INT(launched_ops(&whole), launched_ops(&as_rpd_file));
	CHECK_INT(whole.copies.n, w->copies ? as_rpd_file.copies.n : 0);
	CHECK_INT(trace_api_texts(&whole), trace_api_texts(&as_rpd_file));
	/* The ops alone, then the API rows. */
	for (int way = 0; way < 2; way++) {
		CHECK(trace_load(&t, paths, 1, &ops_only, &err) == 0);
		CHECK(!t.apis_read && t.apis.n == 0 && !t.inputs[0].apis_with_ops);
		if (way == 0) {
			CHECK(trace_load_apis(&t, &err) == 0);
		} else {
			struct bg_apis *b = bg_apis_start(&t);
			struct api_order order = { 0 };
			CHECK(b != NULL);
			CHECK(b && bg_apis_finish(b, &t, &order, &err) == 0);
			api_order_free(&order);
		}
		check_same(&whole, &t);
		CHECK_INT(t.copies.n, whole.copies.n);
		trace_free(&t);
	}
	check_span(paths, 1, 0, w->what);
	check_span(mixed, 2, 0, with_rpd);
	CHECK(trace_load(&t, mixed, 2, &ops_only, &err) == 0);
	CHECK(trace_load_apis(&t, &err) == 0);
	CHECK_INT(t.apis.n, as_rpd_file.apis.n + whole.apis.n);
	CHECK_INT(launched_ops(&t), launched_ops(&as_rpd_file) + launched_ops(&whole));
	trace_free(&t);
	trace_free(&as_rpd_file);
	trace_free(&whole);
	if (w->format == INPUT_NSYS) {
		/* An export's kernels and memsets (none here) come from the
		 * tables' pages, as SQL reads them; a row the page reader would
		 * take for another (a NULL demangledName, named by its
		 * shortName) or that SQL refuses gives the table back to SQL. */
		check_paths_agree(file, "an Nsight Systems export", 2);
		exec_ok(file, "CREATE TABLE k AS SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY rowid; "
			      "DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL; "
			      "ALTER TABLE k RENAME TO CUPTI_ACTIVITY_KIND_KERNEL; "
			      "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET demangledName = NULL "
			      "WHERE rowid = (SELECT max(rowid) / 2 FROM CUPTI_ACTIVITY_KIND_KERNEL)");
		check_paths_agree(file, "an export with a kernel named by its shortName alone", 1);
		exec_ok(file,
			"UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET demangledName = shortName "
			"WHERE demangledName IS NULL; "
			"UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET correlationId = NULL WHERE rowid % 7 = 0");
		check_paths_agree(file, "an export with kernels of no correlationId", 2);
		check_numbering(file, "an export with kernels of no correlationId");
		/* Rows deleted (rowids with gaps), memsets, NVTX rows that are no
		 * calls among the ranges. */
		exec_ok(file,
			"DELETE FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE rowid % 9 = 4; "
			"INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET (start, end, deviceId, contextId, streamId, "
			"correlationId, value, bytes) SELECT start, \"end\", deviceId, 1, 7, correlationId, "
			"0, 64 "
			"FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE rowid % 11 = 0; "
			"DELETE FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE rowid % 13 = 5; "
			"DELETE FROM NVTX_EVENTS WHERE rowid % 5 = 1");
		check_numbering(file, "an export with rows deleted and memsets");
	}
	unlink(file);
	unlink(rpd);
}

/* Inputs read one after another into the same columns (a thousand files
 * of a job): reserving room for each grows the columns geometrically, so
 * the rows are copied a few times, not once per input; one reservation
 * into empty columns takes exactly what is asked. */
static void test_reserve_growth(void)
{
	struct trace t;
	trace_init(&t);
	trace_reserve_apis(&t, 5000);
	CHECK_INT(t.apis.cap, 5000);
	size_t grown = 0, cap = t.apis.cap;
	for (int input = 0; input < 1000; input++) {
		trace_reserve_apis(&t, 5000);
		t.apis.n += 5000; /* as a reader fills them */
		grown += t.apis.cap != cap;
		cap = t.apis.cap;
	}
	CHECK(t.apis.cap >= t.apis.n);
	CHECK(grown < 40); /* 1.5x each time: about 17 */
	t.apis.n = 0;
	trace_free(&t);
}

/* API ids kept as runs, or as a column once they jump too often: every
 * row gives its id and every id its row (within the rows asked), before
 * and after the trace is finished; ids that are not there are not found. */
static void test_id_runs(void)
{
	static const char *const kinds[] = { "one run", "a few runs", "a jump every row" };
	for (int kind = 0; kind < 3; kind++) {
		struct trace t;
		trace_init(&t);
		uint32_t in = trace_add_input(&t, "r.rpd", INPUT_RPD, 2);
		uint32_t th = trace_thread(&t, in, 1, 1), name = strtab_intern(&t.strings, "hipLaunchKernel");
		size_t n = 20000;
		int64_t *ids = xmalloc_array(n, sizeof(*ids));
		for (size_t i = 0; i < n; i++) {
			int64_t step = kind == 0   ? 1
				       : kind == 1 ? (i % 3000 == 0 ? 1000 : 1)
						   : 2 + (int64_t)(i % 3);
			ids[i] = (i ? ids[i - 1] : ((int64_t)1 << 32)) + step;
			trace_add_api(&t, ids[i], (int64_t)i, (int64_t)i + 1, name, TRACE_NONE, th);
		}
		fprintf(stderr, "id runs: %s\n", kinds[kind]);
		for (int pass = 0; pass < 2 && !check_failures; pass++) {
			CHECK_INT(t.apis.id != NULL, kind == 2);
			for (size_t i = 0; i < n && !check_failures; i++) {
				CHECK_INT(trace_api_id(&t, i), ids[i]);
				CHECK_INT(trace_api_find(&t, 0, n, ids[i]), (int64_t)i);
				CHECK_INT(trace_api_find(&t, i, n, ids[i]), (int64_t)i);
				CHECK_INT(trace_api_find(&t, 0, i + 1, ids[i]), (int64_t)i);
				CHECK_INT(trace_api_find(&t, i + 1, n, ids[i]), TRACE_NONE);
				CHECK_INT(trace_api_find(&t, 0, n, ids[i] + 1) == TRACE_NONE,
					  i + 1 == n || ids[i + 1] != ids[i] + 1);
			}
			CHECK_INT(trace_api_find(&t, 0, n, ids[0] - 1), TRACE_NONE);
			CHECK_INT(trace_api_dense_first(&t, 0, n), kind == 0 ? ids[0] : -1);
			CHECK_INT(trace_api_dense_first(&t, 1, 2999), kind == 2 ? -1 : ids[1]);
			trace_finish(&t);
		}
		free(ids);
		trace_free(&t);
	}
}

/* A reading over a file that a writer changes while it is read. */
struct torn {
	const char *path;
	int reads, agains, writes; /* writes: how many readings write */
	int64_t rows;              /* rows the last reading counted */
	int fails;                 /* how many readings fail (a torn file) */
};

static void write_rows(const char *path)
{
	sqlite3 *w;
	CHECK(sqlite3_open(path, &w) == SQLITE_OK);
	/* Under the reader's locks (the last reading) the commit cannot
	 * land: it is refused at once, not waited for. */
	sqlite3_busy_timeout(w, 0);
	sqlite3_exec(w, "INSERT INTO t SELECT x + 100 FROM t LIMIT 5", NULL, NULL, NULL);
	sqlite3_close(w);
}

static int torn_read(void *ctx, sqlite3 *db, const char *path, struct rpd_error *err)
{
	struct torn *r = ctx;
	sqlite3_stmt *st;
	CHECK(strcmp(path, r->path) == 0);
	CHECK(sqlite3_prepare_v2(db, "SELECT count(*) FROM t", -1, &st, NULL) == SQLITE_OK);
	CHECK(sqlite3_step(st) == SQLITE_ROW);
	r->rows = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	int n = r->reads++;
	if (n < r->writes)
		write_rows(path);
	return n < r->fails ? err_set(err, "%s: torn", path) : 0;
}

static void torn_again(void *ctx)
{
	((struct torn *)ctx)->agains++;
}

/* dbfile_read reads a file again when it changed under a reading without
 * locks, whether that reading failed or not, and at last under locks;
 * a failure over a file nobody changed is final. */
static void test_dbfile_read(const char *dir)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/torn.db", dir);
	sqlite3 *db;
	CHECK(sqlite3_open(path, &db) == SQLITE_OK);
	CHECK(sqlite3_exec(db,
			   "CREATE TABLE t (x INTEGER); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL "
			   "SELECT i + 1 FROM n WHERE i < 10) INSERT INTO t SELECT i FROM n",
			   NULL, NULL, NULL) == SQLITE_OK);
	sqlite3_close(db);
	struct rpd_error err;
	struct torn once = { .path = path, .writes = 1, .fails = 1 };
	struct dbfile_reading r = { torn_read, torn_again, &once };
	CHECK_INT(dbfile_read(path, &r, &err), 0);
	CHECK_INT(once.reads, 2);
	CHECK_INT(once.agains, 1);
	CHECK_INT(once.rows, 15);

	struct torn always = { .path = path, .writes = 100 };
	r.ctx = &always;
	CHECK_INT(dbfile_read(path, &r, &err), 0);
	CHECK_INT(always.reads, 4);
	CHECK_INT(always.agains, 3);

	struct torn broken = { .path = path, .fails = 1 };
	r.ctx = &broken;
	/* The reading fails and the file is as it was: said at once. */
	CHECK_INT(dbfile_read(path, &r, &err), -1);
	CHECK_INT(broken.reads, 1);
	CHECK(strstr(err.msg, ": torn") != NULL);
	unlink(path);
}

/* A JSON number's text, as Kineto's microseconds, to nanoseconds. */
static int64_t us(const char *s, enum kineto_bad want)
{
	int64_t v = -7;
	CHECK_INT(kineto_us_to_ns(s, strlen(s), &v), want);
	return v;
}

/* Kineto's times: decimal microseconds read exactly into whole ns, the
 * digits past the ns dropped; a double would lose the last of these. */
static void test_kineto_times(void)
{
	CHECK_INT(us("1414456661601.577", KBAD_NONE), 1414456661601577LL);
	CHECK_INT(us("1767189312000123.456", KBAD_NONE), 1767189312000123456LL);
	CHECK_INT(us("7894", KBAD_NONE), 7894000);
	CHECK_INT(us("0.001", KBAD_NONE), 1);
	CHECK_INT(us("0.0019", KBAD_NONE), 1);
	CHECK_INT(us("-2.5", KBAD_NONE), -2500);
	CHECK_INT(us("1.5e3", KBAD_NONE), 1500000);
	CHECK_INT(us("15E-1", KBAD_NONE), 1500);
	CHECK_INT(us("1e-999999999999", KBAD_NONE), 0);
	CHECK_INT(us("0e999999999999", KBAD_NONE), 0);
	CHECK_INT(us("9223372036854775.807", KBAD_NONE), INT64_MAX);
	us("9223372036854775.808", KBAD_RANGE);
	us("9999999999999999.999", KBAD_RANGE);
	CHECK_INT(us("0000000000000000000001.5", KBAD_NONE), 1500);
	us("1e999999999999", KBAD_RANGE);
	us("1111111111111111111111111111111111111111", KBAD_RANGE);
	us("", KBAD_TYPE);
	us("1.", KBAD_TYPE);
	us("NaN", KBAD_TYPE);
	int64_t v = 0;
	CHECK_INT(kineto_whole("42", 2, &v), KBAD_NONE);
	CHECK_INT(v, 42);
	CHECK_INT(kineto_whole("4.20e1", 6, &v), KBAD_NONE);
	CHECK_INT(v, 42);
	CHECK_INT(kineto_whole("4.5", 3, &v), KBAD_WHOLE);
	CHECK_INT(kineto_whole("7.000", 5, &v), KBAD_NONE);
	CHECK_INT(v, 7);
	CHECK_INT(kineto_whole("9999999999999999999", 19, &v), KBAD_RANGE);
	CHECK_INT(kineto_whole("-9223372036854775807", 20, &v), KBAD_NONE);
	CHECK_INT(v, -INT64_MAX);
}

int main(void)
{
	test_kineto_times();
	test_rocprofv3_numbers();
	test_id_runs();
	test_reserve_growth();
	char dir[] = "/tmp/rpdtop-unit.XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	test_roundtrip(dir);
	test_rocpd(dir);
	test_keep_keys();
	test_busguard();
	test_count_cut_short(dir);
	test_paths(dir);
	test_launches_apart(dir);
	test_graph_names(dir);
	test_desc_keys(dir);
	test_span(dir);
	test_kineto_ways(dir);
	static const struct tabled_way nsys = { INPUT_NSYS, 3, "ways.sqlite", "an Nsight Systems export", 1 },
				       rocprof = { INPUT_ROCPROF, 0, "results.db", "a rocprof results.db",
						   0 };
	test_tabled_ways(dir, &nsys);
	test_tabled_ways(dir, &rocprof);
	test_rocprofv3_ways(dir);
	test_dbfile_read(dir);
	test_decode_widths(dir);
	rmdir(dir);
	test_real();
	return check_done();
}
