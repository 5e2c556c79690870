/* Tables written page by page (btree_build) are databases SQLite accepts
 * whole (integrity_check) and holds the rows it was given: empty, one
 * leaf, deep trees of tiny pages, two tables, rowids of every varint
 * size, records at the size limit and past it, a table's leaves dropped
 * half-way. Then the export: rows copied from the input's pages give the
 * same database, table by table, as the export done all in SQL, also when
 * an input's table must go through SQL and when an index is rebuilt. A
 * table's condition that cannot be built fails the export instead of
 * letting every row of the table through. */
#include "config.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "demo/demo.h"
#include "export/export.h"
#include "export/export_sql.h"
#include "load/load.h"
#include "sqlfile/btree_build.h"
#include "sqlfile/pagescan.h"
#include "util/xalloc.h"

static char dir[] = "/tmp/rpdtop-test-export.XXXXXX";

static void exec(sqlite3 *db, const char *sql)
{
	char *msg = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		fprintf(stderr, "%s: %s\n", sql, msg);
		check_failures++;
	}
	sqlite3_free(msg);
}

/* Every row of a query folded into one number (FNV-1a over types and
 * text), and the row count. */
static uint64_t digest(const char *path, const char *sql, int64_t *rows)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	uint64_t h = 1469598103934665603ull;
	*rows = 0;
	CHECK(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		fprintf(stderr, "%s: %s\n", sql, sqlite3_errmsg(db));
		check_failures++;
		sqlite3_close(db);
		return 0;
	}
	while (sqlite3_step(st) == SQLITE_ROW) {
		for (int c = 0; c < sqlite3_column_count(st); c++) {
			const unsigned char *s = sqlite3_column_text(st, c);
			int n = sqlite3_column_bytes(st, c);
			h = (h ^ (uint64_t)sqlite3_column_type(st, c)) * 1099511628211ull;
			for (int i = 0; s && i < n; i++)
				h = (h ^ s[i]) * 1099511628211ull;
			h = (h ^ 0xff) * 1099511628211ull;
		}
		++*rows;
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	return h;
}

static void check_integrity(const char *path)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	CHECK(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK);
	CHECK(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL) == SQLITE_OK);
	CHECK(sqlite3_step(st) == SQLITE_ROW);
	CHECK_STR((const char *)sqlite3_column_text(st, 0), "ok");
	sqlite3_finalize(st);
	sqlite3_close(db);
}

static const char table_sql[] = "CREATE TABLE t (id INTEGER PRIMARY KEY, a INTEGER, b TEXT, c BLOB)";

/* n rows; rowids spread over every varint length, negative ones first;
 * texts of 0 to 3999 bytes (4061 is the most a 4096-byte leaf holds). */
static void make_source(const char *path, int n)
{
	sqlite3 *db;
	unlink(path);
	CHECK(sqlite3_open(path, &db) == SQLITE_OK);
	exec(db, "PRAGMA page_size = 4096");
	exec(db, table_sql);
	exec(db, "BEGIN");
	sqlite3_stmt *st;
	CHECK(sqlite3_prepare_v2(db, "INSERT INTO t VALUES (?1, ?2, ?3, ?4)", -1, &st, NULL) == SQLITE_OK);
	char *text = xmalloc(4000);
	for (int i = 0; i < n; i++) {
		static const int64_t huge[] = { (int64_t)1 << 56, (int64_t)1 << 62, INT64_MAX };
		int64_t id = i < 3 ? -1000 + i : i < 6 ? huge[i - 3] : (int64_t)i * 37;
		int len = i % 97 == 5 ? 3999 : (i * 131) % 300;
		memset(text, 'a' + i % 26, (size_t)len);
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_int64(st, 2, (int64_t)i * i - 7);
		sqlite3_bind_text(st, 3, text, len, SQLITE_STATIC);
		if (i % 3 && len < 2000)
			sqlite3_bind_blob(st, 4, text, len / 2, SQLITE_STATIC);
		else
			sqlite3_bind_null(st, 4);
		CHECK(sqlite3_step(st) == SQLITE_DONE);
		sqlite3_reset(st);
	}
	free(text);
	sqlite3_finalize(st);
	exec(db, "COMMIT");
	sqlite3_close(db);
}

static int add_cell(void *ctx, const struct pagescan_cell *c)
{
	return leaf_writer_add(ctx, c->rowid, c->record, c->size) != 0;
}

/* src's table t read into two writers' runs (one per half of its leaves). */
static void read_runs(const char *src, struct leaf_writer *w, struct leaf_run *runs)
{
	sqlite3 *db;
	struct pagescan ps;
	struct pagescan_table tab;
	struct pagescan_part parts[2];
	size_t rows;
	static const char *const none[] = { "a" };
	CHECK(sqlite3_open_v2(src, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK);
	CHECK(pagescan_begin(&ps, db) == FAST_DONE);
	CHECK(pagescan_open_table(&ps, "t", none, 1, &tab) == FAST_DONE);
	CHECK(pagescan_count(&ps, &tab, 2, parts, &rows) == FAST_DONE);
	leaf_writer_begin(&w[0]);
	leaf_writer_begin(&w[1]);
	CHECK(pagescan_decode_cells(&ps, &tab, 2, parts, add_cell, (void *const[]){ &w[0], &w[1] }) ==
	      FAST_DONE);
	CHECK(leaf_writer_end(&w[0], &runs[0]) == 0);
	CHECK(leaf_writer_end(&w[1], &runs[1]) == 0);
	pagescan_table_free(&tab);
	pagescan_end(&ps);
	sqlite3_close(db);
}

static uint32_t root_of(sqlite3 *db, const char *table)
{
	sqlite3_stmt *st;
	uint32_t root = 0;
	CHECK(sqlite3_prepare_v2(db, "SELECT rootpage FROM sqlite_master WHERE name = ?1", -1, &st, NULL) ==
	      SQLITE_OK);
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		root = (uint32_t)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return root;
}

/* Copy t of a source of n rows into a new file as t and, a second time,
 * as u; both must read back equal to the source. */
static void check_copy(int n, int max_cells, int max_children)
{
	char src[256], dst[256];
	snprintf(src, sizeof(src), "%s/src.db", dir);
	snprintf(dst, sizeof(dst), "%s/dst.db", dir);
	fprintf(stderr, "copy: %d rows, %d cells a leaf, %d children a page\n", n, max_cells, max_children);
	make_source(src, n);
	sqlite3 *db;
	unlink(dst);
	CHECK(sqlite3_open(dst, &db) == SQLITE_OK);
	exec(db, "PRAGMA page_size = 4096");
	exec(db, table_sql);
	exec(db, "CREATE TABLE u (id INTEGER PRIMARY KEY, a INTEGER, b TEXT, c BLOB)");
	exec(db, "CREATE TABLE other (x); INSERT INTO other VALUES (1), (2)");
	uint32_t root_t = root_of(db, "t"), root_u = root_of(db, "u");
	sqlite3_close(db);

	struct leaf_writer w[2];
	struct leaf_run t_runs[2], u_runs[2];
	for (int k = 0; k < 2; k++) {
		CHECK(leaf_writer_init(&w[k], dir, 4096) == 0);
		w[k].max_cells = max_cells;
	}
	read_runs(src, w, t_runs);
	/* A table declined before its scan began drops nothing of t's. */
	leaf_writer_drop(&w[0]);
	leaf_writer_drop(&w[1]);
	read_runs(src, w, u_runs);
	for (int k = 0; k < 2; k++)
		CHECK(u_runs[k].first >= t_runs[k].first + t_runs[k].n);
	struct btree_file f;
	CHECK(btree_file_open(&f, dst) == 0);
	f.max_children = max_children;
	CHECK(btree_place(&f, root_t, t_runs, 2) == 0);
	CHECK(btree_place(&f, root_u, u_runs, 2) == 0);
	CHECK(btree_file_close(&f) == 0);
	for (int k = 0; k < 2; k++) {
		leaf_run_free(&t_runs[k]);
		leaf_run_free(&u_runs[k]);
		leaf_writer_free(&w[k]);
	}
	check_integrity(dst);
	int64_t a, b, c;
	uint64_t want = digest(src, "SELECT * FROM t ORDER BY id", &a);
	CHECK_INT(a, n);
	CHECK(digest(dst, "SELECT * FROM t ORDER BY id", &b) == want);
	CHECK(digest(dst, "SELECT * FROM u ORDER BY id", &c) == want);
	CHECK_INT(b, n);
	CHECK_INT(c, n);
	/* The trees are searched, not only walked. */
	CHECK(digest(dst, "SELECT * FROM t WHERE id IN (-999, 222, 37 * 300) ORDER BY id", &b) ==
	      digest(src, "SELECT * FROM t WHERE id IN (-999, 222, 37 * 300) ORDER BY id", &a));
	CHECK_INT(b, a);
}

/* Records too large for a leaf are refused; a table's leaves can be
 * dropped and the next table's take their place. */
static void check_limits(void)
{
	struct leaf_writer w;
	struct leaf_run run;
	uint8_t rec[4100];
	memset(rec, 0, sizeof(rec));
	fprintf(stderr, "limits\n");
	CHECK(leaf_writer_init(&w, dir, 4096) == 0);
	leaf_writer_begin(&w);
	CHECK_INT(leaf_writer_add(&w, 1, rec, 4061), 0);
	CHECK_INT(leaf_writer_add(&w, 2, rec, 4062), 1);
	CHECK(leaf_writer_end(&w, &run) == 0);
	CHECK_INT(run.n, 1);
	CHECK_INT(run.maxkey[0], 1);
	leaf_run_free(&run);
	leaf_writer_begin(&w);
	for (int i = 0; i < 500; i++)
		CHECK_INT(leaf_writer_add(&w, i, rec, 100), 0);
	leaf_writer_drop(&w);
	leaf_writer_begin(&w);
	CHECK_INT(leaf_writer_add(&w, 7, rec, 100), 0);
	CHECK(leaf_writer_end(&w, &run) == 0);
	CHECK_INT(run.first, 1);
	CHECK_INT(run.n, 1);
	leaf_run_free(&run);
	leaf_writer_free(&w);
}

/* Every table of a database, each folded into one number. */
static void check_same_tables(const char *a, const char *b)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	CHECK(sqlite3_open_v2(a, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK);
	CHECK(sqlite3_prepare_v2(db, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name", -1,
				 &st, NULL) == SQLITE_OK);
	int tables = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		char *sql = sqlite3_mprintf(strcmp(name, "sqlite_sequence") == 0
						    ? "SELECT * FROM \"%w\" ORDER BY 1"
						    : "SELECT * FROM \"%w\" ORDER BY rowid",
					    name);
		int64_t na, nb;
		uint64_t ha = digest(a, sql, &na), hb = digest(b, sql, &nb);
		if (ha != hb || na != nb) {
			fprintf(stderr, "table %s differs (%lld and %lld rows)\n", name, (long long)na,
				(long long)nb);
			check_failures++;
		}
		sqlite3_free(sql);
		tables++;
	}
	CHECK(tables >= 10);
	sqlite3_finalize(st);
	sqlite3_close(db);
	int64_t na, nb;
	CHECK(digest(a, "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name", &na) ==
	      digest(b, "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY name", &nb));
}

/* Export input under window with the pages read and all in SQL. */
static void check_export(const char *input, const char *pattern, const char *window, const char *what,
			 unsigned long paged)
{
	struct trace t;
	struct rpd_error err;
	const char *paths[] = { input };
	/* With a filter or window the calls are the selection's: read. */
	struct load_options opts = { .what = LOAD_OPS | LOAD_APIS };
	char out_pages[256], out_sql[256], msg[256];
	fprintf(stderr, "export: %s\n", what);
	CHECK(trace_load(&t, paths, 1, &opts, &err) == 0);
	struct filter f;
	struct window w;
	struct selection sel;
	filter_init(&f);
	if (pattern)
		CHECK(filter_push(&f, pattern, msg, sizeof(msg)) == 0);
	CHECK(window_parse(window, t.op_first_start, t.op_last_end, &w, msg, sizeof(msg)) == 0);
	selection_build(&t, &f, &w, NULL, &sel);
	snprintf(out_pages, sizeof(out_pages), "%s/pages.rpd", dir);
	snprintf(out_sql, sizeof(out_sql), "%s/sql.rpd", dir);
	unlink(out_pages);
	unlink(out_sql);
	struct export_result ra, rb;
	struct export_request r = { .t = &t, .sel = &sel, .filter = &f, .window = &w, .path = out_pages };
	unsigned long before = pagescan_tables_read();
	CHECK(export_trace(&r, &ra, &err) == 0);
	/* The choice of links and calls, then the tables copied as stored. */
	CHECK_INT(pagescan_tables_read() - before, paged);
	setenv("RPDTOP_PAGESCAN", "0", 1);
	r.path = out_sql;
	CHECK(export_trace(&r, &rb, &err) == 0);
	unsetenv("RPDTOP_PAGESCAN");
	CHECK_INT(ra.ops, rb.ops);
	CHECK_INT(ra.apis, rb.apis);
	CHECK(ra.ops > 0 && ra.apis > 0);
	check_integrity(out_pages);
	check_same_tables(out_pages, out_sql);
	selection_free(&sel);
	filter_free(&f);
	trace_free(&t);
}

static void check_exports(void)
{
	static const struct gen_params params = { .seed = 11, .ops = 20000, .gpus = 2 };
	static const struct demo_output rpd = { .format = INPUT_RPD };
	char path[256];
	struct rpd_error err;
	snprintf(path, sizeof(path), "%s/in.rpd", dir);
	CHECK(demo_write_file(path, &params, &rpd, &err) == 0);
	/* rocpd_op, rocpd_api, rocpd_api_ops, rocpd_kernelapi, rocpd_copyapi,
	 * rocpd_barrierop, and rocpd_op_inputSignals (keyed by its own ids,
	 * its ops tested) from pages, after the scan of the links that
	 * chooses (the calls are the selection's). */
	check_export(path, NULL, "10%:35%", "a window", 1 + 7);
	check_export(path, NULL, "0%:100%", "everything", 1 + 7);
	check_export(path, "Cijk|CopyHost|nccl", "5%:80%", "a filter and a window", 1 + 7);

	/* Some tracers write '' for "no code object": copied as it is, then
	 * repaired as SQL repairs it. An index of the input is rebuilt over
	 * the copied rows. A table with a UNIQUE column goes through SQL, as
	 * does one with rows spilling onto overflow pages. A composite key
	 * starting with an API id is not the rowid: its rows go by their
	 * api_id, whatever their rowid. */
	sqlite3 *db;
	CHECK(sqlite3_open(path, &db) == SQLITE_OK);
	exec(db,
	     "UPDATE rocpd_kernelapi SET codeObject_id = '' WHERE api_ptr_id % 5 = 0;"
	     "CREATE INDEX api_ops_by_op ON rocpd_api_ops (op_id);"
	     "CREATE TABLE ext_note (api_id integer NOT NULL PRIMARY KEY REFERENCES rocpd_api (id), note "
	     "text UNIQUE);"
	     "INSERT INTO ext_note SELECT id, 'note ' || id FROM rocpd_api WHERE id % 7 = 0;"
	     "CREATE TABLE ext_blob (api_id integer NOT NULL PRIMARY KEY REFERENCES rocpd_api (id), data "
	     "blob);"
	     "INSERT INTO ext_blob SELECT id, zeroblob(CASE WHEN id % 100 = 1 THEN 9000 ELSE 10 END) FROM "
	     "rocpd_api;"
	     "CREATE TABLE ext_pair (api_id integer NOT NULL REFERENCES rocpd_api (id), n integer NOT NULL,"
	     " PRIMARY KEY (api_id, n));"
	     "INSERT INTO ext_pair SELECT id, 1 FROM rocpd_api WHERE id % 3 = 0;");
	sqlite3_close(db);
	check_export(path, NULL, "20%:50%", "a code object of '', an index, UNIQUE, overflow, composite key",
		     1 + 7);
	char out[300];
	snprintf(out, sizeof(out), "%s/pages.rpd", dir);
	CHECK(sqlite3_open(out, &db) == SQLITE_OK);
	sqlite3_stmt *st;
	CHECK(sqlite3_prepare_v2(db,
				 "SELECT count(*), (SELECT count(*) FROM rocpd_api WHERE id % 3 = 0), "
				 "(SELECT count(*) FROM ext_pair WHERE api_id NOT IN (SELECT id FROM "
				 "rocpd_api)) FROM ext_pair",
				 -1, &st, NULL) == SQLITE_OK);
	CHECK(sqlite3_step(st) == SQLITE_ROW);
	int64_t want = sqlite3_column_int64(st, 1);
	CHECK(want > 0);
	CHECK_INT(sqlite3_column_int64(st, 0), want);
	CHECK_INT(sqlite3_column_int64(st, 2), 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
}

static int deny_all(void *ctx, int code, const char *a1, const char *a2, const char *db, const char *inner)
{
	(void)ctx, (void)code, (void)a1, (void)a2, (void)db, (void)inner;
	return SQLITE_DENY;
}

/* The condition on the rows of a table that points at ops: its columns'
 * names quoted; and when they cannot be read (the query refused, no such
 * table, more or fewer columns than planned), an error, never " WHERE 1". */
static void check_conditions(void)
{
	char in[300];
	snprintf(in, sizeof(in), "%s/cond.rpd", dir);
	sqlite3 *db;
	CHECK(sqlite3_open(in, &db) == SQLITE_OK);
	exec(db, "CREATE TABLE \"it's\" (id integer PRIMARY KEY, \"op\"\"id\" integer, n integer)");
	sqlite3_close(db);
	struct trace_input ti = { .path = in };
	struct trace t = { .inputs = &ti, .ninputs = 1 };
	struct export_request req = { .t = &t, .path = "out.rpd" };
	struct rpd_error err = { { 0 } };
	struct exporter x = { .req = &req, .err = &err, .span_start = 10, .span_end = 20 };
	CHECK(sqlite3_open(":memory:", &x.out.db) == SQLITE_OK);
	char *attach = sqlite3_mprintf("ATTACH %Q AS src", in);
	exec(x.out.db, attach);
	sqlite3_free(attach);

	enum col_kind kinds[] = { K_ROWID, K_OP_REF, K_API_REF, K_COPY };
	struct table_plan p = { .name = "it's", .ncols = 3, .kinds = kinds, .key = 0 };
	char *where = NULL;
	CHECK(export_conditions(&x, &p, 0, &where) == 0);
	CHECK_STR(where ? where : "", " WHERE 1 AND rpdtop_has(0, \"op\"\"id\") AND rpdtop_has(1, \"n\")");
	sqlite3_free(where);
	p.bind_span = 1;
	CHECK(export_conditions(&x, &p, 0, &where) == 0);
	CHECK_STR(where ? where : "", " WHERE 1 AND rpdtop_has(0, \"op\"\"id\") AND rpdtop_has(1, \"n\") AND "
				      "start < 20 AND end > 10");
	sqlite3_free(where);
	p.bind_span = 0;

	p.ncols = 2;
	CHECK(export_conditions(&x, &p, 0, &where) == -1);
	CHECK(where == NULL);
	CHECK(strstr(err.msg, "cond.rpd: table \"it's\" no longer has the columns") != NULL);
	p.ncols = 4;
	CHECK(export_conditions(&x, &p, 0, &where) == -1);
	CHECK(where == NULL);
	p.ncols = 3;
	p.name = "gone";
	CHECK(export_conditions(&x, &p, 0, &where) == -1);
	CHECK(where == NULL);
	p.name = "it's";
	err.msg[0] = '\0';
	sqlite3_set_authorizer(x.out.db, deny_all, NULL);
	CHECK(export_conditions(&x, &p, 0, &where) == -1);
	CHECK(where == NULL);
	CHECK(strstr(err.msg, "not authorized") != NULL);
	sqlite3_close(x.out.db);
}

int main(void)
{
	/* Small files are to take the page writer too. */
	setenv("RPDTOP_TEST_BULK_MIN_OPS", "0", 1);
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	unsetenv("RPDTOP_PAGESCAN");
	check_limits();
	check_copy(0, 0, 0);
	check_copy(1, 0, 0);
	check_copy(2, 1, 0);
	check_copy(3000, 0, 0);
	check_copy(2000, 3, 3);
	check_copy(700, 1, 4);
	check_conditions();
	check_exports();
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	return check_done();
}
