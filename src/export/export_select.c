#include "config.h"
#include "export/export_select.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "session/window.h"
#include "sqlfile/dbfile.h"
#include "sqlfile/pagescan.h"
#include "util/threads.h"
#include "util/xalloc.h"

void export_sets_free(struct export_sets *s)
{
	for (int i = 0; i < NSETS; i++)
		idset_free(&s->set[i]);
}

/* min(rowid) or max(rowid): one b-tree descent, as long as the query asks
 * for nothing else (with both in one query SQLite scans the table). */
static int rowid_end(sqlite3 *db, const char *table, const char *fn, int64_t *v)
{
	char *sql = sqlite3_mprintf("SELECT %s(rowid) FROM \"%w\"", fn, table);
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	sqlite3_free(sql);
	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_step(st);
	*v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? SQLITE_OK : rc;
}

static int rowid_range(sqlite3 *db, const char *table, int64_t *lo, int64_t *hi)
{
	int rc = rowid_end(db, table, "min", lo);
	return rc == SQLITE_OK ? rowid_end(db, table, "max", hi) : rc;
}

struct chooser {
	struct exporter *x;
	struct export_src *src;
	struct export_sets *sets;
	struct idset launchers; /* API calls that launched exported ops */
	int64_t marker;         /* rocpd_string id of "UserMarker", or -1 */
	int ustring_args;       /* markers' text is in rocpd_ustring */
};

/* rocpd_api_ops: rowid, api_id, op_id */
static int link_row(void *ctx, size_t row, const int64_t *v)
{
	struct chooser *c = ctx;
	(void)row;
	if (idset_has(&c->sets->set[SET_OPS], v[2])) {
		idset_add(&c->sets->set[SET_LINKS], v[0]);
		idset_add(&c->launchers, v[1]);
	}
	return 0;
}

/* The links' scan starts over: what it chose goes. */
static void link_reset(void *ctx)
{
	struct chooser *c = ctx;
	struct idset *links = &c->sets->set[SET_LINKS];
	int64_t lo = links->lo, hi = links->hi;
	idset_free(links);
	idset_init(links, lo, hi);
	lo = c->launchers.lo, hi = c->launchers.hi;
	idset_free(&c->launchers);
	idset_init(&c->launchers, lo, hi);
}

/* A call in the window whose name the filter is still to judge. */
struct candidate {
	int64_t id, name;
	int ustring;
};

/* One thread's share of rocpd_api: the calls in the window, kept at once
 * without a filter, else left as candidates (the filter's match data is
 * not to be shared between threads). */
struct api_part {
	const struct chooser *c;
	int judge;
	struct idset kept;
	struct candidate *cand;
	size_t ncand, cap;
};

/* rocpd_api: id, start, apiName_id, args_id, end. The session's rule for
 * a call (session/select.h): in the window and its shown name passing;
 * launchers join after, whatever their time. */
static int api_row(void *ctx, size_t row, const int64_t *v)
{
	struct api_part *p = ctx;
	(void)row;
	if (!select_in_window(p->c->x->req->window, v[1], v[4]))
		return 0;
	if (!p->judge) {
		if (select_api_belongs(1, 1, 0))
			idset_add(&p->kept, v[0]);
		return 0;
	}
	int marker = v[2] == p->c->marker;
	p->cand = xgrow(p->cand, &p->cap, p->ncand + 1, sizeof(*p->cand));
	p->cand[p->ncand++] = (struct candidate){ v[0], marker ? v[3] : v[2], marker && p->c->ustring_args };
	return 0;
}

static const char *const api_cols[] = { "id", "start", "apiName_id", "args_id", "end" };

/* A part's scan starts over: its calls and candidates go. */
static void api_reset(void *ctx)
{
	struct api_part *p = ctx;
	int64_t lo = p->kept.lo, hi = p->kept.hi;
	idset_free(&p->kept);
	idset_init(&p->kept, lo, hi);
	p->ncand = 0;
}

/* The calls of rocpd_api in the window, on as many threads as parts (from
 * its pages), else on this one through SQL. */
static int scan_apis(sqlite3 *db, struct api_part *parts, int n)
{
	struct pagescan ps;
	struct pagescan_table tab;
	struct pagescan_part range[PAGESCAN_MAX_THREADS];
	size_t rows;
	void *ctx[PAGESCAN_MAX_THREADS];
	for (int k = 0; k < n; k++)
		ctx[k] = &parts[k];
	if (pagescan_begin(&ps, db) == FAST_DONE) {
		int rc = pagescan_open_table(&ps, "rocpd_api", api_cols, 5, &tab);
		if (rc == FAST_DONE) {
			rc = pagescan_count(&ps, &tab, n, range, &rows);
			if (rc == FAST_DONE)
				rc = pagescan_decode(&ps, &tab, n, range, api_row, ctx);
			pagescan_table_free(&tab);
		}
		pagescan_end(&ps);
		if (rc == FAST_DONE) {
			pagescan_taken();
			return SQLITE_OK;
		}
		/* Start over in SQL: nothing kept so far counts twice. */
		for (int k = 0; k < n; k++)
			api_reset(&parts[k]);
	}
	return pagescan_or_sql(db, "rocpd_api", api_cols, 5, api_row, api_reset, &parts[0]);
}

/* The parts' calls join the chosen ones; candidates are judged here.
 * A name that cannot be read fails the choice (SQLite's code). */
static int gather_apis(struct chooser *c, struct api_part *parts, int n)
{
	struct idset *apis = &c->sets->set[SET_APIS];
	int rc = SQLITE_OK;
	for (int k = 0; k < n; k++) {
		idset_merge(apis, &parts[k].kept);
		for (size_t i = 0; rc == SQLITE_OK && i < parts[k].ncand; i++) {
			int v = export_src_passes(c->src, parts[k].cand[i].name, parts[k].cand[i].ustring);
			if (v < 0)
				rc = SQLITE_ERROR;            /* sqlite3_errmsg(c->src->input) says why */
			else if (select_api_belongs(v, 1, 0)) /* in the window: only those are candidates */
				idset_add(apis, parts[k].cand[i].id);
		}
		idset_free(&parts[k].kept);
		free(parts[k].cand);
	}
	return rc;
}

/* The string id of "UserMarker" (-1: none). A failed read is an error,
 * not "none": markers would then be judged by that name, not their text. */
static int marker_id(sqlite3 *db, int64_t *id)
{
	sqlite3_stmt *st;
	*id = -1;
	int rc = sqlite3_prepare_v2(db, "SELECT id FROM rocpd_string WHERE string = 'UserMarker'", -1, &st,
				    NULL);
	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static const char *const link_cols[] = { "rowid", "api_id", "op_id" };

struct link_job {
	struct chooser *c;
	const char *path;
	int rc;
};

static void *link_worker(void *arg)
{
	struct link_job *j = arg;
	sqlite3 *db;
	struct rpd_error err;
	if (dbfile_open(j->path, &db, &err)) {
		j->rc = SQLITE_CANTOPEN;
		return NULL;
	}
	j->rc = pagescan_or_sql(db, "rocpd_api_ops", link_cols, 3, link_row, link_reset, j->c);
	sqlite3_close(db);
	return NULL;
}
/* Two threads for the calls (the largest table), one for the links. */
#define API_THREADS 2

int export_choose(struct exporter *x, struct export_src *src, const int64_t *ops, size_t nops,
		  struct export_sets *out)
{
	sqlite3 *db = src->input;
	memset(out, 0, sizeof(*out));
	idset_init(&out->set[SET_OPS], nops ? ops[0] : 0, nops ? ops[nops - 1] : 0);
	for (size_t i = 0; i < nops; i++)
		idset_add(&out->set[SET_OPS], ops[i]);
	int64_t lo, hi;
	int rc = rowid_range(db, "rocpd_api_ops", &lo, &hi);
	if (rc == SQLITE_OK)
		idset_init(&out->set[SET_LINKS], lo, hi);
	if (rc == SQLITE_OK)
		rc = rowid_range(db, "rocpd_api", &lo, &hi);
	if (rc != SQLITE_OK)
		return rc;
	idset_init(&out->set[SET_APIS], lo, hi);
	struct chooser c = {
		.x = x, .src = src, .sets = out, .ustring_args = x->req->t->inputs[0].schema_version >= 3
	};
	rc = marker_id(db, &c.marker);
	if (rc != SQLITE_OK)
		return rc;
	idset_init(&c.launchers, lo, hi);
	struct api_part parts[API_THREADS];
	for (int k = 0; k < API_THREADS; k++) {
		parts[k] = (struct api_part){ .c = &c, .judge = x->req->filter->n > 0 };
		idset_init(&parts[k].kept, lo, hi);
	}
	/* The links on a thread (and a connection) of their own, the calls
	 * here; the launchers join the chosen calls after. */
	struct link_job j = { .c = &c, .path = x->req->t->inputs[0].path };
	pthread_t th;
	int slot = threads_acquire(1);
	int threaded = slot && pthread_create(&th, NULL, link_worker, &j) == 0;
	rc = scan_apis(db, parts, API_THREADS);
	if (threaded)
		pthread_join(th, NULL);
	else
		link_worker(&j);
	threads_release(slot);
	if (rc == SQLITE_OK)
		rc = j.rc;
	int judged = gather_apis(&c, parts, API_THREADS);
	if (rc == SQLITE_OK)
		rc = judged;
	/* The rule's last case: the launchers of the exported ops. */
	if (select_api_belongs(0, 0, 1))
		idset_merge(&out->set[SET_APIS], &c.launchers);
	idset_free(&c.launchers);
	return rc;
}

static void has_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const struct export_sets *s = sqlite3_user_data(ctx);
	int k = sqlite3_value_int(argv[0]);
	(void)argc;
	sqlite3_result_int(ctx, k >= 0 && k < NSETS && idset_has(&s->set[k], sqlite3_value_int64(argv[1])));
}

static void mark_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	struct export_sets *s = sqlite3_user_data(ctx);
	int k = sqlite3_value_int(argv[0]);
	(void)argc;
	if (k >= 0 && k < NSETS)
		idset_add(&s->set[k], sqlite3_value_int64(argv[1]));
	sqlite3_result_int(ctx, 0);
}

int export_sets_register(sqlite3 *db, struct export_sets *s)
{
	/* Direct calls only: no view, trigger, default or index expression
	 * of the input's schema may ask or change the sets. */
	int flags = SQLITE_UTF8 | SQLITE_DIRECTONLY;
	int rc = sqlite3_create_function(db, "rpdtop_has", 2, flags | SQLITE_DETERMINISTIC, s,
					 s ? has_fn : NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function(db, "rpdtop_mark", 2, flags, s, s ? mark_fn : NULL, NULL, NULL);
	return rc;
}
