#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "load/progress.h"
#include "load/rpd_scan.h"
#include "util/xalloc.h"

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

/* An API id of a trace keeping them as runs: a new run where it does not
 * follow the row before. 0 when ids fall (then SQL reads them in order). */
static int note_id(struct sink *s, size_t row, int64_t id)
{
	struct id_runs *r = &s->runs;
	if (s->any && id <= s->last_id)
		return 0;
	if (!s->any || (uint64_t)s->last_id + 1 != (uint64_t)id)
		id_runs_push(r, row, id);
	s->any = 1;
	s->last_id = id;
	return 1;
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
	if (a->id)
		a->id[i] = v[0];
	else if (!note_id(s, row, v[0]))
		return 1;
	put_call(s, i, v, lane);
	if (is_marker(s->r, v[5]))
		raw_rows_push(&s->texts, (uint32_t)row, v[6]);
	progress_row();
	return 0;
}

/* rocpd_api without the markers' rows, or with theirs alone (and their
 * texts): each thread's rows go on from its part's first row, to be
 * closed up once all are read (close_up). */
static int kept_row(void *ctx, size_t row, const int64_t *v)
{
	struct sink *s = ctx;
	(void)row;
	progress_row();
	int marker = is_marker(s->r, v[5]);
	if (marker != (s->r->keep == KEEP_MARKERS_ONLY))
		return 0;
	uint32_t lane = local_lane(&s->lanes, v[1], v[2]);
	if (lane == TRACE_NONE || !raw_ok(s, v[5], v[6]))
		return 1;
	if (marker)
		raw_rows_push(&s->texts, (uint32_t)(s->from + s->kept), v[6]);
	size_t i = s->base + s->from + s->kept++;
	s->r->t->apis.id[i] = v[0];
	put_call(s, i, v, lane);
	return 0;
}

/* The parts' calls moved up to follow each other, and the parts made
 * what they now hold, for finish_apis. */
static void close_up(struct trace_apis *a, size_t base, struct scan *s)
{
	size_t next = 0;
	for (int k = 0; k < s->nthreads; k++) {
		struct sink *x = &s->sinks[k];
		size_t from = base + x->from, to = base + next, n = x->kept;
		if (from != to) {
			memmove(a->id + to, a->id + from, n * sizeof(*a->id));
			memmove(a->start + to, a->start + from, n * sizeof(*a->start));
			memmove(a->end + to, a->end + from, n * sizeof(*a->end));
			memmove(a->name + to, a->name + from, n * sizeof(*a->name));
			memmove(a->thread + to, a->thread + from, n * sizeof(*a->thread));
			for (size_t j = 0; j < x->graphs.n; j++)
				x->graphs.row[j] -= (uint32_t)(from - to);
			for (size_t j = 0; j < x->texts.n; j++)
				x->texts.row[j] -= (uint32_t)(from - to);
		}
		s->parts[k].first = next;
		s->parts[k].count = n;
		next += n;
	}
	s->rows = next;
}

/* rocpd_api_ops: api_id, op_id; the ids are found among this input's rows
 * (read-only here), links to absent rows marked to be dropped. */
static int link_row(void *ctx, size_t row, const int64_t *v)
{
	struct sink *s = ctx;
	const struct rpd_reader *r = s->r;
	struct trace *t = r->t;
	size_t i = s->base + row;
	t->links.api[i] = s->api_first >= 0
				  ? find_dense(NULL, r->api_base, t->apis.n, s->api_first, v[0])
				  : trace_api_find_near(t, r->api_base, t->apis.n, v[0], &s->api_run);
	t->links.op[i] = find_dense(t->ops.id, r->op_base, r->op_end, s->op_first, v[1]);
	progress_row();
	return 0;
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
	rpd_strmap_init(&m, &r->strings, rpd_scan_max_raw(s), s->rows);
	int rc = 0;
	for (int k = 0; rc == 0 && k < s->nthreads; k++) {
		uint32_t *lanes = op_lanes(r, &s->sinks[k].lanes);
		const struct local_types *types = &s->sinks[k].types;
		/* A part's few types are looked up once, not at every op: each at
		 * its first op, so that strings are taken in the same order. */
		uint32_t type[MAX_LOCAL_TYPES];
		uint8_t type_kind[MAX_LOCAL_TYPES], known[MAX_LOCAL_TYPES] = { 0 };
		size_t from = o->n + s->parts[k].first, to = from + s->parts[k].count;
		for (size_t i = from; rc == 0 && i < to; i++) {
			uint32_t desc, local = o->kind[i];
			if (rpd_strmap_get(&m, r, o->name[i], &desc) ||
			    (!known[local] &&
			     rpd_strmap_get(&m, r, (uint32_t)types->id[local], &type[local]))) {
				rc = -1;
				break;
			}
			if (!known[local]) {
				type_kind[local] = (uint8_t)trace_type_kind(trace_str(r->t, type[local]));
				known[local] = 1;
			}
			uint8_t kind = (uint8_t)trace_op_kind(type_kind[local], trace_str(r->t, desc));
			o->name[i] = strtab_len(&r->t->strings, desc) ? desc : type[local];
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
	if (rpd_scan_open(&s, r, "rocpd_op", op_cols, 7))
		return FAST_DECLINED;
	trace_reserve_ops(r->t, s.rows);
	/* Ids are left unwritten only in a trace of this table alone. */
	int defer = r->t->ops.id && r->t->ops.n == 0;
	for (int k = 0; k < s.nthreads; k++)
		s.sinks[k].defer_ids = defer;
	enum fastpath rc = rpd_scan_decode(&s, r->t->ops.n, op_row);
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
	rpd_scan_close(&s);
	return rc;
}

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

/* Each thread's ids rise (note_id saw to it): do they rise from one
 * thread's rows to the next's? */
static int runs_rise(const struct scan *s)
{
	int any = 0;
	int64_t last = 0;
	for (int k = 0; k < s->nthreads; k++) {
		const struct sink *x = &s->sinks[k];
		if (!x->any)
			continue;
		if (any && x->runs.id[0] <= last)
			return 0;
		any = 1;
		last = x->last_id;
	}
	return 1;
}

/* The threads' runs become the trace's, rows from its API rows' end; a
 * run going on across two threads' rows is one. Too many, and the rows
 * get an id column instead. */
static void take_runs(struct trace *t, const struct scan *s)
{
	size_t base = t->apis.n, n = 0, rows = 0;
	for (int k = 0; k < s->nthreads; k++) {
		n += s->sinks[k].runs.n;
		rows += s->parts[k].count;
	}
	if (trace_api_runs_too_many(n, rows)) {
		trace_apis_need_ids(t);
		for (int k = 0; k < s->nthreads; k++) {
			const struct id_runs *r = &s->sinks[k].runs;
			size_t end = s->parts[k].first + s->parts[k].count;
			for (size_t j = 0; j < r->n; j++)
				for (size_t row = r->row[j]; row < (j + 1 < r->n ? r->row[j + 1] : end);
				     row++)
					t->apis.id[base + row] =
						(int64_t)((uint64_t)r->id[j] + (row - r->row[j]));
		}
		return;
	}
	int any = 0;
	int64_t next = 0;
	for (int k = 0; k < s->nthreads; k++) {
		const struct sink *x = &s->sinks[k];
		for (size_t j = 0; j < x->runs.n; j++)
			if (!(j == 0 && any && x->runs.id[0] == next))
				trace_api_runs_push(t, base + x->runs.row[j], x->runs.id[j]);
		if (x->any) {
			any = 1;
			next = (int64_t)((uint64_t)x->last_id + 1);
		}
	}
}

/* Every API row, or those the reader keeps (a file without markers has
 * none to leave out): the rows kept are then far apart, their ids a
 * column. */
static enum fastpath decode_apis(struct rpd_reader *r, struct scan *s)
{
	if (r->keep == KEEP_EVERY_CALL || (r->keep == KEEP_NO_MARKERS && r->nmarker_raw == 0))
		return rpd_scan_decode(s, r->t->apis.n, api_row);
	trace_apis_need_ids(r->t);
	for (int k = 0; k < s->nthreads; k++)
		s->sinks[k].from = s->parts[k].first;
	enum fastpath rc = rpd_scan_decode(s, r->t->apis.n, kept_row);
	if (rc == FAST_DONE) {
		close_up(&r->t->apis, r->t->apis.n, s);
		trace_fit_apis(r->t, r->t->apis.n + s->rows);
	}
	return rc;
}

enum fastpath rpd_pages_apis(struct rpd_reader *r)
{
	struct scan s;
	find_markers(r);
	rpd_find_graph_names(r);
	if (rpd_scan_open(&s, r, "rocpd_api", rpd_api_cols, 7))
		return FAST_DECLINED;
	trace_reserve_apis(r->t, s.rows);
	enum fastpath rc = decode_apis(r, &s);
	if (rc == FAST_DONE && r->t->apis.id && !ids_rise(r->t->apis.id + r->t->apis.n, s.rows))
		rc = FAST_DECLINED;
	if (rc == FAST_DONE && !r->t->apis.id && !runs_rise(&s))
		rc = FAST_DECLINED;
	if (rc == FAST_DONE && rpd_scan_finish_apis(r, &s))
		rc = FAST_FAILED;
	if (rc == FAST_DONE) {
		if (!r->t->apis.id)
			take_runs(r->t, &s);
		r->t->apis.n += s.rows;
		pagescan_taken();
	}
	rpd_scan_close(&s);
	return rc;
}

enum fastpath rpd_pages_links(struct rpd_reader *r)
{
	struct scan s;
	struct trace *t = r->t;
	if (rpd_scan_open(&s, r, "rocpd_api_ops", rpd_link_cols, 2))
		return FAST_DECLINED;
	for (int k = 0; k < s.nthreads; k++) {
		s.sinks[k].api_first = trace_api_dense_first(t, r->api_base, t->apis.n);
		s.sinks[k].op_first = t->ops.id ? dense_first(t->ops.id, r->op_base, r->op_end)
						: t->inputs[r->input].op_id0; /* kept as a run */
	}
	trace_reserve_links(t, s.rows);
	enum fastpath rc = rpd_scan_decode(&s, t->links.n, link_row);
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
	rpd_scan_close(&s);
	return rc;
}
