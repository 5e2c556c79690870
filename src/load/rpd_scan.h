/* Reading an rpd input's tables from the file's pages on several threads:
 * what each thread writes to (a sink), the scan of one table, and what the
 * readers of ops, API rows and links (rpd_pages.c) and of launching calls
 * alone (rpd_launches.c) share. */
#ifndef RPDTOP_LOAD_RPD_SCAN_H
#define RPDTOP_LOAD_RPD_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "load/rpd_reader.h"
#include "sqlfile/pagescan.h"

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

static inline uint32_t local_lane(struct local_lanes *l, int64_t a, int64_t b)
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

static inline uint32_t local_type(struct local_types *l, int64_t id)
{
	for (uint32_t i = 0; i < l->n; i++)
		if (l->id[i] == id)
			return i;
	if (l->n == MAX_LOCAL_TYPES)
		return TRACE_NONE;
	l->id[l->n] = id;
	return l->n++;
}

/* What one thread writes to: rows base + row of the trace's columns. */
struct sink {
	struct rpd_reader *r;
	size_t base;
	struct local_lanes lanes;
	struct local_types types;
	struct raw_rows texts;       /* markers met: rows and args ids */
	struct raw_rows graphs;      /* graph launch calls met: rows and args ids */
	int64_t max_raw;             /* largest string id seen */
	int64_t api_first, op_first; /* links: dense ids start here, or -1 */
	size_t api_run;              /* links: the API ids' run found last */
	/* Launching calls alone (rpd_pages_launches): the links' API ids'
	 * high 32 bits, a run where they change (their low bits are kept in
	 * links.api meanwhile); the ids whose rows are kept, and where this
	 * thread's kept rows went. */
	struct id_runs highs;
	int64_t high;
	const int64_t *named; /* rising, distinct */
	size_t nnamed, at, kept, lowest, highest;
	int64_t last; /* the id of the row before (seen) */
	int seen, fell, asked;
	/* Op ids not written while they run on from the thread's first
	 * (defer_ids): the first, its row, and the row where they stopped. */
	int defer_ids, id_seen, id_broken;
	int64_t id0;
	size_t row0, broke;
	/* API ids as runs (a trace keeping them so): this thread's, and the
	 * id of its row before (any rows). */
	struct id_runs runs;
	int64_t last_id;
	int any;
	/* The calls without the markers: this thread's rows kept go on from
	 * row from of the table (its part's first), kept of them so far. */
	size_t from;
	/* Each thread writes its own sink on every row: the next one's first
	 * bytes must not share a cache line with these. */
	char pad[128];
};

static inline int raw_ok(struct sink *s, int64_t a, int64_t b)
{
	if (a < 0 || b < 0 || a > MAX_RAW_ID || b > MAX_RAW_ID)
		return 0;
	if (a > s->max_raw)
		s->max_raw = a;
	if (b > s->max_raw)
		s->max_raw = b;
	return 1;
}

static inline uint32_t find_dense(const int64_t *ids, size_t lo, size_t end, int64_t first, int64_t id)
{
	if (first < 0)
		return rpd_find_row(ids, lo, end, id);
	return id >= first && (uint64_t)(id - first) < end - lo ? (uint32_t)(lo + (size_t)(id - first))
								: TRACE_NONE;
}

/* Ids read in rowid order rise; without gaps a row is found by subtraction. */
static inline int64_t dense_first(const int64_t *ids, size_t lo, size_t end)
{
	if (lo == end || ids[end - 1] - ids[lo] != (int64_t)(end - lo - 1))
		return -1;
	return ids[lo] >= 0 ? ids[lo] : -1;
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

struct scan {
	struct pagescan ps;
	struct pagescan_table tab;
	struct pagescan_part parts[PAGESCAN_MAX_THREADS];
	struct sink *sinks;
	int nthreads;
	size_t rows;
};

/* Open table for a scan of cols (FAST_DECLINED: not from its pages); with
 * keep given (nkeep rising rowids), only the leaves that may hold one of
 * them are read when the first column is the rowid. */
int rpd_scan_open_keep(struct scan *s, struct rpd_reader *r, const char *table, const char *const *cols,
		       int ncols, const int64_t *keep, size_t nkeep);
int rpd_scan_open(struct scan *s, struct rpd_reader *r, const char *table, const char *const *cols,
		  int ncols);
/* Decode every row, the rows of part k into sink k, numbered from base. */
int rpd_scan_decode(struct scan *s, size_t base, pagescan_row_fn fn);
int64_t rpd_scan_max_raw(const struct scan *s); /* the largest string id any sink met */
void rpd_scan_close(struct scan *s);

void rpd_strmap_init(struct strmap *m, struct strcache *cache, int64_t max_raw, size_t rows);
int rpd_strmap_get(struct strmap *m, const struct rpd_reader *r, uint32_t raw, uint32_t *out);

/* The API rows decoded into a->n + each part: their names and threads as
 * the trace's, the markers' texts added, the graph launch calls met kept
 * for read_graphs. */
int rpd_scan_finish_apis(struct rpd_reader *r, struct scan *s);
/* The ids of the graph launch names among the strings (r->graph_raw). */
void rpd_find_graph_names(struct rpd_reader *r);
/* Is a database string id one of a graph launch name's? */
static inline int rpd_is_graph_launch(const struct rpd_reader *r, int64_t id)
{
	for (int k = 0; k < r->ngraph_raw; k++)
		if (r->graph_raw[k] == id)
			return 1;
	return 0;
}

/* A call's columns into row i (its id apart): start, end, its name's and
 * lane's raw ids, and a graph launch call noted with its args id. */
static inline void put_call(struct sink *s, size_t i, const int64_t *v, uint32_t lane)
{
	struct trace_apis *a = &s->r->t->apis;
	a->start[i] = v[3];
	a->end[i] = v[4];
	a->name[i] = (uint32_t)v[5];
	a->thread[i] = lane;
	if (rpd_is_graph_launch(s->r, v[5]))
		raw_rows_push(&s->graphs, (uint32_t)i, v[6]);
}

extern const char *const rpd_api_cols[7];  /* rocpd_api: id, pid, tid, start, end, apiName_id, args_id */
extern const char *const rpd_link_cols[2]; /* rocpd_api_ops: api_id, op_id */

#endif
