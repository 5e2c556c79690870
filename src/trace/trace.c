#include "config.h"
#include "trace/trace.h"
#include "trace/trace_borrow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/natcmp.h"
#include "util/search.h"
#include "util/xalloc.h"

enum { LANE_GPU = 1, LANE_QUEUE, LANE_THREAD };

void trace_init(struct trace *t)
{
	memset(t, 0, sizeof(*t));
	strtab_init(&t->strings);
	idmap_init(&t->lane_index);
	t->apis.marker_name = TRACE_NONE;
}

void trace_index_lanes(struct trace *t)
{
	idmap_free(&t->lane_index);
	idmap_init(&t->lane_index);
	uint32_t idx;
	for (size_t i = 0; i < t->ngpus; i++) {
		uint64_t key = idmap_key3((uint64_t)LANE_GPU << 56 ^ (uint64_t)t->gpus[i].domain,
					  (uint64_t)t->gpus[i].device, 0);
		if (!idmap_get(&t->lane_index, key, &idx))
			idmap_put(&t->lane_index, key, (uint32_t)i);
	}
	for (size_t i = 0; i < t->nqueues; i++) {
		uint64_t key = idmap_key3((uint64_t)LANE_QUEUE << 56 ^ (uint64_t)t->queues[i].gpu,
					  (uint64_t)t->queues[i].queue, 0);
		if (!idmap_get(&t->lane_index, key, &idx))
			idmap_put(&t->lane_index, key, (uint32_t)i);
	}
	for (size_t i = 0; i < t->nthreads; i++) {
		const struct trace_thread *th = &t->threads[i];
		uint64_t key = idmap_key3((uint64_t)LANE_THREAD << 56 ^ (uint64_t)th->domain,
					  (uint64_t)th->pid, (uint64_t)th->tid);
		if (!idmap_get(&t->lane_index, key, &idx))
			idmap_put(&t->lane_index, key, (uint32_t)i);
	}
}

static void free_ops(struct trace_ops *o)
{
	free(o->id);
	free(o->start);
	free(o->end);
	free(o->name);
	free(o->queue);
	free(o->kind);
}

static void free_apis(struct trace_apis *a)
{
	free(a->id);
	free(a->runs.row);
	free(a->runs.id);
	free(a->start);
	free(a->end);
	free(a->name);
	free(a->thread);
	free(a->texted);
}

void trace_free(struct trace *t)
{
	/* Borrowed columns go back with their block, not to free(). */
	trace_forget_borrowed(t);
	for (size_t i = 0; i < t->ninputs; i++) {
		free(t->inputs[i].path);
		free(t->inputs[i].uuid);
		free(t->inputs[i].guid);
	}
	free(t->inputs);
	for (size_t i = 0; i < t->ndomains; i++)
		free(t->domains[i].node);
	free(t->domains);
	free(t->gpus);
	free(t->queues);
	free(t->threads);
	free_ops(&t->ops);
	free_apis(&t->apis);
	free(t->links.api);
	free(t->links.op);
	free(t->op_launch);
	trace_counters_free(&t->counters);
	trace_copies_free(&t->copies);
	trace_graphs_free(&t->graphs);
	trace_host_copies_free(&t->host_copies);
	strtab_free(&t->strings);
	idmap_free(&t->lane_index);
	memset(t, 0, sizeof(*t));
}

static uint32_t add_domain(struct trace *t, const char *node)
{
	t->domains = xgrow(t->domains, &t->domains_cap, t->ndomains + 1, sizeof(*t->domains));
	t->domains[t->ndomains].node = node ? xstrdup(node) : NULL;
	return (uint32_t)t->ndomains++;
}

/* The domain of a node name (NULL: the shared domain of unknown inputs). */
static uint32_t find_domain(struct trace *t, const char *node)
{
	for (size_t i = 0; i < t->ndomains; i++) {
		const char *d = t->domains[i].node;
		if ((!d && !node) || (d && node && strcmp(d, node) == 0))
			return (uint32_t)i;
	}
	return add_domain(t, node);
}

uint32_t trace_add_input(struct trace *t, const char *path, int format, int schema_version)
{
	t->inputs = xgrow(t->inputs, &t->inputs_cap, t->ninputs + 1, sizeof(*t->inputs));
	struct trace_input *in = &t->inputs[t->ninputs];
	memset(in, 0, sizeof(*in));
	in->path = xstrdup(path);
	in->format = format;
	in->schema_version = schema_version;
	in->rank = -1;
	in->domain = t->same_node ? find_domain(t, NULL) : add_domain(t, NULL);
	return (uint32_t)t->ninputs++;
}

void trace_input_set_node(struct trace *t, uint32_t input, const char *node)
{
	if (!node || !*node)
		return;
	t->inputs[input].domain = find_domain(t, node);
}

typedef int (*lane_match_fn)(const struct trace *t, uint32_t idx, const int64_t *f);
typedef uint32_t (*lane_append_fn)(struct trace *t, const int64_t *f);

/* Lanes are found through a hash of their fields (f[0..2]); a hit is
 * confirmed against the lane itself so that a collision never merges two
 * lanes. A miss means the lane is new: equal fields give an equal hash. */
static uint32_t lane_get(struct trace *t, int kind, const int64_t *f, size_t count, lane_match_fn match,
			 lane_append_fn append)
{
	uint64_t key = idmap_key3((uint64_t)kind << 56 ^ (uint64_t)f[0], (uint64_t)f[1], (uint64_t)f[2]);
	uint32_t idx;
	int known = idmap_get(&t->lane_index, key, &idx);
	if (known && match(t, idx, f))
		return idx;
	if (known)
		for (idx = 0; idx < count; idx++)
			if (match(t, idx, f))
				return idx;
	idx = append(t, f);
	if (!known)
		idmap_put(&t->lane_index, key, idx);
	return idx;
}

/* GPU and thread fields: f[0] domain, f[1] device or pid, f[2] tid, and
 * f[3] the input, which is not part of the identity. */
static int gpu_match(const struct trace *t, uint32_t i, const int64_t *f)
{
	return t->gpus[i].domain == (uint32_t)f[0] && t->gpus[i].device == f[1];
}

static uint32_t gpu_append(struct trace *t, const int64_t *f)
{
	t->gpus = xgrow(t->gpus, &t->gpus_cap, t->ngpus + 1, sizeof(*t->gpus));
	t->gpus[t->ngpus] =
		(struct trace_gpu){ .domain = (uint32_t)f[0], .device = f[1], .input = (uint32_t)f[3] };
	return (uint32_t)t->ngpus++;
}

static int queue_match(const struct trace *t, uint32_t i, const int64_t *f)
{
	return t->queues[i].gpu == (uint32_t)f[0] && t->queues[i].queue == f[1];
}

static uint32_t queue_append(struct trace *t, const int64_t *f)
{
	t->queues = xgrow(t->queues, &t->queues_cap, t->nqueues + 1, sizeof(*t->queues));
	t->queues[t->nqueues] =
		(struct trace_queue){ .gpu = (uint32_t)f[0], .queue = f[1], .name = TRACE_NONE };
	return (uint32_t)t->nqueues++;
}

static int thread_match(const struct trace *t, uint32_t i, const int64_t *f)
{
	return t->threads[i].domain == (uint32_t)f[0] && t->threads[i].pid == f[1] &&
	       t->threads[i].tid == f[2];
}

static uint32_t thread_append(struct trace *t, const int64_t *f)
{
	t->threads = xgrow(t->threads, &t->threads_cap, t->nthreads + 1, sizeof(*t->threads));
	t->threads[t->nthreads] = (struct trace_thread){ .domain = (uint32_t)f[0],
							 .pid = f[1],
							 .tid = f[2],
							 .input = (uint32_t)f[3],
							 .name = TRACE_NONE };
	return (uint32_t)t->nthreads++;
}

uint32_t trace_gpu(struct trace *t, uint32_t input, int64_t device)
{
	int64_t f[4] = { t->inputs[input].domain, device, 0, input };
	return lane_get(t, LANE_GPU, f, t->ngpus, gpu_match, gpu_append);
}

uint32_t trace_queue(struct trace *t, uint32_t gpu, int64_t queue)
{
	int64_t f[4] = { gpu, queue, 0, 0 };
	return lane_get(t, LANE_QUEUE, f, t->nqueues, queue_match, queue_append);
}

void trace_queue_set_name(struct trace *t, uint32_t queue, uint32_t name)
{
	t->queues[queue].name = name;
}

void trace_thread_set_name(struct trace *t, uint32_t thread, uint32_t name)
{
	t->threads[thread].name = name;
}

void trace_input_set_uuid(struct trace *t, uint32_t input, const char *uuid, const char *guid)
{
	struct trace_input *in = &t->inputs[input];
	free(in->uuid);
	free(in->guid);
	in->uuid = uuid ? xstrdup(uuid) : NULL;
	in->guid = guid ? xstrdup(guid) : NULL;
}

uint32_t trace_thread(struct trace *t, uint32_t input, int64_t pid, int64_t tid)
{
	int64_t f[4] = { t->inputs[input].domain, pid, tid, input };
	return lane_get(t, LANE_THREAD, f, t->nthreads, thread_match, thread_append);
}

enum op_kind trace_type_kind(const char *type)
{
	if (strncmp(type, "Copy", 4) == 0)
		return OP_COPY;
	if (strncmp(type, "Barrier", 7) == 0)
		return OP_BARRIER;
	return OP_KERNEL;
}

enum op_kind trace_classify_op(const char *desc, const char *type)
{
	return trace_op_kind(trace_type_kind(type), desc);
}

/* Columns grow together: one capacity, one realloc per column. Reserved
 * columns are filled to their size: huge pages pay there (xhuge). */
#define GROW_COL(col, cap, huge) ((col) = resize((col), (cap) * sizeof(*(col)), (huge)))

static void *resize(void *p, size_t n, int huge)
{
	p = xrealloc(p, n);
	return huge ? xhuge(p, n) : p;
}

static size_t next_cap(size_t cap)
{
	return cap < 1024 ? 1024 : cap + cap / 2;
}

/* Runs are kept while there are at most one per 16 rows. */
static size_t runs_bound(size_t rows)
{
	return rows / 16 + 16;
}

/* Give every column of a table room for cap rows. */
static void ops_cap(struct trace *t, size_t cap, int huge)
{
	struct trace_ops *o = &t->ops;
	o->cap = cap;
	/* Rows whose ids were found to run on keep their inputs' first ids
	 * alone: more rows with ids of their own need the column back. */
	int fill = !t->no_op_ids && !o->id && o->n > 0;
	if (!t->no_op_ids)
		GROW_COL(o->id, cap, huge);
	for (size_t i = 0; fill && i < t->ninputs; i++)
		for (size_t k = 0; k < t->inputs[i].op_count; k++)
			o->id[t->inputs[i].op_first + k] = t->inputs[i].op_id0 + (int64_t)k;
	GROW_COL(o->start, cap, huge);
	GROW_COL(o->end, cap, huge);
	GROW_COL(o->name, cap, huge);
	GROW_COL(o->queue, cap, huge);
	GROW_COL(o->kind, cap, huge);
}

static size_t words(size_t bits)
{
	return (bits + 63) / 64;
}

/* The words of texted for cap rows: one more than the rows need when cap
 * is a multiple of 64, as a cache file holds them. */
static size_t texted_words(size_t cap)
{
	return cap / 64 + 1;
}

static void apis_cap(struct trace_apis *a, size_t cap, int huge)
{
	size_t had = texted_words(a->cap);
	a->cap = cap;
	if (a->id)
		GROW_COL(a->id, cap, huge);
	GROW_COL(a->start, cap, huge);
	GROW_COL(a->end, cap, huge);
	GROW_COL(a->name, cap, huge);
	GROW_COL(a->thread, cap, huge);
	/* The rows to come have no text until one is given. */
	if (a->texted) {
		GROW_COL(a->texted, texted_words(cap), 0);
		if (texted_words(cap) > had)
			memset(a->texted + had, 0, (texted_words(cap) - had) * sizeof(*a->texted));
	}
}

static void links_cap(struct trace_links *l, size_t cap, int huge)
{
	l->cap = cap;
	GROW_COL(l->api, cap, huge);
	GROW_COL(l->op, cap, huge);
}

/* Room for more rows: exactly what is asked of empty columns (one input,
 * no slack), geometrically once they hold rows, so that a thousand
 * inputs read one after another into the same columns copy them a few
 * times, not a thousand. */
static size_t reserve_cap(size_t n, size_t cap, size_t more)
{
	size_t want = n + more;
	return n == 0 || want > next_cap(cap) ? want : next_cap(cap);
}

void trace_reserve_ops(struct trace *t, size_t more)
{
	trace_own_ops(t);
	if (t->ops.n + more > t->ops.cap)
		ops_cap(t, reserve_cap(t->ops.n, t->ops.cap, more), 1);
}

void trace_reserve_apis(struct trace *t, size_t more)
{
	trace_own_apis(t);
	if (t->apis.n + more > t->apis.cap)
		apis_cap(&t->apis, reserve_cap(t->apis.n, t->apis.cap, more), 1);
}

void trace_fit_apis(struct trace *t, size_t rows)
{
	trace_own_apis(t);
	if (rows >= t->apis.n && rows < t->apis.cap)
		apis_cap(&t->apis, rows ? rows : 1, 1);
}

void trace_reserve_links(struct trace *t, size_t more)
{
	trace_own_apis(t);
	if (t->links.n + more > t->links.cap)
		links_cap(&t->links, reserve_cap(t->links.n, t->links.cap, more), 1);
}

uint32_t trace_add_op(struct trace *t, int64_t id, int64_t start, int64_t end, uint32_t desc, uint32_t type,
		      uint32_t queue)
{
	trace_own_ops(t);
	struct trace_ops *o = &t->ops;
	if (o->n == o->cap)
		ops_cap(t, next_cap(o->cap), 0);
	if (o->id)
		o->id[o->n] = id;
	o->start[o->n] = start;
	o->end[o->n] = end;
	trace_set_op(t, (uint32_t)o->n, desc, type, queue);
	return (uint32_t)o->n++;
}

void trace_set_op(struct trace *t, uint32_t op, uint32_t desc, uint32_t type, uint32_t queue)
{
	trace_own_ops(t);
	struct trace_ops *o = &t->ops;
	/* An empty description is one of no bytes, as the page reader tells it
	 * (a name may begin with a NUL byte). */
	o->name[op] = strtab_len(&t->strings, desc) ? desc : type;
	o->queue[op] = queue;
	o->kind[op] = (uint8_t)trace_classify_op(trace_str(t, desc), trace_str(t, type));
}

uint32_t trace_add_api(struct trace *t, int64_t id, int64_t start, int64_t end, uint32_t name, uint32_t args,
		       uint32_t thread)
{
	trace_own_apis(t);
	struct trace_apis *a = &t->apis;
	if (a->n == a->cap)
		apis_cap(a, next_cap(a->cap), 0);
	if (a->id) {
		a->id[a->n] = id;
	} else if (a->n == 0 || (uint64_t)trace_api_id(t, a->n - 1) + 1 != (uint64_t)id) {
		trace_api_runs_push(t, a->n, id);
		/* Ids that jump at nearly every row are cheaper as a column. */
		if (trace_api_runs_too_many(a->runs.n, a->n + 1))
			trace_apis_need_ids(t);
	}
	a->start[a->n] = start;
	a->end[a->n] = end;
	a->name[a->n] = name;
	a->thread[a->n] = thread;
	if (args != TRACE_NONE)
		trace_add_api_text(t, (uint32_t)a->n, args);
	return (uint32_t)a->n++;
}

void trace_add_api_text(struct trace *t, uint32_t api, uint32_t text)
{
	trace_own_apis(t);
	struct trace_apis *a = &t->apis;
	if (a->marker_name == TRACE_NONE)
		a->marker_name = strtab_intern(&t->strings, TRACE_MARKER_NAME);
	/* Other calls' arguments are not kept: nothing shows or matches them. */
	if (a->name[api] != a->marker_name || trace_api_texted(t, api))
		return;
	if (!a->texted)
		a->texted = xcalloc(texted_words(a->cap), sizeof(*a->texted));
	a->name[api] = text;
	a->texted[api >> 6] |= (uint64_t)1 << (api & 63);
}

size_t trace_api_texts(const struct trace *t)
{
	size_t n = 0;
	for (size_t w = 0; t->apis.texted && w < words(t->apis.n); w++) {
		uint64_t bits = t->apis.texted[w];
		if (w == t->apis.n / 64)
			bits &= ((uint64_t)1 << (t->apis.n & 63)) - 1;
		n += (size_t)__builtin_popcountll(bits);
	}
	return n;
}

void trace_api_texts_drop(struct trace *t, size_t from)
{
	struct trace_apis *a = &t->apis;
	if (!a->texted || from >= a->cap)
		return;
	for (size_t i = from; i < a->n; i++)
		if (trace_api_texted(t, i))
			a->name[i] = a->marker_name;
	/* Rows filled past n and given texts before a failure too. */
	size_t w = from >> 6;
	a->texted[w] &= ((uint64_t)1 << (from & 63)) - 1;
	if (w + 1 < texted_words(a->cap))
		memset(a->texted + w + 1, 0, (texted_words(a->cap) - w - 1) * sizeof(*a->texted));
}

uint32_t trace_api_launched_op(const struct trace *t, size_t api)
{
	uint32_t op = TRACE_NONE;
	for (size_t i = 0; t->op_launch && i < t->ops.n; i++)
		if (t->op_launch[i] == api && (op == TRACE_NONE || t->ops.start[i] < t->ops.start[op]))
			op = (uint32_t)i;
	return op;
}

void trace_add_link(struct trace *t, uint32_t api, uint32_t op)
{
	trace_own_apis(t);
	struct trace_links *l = &t->links;
	if (l->n == l->cap)
		links_cap(l, next_cap(l->cap), 0);
	l->api[l->n] = api;
	l->op[l->n] = op;
	l->n++;
}

/* Do every input's ids run without gaps from a non-negative first id?
 * Then only the first is kept. */
static int ids_run(const int64_t *id, const struct trace *t, int apis, size_t total)
{
	size_t covered = 0;
	for (size_t i = 0; i < t->ninputs; i++) {
		const struct trace_input *in = &t->inputs[i];
		size_t first = apis ? in->api_first : in->op_first, n = apis ? in->api_count : in->op_count;
		covered += n;
		if (n && (first > total || n > total - first || id[first] < 0))
			return 0;
		for (size_t k = 1; k < n; k++)
			if (id[first + k] != id[first] + (int64_t)k)
				return 0;
	}
	return covered == total;
}

static size_t ids_in_runs(const struct trace_apis *a)
{
	size_t n = 0;
	for (size_t i = 0; i < a->n; i++)
		n += i == 0 || a->id[i] != a->id[i - 1] + 1;
	return n;
}

static void compact_ids(struct trace *t)
{
	if (t->ops.id && t->ops.n && ids_run(t->ops.id, t, 0, t->ops.n)) {
		for (size_t i = 0; i < t->ninputs; i++)
			t->inputs[i].op_id0 = t->inputs[i].op_count ? t->ops.id[t->inputs[i].op_first] : 0;
		if (!trace_borrowed(t, t->ops.id))
			free(t->ops.id);
		t->ops.id = NULL;
	}
	/* API ids become runs again when the column was needed for a while
	 * only (the runs went over their bound, then the rows ran on). */
	if (t->apis.id && t->apis.n && !trace_api_runs_too_many(ids_in_runs(&t->apis), t->apis.n)) {
		int64_t *id = t->apis.id;
		t->apis.id = NULL;
		t->apis.runs.n = 0;
		for (size_t i = 0; i < t->apis.n; i++)
			if (i == 0 || id[i] != id[i - 1] + 1)
				trace_api_runs_push(t, i, id[i]);
		free(id);
	}
}

static const struct trace_input *input_with(const struct trace *t, size_t row, int apis)
{
	for (size_t i = 0; i < t->ninputs; i++) {
		const struct trace_input *in = &t->inputs[i];
		size_t first = apis ? in->api_first : in->op_first, n = apis ? in->api_count : in->op_count;
		if (row >= first && row - first < n)
			return in;
	}
	return NULL;
}

int64_t trace_op_id(const struct trace *t, size_t op)
{
	if (t->ops.id)
		return t->ops.id[op];
	const struct trace_input *in = input_with(t, op, 0);
	return in ? in->op_id0 + (int64_t)(op - in->op_first) : 0;
}

/* The run holding row (the last starting at it or before). */
static size_t run_of(const struct id_runs *r, size_t row)
{
	size_t lo = 0, hi = r->n;
	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;
		if (r->row[m] <= row)
			lo = m + 1;
		else
			hi = m;
	}
	return lo ? lo - 1 : 0;
}

int64_t trace_api_id(const struct trace *t, size_t api)
{
	const struct id_runs *r = &t->apis.runs;
	if (t->apis.id)
		return t->apis.id[api];
	if (r->n == 0)
		return 0;
	size_t k = run_of(r, api);
	return (int64_t)((uint64_t)r->id[k] + (api - r->row[k]));
}

/* Row of id in run k's part of rows lo..hi - 1, or TRACE_NONE. */
static uint32_t in_run(const struct id_runs *r, size_t k, size_t lo, size_t hi, int64_t id)
{
	size_t from = r->row[k] > lo ? r->row[k] : lo;
	size_t to = k + 1 < r->n && r->row[k + 1] < hi ? r->row[k + 1] : hi;
	int64_t first = (int64_t)((uint64_t)r->id[k] + (from - r->row[k]));
	if (from >= to || id < first || (uint64_t)id - (uint64_t)first >= to - from)
		return TRACE_NONE;
	return (uint32_t)(from + (size_t)((uint64_t)id - (uint64_t)first));
}

/* The runs of rows lo..hi - 1, rising in id: the last starting at or
 * below id, then whether id is within it; *run: that run. */
static uint32_t find_in_runs(const struct trace *t, size_t lo, size_t hi, int64_t id, size_t *run)
{
	const struct id_runs *r = &t->apis.runs;
	size_t a = run_of(r, lo), b = run_of(r, hi - 1) + 1;
	while (a + 1 < b) {
		size_t m = a + (b - a) / 2;
		int64_t first = r->row[m] < lo ? trace_api_id(t, lo) : r->id[m];
		if (first <= id)
			a = m;
		else
			b = m;
	}
	*run = a;
	return in_run(r, a, lo, hi, id);
}

uint32_t trace_api_find(const struct trace *t, size_t lo, size_t hi, int64_t id)
{
	if (lo >= hi)
		return TRACE_NONE;
	if (t->apis.id) {
		size_t at = lower_bound_i64(t->apis.id, lo, hi, id);
		return at < hi && t->apis.id[at] == id ? (uint32_t)at : TRACE_NONE;
	}
	size_t run;
	return find_in_runs(t, lo, hi, id, &run);
}

struct id_at {
	const int64_t *id;
	int64_t x;
};

static int id_not_below(const void *ctx, size_t i)
{
	const struct id_at *p = ctx;
	return p->id[i] >= p->x;
}

/* The row of id in the id column, searched for from the row found last. */
static uint32_t find_from_row(const struct trace *t, size_t lo, size_t hi, int64_t id, size_t *row)
{
	struct id_at p = { t->apis.id, id };
	size_t at = search_from(lo, hi, *row, id_not_below, &p);
	if (at == hi || t->apis.id[at] != id)
		return TRACE_NONE;
	*row = at;
	return (uint32_t)at;
}

uint32_t trace_api_find_near(const struct trace *t, size_t lo, size_t hi, int64_t id, size_t *run)
{
	const struct id_runs *r = &t->apis.runs;
	if (lo >= hi)
		return TRACE_NONE;
	if (t->apis.id)
		return find_from_row(t, lo, hi, id, run);
	/* The run found last, then the one after it: ids asked in rising
	 * order mostly fall there. */
	for (size_t k = *run; k < *run + 2 && k < r->n && r->row[k] < hi; k++) {
		if (k + 1 < r->n && r->row[k + 1] <= lo)
			continue;
		uint32_t row = in_run(r, k, lo, hi, id);
		if (row != TRACE_NONE) {
			*run = k;
			return row;
		}
	}
	return find_in_runs(t, lo, hi, id, run);
}

int64_t trace_api_dense_first(const struct trace *t, size_t lo, size_t hi)
{
	if (lo >= hi)
		return -1;
	int64_t first = trace_api_id(t, lo);
	if (t->apis.id) {
		if (t->apis.id[hi - 1] - first != (int64_t)(hi - lo - 1))
			return -1;
	} else if (run_of(&t->apis.runs, lo) != run_of(&t->apis.runs, hi - 1)) {
		return -1;
	}
	return first >= 0 ? first : -1;
}

int trace_api_runs_too_many(size_t n, size_t rows)
{
	return n > 4096 && n > runs_bound(rows);
}

void id_runs_push(struct id_runs *r, size_t row, int64_t id)
{
	if (r->n == r->cap) {
		r->row = xgrow(r->row, &r->cap, r->n + 1, sizeof(*r->row));
		r->id = xrealloc_array(r->id, r->cap, sizeof(*r->id));
	}
	r->row[r->n] = row;
	r->id[r->n++] = id;
}

void trace_api_runs_push(struct trace *t, size_t row, int64_t id)
{
	trace_own_apis(t);
	id_runs_push(&t->apis.runs, row, id);
}

void trace_apis_need_ids(struct trace *t)
{
	trace_own_apis(t);
	struct trace_apis *a = &t->apis;
	if (a->id)
		return;
	int64_t *id = xmalloc_huge(a->cap ? a->cap : 1, sizeof(*id));
	for (size_t i = 0; i < a->n; i++)
		id[i] = trace_api_id(t, i); /* from the runs, before the column is there */
	a->id = id;
	/* A row being added may have its run only: kept until it is written. */
	size_t last = a->runs.n ? a->runs.row[a->runs.n - 1] : 0;
	if (a->runs.n && last < a->cap)
		a->id[last] = a->runs.id[a->runs.n - 1];
	a->runs.n = 0;
}

uint32_t trace_op_row(const struct trace *t, uint32_t input, int64_t id)
{
	const struct trace_input *in = &t->inputs[input];
	if (t->ops.id) {
		size_t end = in->op_first + in->op_count;
		size_t at = lower_bound_i64(t->ops.id, in->op_first, end, id);
		return at < end && t->ops.id[at] == id ? (uint32_t)at : TRACE_NONE;
	}
	return id >= in->op_id0 && (uint64_t)(id - in->op_id0) < in->op_count
		       ? (uint32_t)(in->op_first + (size_t)(id - in->op_id0))
		       : TRACE_NONE;
}

void trace_finish(struct trace *t)
{
	trace_own_apis(t);
	/* Launches found by an earlier call stay; the links are then done with:
	 * op_launch is all that is kept of them. */
	/* A column only where some op has a launch: reports that read no
	 * calls keep none (4 bytes an op). */
	if (t->op_launch_n != t->ops.n && (t->op_launch || t->links.n)) {
		t->op_launch = xrealloc_array(t->op_launch, t->ops.n ? t->ops.n : 1, sizeof(*t->op_launch));
		for (size_t i = t->op_launch_n; i < t->ops.n; i++)
			t->op_launch[i] = TRACE_NONE;
		t->op_launch_n = t->ops.n;
	}
	for (size_t i = 0; i < t->links.n; i++)
		t->op_launch[t->links.op[i]] = t->links.api[i];
	free(t->links.api);
	free(t->links.op);
	memset(&t->links, 0, sizeof(t->links));
	compact_ids(t);
	trace_copies_sort(&t->copies);
	trace_graphs_sort(&t->graphs);

	t->op_first_start = t->op_last_end = 0;
	for (size_t i = 0; i < t->ops.n; i++) {
		if (i == 0 || t->ops.start[i] < t->op_first_start)
			t->op_first_start = t->ops.start[i];
		if (i == 0 || t->ops.end[i] > t->op_last_end)
			t->op_last_end = t->ops.end[i];
	}
}

int trace_ops_left_out(const struct trace *t)
{
	for (size_t i = 0; i < t->ninputs; i++)
		if (t->inputs[i].ops_left_out)
			return 1;
	return 0;
}

const char *trace_input_name(const struct trace *t, uint32_t input)
{
	const char *path = t->inputs[input].path;
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	for (size_t i = 0; i < t->ninputs; i++) {
		const char *other = strrchr(t->inputs[i].path, '/');
		other = other ? other + 1 : t->inputs[i].path;
		if (i != input && strcmp(other, base) == 0)
			return path;
	}
	return base;
}

const char *trace_gpu_place(const struct trace *t, uint32_t gpu)
{
	const struct trace_gpu *g = &t->gpus[gpu];
	const char *node = t->domains[g->domain].node;
	return node ? node : trace_input_name(t, g->input);
}

int trace_gpu_cmp(const struct trace *t, uint32_t a, uint32_t b)
{
	const struct trace_gpu *x = &t->gpus[a], *y = &t->gpus[b];
	if (x->domain != y->domain) {
		int c = natcmp(trace_gpu_place(t, a), trace_gpu_place(t, b));
		if (c)
			return c;
		return x->domain < y->domain ? -1 : 1;
	}
	return (x->device > y->device) - (x->device < y->device);
}

static int threads_span_domains(const struct trace *t)
{
	for (size_t i = 1; i < t->nthreads; i++)
		if (t->threads[i].domain != t->threads[0].domain)
			return 1;
	return 0;
}

/* Do the GPUs span more than one domain? (Domains without GPUs, such as
 * that of an input before it named its node, do not count.) */
static int gpus_span_domains(const struct trace *t)
{
	for (size_t i = 1; i < t->ngpus; i++)
		if (t->gpus[i].domain != t->gpus[0].domain)
			return 1;
	return 0;
}

/* what alone, or prefixed with its node ("node/what") or, when the node is
 * not known, its input's file name ("file:what"). */
static const char *label(const struct trace *t, int prefix, uint32_t domain, uint32_t input, const char *what,
			 char *buf, size_t size)
{
	const char *node = t->domains[domain].node;
	if (!prefix)
		snprintf(buf, size, "%s", what);
	else if (node)
		snprintf(buf, size, "%s/%s", node, what);
	else
		snprintf(buf, size, "%s:%s", trace_input_name(t, input), what);
	return buf;
}

const char *trace_thread_label(const struct trace *t, uint32_t thread, char *buf, size_t size)
{
	const struct trace_thread *th = &t->threads[thread];
	char what[128];
	if (th->name != TRACE_NONE)
		snprintf(what, sizeof(what), "%lld/%lld %s", (long long)th->pid, (long long)th->tid,
			 trace_str(t, th->name));
	else
		snprintf(what, sizeof(what), "%lld/%lld", (long long)th->pid, (long long)th->tid);
	return label(t, threads_span_domains(t), th->domain, th->input, what, buf, size);
}

const char *trace_queue_label(const struct trace *t, uint32_t queue, char *buf, size_t size)
{
	const struct trace_queue *q = &t->queues[queue];
	if (q->name != TRACE_NONE)
		snprintf(buf, size, "%s", trace_str(t, q->name));
	else
		snprintf(buf, size, "q%lld", (long long)q->queue);
	return buf;
}

const char *trace_counter_label(const struct trace *t, uint32_t series, char *buf, size_t size)
{
	const struct trace_counter *s = &t->counters.series[series];
	char gpu[96];
	trace_device_label(t, s->domain, s->input, s->device, gpu, sizeof(gpu));
	snprintf(buf, size, "GPU %s %s%s", gpu, trace_str(t, s->name),
		 s->source == COUNTER_SAMPLED ? " (sampled)" : "");
	return buf;
}

const char *trace_gpu_label(const struct trace *t, uint32_t gpu, char *buf, size_t size)
{
	const struct trace_gpu *g = &t->gpus[gpu];
	return trace_device_label(t, g->domain, g->input, g->device, buf, size);
}

const char *trace_device_label(const struct trace *t, uint32_t domain, uint32_t input, int64_t device,
			       char *buf, size_t size)
{
	char what[24];
	snprintf(what, sizeof(what), "%lld", (long long)device);
	return label(t, gpus_span_domains(t), domain, input, what, buf, size);
}
