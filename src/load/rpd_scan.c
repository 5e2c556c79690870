#include "config.h"
#include "load/rpd_scan.h"

#include <stdlib.h>
#include <string.h>

#include "load/progress.h"
#include "trace/graphs.h"
#include "util/xalloc.h"

/* The array is used while it takes no more than a few words per row read
 * (or 16 MB, however few the rows). */
void rpd_strmap_init(struct strmap *m, struct strcache *cache, int64_t max_raw, size_t rows)
{
	size_t most = rows * 4 > ((size_t)1 << 22) ? rows * 4 : (size_t)1 << 22;
	m->cache = cache;
	m->n = (size_t)max_raw + 1;
	m->v = m->n <= most ? xcalloc(m->n, sizeof(*m->v)) : NULL;
}

int rpd_strmap_get(struct strmap *m, const struct rpd_reader *r, uint32_t raw, uint32_t *out)
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

/* Small tables are not worth a thread. */
static int threads_for(const struct rpd_reader *r, size_t leaves)
{
	int n = r->threads < 1 ? 1 : r->threads > PAGESCAN_MAX_THREADS ? PAGESCAN_MAX_THREADS : r->threads;
	return leaves < 256 ? 1 : n;
}

int rpd_scan_open_keep(struct scan *s, struct rpd_reader *r, const char *table, const char *const *cols,
		       int ncols, const int64_t *keep, size_t nkeep)
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
		pagescan_keep_keys(&s->tab, keep, nkeep);
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

int rpd_scan_open(struct scan *s, struct rpd_reader *r, const char *table, const char *const *cols, int ncols)
{
	return rpd_scan_open_keep(s, r, table, cols, ncols, NULL, 0);
}

int rpd_scan_decode(struct scan *s, size_t base, pagescan_row_fn fn)
{
	void *ctx[PAGESCAN_MAX_THREADS];
	for (int k = 0; k < s->nthreads; k++) {
		s->sinks[k].base = base;
		ctx[k] = &s->sinks[k];
	}
	return pagescan_decode(&s->ps, &s->tab, s->nthreads, s->parts, fn, ctx);
}

int64_t rpd_scan_max_raw(const struct scan *s)
{
	int64_t m = 0;
	for (int k = 0; k < s->nthreads; k++)
		if (s->sinks[k].max_raw > m)
			m = s->sinks[k].max_raw;
	return m;
}

void rpd_scan_close(struct scan *s)
{
	for (int k = 0; k < s->nthreads; k++) {
		raw_rows_free(&s->sinks[k].texts);
		raw_rows_free(&s->sinks[k].graphs);
		free(s->sinks[k].runs.row);
		free(s->sinks[k].runs.id);
		free(s->sinks[k].highs.row);
		free(s->sinks[k].highs.id);
	}
	free(s->sinks);
	pagescan_table_free(&s->tab);
	pagescan_end(&s->ps);
}

void raw_rows_push(struct raw_rows *x, uint32_t row, int64_t raw)
{
	if (x->n == x->cap) {
		x->row = xgrow(x->row, &x->cap, x->n + 1, sizeof(*x->row));
		x->raw = xrealloc_array(x->raw, x->cap, sizeof(*x->raw));
	}
	x->row[x->n] = row;
	x->raw[x->n++] = raw;
}

void raw_rows_free(struct raw_rows *x)
{
	free(x->row);
	free(x->raw);
	memset(x, 0, sizeof(*x));
}

void rpd_find_graph_names(struct rpd_reader *r)
{
	sqlite3_stmt *st;
	r->ngraph_raw = 0;
	/* Prefixes the string index can find; the rule itself picks. */
	if (sqlite3_prepare_v2(r->src.db,
			       "SELECT id, string FROM rocpd_string WHERE string GLOB 'hipGraphLaunch*' OR "
			       "string GLOB 'cudaGraphLaunch*' OR string GLOB 'cuGraphLaunch*'",
			       -1, &st, NULL) != SQLITE_OK) {
		r->ngraph_raw = -1;
		return;
	}
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 1);
		if (!name || !trace_graph_launch_name(name))
			continue;
		/* More than 8 such names: their calls are found as SQL reads them. */
		if (r->ngraph_raw == 8) {
			rc = SQLITE_ERROR;
			break;
		}
		r->graph_raw[r->ngraph_raw++] = sqlite3_column_int64(st, 0);
	}
	if (rc != SQLITE_DONE)
		r->ngraph_raw = -1;
	sqlite3_finalize(st);
}

/* The sinks' graph launch calls, in row order, become the reader's. */
static void take_graph_args(struct rpd_reader *r, struct scan *s)
{
	for (int k = 0; k < s->nthreads; k++) {
		const struct raw_rows *x = &s->sinks[k].graphs;
		for (size_t j = 0; j < x->n; j++)
			raw_rows_push(&r->graph_args, x->row[j], x->raw[j]);
	}
	r->graph_args_read = r->ngraph_raw >= 0;
}

int rpd_scan_finish_apis(struct rpd_reader *r, struct scan *s)
{
	struct trace_apis *a = &r->t->apis;
	struct strmap m, texts;
	struct strcache *args = r->version == 3 ? &r->ustrings : &r->strings;
	rpd_strmap_init(&m, &r->strings, rpd_scan_max_raw(s), s->rows);
	/* Markers' texts by an array too: most rows of a trace may be
	 * markers, and few texts recur. */
	rpd_strmap_init(&texts, args, rpd_scan_max_raw(s), s->rows);
	int rc = 0;
	for (int k = 0; rc == 0 && k < s->nthreads; k++) {
		const struct local_lanes *l = &s->sinks[k].lanes;
		uint32_t *threads = xmalloc_array(l->n, sizeof(*threads));
		for (uint32_t i = 0; i < l->n; i++)
			threads[i] = trace_thread(r->t, r->input, l->key[i][0], l->key[i][1]);
		size_t from = a->n + s->parts[k].first, to = from + s->parts[k].count;
		for (size_t i = from; rc == 0 && i < to; i++) {
			rc = rpd_strmap_get(&m, r, a->name[i], &a->name[i]);
			a->thread[i] = threads[a->thread[i]];
		}
		/* Rows of later threads come later: texts stay in row order. */
		const struct raw_rows *x = &s->sinks[k].texts;
		for (size_t j = 0; rc == 0 && j < x->n; j++) {
			uint32_t text;
			rc = rpd_strmap_get(&texts, r, (uint32_t)x->raw[j], &text);
			if (rc == 0)
				trace_add_api_text(r->t, (uint32_t)(a->n + x->row[j]), text);
		}
		free(threads);
	}
	free(m.v);
	free(texts.v);
	if (rc == 0)
		take_graph_args(r, s);
	return rc ? -1 : 0;
}

const char *const rpd_api_cols[7] = {
	"id", "pid", "tid", "start", "end", "apiName_id", "args_id",
};

const char *const rpd_link_cols[2] = { "api_id", "op_id" };
