#include "config.h"
#include "export/export_select.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

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

/* Two threads for the calls (the largest table), one for the links. */
#define API_THREADS 2

struct chooser {
	struct exporter *x;
	struct export_src *src;
	struct export_sets *sets;
	struct idset launchers; /* API calls that launched exported ops */
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

/* Without a filter or window every call goes: rocpd_api's ids, read from
 * its pages on as many threads as parts, else through SQL. */
struct api_part {
	struct idset kept;
};

static int api_row(void *ctx, size_t row, const int64_t *v)
{
	struct api_part *p = ctx;
	(void)row;
	idset_add(&p->kept, v[0]);
	return 0;
}

static const char *const api_cols[] = { "id" };

/* A part's scan starts over: its calls go. */
static void api_reset(void *ctx)
{
	struct api_part *p = ctx;
	int64_t lo = p->kept.lo, hi = p->kept.hi;
	idset_free(&p->kept);
	idset_init(&p->kept, lo, hi);
}

/* rocpd_api's columns cols, row by row to fn, read from its pages on n
 * threads (ctx[k] the k-th's), else through SQL on the first's (reset
 * each first). */
static int scan_api_table(sqlite3 *db, const char *const *cols, int ncols, pagescan_row_fn fn,
			  pagescan_reset_fn reset, void *const *ctx, int n)
{
	struct pagescan ps;
	struct pagescan_table tab;
	struct pagescan_part range[PAGESCAN_MAX_THREADS];
	size_t rows;
	if (pagescan_begin(&ps, db) == FAST_DONE) {
		int rc = pagescan_open_table(&ps, "rocpd_api", cols, ncols, &tab);
		if (rc == FAST_DONE) {
			rc = pagescan_count(&ps, &tab, n, range, &rows);
			if (rc == FAST_DONE)
				rc = pagescan_decode(&ps, &tab, n, range, fn, ctx);
			pagescan_table_free(&tab);
		}
		pagescan_end(&ps);
		if (rc == FAST_DONE) {
			pagescan_taken();
			return SQLITE_OK;
		}
		/* Start over in SQL: nothing kept so far counts twice. */
		for (int k = 0; k < n; k++)
			reset(ctx[k]);
	}
	return pagescan_or_sql(db, "rocpd_api", cols, ncols, fn, reset, ctx[0]);
}

static int scan_apis(sqlite3 *db, struct api_part *parts, int n)
{
	void *ctx[PAGESCAN_MAX_THREADS];
	for (int k = 0; k < n; k++)
		ctx[k] = &parts[k];
	return scan_api_table(db, api_cols, 1, api_row, api_reset, ctx, n);
}

/* A window alone over one rpd file whose calls were not read: the rule's
 * calls are picked as rocpd_api streams by. Those overlapping the window
 * go, and the launchers of the exported ops; then the calls enclosing one
 * of the "seeds" on its thread. A call enclosing one in the window that
 * has a duration overlaps the window too: the seeds are the others, the
 * launchers from outside the window and the calls without a duration
 * (or with a negative one), a few. */
struct seed {
	int64_t pid, tid, start, end;
};

struct window_part {
	const struct window *w;
	const struct idset *launchers;
	struct idset kept;
	struct seed *seeds; /* pass 1 finds them; pass 2 reads them all */
	size_t nseeds, cap;
	const struct seeds *all;
};

/* Every part's seeds by thread and start, and of those from each on in
 * its thread the earliest end. */
struct seeds {
	struct seed *v;
	int64_t *min_end;
	size_t n;
};

static const char *const window_cols[] = { "id", "pid", "tid", "start", "end" };

static int window_row(void *ctx, size_t row, const int64_t *v)
{
	struct window_part *p = ctx;
	(void)row;
	int in = select_in_window(p->w, v[3], v[4]);
	if (!in && !idset_has(p->launchers, v[0]))
		return 0;
	idset_add(&p->kept, v[0]);
	if (!in || v[4] <= v[3]) {
		p->seeds = xgrow(p->seeds, &p->cap, p->nseeds + 1, sizeof(*p->seeds));
		p->seeds[p->nseeds++] = (struct seed){ v[1], v[2], v[3], v[4] };
	}
	return 0;
}

static void window_reset(void *ctx)
{
	struct window_part *p = ctx;
	int64_t lo = p->kept.lo, hi = p->kept.hi;
	idset_free(&p->kept);
	idset_init(&p->kept, lo, hi);
	p->nseeds = 0;
}

static int seed_cmp(const struct seed *a, const struct seed *b)
{
	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	return (a->start > b->start) - (a->start < b->start);
}

static int by_seed(const void *a, const void *b)
{
	return seed_cmp(a, b);
}

/* Does the call of thread (pid, tid) over [start, end) enclose a seed of
 * its thread (one starting no earlier and ending no later)? */
static int encloses_seed(const struct seeds *s, int64_t pid, int64_t tid, int64_t start, int64_t end)
{
	struct seed key = { pid, tid, start, 0 };
	size_t lo = 0, hi = s->n;
	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;
		if (seed_cmp(&s->v[m], &key) < 0)
			lo = m + 1;
		else
			hi = m;
	}
	return lo < s->n && s->v[lo].pid == pid && s->v[lo].tid == tid && s->min_end[lo] <= end;
}

static int enclosing_row(void *ctx, size_t row, const int64_t *v)
{
	struct window_part *p = ctx;
	(void)row;
	if (encloses_seed(p->all, v[1], v[2], v[3], v[4]))
		idset_add(&p->kept, v[0]);
	return 0;
}

static void seeds_gather(struct window_part *parts, int n, struct seeds *s)
{
	s->n = 0;
	for (int k = 0; k < n; k++)
		s->n += parts[k].nseeds;
	s->v = xmalloc_array(s->n ? s->n : 1, sizeof(*s->v));
	s->min_end = xmalloc_array(s->n ? s->n : 1, sizeof(*s->min_end));
	size_t at = 0;
	for (int k = 0; k < n; k++) {
		if (parts[k].nseeds)
			memcpy(s->v + at, parts[k].seeds, parts[k].nseeds * sizeof(*s->v));
		at += parts[k].nseeds;
	}
	qsort(s->v, s->n, sizeof(*s->v), by_seed);
	for (size_t i = s->n; i-- > 0;) {
		int same = i + 1 < s->n && s->v[i + 1].pid == s->v[i].pid && s->v[i + 1].tid == s->v[i].tid;
		s->min_end[i] = same && s->min_end[i + 1] < s->v[i].end ? s->min_end[i + 1] : s->v[i].end;
	}
}

static int window_apis(sqlite3 *db, const struct window *w, const struct idset *launchers, struct idset *apis)
{
	struct window_part parts[API_THREADS];
	void *ctx[API_THREADS];
	for (int k = 0; k < API_THREADS; k++) {
		parts[k] = (struct window_part){ .w = w, .launchers = launchers };
		idset_init(&parts[k].kept, apis->lo, apis->hi);
		ctx[k] = &parts[k];
	}
	int rc = scan_api_table(db, window_cols, 5, window_row, window_reset, ctx, API_THREADS);
	struct seeds s = { 0 };
	seeds_gather(parts, API_THREADS, &s);
	for (int k = 0; k < API_THREADS; k++)
		parts[k].all = &s;
	if (rc == SQLITE_OK && s.n)
		rc = scan_api_table(db, window_cols, 5, enclosing_row, window_reset, ctx, API_THREADS);
	for (int k = 0; k < API_THREADS; k++) {
		idset_merge(apis, &parts[k].kept);
		idset_free(&parts[k].kept);
		free(parts[k].seeds);
	}
	free(s.v);
	free(s.min_end);
	return rc;
}

/* With a filter or window, the calls the session's selection keeps (the
 * rule of session/select.h, enclosing ranges included), by their ids. */
static void apis_of_selection(const struct export_request *r, struct idset *apis)
{
	const struct trace *t = r->t;
	for (size_t i = 0; i < t->apis.n; i++)
		if (selected_api(r->sel, i))
			idset_add(apis, trace_api_id(t, i));
}

static const char *const link_cols[] = { "rowid", "api_id", "op_id" };

struct link_job {
	struct chooser *c;
	sqlite3 *db;
	int rc;
};

static void *link_worker(void *arg)
{
	struct link_job *j = arg;
	j->rc = pagescan_or_sql(j->db, "rocpd_api_ops", link_cols, 3, link_row, link_reset, j->c);
	return NULL;
}

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
	struct chooser c = { .x = x, .src = src, .sets = out };
	idset_init(&c.launchers, lo, hi);
	int filtered = x->req->sel && x->req->sel->filtered;
	struct api_part parts[API_THREADS];
	for (int k = 0; k < API_THREADS; k++)
		idset_init(&parts[k].kept, lo, hi);
	/* The links on a thread (and a connection) of their own, the calls
	 * here; the launchers join the chosen calls after. */
	struct link_job j = { .c = &c, .db = src->links };
	if (filtered && !x->req->t->apis_read) {
		/* A window alone (export_streams_window): the launchers first,
		 * the calls then picked as they stream by. */
		link_worker(&j);
		rc = j.rc;
		if (rc == SQLITE_OK)
			rc = window_apis(db, &x->req->sel->window, &c.launchers, &out->set[SET_APIS]);
	} else {
		pthread_t th;
		int slot = threads_acquire(1);
		int threaded = slot && pthread_create(&th, NULL, link_worker, &j) == 0;
		if (filtered)
			apis_of_selection(x->req, &out->set[SET_APIS]);
		else
			rc = scan_apis(db, parts, API_THREADS);
		if (threaded)
			pthread_join(th, NULL);
		else
			link_worker(&j);
		threads_release(slot);
		if (rc == SQLITE_OK)
			rc = j.rc;
	}
	for (int k = 0; k < API_THREADS; k++) {
		idset_merge(&out->set[SET_APIS], &parts[k].kept);
		idset_free(&parts[k].kept);
	}
	/* The launchers of the exported ops (in the selection already). */
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
