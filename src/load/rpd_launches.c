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

/* rocpd_api_ops, first: the API id as read, its low 32 bits kept where
 * the link's call will go and its high ones as runs (a negative id
 * declines: the whole table is read), and the op found. */
static int launch_link_row(void *ctx, size_t row, const int64_t *v)
{
	struct sink *s = ctx;
	const struct rpd_reader *r = s->r;
	if (v[0] < 0)
		return 1;
	if (s->highs.n == 0 || v[0] >> 32 != s->high)
		id_runs_push(&s->highs, row, s->high = v[0] >> 32);
	r->t->links.api[s->base + row] = (uint32_t)v[0];
	r->t->links.op[s->base + row] = find_dense(r->t->ops.id, r->op_base, r->op_end, s->op_first, v[1]);
	progress_row();
	return 0;
}

/* The links' API ids as read, walked in row order: the low bits in
 * links.api from base on, the high ones from their runs. */
struct link_ids {
	const uint32_t *low;
	const struct id_runs *highs;
	size_t run;
};

static int64_t link_id(struct link_ids *c, size_t i)
{
	while (c->run + 1 < c->highs->n && c->highs->row[c->run + 1] <= i)
		c->run++;
	return (int64_t)((uint64_t)c->highs->id[c->run] << 32 | c->low[i]);
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
	s->r->t->apis.id[i] = v[0];
	put_call(s, i, v, lane);
	return 0;
}

/* The distinct API ids of the n links from links.n on (their ids as
 * read) to ops that are there, rising. */
static size_t named_apis(const struct trace_links *l, const struct id_runs *highs, size_t n, int64_t **out)
{
	int64_t *v = xmalloc_array(n ? n : 1, sizeof(*v));
	struct link_ids c = { l->api + l->n, highs, 0 };
	size_t k = 0, sorted = 1;
	for (size_t i = 0; i < n; i++) {
		int64_t id = link_id(&c, i);
		/* A call launching many ops is linked on adjacent rows. */
		if (l->op[l->n + i] == TRACE_NONE || (k && id == v[k - 1]))
			continue;
		if (k && id < v[k - 1])
			sorted = 0;
		v[k++] = id;
	}
	/* Links come in id order but for a few ids a little out of place. */
	if (!sorted)
		sort_nearly_int64(v, k);
	size_t m = 0;
	for (size_t i = 0; i < k; i++)
		if (m == 0 || v[i] != v[m - 1])
			v[m++] = v[i];
	*out = v;
	return m;
}

/* The links past links.n, their API ids as read: the low bits in
 * links.api, the high ones as runs in *highs (rows from links.n). */
static enum fastpath scan_links_first(struct rpd_reader *r, struct id_runs *highs, size_t *n)
{
	struct scan s;
	struct trace *t = r->t;
	if (rpd_scan_open(&s, r, "rocpd_api_ops", rpd_link_cols, 2))
		return FAST_DECLINED;
	trace_reserve_links(t, s.rows);
	for (int k = 0; k < s.nthreads; k++)
		s.sinks[k].op_first = t->ops.id ? dense_first(t->ops.id, r->op_base, r->op_end)
						: t->inputs[r->input].op_id0;
	enum fastpath rc = rpd_scan_decode(&s, t->links.n, launch_link_row);
	*n = s.rows;
	for (int k = 0; rc == FAST_DONE && k < s.nthreads; k++)
		for (size_t j = 0; j < s.sinks[k].highs.n; j++)
			id_runs_push(highs, s.sinks[k].highs.row[j], s.sinks[k].highs.id[j]);
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

/* The links become links to the rows kept (every named id has one), in
 * place: a link's id is read before any link at or after it is written. */
static void link_named(struct trace *t, size_t base, const int64_t *named, size_t nnamed,
		       const struct id_runs *highs, size_t n)
{
	size_t out = t->links.n, at = 0;
	int64_t last = -1;
	struct link_ids c = { t->links.api + t->links.n, highs, 0 };
	for (size_t i = 0; i < n; i++) {
		int64_t id = link_id(&c, i);
		uint32_t op = t->links.op[t->links.n + i];
		int rising = i && id >= last;
		last = id;
		if (op == TRACE_NONE)
			continue;
		at = rising ? walk_to(named, nnamed, at, id) : lower_bound_i64(named, 0, nnamed, id);
		t->links.api[out] = (uint32_t)(base + at);
		t->links.op[out++] = op;
	}
	t->links.n = out;
}

enum fastpath rpd_pages_launches(struct rpd_reader *r)
{
	struct trace *t = r->t;
	int64_t *named = NULL;
	struct id_runs highs = { 0 };
	size_t n = 0, nnamed = 0;
	enum fastpath rc = scan_links_first(r, &highs, &n);
	if (rc == FAST_DONE) {
		nnamed = named_apis(&t->links, &highs, n, &named);
		size_t base = t->apis.n;
		rc = scan_named_apis(r, named, nnamed);
		if (rc == FAST_DONE) {
			link_named(t, base, named, nnamed, &highs, n);
			pagescan_taken();
			pagescan_taken();
		}
	}
	free(named);
	free(highs.row);
	free(highs.id);
	return rc;
}
