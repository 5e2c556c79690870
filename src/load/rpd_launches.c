#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "load/progress.h"
#include "load/rpd_scan.h"
#include "util/search.h"
#include "util/sort.h"
#include "util/xalloc.h"

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
	if (rpd_is_graph_launch(s->r, v[5]))
		raw_rows_push(&s->graphs, (uint32_t)i, v[6]);
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
	if (rpd_scan_open(&s, r, "rocpd_api_ops", rpd_link_cols, 2))
		return FAST_DECLINED;
	trace_reserve_links(t, s.rows);
	*raw = xmalloc_array(s.rows ? s.rows : 1, sizeof(**raw));
	for (int k = 0; k < s.nthreads; k++) {
		s.sinks[k].link_api = *raw;
		s.sinks[k].op_first = t->ops.id ? dense_first(t->ops.id, r->op_base, r->op_end)
						: t->inputs[r->input].op_id0;
	}
	enum fastpath rc = rpd_scan_decode(&s, t->links.n, launch_link_row);
	*n = s.rows;
	rpd_scan_close(&s);
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
	rpd_find_graph_names(r);
	if (rpd_scan_open_keep(&s, r, "rocpd_api", rpd_api_cols, 7, named, n))
		return FAST_DECLINED;
	trace_reserve_apis(r->t, n);
	/* The calls kept are far apart: their ids as a column. */
	trace_apis_need_ids(r->t);
	for (int k = 0; k < s.nthreads; k++) {
		s.sinks[k].named = named;
		s.sinks[k].nnamed = n;
	}
	if (s.tab.cols[0] == PAGESCAN_ROWID)
		s.ps.want = launch_want_rowid;
	enum fastpath rc = rpd_scan_decode(&s, r->t->apis.n, launch_api_row);
	for (int k = 0; k < s.nthreads; k++)
		if (s.sinks[k].fell)
			rc = FAST_DECLINED;
	if (rc == FAST_DONE && !kept_in_runs(&s, n))
		rc = FAST_DECLINED;
	if (rc == FAST_DONE && rpd_scan_finish_apis(r, &s))
		rc = FAST_FAILED;
	if (rc == FAST_DONE)
		r->t->apis.n += n;
	rpd_scan_close(&s);
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
