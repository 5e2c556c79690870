/* libFuzzer harness for the Nsight Systems reader: the bytes say which of
 * an export's tables are there, which of their columns each lacks, and the
 * rows, each value an integer (small, a time, 64 bits), a NULL, a text, a
 * real or a blob; the export so made is read every way the load reads one
 * (the ops alone, the ops then the calls, at once, its span) into a trace
 * and the analyses over it, or one clean error. Never a crash, a leak or a
 * hang. */
#include "config.h"

#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "analysis/busy.h"
#include "analysis/markers.h"
#include "analysis/profile.h"
#include "load/load.h"
#include "load/nsys_detect.h"
#include "load/span.h"
#include "session/select.h"
#include "trace/api_order.h"
#include "util/threads.h"

#include "fuzz_tmp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ROWS 4096

struct bytes {
	const uint8_t *p, *end;
};

static int next(struct bytes *b)
{
	return b->p < b->end ? *b->p++ : -1;
}

static int64_t next64(struct bytes *b)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = v << 8 | (uint64_t)(next(b) & 0xff);
	return (int64_t)v;
}

static void bind_value(struct bytes *b, sqlite3_stmt *st, int col)
{
	char text[32];
	int sel = next(b), n;
	switch (sel < 0 ? 0 : sel % 9) {
	case 0:
		sqlite3_bind_null(st, col);
		break;
	case 1: /* a small number: ids, kinds, event types */
		sqlite3_bind_int64(st, col, next(b) - 8);
		break;
	case 2: /* a time */
		sqlite3_bind_int64(st, col, (int64_t)(next(b) & 0xff) * 1000 + (next(b) & 0xff));
		break;
	case 3:
		sqlite3_bind_int64(st, col, next64(b));
		break;
	case 4: /* a text, escape sequences and NULs among its bytes */
		n = next(b) & 15;
		for (int i = 0; i < n; i++)
			text[i] = (char)next(b);
		sqlite3_bind_text(st, col, text, n, SQLITE_TRANSIENT);
		break;
	case 5:
		sqlite3_bind_double(st, col, (double)next(b) / 3);
		break;
	case 6:
		text[0] = (char)next(b);
		sqlite3_bind_blob(st, col, text, 1, SQLITE_TRANSIENT);
		break;
	case 7: /* an NVTX event type read */
		sqlite3_bind_int64(st, col, (int64_t[]){ 34, 59, 60, 75 }[next(b) & 3]);
		break;
	default: /* an id of a few bits */
		sqlite3_bind_int64(st, col, next(b) & 15);
		break;
	}
}

/* The columns of each table there: those of the reader, less those the
 * bytes leave out, and one it does not read. */
static int make_tables(struct bytes *b, sqlite3 *db, unsigned tables, unsigned *cols)
{
	for (int t = 0; t < NSYS_NTABLES; t++) {
		if (!(tables >> t & 1))
			continue;
		int drop = next(b);
		/* Bit 7: columns 0 to 5 left out as bits 0 to 5 say; bit 6:
		 * StringIds.id no key. */
		unsigned leave = drop >= 0 && (drop & 0x80) ? (unsigned)(drop & 0x3f) : 0;
		char *sql = sqlite3_mprintf("CREATE TABLE \"%w\" (other INTEGER", nsys_table_name(t));
		cols[t] = 0;
		for (unsigned c = 0; sql && nsys_column(t, c); c++) {
			if (leave >> c & 1)
				continue;
			cols[t] |= 1u << c;
			const char *type =
				t == NSYS_STRINGS && c == NSYS_STRING_ID && (drop < 0 || !(drop & 0x40))
					? " INTEGER PRIMARY KEY"
					: "";
			char *more = sqlite3_mprintf("%s, \"%w\"%s", sql, nsys_column(t, c), type);
			sqlite3_free(sql);
			sql = more;
		}
		char *done = sql ? sqlite3_mprintf("%s)", sql) : NULL;
		sqlite3_free(sql);
		int rc = done ? sqlite3_exec(db, done, NULL, NULL, NULL) : SQLITE_NOMEM;
		sqlite3_free(done);
		if (rc != SQLITE_OK)
			return -1;
	}
	return 0;
}

static int add_row(struct bytes *b, sqlite3 *db, int t, unsigned cols)
{
	char *sql = sqlite3_mprintf("INSERT INTO \"%w\" (other", nsys_table_name(t));
	char *vals = sqlite3_mprintf("VALUES (NULL");
	for (unsigned c = 0; sql && vals && nsys_column(t, c); c++) {
		if (!(cols >> c & 1))
			continue;
		char *s = sqlite3_mprintf("%s, \"%w\"", sql, nsys_column(t, c));
		char *v = sqlite3_mprintf("%s, ?", vals);
		sqlite3_free(sql);
		sqlite3_free(vals);
		sql = s;
		vals = v;
	}
	char *whole = sql && vals ? sqlite3_mprintf("%s) %s)", sql, vals) : NULL;
	sqlite3_free(sql);
	sqlite3_free(vals);
	sqlite3_stmt *st = NULL;
	int rc = whole ? sqlite3_prepare_v2(db, whole, -1, &st, NULL) : SQLITE_NOMEM;
	sqlite3_free(whole);
	for (int i = 1; rc == SQLITE_OK && i <= sqlite3_bind_parameter_count(st); i++)
		bind_value(b, st, i);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE || rc == SQLITE_CONSTRAINT ? 0 : -1;
}

/* The export the bytes describe, at path. */
static int make_export(const uint8_t *data, size_t size, const char *path)
{
	struct bytes b = { data, data + size };
	sqlite3 *db;
	unlink(path);
	if (sqlite3_open(path, &db) != SQLITE_OK) {
		sqlite3_close(db);
		return -1;
	}
	int flags = next(&b);
	unsigned tables = flags < 0 ? 0 : (unsigned)flags & 0x3f, cols[NSYS_NTABLES] = { 0 };
	int rc = sqlite3_exec(db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; BEGIN", NULL, NULL,
			      NULL);
	rc = rc == SQLITE_OK ? make_tables(&b, db, tables, cols) : -1;
	if (rc == 0 && flags >= 0 && (flags & 0x40))
		rc = sqlite3_exec(db,
				  "CREATE TABLE META_DATA_EXPORT (name TEXT, value TEXT); INSERT INTO "
				  "META_DATA_EXPORT VALUES ('EXPORT_SCHEMA_VERSION', '3.13.2')",
				  NULL, NULL, NULL) == SQLITE_OK
			     ? 0
			     : -1;
	for (int n = 0; rc == 0 && b.p < b.end && n < MAX_ROWS; n++) {
		int t = next(&b) % NSYS_NTABLES;
		if (tables >> t & 1)
			rc = add_row(&b, db, t, cols[t]);
	}
	if (rc == 0)
		rc = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
	sqlite3_close(db);
	/* A file written just now is looked at again 50 ms later (file times
	 * move in clock ticks): this one was written a while ago. */
	struct timeval past[2];
	gettimeofday(&past[0], NULL);
	past[0].tv_sec -= 10;
	past[1] = past[0];
	if (rc == 0 && utimes(path, past) != 0)
		rc = -1;
	return rc;
}

static void analyse(struct trace *t)
{
	struct profile p;
	struct busy b;
	struct selection sel;
	struct filter flt;
	struct window w = { 0 };
	filter_init(&flt);
	selection_build(t, &flt, &w, NULL, &sel);
	profile_by_name(t, PROFILE_ALL_OPS, &sel, &p);
	busy_per_gpu(t, &sel, &b);
	if (t->apis_read) {
		struct api_order o;
		struct markers m;
		api_order_build(t, &o);
		markers_find(t, &o, &sel, &m);
		markers_free(&m);
		api_order_free(&o);
	}
	profile_free(&p);
	busy_free(&b);
	selection_free(&sel);
	filter_free(&flt);
}

static void one_line(const struct rpd_error *err)
{
	if (strchr(err->msg, '\n'))
		abort(); /* an error is one line */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_tmp_path("in.sqlite");
	if (!path || make_export(data, size, path))
		return 0;
	static const unsigned whats[] = { LOAD_OPS | LOAD_NO_OP_IDS, LOAD_OPS, LOAD_ALL };
	const char *paths[] = { path };
	threads_set_limit(1);
	for (size_t i = 0; i < sizeof(whats) / sizeof(whats[0]); i++) {
		struct trace t;
		struct rpd_error err;
		struct load_options o = { .what = whats[i] };
		if (trace_load(&t, paths, 1, &o, &err) != 0) {
			one_line(&err);
			continue;
		}
		/* The viewer's way: the calls after the ops. */
		if (whats[i] == LOAD_OPS && trace_load_apis(&t, &err) != 0)
			one_line(&err);
		analyse(&t);
		trace_free(&t);
	}
	struct op_span s;
	struct rpd_error err;
	if (load_span(paths, 1, 0, &s, &err) != 0)
		one_line(&err);
	return 0;
}
