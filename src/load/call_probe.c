#include "config.h"
#include "load/call_probe.h"

#include <stdlib.h>
#include <string.h>

#include "load/strcache.h"
#include "sqlfile/dbfile.h"
#include "sqlfile/dbfile_read.h"
#include "sqlfile/pagescan.h"
#include "util/search.h"
#include "util/sort.h"
#include "util/threads.h"
#include "util/xalloc.h"

/* A call met so far for a probe: best[j], the innermost running at its
 * moment; best[n + j], the one its thread finished last before it (the
 * answer when none runs then). */
struct best {
	int found;
	int64_t start, end;
	uint32_t input;
	uint32_t row;               /* in memory, or TRACE_NONE: a file's row */
	int64_t name_raw, args_raw; /* a file's row: named once the file is read */
};

struct probing {
	struct trace *t;
	struct call_probe *p;
	size_t n;
	uint32_t *order;           /* the probes by domain, pid, tid and time */
	struct best *best, *saved; /* 2n of them (struct best) */
	size_t lo, hi;             /* the probes of the input's domain: order[lo..hi) */
	size_t plo, phi;           /* of the last thread met */
	size_t near;               /* where its last call's start fell among them */
	int64_t pid, tid;
	int have_pid;
	uint32_t input;
	int version; /* of the file read (its schema's) */
};

/* The bytes of g's answers (two per probe). */
static size_t answers_size(const struct probing *g)
{
	return 2 * g->n * sizeof(*g->best);
}

static int by_moment(const void *a, const void *b, void *ctx)
{
	const struct call_probe *p = ctx;
	const struct call_probe *x = &p[*(const uint32_t *)a], *y = &p[*(const uint32_t *)b];
	if (x->domain != y->domain)
		return x->domain < y->domain ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return (*(const uint32_t *)a > *(const uint32_t *)b) - (*(const uint32_t *)a < *(const uint32_t *)b);
}

/* The first place in order[lo..hi) of a probe of a domain not below
 * domain (above: above it). */
static size_t first_domain(const struct probing *g, size_t lo, size_t hi, uint32_t domain, int above)
{
	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;
		uint32_t v = g->p[g->order[m]].domain;
		if (v < domain || (above && v == domain))
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}

/* Is probe v's thread below (pid, tid) (above: not above it)? */
static int thread_below(const struct call_probe *v, int64_t pid, int64_t tid, int above)
{
	if (v->pid != pid)
		return v->pid < pid;
	return v->tid < tid || (above && v->tid == tid);
}

/* The same for threads, among probes of one domain. */
static size_t first_thread(const struct probing *g, size_t lo, size_t hi, int64_t pid, int64_t tid, int above)
{
	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;
		if (thread_below(&g->p[g->order[m]], pid, tid, above))
			lo = m + 1;
		else
			hi = m;
	}
	return lo;
}

/* Is probe i of order not before time? */
struct probe_time {
	const struct probing *g;
	int64_t time;
};

static int not_before(const void *ctx, size_t i)
{
	const struct probe_time *p = ctx;
	return p->g->p[p->g->order[i]].time >= p->time;
}

/* The first of order[lo, hi) not before time, among probes of one
 * thread, looked for from *near (a thread's calls come nearly in time
 * order: the place is near the last one's), which becomes the place. */
static size_t first_time_near(const struct probing *g, size_t lo, size_t hi, int64_t time, size_t *near)
{
	struct probe_time p = { g, time };
	*near = search_from(lo, hi, *near, not_before, &p);
	return *near;
}

/* Is a strictly more inner than b (both covering the same moment)? */
static int more_inner(const struct best *a, const struct best *b)
{
	return a->found && (!b->found || a->start > b->start || (a->start == b->start && a->end < b->end));
}

/* Did a end strictly later than b (both finished), or as late and start
 * first (the outer)? */
static int later_done(const struct best *a, const struct best *b)
{
	return a->found && (!b->found || a->end > b->end || (a->end == b->end && a->start < b->start));
}

/* Is a better than b for answer j (of 2n)? */
static int better(const struct probing *g, size_t j, const struct best *a, const struct best *b)
{
	return j < g->n ? more_inner(a, b) : later_done(a, b);
}

/* A call of thread (pid, tid) from start to end: the innermost so far of
 * the probes it covers, and a call finished before the first probe at or
 * after its end (the later probes of the thread learn of it in
 * spread_done)? Rows come in input order, so at a full tie the first
 * stays. */
static void offer(struct probing *g, int64_t pid, int64_t tid, int64_t start, int64_t end, uint32_t row,
		  int64_t name_raw, int64_t args_raw)
{
	if (!g->have_pid || pid != g->pid || tid != g->tid) {
		g->plo = first_thread(g, g->lo, g->hi, pid, tid, 0);
		g->phi = first_thread(g, g->plo, g->hi, pid, tid, 1);
		g->pid = pid;
		g->tid = tid;
		g->have_pid = 1;
		g->near = g->plo;
	}
	struct best b = { 1, start, end, g->input, row, name_raw, args_raw };
	size_t j = first_time_near(g, g->plo, g->phi, start, &g->near);
	for (; j < g->phi && g->p[g->order[j]].time < end; j++) {
		struct best *x = &g->best[g->order[j]];
		if (more_inner(&b, x))
			*x = b;
	}
	if (j < g->phi) {
		struct best *x = &g->best[g->n + g->order[j]];
		if (later_done(&b, x))
			*x = b;
	}
}

/* Each probe of the input's domain learns of the calls its thread
 * finished before earlier probes: the latest of them all. */
static void spread_done(struct probing *g)
{
	for (size_t j = g->lo + 1; j < g->hi; j++) {
		const struct call_probe *a = &g->p[g->order[j - 1]], *b = &g->p[g->order[j]];
		if (a->pid == b->pid && a->tid == b->tid &&
		    later_done(&g->best[g->n + g->order[j - 1]], &g->best[g->n + g->order[j]]))
			g->best[g->n + g->order[j]] = g->best[g->n + g->order[j - 1]];
	}
}

static void offer_rows(struct probing *g, const struct trace_input *in)
{
	const struct trace *t = g->t;
	for (size_t r = in->api_first; r < in->api_first + in->api_count; r++)
		offer(g, t->threads[t->apis.thread[r]].pid, t->threads[t->apis.thread[r]].tid,
		      t->apis.start[r], t->apis.end[r], (uint32_t)r, 0, 0);
}

/* rocpd_api: id, pid, tid, start, end, apiName_id, args_id */
static int file_row(void *ctx, size_t row, const int64_t *v)
{
	(void)row;
	offer(ctx, v[1], v[2], v[3], v[4], TRACE_NONE, v[5], v[6]);
	return 0;
}

/* The pages gave out half-way: SQL starts over from the input's start. */
static void file_reset(void *ctx)
{
	struct probing *g = ctx;
	memcpy(g->best, g->saved, answers_size(g));
	g->have_pid = 0;
}

/* The answer to probe j: the innermost call running then, else the one
 * its thread finished last before; NULL: none. */
static const struct best *answer(const struct probing *g, size_t j)
{
	if (g->best[j].found)
		return &g->best[j];
	return g->best[g->n + j].found ? &g->best[g->n + j] : NULL;
}

/* The shown names of the file's calls that answer: a roctx range
 * by its text, any other call by its name. */
static int name_file_calls(struct probing *g, const struct sqlsrc *src, int version)
{
	struct strcache strings, args;
	strcache_init(&strings, "rocpd_string");
	strcache_init(&args, version == 3 ? "rocpd_ustring" : "rocpd_string");
	int rc = 0;
	for (size_t j = 0; rc == 0 && j < g->n; j++) {
		const struct best *x = answer(g, j);
		uint32_t name;
		if (!x || x->input != g->input || x->row != TRACE_NONE)
			continue;
		rc = strcache_get(&strings, src, g->t, x->name_raw, &name);
		if (rc == 0 && strcmp(trace_str(g->t, name), TRACE_MARKER_NAME) == 0)
			rc = strcache_get(&args, src, g->t, x->args_raw, &name);
		g->p[j].name = name;
		g->p[j].after = x != &g->best[j];
	}
	strcache_free(&strings);
	strcache_free(&args);
	return rc ? -1 : 0;
}

static const char *const call_cols[] = { "id", "pid", "tid", "start", "end", "apiName_id", "args_id" };

/* The calls read from the file's pages by several threads, each over its
 * run of rows with its own copy of the answers; the runs' answers are then
 * taken in row order, so that at a tie the first row still wins. */
static enum fastpath offer_pages(struct probing *g, sqlite3 *db)
{
	struct pagescan ps;
	struct pagescan_table tab;
	struct pagescan_part parts[PAGESCAN_MAX_THREADS];
	size_t rows;
	if (pagescan_begin(&ps, db))
		return FAST_DECLINED;
	enum fastpath rc = FAST_DECLINED;
	if (pagescan_open_table(&ps, "rocpd_api", call_cols, 7, &tab) == FAST_DONE) {
		int n = threads_limit();
		n = tab.nleaves < 256 || n < 1 ? 1 : n > PAGESCAN_MAX_THREADS ? PAGESCAN_MAX_THREADS : n;
		/* Each thread has its own answers: millions of moments (every gap
		 * of a long trace) are asked on one thread instead. */
		if (g->n > ((size_t)1 << 20))
			n = 1;
		struct probing run[PAGESCAN_MAX_THREADS];
		void *ctx[PAGESCAN_MAX_THREADS];
		for (int k = 0; k < n; k++) {
			run[k] = *g;
			run[k].best = xmalloc(answers_size(g) + 1);
			memcpy(run[k].best, g->best, answers_size(g));
			ctx[k] = &run[k];
		}
		if (pagescan_count(&ps, &tab, n, parts, &rows) == FAST_DONE)
			rc = pagescan_decode(&ps, &tab, n, parts, file_row, ctx);
		for (int k = 0; k < n; k++) {
			for (size_t j = 0; rc == FAST_DONE && j < 2 * g->n; j++)
				if (better(g, j, &run[k].best[j], &g->best[j]))
					g->best[j] = run[k].best[j];
			free(run[k].best);
		}
		pagescan_table_free(&tab);
	}
	pagescan_end(&ps);
	return rc;
}

/* The calls of a file read in one snapshot (version: its schema's). */
static int read_file_calls(void *ctx, sqlite3 *db, const char *path, struct rpd_error *err)
{
	struct probing *g = ctx;
	struct sqlsrc src = { db, path, "rpd", err };
	int rc = SQLITE_OK;
	memcpy(g->saved, g->best, answers_size(g));
	if (offer_pages(g, db) != FAST_DONE) {
		memcpy(g->best, g->saved, answers_size(g));
		g->have_pid = 0;
		rc = pagescan_or_sql(db, "rocpd_api", call_cols, 7, file_row, file_reset, g);
	}
	if (rc != SQLITE_OK)
		return dbfile_error(db, rc, path, err);
	spread_done(g);
	return name_file_calls(g, &src, g->version);
}

/* The answers as they were before the file (it is read again). */
static void file_again(void *ctx)
{
	struct probing *g = ctx;
	memcpy(g->best, g->saved, answers_size(g));
	g->have_pid = 0;
}

static int offer_file(struct probing *g, const char *path, int version, struct rpd_error *err)
{
	g->version = version;
	struct dbfile_reading r = { read_file_calls, file_again, g };
	return dbfile_read(path, &r, err);
}

int trace_probe_calls(struct trace *t, struct call_probe *p, size_t n, struct rpd_error *err)
{
	struct probing g = { .t = t, .p = p, .n = n };
	g.order = xmalloc_array(n ? n : 1, sizeof(*g.order));
	g.best = xcalloc(2 * n + 1, sizeof(*g.best));
	g.saved = xmalloc_array(2 * n + 1, sizeof(*g.saved));
	for (size_t j = 0; j < n; j++) {
		g.order[j] = (uint32_t)j;
		p[j].name = TRACE_NONE;
		p[j].after = 0;
	}
	sort_with(g.order, n, sizeof(*g.order), by_moment, p);
	int rc = 0;
	for (uint32_t i = 0; rc == 0 && i < t->ninputs; i++) {
		const struct trace_input *in = &t->inputs[i];
		g.lo = first_domain(&g, 0, n, in->domain, 0);
		g.hi = first_domain(&g, g.lo, n, in->domain, 1);
		if (g.lo == g.hi)
			continue;
		g.input = i;
		g.have_pid = 0;
		if (in->launches_only)
			rc = offer_file(&g, in->path, in->schema_version, err);
		else
			offer_rows(&g, in);
		if (!in->launches_only)
			spread_done(&g);
	}
	for (size_t j = 0; rc == 0 && j < n; j++) {
		const struct best *x = answer(&g, j);
		if (x && x->row != TRACE_NONE) {
			p[j].name = trace_api_shown_name(t, x->row);
			p[j].after = x != &g.best[j];
		}
	}
	free(g.order);
	free(g.best);
	free(g.saved);
	return rc;
}
