#include "config.h"
#include "export/export_bulk.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqlfile/pagescan.h"
#include "sqlfile/sqlrun.h"
#include "util/interrupt.h"
#include "util/xalloc.h"

/* The directory of path, for the scratch files (the output's own disk). */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	char *dir = xmalloc((size_t)(slash - path) + 1);
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	return dir;
}

static int out_page_size(sqlite3 *db, uint32_t *size)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, "PRAGMA main.page_size", -1, &st, NULL);
	if (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		*size = (uint32_t)sqlite3_column_int64(st, 0);
	else
		rc = SQLITE_ERROR;
	sqlite3_finalize(st);
	return rc;
}

/* The output's text encoding as the file header numbers it. */
static uint32_t out_encoding(sqlite3 *db)
{
	sqlite3_stmt *st;
	uint32_t enc = 0;
	if (sqlite3_prepare_v2(db, "PRAGMA main.encoding", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		enc = !name                           ? 0
		      : strcmp(name, "UTF-8") == 0    ? SQLITE_UTF8
		      : strcmp(name, "UTF-16le") == 0 ? SQLITE_UTF16LE
		      : strcmp(name, "UTF-16be") == 0 ? SQLITE_UTF16BE
						      : 0;
	}
	sqlite3_finalize(st);
	return enc;
}

/* Exports of fewer ops go through SQLite alone: the pages written here
 * pay only where SQLite's own inserts take seconds. Tests lower it
 * (RPDTOP_TEST_BULK_MIN_OPS) to have small files take this way. */
#define BULK_MIN_OPS 20000

static size_t bulk_min_ops(void)
{
	const char *env = getenv("RPDTOP_TEST_BULK_MIN_OPS");
	return env && *env ? (size_t)strtoull(env, NULL, 10) : BULK_MIN_OPS;
}

int export_bulk_init(struct exporter *x, struct export_bulk *b, const struct idset *strings,
		     const struct idset *ustrings)
{
	memset(b, 0, sizeof(*b));
	const char *env = getenv("RPDTOP_PAGESCAN");
	uint32_t page_size;
	size_t ops = x->req->sel ? x->req->sel->nops : x->req->t->ops.n;
	if ((env && strcmp(env, "0") == 0) || ops < bulk_min_ops() ||
	    out_page_size(x->out.db, &page_size) != SQLITE_OK)
		return 1;
	b->encoding = out_encoding(x->out.db);
	char *dir = dir_of(x->req->path);
	for (b->nthreads = 0; b->nthreads < BULK_THREADS; b->nthreads++)
		if (leaf_writer_init(&b->w[b->nthreads], dir, page_size))
			break;
	free(dir);
	if (b->nthreads < BULK_THREADS) {
		export_bulk_free(b);
		return 1;
	}
	for (int k = 0; k < b->nthreads; k++) {
		idset_init(&b->marks[k][0], strings->lo, strings->hi);
		idset_init(&b->marks[k][1], ustrings->lo, ustrings->hi);
	}
	b->ready = 1;
	return 0;
}

void export_bulk_free(struct export_bulk *b)
{
	for (int k = 0; k < BULK_THREADS; k++) {
		if (b->w[k].buf)
			leaf_writer_free(&b->w[k]);
		if (b->ready && k < b->nthreads) {
			idset_free(&b->marks[k][0]);
			idset_free(&b->marks[k][1]);
		}
	}
	for (size_t i = 0; i < b->ntables; i++) {
		for (int k = 0; k < BULK_THREADS; k++)
			leaf_run_free(&b->tables[i].runs[k]);
		free(b->tables[i].name);
	}
	free(b->tables);
	memset(b, 0, sizeof(*b));
}

/* What decides whether a row goes, and the strings it names. */
struct bulk_job {
	const struct idset *key; /* the rowids that may go; NULL: any */
	int ncols;
	const struct idset *test[PAGESCAN_MAX_COLS]; /* the column's id must be in it */
	int mark[PAGESCAN_MAX_COLS];                 /* -1, 0 (rocpd_string) or 1 (ustring) */
};

struct bulk_worker {
	const struct bulk_job *job;
	struct leaf_writer *w;
	struct idset *marks;
	uint64_t rows;
};

static int bulk_cell(void *ctx, const struct pagescan_cell *c)
{
	struct bulk_worker *k = ctx;
	const struct bulk_job *j = k->job;
	if (j->key && !idset_has(j->key, c->rowid))
		return 0;
	for (int i = 0; i < j->ncols; i++)
		if (j->test[i] && !idset_has(j->test[i], c->v[i]))
			return 0;
	for (int i = 0; i < j->ncols; i++)
		if (j->mark[i] >= 0)
			idset_add(&k->marks[j->mark[i]], c->v[i]);
	/* Ctrl-C stops the copy as it stops SQLite's (dbwriter's handler). */
	if ((++k->rows & 0xffff) == 0 && interrupt_pending())
		return 1;
	/* Stops the scan on a record too large or a failed write (w->err). */
	return leaf_writer_add(k->w, c->rowid, c->record, c->size) != 0;
}

/* The columns the job reads (besides the rowid), from the plan's kinds;
 * 1 when there are more than a scan decodes. */
static int plan_job(sqlite3 *input, const struct table_plan *p, const struct export_sets *sets, int key,
		    struct bulk_job *j, char **names)
{
	char *sql = sqlite3_mprintf("SELECT name FROM pragma_table_info(%Q) ORDER BY cid", p->name);
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(input, sql, -1, &st, NULL);
	sqlite3_free(sql);
	if (rc != SQLITE_OK)
		return 1;
	j->key = key >= 0 ? &sets->set[key] : NULL;
	j->ncols = 0;
	int too_many = 0, c = 0, tests = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && c < p->ncols) {
		enum col_kind k = p->kinds[c];
		const struct idset *test = NULL;
		int mark = k == K_STR ? 0 : k == K_USTR ? 1 : -1;
		/* The links were chosen with their op and call: no other test. */
		if (c != p->key && key != SET_LINKS && (k == K_OP_PK || k == K_OP_REF))
			test = &sets->set[SET_OPS];
		if (c != p->key && key != SET_LINKS && (k == K_API_PK || k == K_API_REF))
			test = &sets->set[SET_APIS];
		c++;
		if (!test && mark < 0)
			continue;
		if (j->ncols == PAGESCAN_MAX_COLS) {
			too_many = 1;
			break;
		}
		const char *name = (const char *)sqlite3_column_text(st, 0);
		names[j->ncols] = xstrdup(name ? name : "");
		tests += test != NULL;
		j->test[j->ncols] = test;
		j->mark[j->ncols++] = mark;
	}
	sqlite3_finalize(st);
	/* Columns not read are columns not tested: SQL does the table then,
	 * and fails if it cannot read them either. A table keyed by no set
	 * is read here only for the ids it must test (a call stack's calls):
	 * any other goes whole, by SQL. */
	return too_many || rc != SQLITE_DONE || c != p->ncols || (!j->key && tests == 0);
}

static struct bulk_table *add_table(struct export_bulk *b, const char *name, uint32_t root)
{
	b->tables = xgrow(b->tables, &b->cap, b->ntables + 1, sizeof(*b->tables));
	struct bulk_table *t = &b->tables[b->ntables++];
	memset(t, 0, sizeof(*t));
	t->name = xstrdup(name);
	t->root = root;
	return t;
}

/* Read the kept rows into the writers; FAST_DECLINED leaves the table to SQL. */
static int scan(struct export_bulk *b, sqlite3 *input, const struct table_plan *p, const struct bulk_job *j,
		char **names, struct bulk_worker *wk)
{
	struct pagescan ps;
	struct pagescan_table tab;
	struct pagescan_part parts[BULK_THREADS];
	size_t rows;
	void *ctx[BULK_THREADS];
	for (int k = 0; k < b->nthreads; k++) {
		wk[k] = (struct bulk_worker){ .job = j, .w = &b->w[k], .marks = b->marks[k] };
		ctx[k] = &wk[k];
		leaf_writer_begin(&b->w[k]);
	}
	if (pagescan_begin(&ps, input) != FAST_DONE)
		return FAST_DECLINED;
	/* Records are copied as they are: their text must be in the output's
	 * encoding. */
	int rc = ps.encoding == b->encoding ? FAST_DONE : FAST_DECLINED;
	if (rc == FAST_DONE)
		rc = pagescan_open_table(&ps, p->name, (const char *const *)names, j->ncols, &tab);
	if (rc == FAST_DONE) {
		if (j->key)
			pagescan_clip(&tab, j->key->count ? j->key->min : 1, j->key->count ? j->key->max : 0);
		rc = pagescan_count(&ps, &tab, b->nthreads, parts, &rows);
		if (rc == FAST_DONE && (!j->key || j->key->count))
			rc = pagescan_decode_cells(&ps, &tab, b->nthreads, parts, bulk_cell, ctx);
		if (rc == FAST_DONE)
			pagescan_taken();
		pagescan_table_free(&tab);
	}
	pagescan_end(&ps);
	return rc;
}

static int write_error(struct exporter *x, int err)
{
	return err_set(x->err, "%s: %s", x->req->path, strerror(err));
}

enum fastpath export_bulk_table(struct exporter *x, struct export_bulk *b, sqlite3 *input,
				const struct table_plan *p, const struct export_sets *sets, int key)
{
	/* An index made with the table (UNIQUE) would miss the rows. */
	if (p->where ||
	    sql_int_of(x->out.db,
		       "SELECT count(*) FROM main.sqlite_master WHERE type = 'index' AND tbl_name = ?1",
		       p->name, -1) != 0)
		return FAST_DECLINED;
	int64_t root = sql_int_of(
		x->out.db, "SELECT rootpage FROM main.sqlite_master WHERE type = 'table' AND name = ?1",
		p->name, -1);
	struct bulk_job j;
	char *names[PAGESCAN_MAX_COLS];
	memset(names, 0, sizeof(names));
	enum fastpath rc =
		root > 1 && plan_job(input, p, sets, key, &j, names) == 0 ? FAST_DONE : FAST_DECLINED;
	struct bulk_worker wk[BULK_THREADS];
	if (rc == FAST_DONE && scan(b, input, p, &j, names, wk) != FAST_DONE)
		rc = FAST_DECLINED;
	for (int c = 0; c < PAGESCAN_MAX_COLS; c++)
		free(names[c]);
	int err = 0;
	for (int k = 0; k < b->nthreads; k++)
		err = err ? err : b->w[k].err;
	if (rc != FAST_DONE || err) {
		for (int k = 0; k < b->nthreads; k++)
			leaf_writer_drop(&b->w[k]);
		if (err) {
			write_error(x, err);
			return FAST_FAILED;
		}
		/* Stopped by Ctrl-C: not a table for SQL to do again. */
		if (interrupt_pending()) {
			err_set(x->err, "%s: %s", x->req->path, sqlite3_errstr(SQLITE_INTERRUPT));
			return FAST_FAILED;
		}
		return FAST_DECLINED;
	}
	struct bulk_table *t = add_table(b, p->name, (uint32_t)root);
	t->scanned = key < 0;
	for (int k = 0; k < b->nthreads; k++) {
		if (leaf_writer_end(&b->w[k], &t->runs[k])) {
			write_error(x, b->w[k].err);
			return FAST_FAILED;
		}
		t->rows += wk[k].rows;
		if (t->runs[k].n)
			t->max_rowid = t->runs[k].maxkey[t->runs[k].n - 1];
	}
	return FAST_DONE;
}

void export_bulk_marks(const struct export_bulk *b, int ustring, struct idset *s)
{
	for (int k = 0; k < b->nthreads; k++)
		idset_merge(s, &b->marks[k][ustring]);
}

int export_bulk_place(struct exporter *x, struct export_bulk *b)
{
	struct btree_file f;
	if (btree_file_open(&f, x->out.tmp))
		return write_error(x, errno);
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < b->ntables; i++) {
		rc = btree_place(&f, b->tables[i].root, b->tables[i].runs, (size_t)b->nthreads);
		dbwriter_check_table(&x->out, b->tables[i].name);
	}
	int err = f.err;
	if (btree_file_close(&f) && !err)
		err = errno;
	return err ? write_error(x, err) : 0;
}
