/* What the harnesses of readers of another tool's tables (fuzz_nsys.c,
 * fuzz_rocprof.c) share: a file made from the bytes (which of the reader's
 * tables are there, which of their columns each lacks, the rows, each value
 * an integer (small, a time, 64 bits, one of a few the reader looks for), a
 * NULL, a text, a real or a blob), read every way the load reads one (the
 * ops alone, the ops then the calls, at once, its span) into a trace and
 * the analyses over it, or one clean error. */
#ifndef RPDTOP_FUZZ_TABLES_H
#define RPDTOP_FUZZ_TABLES_H

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
#include "load/span.h"
#include "session/select.h"
#include "sqlfile/sqltable.h"
#include "trace/api_order.h"
#include "util/threads.h"

#include "fuzz_tmp.h"

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

/* The tables of a reader, and what the file made of them has more. */
struct fuzz_schema {
	int ntables;
	const struct sqltable *(*table)(int t);
	/* The type of column c of table t, its table's byte of columns drop
	 * ("" for none). */
	const char *(*type)(int t, unsigned c, int drop);
	/* SQL run once the tables are made, when bit 6 of the first byte is
	 * set (NULL: none). */
	const char *extra;
	int64_t special[4]; /* values the reader looks for */
};

static void bind_value(struct bytes *b, const struct fuzz_schema *s, sqlite3_stmt *st, int col)
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
	case 7: /* a value the reader looks for */
		sqlite3_bind_int64(st, col, s->special[next(b) & 3]);
		break;
	default: /* an id of a few bits */
		sqlite3_bind_int64(st, col, next(b) & 15);
		break;
	}
}

/* The columns of each table there: those of the reader, less those the
 * bytes leave out, and one it does not read. */
static int make_tables(struct bytes *b, const struct fuzz_schema *s, sqlite3 *db, unsigned tables,
		       unsigned *cols)
{
	for (int t = 0; t < s->ntables; t++) {
		if (!(tables >> t & 1))
			continue;
		const struct sqltable *tab = s->table(t);
		int drop = next(b);
		/* Bit 7: columns 0 to 5 left out as bits 0 to 5 say. */
		unsigned leave = drop >= 0 && (drop & 0x80) ? (unsigned)(drop & 0x3f) : 0;
		char *sql = sqlite3_mprintf("CREATE TABLE \"%w\" (other INTEGER", tab->name);
		cols[t] = 0;
		for (unsigned c = 0; sql && tab->columns[c]; c++) {
			if (leave >> c & 1)
				continue;
			cols[t] |= 1u << c;
			char *more =
				sqlite3_mprintf("%s, \"%w\"%s", sql, tab->columns[c], s->type(t, c, drop));
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

static int add_row(struct bytes *b, const struct fuzz_schema *s, sqlite3 *db, int t, unsigned cols)
{
	const struct sqltable *tab = s->table(t);
	char *sql = sqlite3_mprintf("INSERT INTO \"%w\" (other", tab->name);
	char *vals = sqlite3_mprintf("VALUES (NULL");
	for (unsigned c = 0; sql && vals && tab->columns[c]; c++) {
		if (!(cols >> c & 1))
			continue;
		char *q = sqlite3_mprintf("%s, \"%w\"", sql, tab->columns[c]);
		char *v = sqlite3_mprintf("%s, ?", vals);
		sqlite3_free(sql);
		sqlite3_free(vals);
		sql = q;
		vals = v;
	}
	char *whole = sql && vals ? sqlite3_mprintf("%s) %s)", sql, vals) : NULL;
	sqlite3_free(sql);
	sqlite3_free(vals);
	sqlite3_stmt *st = NULL;
	int rc = whole ? sqlite3_prepare_v2(db, whole, -1, &st, NULL) : SQLITE_NOMEM;
	sqlite3_free(whole);
	for (int i = 1; rc == SQLITE_OK && i <= sqlite3_bind_parameter_count(st); i++)
		bind_value(b, s, st, i);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE || rc == SQLITE_CONSTRAINT ? 0 : -1;
}

/* The file the bytes describe, at path: the first byte says which tables
 * are there (bits 0 to 5) and whether s->extra is run (bit 6). */
static int make_file(const uint8_t *data, size_t size, const struct fuzz_schema *s, const char *path)
{
	struct bytes b = { data, data + size };
	sqlite3 *db;
	unlink(path);
	if (sqlite3_open(path, &db) != SQLITE_OK) {
		sqlite3_close(db);
		return -1;
	}
	int flags = next(&b);
	unsigned tables = flags < 0 ? 0 : (unsigned)flags & 0x3f, cols[32] = { 0 };
	int rc = sqlite3_exec(db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; BEGIN", NULL, NULL,
			      NULL);
	rc = rc == SQLITE_OK ? make_tables(&b, s, db, tables, cols) : -1;
	if (rc == 0 && s->extra && flags >= 0 && (flags & 0x40))
		rc = sqlite3_exec(db, s->extra, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
	for (int n = 0; rc == 0 && b.p < b.end && n < MAX_ROWS; n++) {
		int t = next(&b) % s->ntables;
		if (tables >> t & 1)
			rc = add_row(&b, s, db, t, cols[t]);
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

/* The file at path read every way a load reads one. */
static void read_every_way(const char *path)
{
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
}

#endif
