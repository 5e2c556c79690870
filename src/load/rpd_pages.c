#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "load/progress.h"
#include "load/rpd_reader.h"
#include "sqlfile/pagescan.h"
#include "util/sort.h"
#include "util/xalloc.h"

/* Threads decode raw values in place; the main thread then turns database
 * string ids and lane keys into the trace's own ids, since interning is
 * not shared between threads. */

#define MAX_LOCAL_LANES 4096
#define MAX_RAW_ID ((int64_t)UINT32_MAX - 1)

/* Lane keys (gpu, queue) or (pid, tid) one thread met, in order met. */
struct local_lanes {
	int64_t key[MAX_LOCAL_LANES][2];
	uint32_t n, last;
};

static uint32_t local_lane(struct local_lanes *l, int64_t a, int64_t b)
{
	if (l->n && l->key[l->last][0] == a && l->key[l->last][1] == b)
		return l->last;
	for (uint32_t i = 0; i < l->n; i++)
		if (l->key[i][0] == a && l->key[i][1] == b)
			return l->last = i;
	if (l->n == MAX_LOCAL_LANES)
		return TRACE_NONE;
	l->key[l->n][0] = a;
	l->key[l->n][1] = b;
	return l->last = l->n++;
}

/* opType ids one thread met: few, so an op keeps its type's position here
 * in its kind column until the main thread classifies it. */
#define MAX_LOCAL_TYPES 256

struct local_types {
	int64_t id[MAX_LOCAL_TYPES];
	uint32_t n;
};

static uint32_t local_type(struct local_types *l, int64_t id)
{
	for (uint32_t i = 0; i < l->n; i++)
		if (l->id[i] == id)
			return i;
	if (l->n == MAX_LOCAL_TYPES)
		return TRACE_NONE;
	l->id[l->n] = id;
	return l->n++;
}

/* Markers met by one thread: their rows and database args ids. */
struct local_texts {
	size_t n, cap;
	uint32_t *row;
	int64_t *raw;
};

/* What one thread writes to: rows base + row of the trace's columns. */
struct sink {
	struct rpd_reader *r;
	size_t base;
	struct local_lanes lanes;
	struct local_types types;
	struct local_texts texts;
	int64_t max_raw;             /* largest string id seen */
	int64_t api_first, op_first; /* links: dense ids start here, or -1 */
	/* Launching calls alone (rpd_pages_launches): the links' API ids as
	 * read, then the ids whose rows are kept, and where this thread's
	 * kept rows went. */
	int64_t *link_api;
	const int64_t *named; /* rising, distinct */
	size_t nnamed, at, kept, lowest, highest;
	int64_t last; /* the id of the row before (seen) */
	int seen, fell, asked;
	/* Op ids not written while they run on from the thread's first
	 * (defer_ids): the first, its row, and the row where they stopped. */
	int defer_ids, id_seen, id_broken;
	int64_t id0;
	size_t row0, broke;
};

static int raw_ok(struct sink *s, int64_t a, int64_t b)
{
	if (a < 0 || b < 0 || a > MAX_RAW_ID || b > MAX_RAW_ID)
		return 0;
	if (a > s->max_raw)
		s->max_raw = a;
	if (b > s->max_raw)
		s->max_raw = b;
	return 1;
}

/* While a thread's op ids run on from its first (id0 + the rows since),
 * they are not written: when every thread's do and the runs join, the id
 * column is never touched (a tenth of an op's memory) and only the first
 * id is kept. Returns 1 when the id need not be written. */
static int id_implied(struct sink *s, size_t row, int64_t id)
{
	if (!s->defer_ids || s->id_broken)
		return 0;
	if (!s->id_seen) {
		s->id_seen = 1;
		s->id0 = id;
		s->row0 = row;
		return 1;
	}
	if ((uint64_t)id - (uint64_t)s->id0 == row - s->row0)
		return 1;
	s->id_broken = 1;
	s->broke = row;
	return 0;
}

/* rocpd_op: id, gpuId, queueId, start, end, description_id, opType_id */
static int op_row(void *ctx, size_t row, const int64_t *v)
{
	struct sink *s = ctx;
	struct trace_ops *o = &s->r->t->ops;
	uint32_t lane = local_lane(&s->lanes, v[1], v[2]);
	uint32_t type = local_type(&s->types, v[6]);
	if (lane == TRACE_NONE || type == TRACE_NONE || !raw_ok(s, v[5], v[6]))
		return 1;
	size_t i = s->base + row;
	if (o->id && !id_implied(s, row, v[0]))
		o->id[i] = v[0];
	o->start[i] = v[3];
	o->end[i] = v[4];
	o->name[i] = (uint32_t)v[5];
	o->kind[i] = (uint8_t)type;
	o->queue[i] = lane;
	progress_row();
	return 0;
}

/* Is a database string id one of "UserMarker"'s? */
static int is_marker(const struct rpd_reader *r, int64_t id)
{
	for (int k = 0; k < r->nmarker_raw; k++)
		if (r->marker_raw[k] == id)
			return 1;
	return 0;
}

/* rocpd_api: id, pid, tid, start, end, apiName_id, args_id */
static int api_row(void *ctx, size_t row, const int64_t *v)
{
	struct sink *s = ctx;
	struct trace_apis *a = &s->r->t->apis;
	uint32_t lane = local_lane(&s->lanes, v[1], v[2]);
	if (lane == TRACE_NONE || !raw_ok(s, v[5], v[6]))
		return 1;
	size_t i = s->base + row;
	a->id[i] = v[0];
	a->start[i] = v[3];
	a->end[i] = v[4];
	a->name[i] = (uint32_t)v[5];
	a->thread[i] = lane;
	if (is_marker(s->r, v[5])) {
		struct local_texts *x = &s->texts;
		if (x->n == x->cap) {
			x->row = xgrow(x->row, &x->cap, x->n + 1, sizeof(*x->row));
			x->raw = xrealloc_array(x->raw, x->cap, sizeof(*x->raw));
		}
		x->row[x->n] = (uint32_t)row;
		x->raw[x->n++] = v[6];
	}
	progress_row();
	return 0;
}

static uint32_t find_dense(const int64_t *ids, size_t lo, size_t end, int64_t first, int64_t id)
{
	if (first < 0)
		return rpd_find_row(ids, lo, end, id);
	return id >= first && (uint64_t)(id - first) < end - lo ? (uint32_t)(lo + (size_t)(id - first))
								: TRACE_NONE;
}

/* rocpd_api_ops: api_id, op_id; the ids are found among this input's rows
 * (read-only here), links to absent rows marked to be dropped. */
static int link_row(void *ctx, size_t row, const int64_t *v)
{
	struct sink *s = ctx;
	const struct rpd_reader *r = s->r;
	struct trace *t = r->t;
	size_t i = s->base + row;
	t->links.api[i] = find_dense(t->apis.id, r->api_base, t->apis.n, s->api_first, v[0]);
	t->links.op[i] = find_dense(t->ops.id, r->op_base, r->op_end, s->op_first, v[1]);
	progress_row();
	return 0;
}

/* Database string id -> interned id, as a sparse array: few distinct ids
 * are used, and untouched pages of a calloc'd block cost no memory. Ids
 * far apart (one id near 2^32 in a small file) would make that array
 * gigabytes: then the string cache's hash alone is used. */
struct strmap {
	uint32_t *v; /* interned id + 1, 0 unknown; NULL: the hash alone */
	size_t n;
	struct strcache *cache;
};

/* The array is used while it takes no more than a few words per row read
 * (or 16 MB, however few the rows). */
static void strmap_init(struct strmap *m, struct strcache *cache, int64_t max_raw, size_t rows)
{
	size_t most = rows * 4 > ((size_t)1 << 22) ? rows * 4 : (size_t)1 << 22;
	m->cache = cache;
	m->n = (size_t)max_raw + 1;
	m->v = m->n <= most ? xcalloc(m->n, sizeof(*m->v)) : NULL;
}

static int strmap_get(struct strmap *m, const struct rpd_reader *r, uint32_t raw, uint32_t *out)
{
	if (!m->v)
		return strcache_get(m->cache, &r->src, r->t, raw, out);
	if (m->v[raw]) {
		*out = m->v[raw] - 1;
		return 0;
	}
	if (strcache_get(m->cache, &r->src, r->t, raw, out))
		return -1;
	m->v[raw] = *out + 1;
	return 0;
}

struct scan {
	struct pagescan ps;
	struct pagescan_table tab;
	struct pagescan_part parts[PAGESCAN_MAX_THREADS];
	struct sink *sinks;
	int nthreads;
	size_t rows;
};

/* Small tables are not worth a thread. */
static int threads_for(const struct rpd_reader *r, size_t leaves)
{
	int n = r->threads < 1 ? 1 : r->threads > PAGESCAN_MAX_THREADS ? PAGESCAN_MAX_THREADS : r->threads;
	return leaves < 256 ? 1 : n;
}

/* With keep given, only the leaves that may hold rowids keep[0]..keep[1]
 * are read when the first column is the rowid. */
static int scan_open_keep(struct scan *s, struct rpd_reader *r, const char *table, const char *const *cols,
			  int ncols, const int64_t *keep)
{
	memset(s, 0, sizeof(*s));
	if (pagescan_begin(&s->ps, r->src.db))
		return FAST_DECLINED;
	s->ps.thread_end = progress_flush;
	if (pagescan_open_table(&s->ps, table, cols, ncols, &s->tab)) {
		pagescan_end(&s->ps);
		return FAST_DECLINED;
	}
	if (keep && s->tab.cols[0] == PAGESCAN_ROWID)
		pagescan_clip(&s->tab, keep[0], keep[1]);
	s->nthreads = threads_for(r, s->tab.nleaves);
	if (pagescan_count(&s->ps, &s->tab, s->nthreads, s->parts, &s->rows)) {
		pagescan_table_free(&s->tab);
		pagescan_end(&s->ps);
		return FAST_DECLINED;
	}
	s->sinks = xcalloc((size_t)s->nthreads, sizeof(*s->sinks));
	for (int k = 0; k < s->nthreads; k++) {
		s->sinks[k].r = r;
		s->sinks[k].api_first = s->sinks[k].op_first = -1;
	}
	return FAST_DONE;
}

static int scan_open(struct scan *s, struct rpd_reader *r, const char *table, const char *const *cols,
		     int ncols)
{
	return scan_open_keep(s, r, table, cols, ncols, NULL);
}

static int scan_decode(struct scan *s, size_t base, pagescan_row_fn fn)
{
	void *ctx[PAGESCAN_MAX_THREADS];
	for (int k = 0; k < s->nthreads; k++) {
		s->sinks[k].base = base;
		ctx[k] = &s->sinks[k];
	}
	return pagescan_decode(&s->ps, &s->tab, s->nthreads, s->parts, fn, ctx);
}

static int64_t scan_max_raw(const struct scan *s)
{
	int64_t m = 0;
	for (int k = 0; k < s->nthreads; k++)
		if (s->sinks[k].max_raw > m)
			m = s->sinks[k].max_raw;
	return m;
}

static void scan_close(struct scan *s)
{
	for (int k = 0; k < s->nthreads; k++) {
		free(s->sinks[k].texts.row);
		free(s->sinks[k].texts.raw);
	}
	free(s->sinks);
	pagescan_table_free(&s->tab);
	pagescan_end(&s->ps);
}

/* The lanes of one thread's rows, as trace queues. */
static uint32_t *op_lanes(struct rpd_reader *r, const struct local_lanes *l)
{
	uint32_t *q = xmalloc_array(l->n, sizeof(*q));
	for (uint32_t i = 0; i < l->n; i++)
		q[i] = trace_queue(r->t, trace_gpu(r->t, r->input, l->key[i][0]), l->key[i][1]);
	return q;
}

static int finish_ops(struct rpd_reader *r, struct scan *s)
{
	struct trace_ops *o = &r->t->ops;
	struct strmap m;
	strmap_init(&m, &r->strings, scan_max_raw(s), s->rows);
	uint32_t last_desc = TRACE_NONE, last_type = TRACE_NONE;
	uint8_t kind = OP_OTHER;
	int rc = 0;
	for (int k = 0; rc == 0 && k < s->nthreads; k++) {
		uint32_t *lanes = op_lanes(r, &s->sinks[k].lanes);
		const struct local_types *types = &s->sinks[k].types;
		size_t from = o->n + s->parts[k].first, to = from + s->parts[k].count;
		for (size_t i = from; rc == 0 && i < to; i++) {
			uint32_t desc, type;
			if (strmap_get(&m, r, o->name[i], &desc) ||
			    strmap_get(&m, r, (uint32_t)types->id[o->kind[i]], &type)) {
				rc = -1;
				break;
			}
			if (desc != last_desc || type != last_type) {
				kind = (uint8_t)trace_classify_op(trace_str(r->t, desc),
								  trace_str(r->t, type));
				last_desc = desc;
				last_type = type;
			}
			o->name[i] = strtab_len(&r->t->strings, desc) ? desc : type;
			o->queue[i] = lanes[o->queue[i]];
			o->kind[i] = kind;
		}
		free(lanes);
	}
	free(m.v);
	return rc ? -1 : 0;
}

/* Rows come in rowid order; rows are found by id with binary searches, so
 * ids must not fall (a table whose key is not its rowid can list them in
 * any order): otherwise SQL reads the table in id order instead. */
static int ids_rise(const int64_t *id, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (id[i] < id[i - 1])
			return 0;
	return 1;
}

static const char *const op_cols[] = {
	"id", "gpuId", "queueId", "start", "end", "description_id", "opType_id",
};

/* Did every thread's ids run on from its first, each run joining the one
 * before, from a non-negative first id? Then *first is it. */
static int ids_run_on(const struct scan *s, int64_t *first)
{
	int any = 0;
	int64_t next = 0;
	for (int k = 0; k < s->nthreads; k++) {
		const struct sink *x = &s->sinks[k];
		if (!s->parts[k].count)
			continue;
		if (!x->id_seen || x->id_broken || (any && x->id0 != next) || (!any && x->id0 < 0))
			return 0;
		if (!any)
			*first = x->id0;
		any = 1;
		next = (int64_t)((uint64_t)x->id0 + s->parts[k].count);
	}
	return any;
}

/* The ids not written, written: the table's ids do not all run on. */
static void write_implied_ids(struct trace_ops *o, const struct scan *s, size_t base)
{
	for (int k = 0; k < s->nthreads; k++) {
		const struct sink *x = &s->sinks[k];
		size_t end = x->id_broken ? x->broke : s->parts[k].first + s->parts[k].count;
		for (size_t row = x->row0; x->id_seen && row < end; row++)
			o->id[base + row] = (int64_t)((uint64_t)x->id0 + (row - x->row0));
	}
}

enum fastpath rpd_pages_ops(struct rpd_reader *r)
{
	struct scan s;
	if (scan_open(&s, r, "rocpd_op", op_cols, 7))
		return FAST_DECLINED;
	trace_reserve_ops(r->t, s.rows);
	/* Ids are left unwritten only in a trace of this table alone. */
	int defer = r->t->ops.id && r->t->ops.n == 0;
	for (int k = 0; k < s.nthreads; k++)
		s.sinks[k].defer_ids = defer;
	enum fastpath rc = scan_decode(&s, r->t->ops.n, op_row);
	int64_t first;
	if (rc == FAST_DONE && defer && ids_run_on(&s, &first)) {
		free(r->t->ops.id);
		r->t->ops.id = NULL;
		r->t->inputs[r->input].op_id0 = first;
	} else if (rc == FAST_DONE && defer) {
		write_implied_ids(&r->t->ops, &s, r->t->ops.n);
	}
	if (rc == FAST_DONE && r->t->ops.id && !ids_rise(r->t->ops.id + r->t->ops.n, s.rows))
		rc = FAST_DECLINED;
	if (rc == FAST_DONE && finish_ops(r, &s))
		rc = FAST_FAILED;
	if (rc == FAST_DONE) {
		r->t->ops.n += s.rows;
		pagescan_taken();
	}
	scan_close(&s);
	return rc;
}

static int finish_apis(struct rpd_reader *r, struct scan *s)
{
	struct trace_apis *a = &r->t->apis;
	struct strmap m;
	struct strcache *args = r->version == 3 ? &r->ustrings : &r->strings;
	strmap_init(&m, &r->strings, scan_max_raw(s), s->rows);
	int rc = 0;
	for (int k = 0; rc == 0 && k < s->nthreads; k++) {
		const struct local_lanes *l = &s->sinks[k].lanes;
		uint32_t *threads = xmalloc_array(l->n, sizeof(*threads));
		for (uint32_t i = 0; i < l->n; i++)
			threads[i] = trace_thread(r->t, r->input, l->key[i][0], l->key[i][1]);
		size_t from = a->n + s->parts[k].first, to = from + s->parts[k].count;
		for (size_t i = from; rc == 0 && i < to; i++) {
			rc = strmap_get(&m, r, a->name[i], &a->name[i]);
			a->thread[i] = threads[a->thread[i]];
		}
		/* Rows of later threads come later: texts stay in row order. */
		const struct local_texts *x = &s->sinks[k].texts;
		for (size_t j = 0; rc == 0 && j < x->n; j++) {
			uint32_t text;
			rc = strcache_get(args, &r->src, r->t, x->raw[j], &text);
			if (rc == 0)
				trace_add_api_text(r->t, (uint32_t)(a->n + x->row[j]), text);
		}
		free(threads);
	}
	free(m.v);
	return rc ? -1 : 0;
}

static const char *const api_cols[] = {
	"id", "pid", "tid", "start", "end", "apiName_id", "args_id",
};

/* The ids "UserMarker" has in the string table (normally one). */
static void find_markers(struct rpd_reader *r)
{
	sqlite3_stmt *st;
	r->nmarker_raw = 0;
	if (sqlite3_prepare_v2(r->src.db, "SELECT id FROM rocpd_string WHERE string = 'UserMarker'", -1, &st,
			       NULL) != SQLITE_OK)
		return;
	while (r->nmarker_raw < 8 && sqlite3_step(st) == SQLITE_ROW)
		r->marker_raw[r->nmarker_raw++] = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
}

enum fastpath rpd_pages_apis(struct rpd_reader *r)
{
	struct scan s;
	find_markers(r);
	if (scan_open(&s, r, "rocpd_api", api_cols, 7))
		return FAST_DECLINED;
	trace_reserve_apis(r->t, s.rows);
	enum fastpath rc = scan_decode(&s, r->t->apis.n, api_row);
	if (rc == FAST_DONE && !ids_rise(r->t->apis.id + r->t->apis.n, s.rows))
		rc = FAST_DECLINED;
	if (rc == FAST_DONE && finish_apis(r, &s))
		rc = FAST_FAILED;
	if (rc == FAST_DONE) {
		r->t->apis.n += s.rows;
		pagescan_taken();
	}
	scan_close(&s);
	return rc;
}

/* Ids read in rowid order rise; without gaps a row is found by subtraction. */
static int64_t dense_first(const int64_t *ids, size_t lo, size_t end)
{
	if (lo == end || ids[end - 1] - ids[lo] != (int64_t)(end - lo - 1))
		return -1;
	return ids[lo] >= 0 ? ids[lo] : -1;
}

static const char *const link_cols[] = { "api_id", "op_id" };

enum fastpath rpd_pages_links(struct rpd_reader *r)
{
	struct scan s;
	struct trace *t = r->t;
	if (scan_open(&s, r, "rocpd_api_ops", link_cols, 2))
		return FAST_DECLINED;
	for (int k = 0; k < s.nthreads; k++) {
		s.sinks[k].api_first = dense_first(t->apis.id, r->api_base, t->apis.n);
		s.sinks[k].op_first = t->ops.id ? dense_first(t->ops.id, r->op_base, r->op_end)
						: t->inputs[r->input].op_id0; /* kept as a run */
	}
	trace_reserve_links(t, s.rows);
	enum fastpath rc = scan_decode(&s, t->links.n, link_row);
	if (rc == FAST_DONE) {
		/* Links to rows that are not there are dropped, not invented. */
		size_t out = t->links.n;
		for (size_t i = t->links.n; i < t->links.n + s.rows; i++) {
			if (t->links.api[i] == TRACE_NONE || t->links.op[i] == TRACE_NONE)
				continue;
			t->links.api[out] = t->links.api[i];
			t->links.op[out++] = t->links.op[i];
		}
		t->links.n = out;
		pagescan_taken();
	}
	scan_close(&s);
	return rc;
}

/* Launching calls alone: reports on launches need only the calls that
 * launched ops (one API row in eight on a vLLM trace; the rest are roctx
 * ranges and calls that launch nothing). The links are read first, then
 * only the API rows they name, each put at its id's place among them:
 * both are in id order, so that place is found by walking along. */

/* rocpd_api_ops, first: the API id as read, the op found. */
static int launch_link_row(void *ctx, size_t row, const int64_t *v)
{
	struct sink *s = ctx;
	const struct rpd_reader *r = s->r;
	s->link_api[row] = v[0];
	r->t->links.op[s->base + row] = find_dense(r->t->ops.id, r->op_base, r->op_end, s->op_first, v[1]);
	progress_row();
	return 0;
}

/* The place of id among the named ids from where the walk stands. */
static size_t walk_to(const int64_t *named, size_t n, size_t at, int64_t id)
{
	while (at < n && named[at] < id)
		at++;
	return at;
}

/* Is id named? Ids falling between rows (a table not in id order) decline
 * the whole way: the walk only goes forward. */
static int launch_want(struct sink *s, int64_t id)
{
	if (s->seen && id <= s->last) {
		s->fell = 1;
		return 1;
	}
	s->at = s->seen ? walk_to(s->named, s->nnamed, s->at, id)
			: lower_bound_i64(s->named, 0, s->nnamed, id);
	s->seen = 1;
	s->last = id;
	return s->at < s->nnamed && s->named[s->at] == id;
}

/* The page scanner asks before decoding a row when the id is the rowid. */
static int launch_want_rowid(void *ctx, int64_t rowid)
{
	struct sink *s = ctx;
	progress_row();
	s->asked = 1;
	return launch_want(s, rowid);
}

/* rocpd_api: the rows the links name. */
static int launch_api_row(void *ctx, size_t row, const int64_t *v)
{
	struct sink *s = ctx;
	struct trace_apis *a = &s->r->t->apis;
	(void)row;
	if (s->fell)
		return 1;
	if (!s->asked) {
		progress_row();
		if (!launch_want(s, v[0]))
			return s->fell;
	}
	uint32_t lane = local_lane(&s->lanes, v[1], v[2]);
	if (lane == TRACE_NONE || !raw_ok(s, v[5], v[6]))
		return 1;
	if (s->kept++ == 0)
		s->lowest = s->at;
	s->highest = s->at;
	size_t i = s->base + s->at;
	a->id[i] = v[0];
	a->start[i] = v[3];
	a->end[i] = v[4];
	a->name[i] = (uint32_t)v[5];
	a->thread[i] = lane;
	return 0;
}

/* The distinct API ids of the links to ops that are there, rising. */
static size_t named_apis(const struct trace_links *l, size_t from, const int64_t *raw, size_t n,
			 int64_t **out)
{
	int64_t *v = xmalloc_array(n ? n : 1, sizeof(*v));
	size_t k = 0, sorted = 1;
	for (size_t i = 0; i < n; i++) {
		/* A call launching many ops is linked on adjacent rows. */
		if (l->op[from + i] == TRACE_NONE || (k && raw[i] == v[k - 1]))
			continue;
		if (k && raw[i] < v[k - 1])
			sorted = 0;
		v[k++] = raw[i];
	}
	if (!sorted)
		sort_int64(v, k);
	size_t m = 0;
	for (size_t i = 0; i < k; i++)
		if (m == 0 || v[i] != v[m - 1])
			v[m++] = v[i];
	*out = v;
	return m;
}

static enum fastpath scan_links_first(struct rpd_reader *r, int64_t **raw, size_t *n)
{
	struct scan s;
	struct trace *t = r->t;
	if (scan_open(&s, r, "rocpd_api_ops", link_cols, 2))
		return FAST_DECLINED;
	trace_reserve_links(t, s.rows);
	*raw = xmalloc_array(s.rows ? s.rows : 1, sizeof(**raw));
	for (int k = 0; k < s.nthreads; k++) {
		s.sinks[k].link_api = *raw;
		s.sinks[k].op_first = t->ops.id ? dense_first(t->ops.id, r->op_base, r->op_end)
						: t->inputs[r->input].op_id0;
	}
	enum fastpath rc = scan_decode(&s, t->links.n, launch_link_row);
	*n = s.rows;
	scan_close(&s);
	return rc;
}

/* Each thread's kept rows must fill the next run of places, as they do
 * when every named id has its row: else the whole table is read the
 * usual way. The parts become those runs for finish_apis. */
static int kept_in_runs(struct scan *s, size_t count)
{
	size_t next = 0;
	for (int k = 0; k < s->nthreads; k++) {
		const struct sink *x = &s->sinks[k];
		if (x->kept && (x->lowest != next || x->highest - x->lowest + 1 != x->kept))
			return 0;
		s->parts[k].first = next;
		s->parts[k].count = x->kept;
		next += x->kept;
	}
	return next == count;
}

static enum fastpath scan_named_apis(struct rpd_reader *r, const int64_t *named, size_t n)
{
	struct scan s;
	const int64_t keep[2] = { n ? named[0] : 1, n ? named[n - 1] : 0 };
	if (scan_open_keep(&s, r, "rocpd_api", api_cols, 7, keep))
		return FAST_DECLINED;
	trace_reserve_apis(r->t, n);
	for (int k = 0; k < s.nthreads; k++) {
		s.sinks[k].named = named;
		s.sinks[k].nnamed = n;
	}
	if (s.tab.cols[0] == PAGESCAN_ROWID)
		s.ps.want = launch_want_rowid;
	enum fastpath rc = scan_decode(&s, r->t->apis.n, launch_api_row);
	for (int k = 0; k < s.nthreads; k++)
		if (s.sinks[k].fell)
			rc = FAST_DECLINED;
	if (rc == FAST_DONE && !kept_in_runs(&s, n))
		rc = FAST_DECLINED;
	if (rc == FAST_DONE && finish_apis(r, &s))
		rc = FAST_FAILED;
	if (rc == FAST_DONE)
		r->t->apis.n += n;
	scan_close(&s);
	return rc;
}

/* The links become links to the rows kept (every named id has one). */
static void link_named(struct trace *t, size_t base, const int64_t *named, size_t nnamed, const int64_t *raw,
		       size_t n)
{
	size_t out = t->links.n, at = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t op = t->links.op[t->links.n + i];
		if (op == TRACE_NONE)
			continue;
		at = i && raw[i] >= raw[i - 1] ? walk_to(named, nnamed, at, raw[i])
					       : lower_bound_i64(named, 0, nnamed, raw[i]);
		t->links.api[out] = (uint32_t)(base + at);
		t->links.op[out++] = op;
	}
	t->links.n = out;
}

enum fastpath rpd_pages_launches(struct rpd_reader *r)
{
	struct trace *t = r->t;
	int64_t *raw = NULL, *named = NULL;
	size_t n = 0, nnamed = 0;
	enum fastpath rc = scan_links_first(r, &raw, &n);
	if (rc == FAST_DONE) {
		nnamed = named_apis(&t->links, t->links.n, raw, n, &named);
		size_t base = t->apis.n;
		rc = scan_named_apis(r, named, nnamed);
		if (rc == FAST_DONE) {
			link_named(t, base, named, nnamed, raw, n);
			pagescan_taken();
			pagescan_taken();
		}
	}
	free(named);
	free(raw);
	return rc;
}
