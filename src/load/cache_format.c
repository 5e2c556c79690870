#include "config.h"
#include "load/cache_format.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "trace/api_order.h"
#include "util/hash64.h"
#include "util/threads.h"
#include "util/xalloc.h"

#define MAGIC CACHE_MAGIC
#define ALIGN 64

struct head {
	char magic[8];
	uint32_t version, level;
	uint64_t file_size;
	uint64_t meta_off, meta_len, meta_hash;
	uint64_t dir_off, dir_n, dir_hash;
	uint64_t head_hash; /* of the bytes above */
};

struct section {
	uint32_t id, size; /* size: of one item */
	uint64_t present;  /* the column exists (it may have no rows) */
	uint64_t off, n;   /* where, and how many items */
	uint64_t hash;
};

/* Which load a column comes with. */
enum group { G_OPS, G_IDS, G_APIS };

/* Every column kept, with its length and group. Strings are copied out
 * (the table grows with names read later); the rest are borrowed. */
#define SECTIONS(DO)                                                                                         \
	DO(0, strings.bytes, strings.bytes_len, G_OPS)                                                       \
	DO(1, strings.offset, strings.count, G_OPS)                                                          \
	DO(2, strings.len, strings.count, G_OPS)                                                             \
	DO(3, ops.id, ops.n, G_IDS)                                                                          \
	DO(4, ops.start, ops.n, G_OPS)                                                                       \
	DO(5, ops.end, ops.n, G_OPS)                                                                         \
	DO(6, ops.name, ops.n, G_OPS)                                                                        \
	DO(7, ops.queue, ops.n, G_OPS)                                                                       \
	DO(8, ops.kind, ops.n, G_OPS)                                                                        \
	DO(9, apis.id, apis.n, G_APIS)                                                                       \
	DO(10, apis.runs.row, apis.runs.n, G_APIS)                                                           \
	DO(11, apis.runs.id, apis.runs.n, G_APIS)                                                            \
	DO(12, apis.start, apis.n, G_APIS)                                                                   \
	DO(13, apis.end, apis.n, G_APIS)                                                                     \
	DO(14, apis.name, apis.n, G_APIS)                                                                    \
	DO(15, apis.thread, apis.n, G_APIS)                                                                  \
	DO(16, apis.texted, apis.n / 64 + 1, G_APIS)                                                         \
	DO(20, op_launch, op_launch_n, G_APIS)                                                               \
	DO(21, counters.of, counters.n, G_APIS)                                                              \
	DO(22, counters.start, counters.n, G_APIS)                                                           \
	DO(23, counters.end, counters.n, G_APIS)                                                             \
	DO(24, counters.value, counters.n, G_APIS)                                                           \
	DO(25, copies.op, copies.n, G_APIS)                                                                  \
	DO(26, copies.bytes, copies.n, G_APIS)                                                               \
	DO(27, copies.src, copies.n, G_APIS)                                                                 \
	DO(28, copies.dst, copies.n, G_APIS)                                                                 \
	DO(29, graphs.api, graphs.n, G_APIS)                                                                 \
	DO(30, graphs.exec, graphs.n, G_APIS)                                                                \
	DO(31, host_copies.start, host_copies.n, G_OPS)                                                      \
	DO(32, host_copies.end, host_copies.n, G_OPS)                                                        \
	DO(33, host_copies.name, host_copies.n, G_OPS)                                                       \
	DO(34, host_copies.input, host_copies.n, G_OPS)                                                      \
	DO(35, call_order, apis.n, G_APIS)

#define COUNT_SECTION(id, col, n, group) +1
enum { NSECTIONS = 0 SECTIONS(COUNT_SECTION) };

static uint64_t align_up(uint64_t x)
{
	return (x + ALIGN - 1) / ALIGN * ALIGN;
}

/* The small tables, written as 64-bit numbers and counted strings. */
struct buf {
	unsigned char *p;
	size_t n, cap;
};

static void put(struct buf *b, const void *x, size_t n)
{
	b->p = xgrow(b->p, &b->cap, b->n + n, 1);
	memcpy(b->p + b->n, x, n);
	b->n += n;
}

static void put_u64(struct buf *b, uint64_t v)
{
	put(b, &v, sizeof(v));
}

static void put_str(struct buf *b, const char *s)
{
	put_u64(b, s ? strlen(s) : UINT64_MAX);
	if (s)
		put(b, s, strlen(s));
}

static void put_meta(struct buf *b, const struct trace *t, int level, const char *key)
{
	put_str(b, key);
	uint64_t scalars[] = { (uint64_t)level,
			       (uint64_t)t->same_node,
			       (uint64_t)t->no_op_ids,
			       (uint64_t)t->apis_read,
			       t->ops.n,
			       t->apis.n,
			       t->apis.runs.n,
			       t->apis.marker_name,
			       t->op_launch_n,
			       t->counters.n,
			       t->copies.n,
			       (uint64_t)t->copies.sorted,
			       t->strings.count,
			       t->strings.bytes_len,
			       (uint64_t)t->op_first_start,
			       (uint64_t)t->op_last_end,
			       t->graphs.n,
			       (uint64_t)t->graphs.sorted,
			       t->host_copies.n };
	for (size_t i = 0; i < sizeof(scalars) / sizeof(scalars[0]); i++)
		put_u64(b, scalars[i]);
	put_u64(b, t->ninputs);
	for (size_t i = 0; i < t->ninputs; i++) {
		const struct trace_input *in = &t->inputs[i];
		put_str(b, in->path);
		put_str(b, in->uuid);
		put_str(b, in->guid);
		uint64_t f[] = { (uint64_t)in->format,
				 (uint64_t)in->schema_version,
				 in->domain,
				 in->op_first,
				 in->op_count,
				 in->api_first,
				 in->api_count,
				 (uint64_t)in->op_id0,
				 (uint64_t)in->launches_only,
				 (uint64_t)in->rank,
				 (uint64_t)in->world_size,
				 (uint64_t)in->stamp.size,
				 (uint64_t)in->stamp.mtime_ns,
				 in->stamp.dev,
				 in->stamp.ino };
		for (size_t k = 0; k < sizeof(f) / sizeof(f[0]); k++)
			put_u64(b, f[k]);
	}
	put_u64(b, t->ndomains);
	for (size_t i = 0; i < t->ndomains; i++)
		put_str(b, t->domains[i].node);
	put_u64(b, t->ngpus);
	for (size_t i = 0; i < t->ngpus; i++) {
		put_u64(b, t->gpus[i].domain);
		put_u64(b, t->gpus[i].input);
		put_u64(b, (uint64_t)t->gpus[i].device);
	}
	put_u64(b, t->nqueues);
	for (size_t i = 0; i < t->nqueues; i++) {
		put_u64(b, t->queues[i].gpu);
		put_u64(b, (uint64_t)t->queues[i].queue);
		put_u64(b, t->queues[i].name);
	}
	put_u64(b, t->nthreads);
	for (size_t i = 0; i < t->nthreads; i++) {
		put_u64(b, t->threads[i].domain);
		put_u64(b, t->threads[i].input);
		put_u64(b, (uint64_t)t->threads[i].pid);
		put_u64(b, (uint64_t)t->threads[i].tid);
		put_u64(b, t->threads[i].name);
	}
	put_u64(b, t->counters.nseries);
	for (size_t i = 0; i < t->counters.nseries; i++) {
		const struct trace_counter *s = &t->counters.series[i];
		uint64_t f[] = { s->domain, s->input, (uint64_t)s->device,
				 s->name,   s->unit,  (uint64_t)s->source };
		for (size_t k = 0; k < sizeof(f) / sizeof(f[0]); k++)
			put_u64(b, f[k]);
	}
}

static int write_all(int fd, const void *p, size_t n, uint64_t at)
{
	const char *c = p;
	while (n > 0) {
		/* A gigabyte at a time: some systems cap one write below 2 GB. */
		size_t chunk = n < ((size_t)1 << 30) ? n : (size_t)1 << 30;
		ssize_t w = pwrite(fd, c, chunk, (off_t)at);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = ENOSPC;
			return -1;
		}
		c += w;
		at += (uint64_t)w;
		n -= (size_t)w;
	}
	return 0;
}

struct column {
	const void *p;
	size_t bytes;
};

int cache_format_write(int fd, const struct trace *whole, const uint32_t *call_order, int level,
		       const char *key, const atomic_int *stop)
{
	/* The order is written as one of the trace's columns. */
	struct trace with_order = *whole;
	const struct trace *t = &with_order;
	with_order.call_order = call_order;
	struct section dir[NSECTIONS];
	struct column col[NSECTIONS];
	struct buf meta = { 0 };
	put_meta(&meta, t, level, key);
	struct head h = { .version = CACHE_VERSION, .level = (uint32_t)level, .dir_n = NSECTIONS };
	memcpy(h.magic, MAGIC, sizeof(h.magic));
	h.meta_off = align_up(sizeof(h));
	h.meta_len = meta.n;
	h.dir_off = align_up(h.meta_off + h.meta_len);
	uint64_t at = align_up(h.dir_off + sizeof(dir));
	size_t k = 0;
#define DESCRIBE_SECTION(sid, col_, count, group)                                                            \
	dir[k] = (struct section){ .id = (sid),                                                              \
				   .size = sizeof(*t->col_),                                                 \
				   .present = t->col_ != NULL,                                               \
				   .n = t->col_ ? (uint64_t)(t->count) : 0 };                                \
	col[k] = (struct column){ t->col_, (size_t)dir[k].n * sizeof(*t->col_) };                            \
	k++;
	SECTIONS(DESCRIBE_SECTION)
	for (k = 0; k < NSECTIONS; k++) {
		dir[k].off = at;
		dir[k].hash = hash64(col[k].p, col[k].bytes, dir[k].id);
		at = align_up(at + col[k].bytes);
	}
	h.file_size = at;
	h.meta_hash = hash64(meta.p, meta.n, 0);
	h.dir_hash = hash64(dir, sizeof(dir), 0);
	h.head_hash = hash64(&h, offsetof(struct head, head_hash), 0);
	int rc = write_all(fd, &h, sizeof(h), 0) || write_all(fd, meta.p, meta.n, h.meta_off) ||
		 write_all(fd, dir, sizeof(dir), h.dir_off);
	free(meta.p);
	for (k = 0; rc == 0 && k < NSECTIONS; k++) {
		if (stop && atomic_load(stop)) {
			errno = ECANCELED;
			return -1;
		}
		rc = write_all(fd, col[k].p, col[k].bytes, dir[k].off);
	}
	/* The file ends at the last column's aligned end, written or not. */
	if (rc == 0 && ftruncate(fd, (off_t)h.file_size) != 0)
		rc = -1;
	return rc ? -1 : 0;
}

/* Reading the small tables back: every read is bounded; one past the
 * end marks the whole block bad. */
struct rd {
	const unsigned char *p;
	size_t n, at;
	int bad;
};

static uint64_t get_u64(struct rd *r)
{
	uint64_t v = 0;
	if (r->bad || r->n - r->at < sizeof(v)) {
		r->bad = 1;
		return 0;
	}
	memcpy(&v, r->p + r->at, sizeof(v));
	r->at += sizeof(v);
	return v;
}

/* A count of items of at least min_bytes each that the rest can hold. */
static size_t get_count(struct rd *r, size_t min_bytes)
{
	uint64_t n = get_u64(r);
	if (r->bad || n > (r->n - r->at) / min_bytes) {
		r->bad = 1;
		return 0;
	}
	return (size_t)n;
}

static char *get_str(struct rd *r)
{
	uint64_t len = get_u64(r);
	if (r->bad || len == UINT64_MAX)
		return NULL;
	if (len > r->n - r->at) {
		r->bad = 1;
		return NULL;
	}
	char *s = xmalloc((size_t)len + 1);
	memcpy(s, r->p + r->at, (size_t)len);
	s[len] = '\0';
	r->at += (size_t)len;
	return s;
}

/* What the small tables say beside the trace's own fields. */
struct facts {
	uint64_t level, bytes_len, count, marker_name;
};

static void get_meta(struct rd *r, struct trace *t, struct facts *f)
{
	uint64_t v[19];
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		v[i] = get_u64(r);
	f->level = v[0];
	t->same_node = v[1] != 0;
	t->no_op_ids = v[2] != 0;
	t->apis_read = v[3] != 0;
	t->ops.n = t->ops.cap = (size_t)v[4];
	t->apis.n = t->apis.cap = (size_t)v[5];
	t->apis.runs.n = t->apis.runs.cap = (size_t)v[6];
	f->marker_name = v[7];
	t->apis.marker_name = v[7] <= UINT32_MAX ? (uint32_t)v[7] : TRACE_NONE;
	t->op_launch_n = (size_t)v[8];
	t->counters.n = t->counters.cap = (size_t)v[9];
	t->copies.n = t->copies.cap = (size_t)v[10];
	t->copies.sorted = v[11] != 0;
	f->count = v[12];
	f->bytes_len = v[13];
	t->op_first_start = (int64_t)v[14];
	t->op_last_end = (int64_t)v[15];
	t->graphs.n = t->graphs.cap = (size_t)v[16];
	t->graphs.sorted = v[17] != 0;
	t->host_copies.n = t->host_copies.cap = (size_t)v[18];

	t->ninputs = t->inputs_cap = get_count(r, 8 * 16);
	t->inputs = xcalloc(t->ninputs ? t->ninputs : 1, sizeof(*t->inputs));
	for (size_t i = 0; i < t->ninputs; i++) {
		struct trace_input *in = &t->inputs[i];
		in->path = get_str(r);
		in->uuid = get_str(r);
		in->guid = get_str(r);
		in->format = (int)get_u64(r);
		in->schema_version = (int)get_u64(r);
		in->domain = (uint32_t)get_u64(r);
		in->op_first = (size_t)get_u64(r);
		in->op_count = (size_t)get_u64(r);
		in->api_first = (size_t)get_u64(r);
		in->api_count = (size_t)get_u64(r);
		in->op_id0 = (int64_t)get_u64(r);
		in->launches_only = (int)get_u64(r);
		in->rank = (int64_t)get_u64(r);
		in->world_size = (int64_t)get_u64(r);
		in->stamp.size = (int64_t)get_u64(r);
		in->stamp.mtime_ns = (int64_t)get_u64(r);
		in->stamp.dev = get_u64(r);
		in->stamp.ino = get_u64(r);
		if (!in->path)
			r->bad = 1;
	}
	t->ndomains = t->domains_cap = get_count(r, 8);
	t->domains = xcalloc(t->ndomains ? t->ndomains : 1, sizeof(*t->domains));
	for (size_t i = 0; i < t->ndomains; i++)
		t->domains[i].node = get_str(r);
	t->ngpus = t->gpus_cap = get_count(r, 8 * 3);
	t->gpus = xcalloc(t->ngpus ? t->ngpus : 1, sizeof(*t->gpus));
	for (size_t i = 0; i < t->ngpus; i++) {
		t->gpus[i].domain = (uint32_t)get_u64(r);
		t->gpus[i].input = (uint32_t)get_u64(r);
		t->gpus[i].device = (int64_t)get_u64(r);
	}
	t->nqueues = t->queues_cap = get_count(r, 8 * 3);
	t->queues = xcalloc(t->nqueues ? t->nqueues : 1, sizeof(*t->queues));
	for (size_t i = 0; i < t->nqueues; i++) {
		t->queues[i].gpu = (uint32_t)get_u64(r);
		t->queues[i].queue = (int64_t)get_u64(r);
		t->queues[i].name = (uint32_t)get_u64(r);
	}
	t->nthreads = t->threads_cap = get_count(r, 8 * 5);
	t->threads = xcalloc(t->nthreads ? t->nthreads : 1, sizeof(*t->threads));
	for (size_t i = 0; i < t->nthreads; i++) {
		t->threads[i].domain = (uint32_t)get_u64(r);
		t->threads[i].input = (uint32_t)get_u64(r);
		t->threads[i].pid = (int64_t)get_u64(r);
		t->threads[i].tid = (int64_t)get_u64(r);
		t->threads[i].name = (uint32_t)get_u64(r);
	}
	struct trace_counters *c = &t->counters;
	c->nseries = c->series_cap = get_count(r, 8 * 6);
	c->series = xcalloc(c->nseries ? c->nseries : 1, sizeof(*c->series));
	for (size_t i = 0; i < c->nseries; i++) {
		struct trace_counter *s = &c->series[i];
		s->domain = (uint32_t)get_u64(r);
		s->input = (uint32_t)get_u64(r);
		s->device = (int64_t)get_u64(r);
		s->name = (uint32_t)get_u64(r);
		s->unit = (uint32_t)get_u64(r);
		s->source = (int)get_u64(r);
	}
}

static int is_string(uint64_t count, uint32_t id)
{
	return id < count;
}

static int is_string_or_none(uint64_t count, uint32_t id)
{
	return id == TRACE_NONE || id < count;
}

/* The small tables point at each other and at rows in range. */
static int tables_fit(const struct trace *t, uint64_t count)
{
	for (size_t i = 0; i < t->ninputs; i++) {
		const struct trace_input *in = &t->inputs[i];
		if (in->domain >= t->ndomains || in->op_first > t->ops.n ||
		    in->op_count > t->ops.n - in->op_first || in->api_first > t->apis.n ||
		    in->api_count > t->apis.n - in->api_first)
			return 0;
	}
	for (size_t i = 0; i < t->ngpus; i++)
		if (t->gpus[i].domain >= t->ndomains || t->gpus[i].input >= t->ninputs)
			return 0;
	for (size_t i = 0; i < t->nqueues; i++)
		if (t->queues[i].gpu >= t->ngpus || !is_string_or_none(count, t->queues[i].name))
			return 0;
	for (size_t i = 0; i < t->nthreads; i++)
		if (t->threads[i].domain >= t->ndomains || t->threads[i].input >= t->ninputs ||
		    !is_string_or_none(count, t->threads[i].name))
			return 0;
	for (size_t i = 0; i < t->counters.nseries; i++) {
		const struct trace_counter *s = &t->counters.series[i];
		if (s->domain >= t->ndomains || s->input >= t->ninputs || !is_string(count, s->name) ||
		    !is_string_or_none(count, s->unit))
			return 0;
	}
	return 1;
}

/* The host copies name strings and inputs there are. */
static int host_copies_fit(const struct trace *t)
{
	const struct trace_host_copies *h = &t->host_copies;
	if (h->n && (!h->start || !h->end || !h->name || !h->input))
		return 0;
	for (size_t i = 0; i < h->n; i++)
		if (!is_string(t->strings.count, h->name[i]) || h->input[i] >= t->ninputs)
			return 0;
	return 1;
}

/* The graph launch calls are API rows, rising, and name strings (read
 * only with the API rows). */
static int graphs_fit(const struct trace *t)
{
	const struct trace_graphs *g = &t->graphs;
	if (g->n && (!g->api || !g->exec || !g->sorted))
		return 0;
	for (size_t i = 0; i < g->n; i++)
		if (g->api[i] >= t->apis.n || (i && g->api[i] <= g->api[i - 1]) ||
		    !is_string(t->strings.count, g->exec[i]))
			return 0;
	return 1;
}

/* The inputs' rows of one table (op_first/op_count or the API rows'):
 * one after another, from the first row to the last, none shared. */
static int ranges_tile(const struct trace *t, size_t n, int apis)
{
	size_t next = 0;
	for (size_t i = 0; i < t->ninputs; i++) {
		const struct trace_input *in = &t->inputs[i];
		size_t first = apis ? in->api_first : in->op_first,
		       count = apis ? in->api_count : in->op_count;
		/* An input with no rows may say any place. */
		if (count && first != next)
			return 0;
		next += count;
	}
	return next == n;
}

/* Ids rising within each input's rows (the readers find rows by id with a
 * binary search there). */
static int ids_rise(const struct trace *t, const int64_t *id, int apis)
{
	for (size_t i = 0; id && i < t->ninputs; i++) {
		const struct trace_input *in = &t->inputs[i];
		size_t first = apis ? in->api_first : in->op_first,
		       count = apis ? in->api_count : in->op_count;
		for (size_t k = first + 1; k < first + count; k++)
			if (id[k] <= id[k - 1])
				return 0;
	}
	return 1;
}

/* The ops' columns: every name a string, every queue one of the
 * queues, every kind a kind, and the span said theirs. */
static int ops_fit(const struct trace *t, int want)
{
	const struct trace_ops *o = &t->ops;
	uint64_t count = t->strings.count;
	if (o->n && (!o->start || !o->end || !o->name || !o->queue || !o->kind))
		return 0;
	if (!ranges_tile(t, o->n, 0) || (want >= CACHE_OPS && !ids_rise(t, o->id, 0)))
		return 0;
	int64_t first = 0, last = 0;
	for (size_t i = 0; i < o->n; i++) {
		if (!is_string(count, o->name[i]) || o->queue[i] >= t->nqueues || o->kind[i] > OP_OTHER)
			return 0;
		if (i == 0 || o->start[i] < first)
			first = o->start[i];
		if (i == 0 || o->end[i] > last)
			last = o->end[i];
	}
	/* The span the reports measure from is the ops'. */
	return t->op_first_start == first && t->op_last_end == last;
}

/* The API rows' columns (read only with them): names strings, threads
 * threads, ids found (a column, or runs from the first row on, rising),
 * launches API rows, samples series, copies ops and strings. */
static int apis_fit(const struct trace *t)
{
	const struct trace_apis *a = &t->apis;
	uint64_t count = t->strings.count;
	if (a->n && (!a->start || !a->end || !a->name || !a->thread || !a->texted || (!a->id && !a->runs.n)))
		return 0;
	if (!ranges_tile(t, a->n, 1) || !ids_rise(t, a->id, 1))
		return 0;
	for (size_t i = 0; i < a->n; i++)
		if (!is_string(count, a->name[i]) || a->thread[i] >= t->nthreads)
			return 0;
	if (!a->id && a->runs.n && (!a->runs.row || !a->runs.id || a->runs.row[0] != 0))
		return 0;
	for (size_t k = 0; !a->id && k < a->runs.n; k++)
		if (a->runs.row[k] >= a->n || (k && a->runs.row[k] <= a->runs.row[k - 1]))
			return 0;
	if (t->op_launch_n && (t->op_launch_n != t->ops.n || !t->op_launch))
		return 0;
	for (size_t i = 0; i < t->op_launch_n; i++)
		if (t->op_launch[i] != TRACE_NONE && t->op_launch[i] >= a->n)
			return 0;
	const struct trace_counters *c = &t->counters;
	if (c->n && (!c->of || !c->start || !c->end || !c->value))
		return 0;
	for (size_t i = 0; i < c->n; i++)
		if (c->of[i] >= c->nseries)
			return 0;
	const struct trace_copies *cp = &t->copies;
	if (cp->n && (!cp->op || !cp->bytes || !cp->src || !cp->dst))
		return 0;
	for (size_t i = 0; i < cp->n; i++)
		if (cp->op[i] >= t->ops.n || (cp->sorted && i && cp->op[i] <= cp->op[i - 1]) ||
		    !is_string_or_none(count, cp->src[i]) || !is_string_or_none(count, cp->dst[i]))
			return 0;
	return 1;
}

/* The calls' order, when kept, is what api_order_build would make of the
 * rows: each row once, threads rising, each thread's calls by start, the
 * longer first at equal starts. */
static int call_order_fits(const struct trace *t)
{
	const uint32_t *v = t->call_order;
	const struct trace_apis *a = &t->apis;
	if (!v)
		return 1;
	/* Checked beside the other columns, not after them: the columns it
	 * reads are looked for here too. */
	if (a->n && (!a->thread || !a->start || !a->end))
		return 0;
	uint64_t *seen = xcalloc(a->n / 64 + 1, sizeof(*seen));
	int ok = 1;
	for (size_t i = 0; ok && i < a->n; i++) {
		uint32_t r = v[i];
		if (r >= a->n || (seen[r / 64] >> (r % 64) & 1)) {
			ok = 0;
			break;
		}
		seen[r / 64] |= (uint64_t)1 << (r % 64);
		if (i == 0)
			continue;
		uint32_t p = v[i - 1];
		ok = a->thread[p] != a->thread[r] ? a->thread[p] < a->thread[r] : api_call_cmp(t, p, r) <= 0;
	}
	free(seen);
	return ok;
}

struct order_check {
	const struct trace *t;
	int ok;
};

static void *order_check_job(void *arg)
{
	struct order_check *c = arg;
	c->ok = call_order_fits(c->t);
	return NULL;
}

/* Every index a column holds points into what it indexes, and the orders
 * the readers rely on hold: the calls' order, the longest check, on a
 * second thread when the cap allows. */
static int columns_fit(const struct trace *t, int want)
{
	int apis = want >= CACHE_LAUNCHES;
	struct order_check order = { t, 1 };
	pthread_t th;
	int extra = apis && t->call_order ? threads_acquire(1) : 0;
	int started = extra && pthread_create(&th, NULL, order_check_job, &order) == 0;
	int ok = host_copies_fit(t) && ops_fit(t, want) && (!apis || (graphs_fit(t) && apis_fit(t)));
	if (started)
		pthread_join(th, NULL);
	else if (apis)
		order.ok = call_order_fits(t);
	threads_release(extra);
	return ok && order.ok;
}

/* The strings, copied to the heap: each id's bytes inside the block and
 * ending in a NUL. */
static int take_strings(struct trace *t, const char *bytes, const uint64_t *offset, const uint32_t *len,
			const struct facts *f)
{
	if (f->count == 0 || f->count > UINT32_MAX || f->bytes_len == 0)
		return -1;
	for (uint64_t i = 0; i < f->count; i++)
		if (offset[i] >= f->bytes_len || len[i] > f->bytes_len - offset[i] - 1 ||
		    bytes[offset[i] + len[i]] != '\0')
			return -1;
	struct strtab *s = &t->strings;
	strtab_free(s);
	s->bytes = xmalloc((size_t)f->bytes_len);
	memcpy(s->bytes, bytes, (size_t)f->bytes_len);
	s->bytes_len = s->bytes_cap = (size_t)f->bytes_len;
	s->offset = xmalloc_array((size_t)f->count, sizeof(*s->offset));
	memcpy(s->offset, offset, (size_t)f->count * sizeof(*s->offset));
	s->len = xmalloc_array((size_t)f->count, sizeof(*s->len));
	memcpy(s->len, len, (size_t)f->count * sizeof(*s->len));
	s->count = (uint32_t)f->count;
	s->offset_cap = s->len_cap = (size_t)f->count;
	strtab_reindex(s);
	return 0;
}

struct mapping {
	void *base;
	size_t size;
};

static void unmap(void *ctx)
{
	struct mapping *m = ctx;
	munmap(m->base, m->size);
	free(m);
}

/* A column's bytes and the hash the directory gives them. */
struct hash_job {
	const char *p;
	size_t len;
	uint32_t id;
	uint64_t want;
};

/* The columns to hash, taken one at a time by each thread. */
struct hashing {
	const struct hash_job *jobs;
	size_t n;
	atomic_size_t next;
	atomic_int bad;
};

static void *hash_worker(void *arg)
{
	struct hashing *h = arg;
	size_t j;
	while (!atomic_load(&h->bad) && (j = atomic_fetch_add(&h->next, 1)) < h->n)
		if (hash64(h->jobs[j].p, h->jobs[j].len, h->jobs[j].id) != h->jobs[j].want)
			atomic_store(&h->bad, 1);
	return NULL;
}

static int by_len_desc(const void *a, const void *b)
{
	const struct hash_job *x = a, *y = b;
	return (x->len < y->len) - (x->len > y->len);
}

/* Do the columns hash as the directory says? The largest first, on a
 * second thread too when the cap allows: hundreds of MB read once. */
static int hashes_match(struct hash_job *jobs, size_t n)
{
	qsort(jobs, n, sizeof(*jobs), by_len_desc);
	struct hashing h = { .jobs = jobs, .n = n };
	atomic_init(&h.next, 0);
	atomic_init(&h.bad, 0);
	pthread_t th;
	int extra = n > 1 ? threads_acquire(1) : 0;
	int started = extra && pthread_create(&th, NULL, hash_worker, &h) == 0;
	hash_worker(&h);
	if (started)
		pthread_join(th, NULL);
	threads_release(extra);
	return !atomic_load(&h.bad);
}

/* A section in the file, of the size and length expected; its bytes are
 * to hash as the directory says (a job for hashes_match). */
static const void *section_at(const struct section *s, const char *base, size_t size, uint32_t id,
			      size_t item, uint64_t n, struct hash_job *job)
{
	if (s->id != id || s->size != item || s->n != n || s->off % ALIGN || s->off > size ||
	    (n && (size - s->off) / n < item))
		return NULL;
	*job = (struct hash_job){ base + s->off, (size_t)n * item, id, s->hash };
	return job->p;
}

/* Leave out what a load of want would not have read (the columns of
 * API rows were not taken from the file: their counts go too). */
static void drop_beyond(struct trace *t, int want)
{
	if (want < CACHE_LAUNCHES) {
		t->call_order = NULL;
		memset(&t->apis, 0, sizeof(t->apis));
		t->apis.marker_name = TRACE_NONE;
		trace_counters_free(&t->counters);
		memset(&t->copies, 0, sizeof(t->copies));
		memset(&t->graphs, 0, sizeof(t->graphs));
		t->op_launch = NULL;
		t->op_launch_n = 0;
		for (size_t i = 0; i < t->ninputs; i++) {
			t->inputs[i].api_first = t->inputs[i].api_count = 0;
			t->inputs[i].launches_only = 0;
		}
		t->apis_read = 0;
	}
	if (want < CACHE_OPS) {
		t->no_op_ids = 1;
		t->ops.id = NULL;
	}
}

int cache_format_read(int fd, size_t size, struct trace *t, int level, int want, const char *key)
{
	struct head h;
	/* Empty, as trace_free leaves one, until the file is found whole. */
	memset(t, 0, sizeof(*t));
	if (size < sizeof(h) || pread(fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h))
		return -1;
	if (memcmp(h.magic, MAGIC, sizeof(h.magic)) != 0 || h.version != CACHE_VERSION ||
	    h.level != (uint32_t)level || h.file_size != size ||
	    h.head_hash != hash64(&h, offsetof(struct head, head_hash), 0) || h.dir_n != NSECTIONS ||
	    h.meta_off > size || h.meta_len > size - h.meta_off || h.dir_off > size ||
	    sizeof(struct section) * NSECTIONS > size - h.dir_off)
		return -1;
	void *base = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (base == MAP_FAILED)
		return -1;
	const char *b = base;
	struct section dir[NSECTIONS];
	memcpy(dir, b + h.dir_off, sizeof(dir));
	if (hash64(b + h.meta_off, (size_t)h.meta_len, 0) != h.meta_hash ||
	    hash64(dir, sizeof(dir), 0) != h.dir_hash) {
		munmap(base, size);
		return -1;
	}
	trace_init(t);
	struct rd r = { (const unsigned char *)b + h.meta_off, (size_t)h.meta_len, 0, 0 };
	char *stored = get_str(&r);
	int same = stored && strcmp(stored, key) == 0;
	free(stored);
	struct facts f = { 0 };
	if (same)
		get_meta(&r, t, &f);
	/* Until every column is in place the trace borrows nothing: a failure
	 * frees what was copied and unmaps. */
	struct mapping *m = xmalloc(sizeof(*m));
	*m = (struct mapping){ base, size };
	/* The markers' name is one of the strings, or none. */
	int ok = same && !r.bad && f.level == (uint64_t)level && tables_fit(t, f.count) &&
		 (f.marker_name == TRACE_NONE || f.marker_name < f.count);
	const void *str_bytes = NULL, *str_offset = NULL, *str_len = NULL;
	int groups = want >= CACHE_LAUNCHES ? 3 : want >= CACHE_OPS ? 2 : 1;
	size_t k = 0, njobs = 0;
	struct hash_job jobs[NSECTIONS];
	/* A column of a group not wanted is neither checked nor kept; one of
	 * no rows borrows nothing (its place may be the file's very end). */
#define READ_SECTION(sid, col_, count, group)                                                                \
	if (ok && (int)(group) < groups) {                                                                   \
		const struct section *s = &dir[k];                                                           \
		uint64_t n = s->present ? (uint64_t)(t->count) : 0;                                          \
		const void *p = section_at(s, b, size, (sid), sizeof(*t->col_), n, &jobs[njobs]);            \
		njobs += p != NULL;                                                                          \
		if (!p)                                                                                      \
			ok = 0;                                                                              \
		else if ((sid) == 0)                                                                         \
			str_bytes = p;                                                                       \
		else if ((sid) == 1)                                                                         \
			str_offset = p;                                                                      \
		else if ((sid) == 2)                                                                         \
			str_len = p;                                                                         \
		else                                                                                         \
			t->col_ = s->present && n ? (void *)(uintptr_t)p : NULL;                             \
	}                                                                                                    \
	k++;
	/* Counts are the trace's own fields, read from the small tables; the
	 * strings' from the facts. */
	size_t empty_len = t->strings.bytes_len;
	uint32_t empty_count = t->strings.count;
	t->strings.bytes_len = ok ? (size_t)f.bytes_len : 0;
	t->strings.count = ok ? (uint32_t)f.count : 0;
	SECTIONS(READ_SECTION)
	t->strings.bytes_len = empty_len;
	t->strings.count = empty_count;
	/* Nothing a column holds is looked at before its bytes hash right. */
	if (ok && !hashes_match(jobs, njobs))
		ok = 0;
	if (ok &&
	    (!str_bytes || !str_offset || !str_len || take_strings(t, str_bytes, str_offset, str_len, &f)))
		ok = 0;
	/* A file written on purpose, its hashes made anew, is refused as a
	 * damaged one is. */
	if (ok && !columns_fit(t, want))
		ok = 0;
	t->borrowed = (struct trace_borrow){ b, size, unmap, m };
	if (!ok) {
		trace_free(t);
		return -1;
	}
	drop_beyond(t, want);
	trace_index_lanes(t);
	return 0;
}

int cache_format_rehash(unsigned char *file, size_t size)
{
	struct head h;
	if (size < sizeof(h))
		return -1;
	memcpy(&h, file, sizeof(h));
	if (h.dir_n != NSECTIONS || h.dir_off > size ||
	    sizeof(struct section) * NSECTIONS > size - h.dir_off || h.meta_off > size ||
	    h.meta_len > size - h.meta_off)
		return -1;
	struct section dir[NSECTIONS];
	memcpy(dir, file + h.dir_off, sizeof(dir));
	for (size_t k = 0; k < NSECTIONS; k++) {
		struct section *x = &dir[k];
		if (x->off <= size && (!x->n || (size - x->off) / x->n >= x->size))
			x->hash = hash64(file + x->off, (size_t)(x->n * x->size), x->id);
	}
	memcpy(file + h.dir_off, dir, sizeof(dir));
	h.meta_hash = hash64(file + h.meta_off, (size_t)h.meta_len, 0);
	h.dir_hash = hash64(dir, sizeof(dir), 0);
	h.head_hash = hash64(&h, offsetof(struct head, head_hash), 0);
	memcpy(file, &h, sizeof(h));
	return 0;
}

int cache_format_section(const unsigned char *file, size_t size, uint32_t id, size_t *off, size_t *item,
			 size_t *n)
{
	struct head h;
	if (size < sizeof(h))
		return -1;
	memcpy(&h, file, sizeof(h));
	if (h.dir_n != NSECTIONS || h.dir_off > size || sizeof(struct section) * NSECTIONS > size - h.dir_off)
		return -1;
	for (size_t k = 0; k < NSECTIONS; k++) {
		struct section x;
		memcpy(&x, file + h.dir_off + k * sizeof(x), sizeof(x));
		if (x.id != id || !x.present || x.off > size || (x.n && (size - x.off) / x.n < x.size))
			continue;
		*off = (size_t)x.off;
		*item = x.size;
		*n = (size_t)x.n;
		return 0;
	}
	return -1;
}

char *cache_format_key(const unsigned char *file, size_t size, int *level)
{
	struct head h;
	if (size < sizeof(h))
		return NULL;
	memcpy(&h, file, sizeof(h));
	if (h.meta_off > size || h.meta_len > size - h.meta_off)
		return NULL;
	struct rd r = { file + h.meta_off, (size_t)h.meta_len, 0, 0 };
	*level = (int)h.level;
	return get_str(&r);
}
