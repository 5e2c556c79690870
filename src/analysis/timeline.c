#include "config.h"
#include "analysis/timeline.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/natcmp.h"
#include "util/satmath.h"
#include "util/search.h"
#include "util/sort.h"
#include "util/threads.h"
#include "util/xalloc.h"

/* Rows come nearly in order (sort_nearly): ops by queue, and API calls,
 * recorded as they end, each after the calls nested in it (a range after
 * the thousands of calls in it). */
static int op_cmp(const void *ctx, uint32_t i, uint32_t j)
{
	const struct trace *t = ctx;
	return (t->ops.start[i] > t->ops.start[j]) - (t->ops.start[i] < t->ops.start[j]);
}

/* Ranks of GPUs or threads in the natural order of their labels, so that
 * rank2's lanes come before rank10's and GPU 9 before GPU 10. */
struct label_rank {
	char label[160];
	uint32_t index;
};

static int by_label(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const struct label_rank *x = a, *y = b;
	int c = natcmp(x->label, y->label);
	return c ? c : (x->index > y->index) - (x->index < y->index);
}

static uint32_t *natural_ranks(const struct trace *t, size_t n,
			       const char *(*label)(const struct trace *, uint32_t, char *, size_t))
{
	struct label_rank *v = xmalloc_array(n ? n : 1, sizeof(*v));
	uint32_t *rank = xmalloc_array(n ? n : 1, sizeof(*rank));
	for (size_t i = 0; i < n; i++) {
		label(t, (uint32_t)i, v[i].label, sizeof(v[i].label));
		v[i].index = (uint32_t)i;
	}
	sort_with(v, n, sizeof(*v), by_label, NULL);
	for (size_t i = 0; i < n; i++)
		rank[v[i].index] = (uint32_t)i;
	free(v);
	return rank;
}

struct lane_order {
	const struct trace *t;
	uint32_t *thread_rank;
};

/* Lanes in the order people read them: GPU by GPU, its queues in order
 * and then its counters by name, then threads, each followed by its
 * nesting rows. */
static int by_lane(const void *a, const void *b, void *ctx)
{
	const struct lane_order *o = ctx;
	const struct tl_lane *la = a, *lb = b;
	int cpu_a = la->kind == TL_CPU, cpu_b = lb->kind == TL_CPU;
	if (cpu_a != cpu_b)
		return cpu_a - cpu_b;
	if (cpu_a) {
		uint32_t x = o->thread_rank[la->thread], y = o->thread_rank[lb->thread];
		if (x != y)
			return x < y ? -1 : 1;
		return la->depth - lb->depth;
	}
	if (la->group != lb->group)
		return la->group < lb->group ? -1 : 1;
	if (la->kind != lb->kind)
		return la->kind == TL_GPU ? -1 : 1;
	if (la->kind == TL_COUNTER) {
		const struct trace_counter *x = &o->t->counters.series[la->series],
					   *y = &o->t->counters.series[lb->series];
		int c = natcmp(trace_str(o->t, x->name), trace_str(o->t, y->name));
		if (c)
			return c;
		return (x->source > y->source) - (x->source < y->source);
	}
	const struct trace_queue *x = &o->t->queues[la->queue], *y = &o->t->queues[lb->queue];
	return (x->queue > y->queue) - (x->queue < y->queue);
}

/* Each GPU lane's and counter lane's GPU ranked in the natural order of
 * the GPUs' labels; a counter of a GPU that ran ops shares its rank, one
 * of a GPU that ran none has one of its own. */
static void rank_groups(const struct trace *t, struct timeline *tl)
{
	size_t n = t->ngpus + t->counters.nseries;
	struct label_rank *v = xmalloc_array(n ? n : 1, sizeof(*v));
	uint32_t *rank = xmalloc_array(n ? n : 1, sizeof(*rank));
	for (size_t i = 0; i < t->ngpus; i++)
		trace_gpu_label(t, (uint32_t)i, v[i].label, sizeof(v[i].label));
	for (size_t s = 0; s < t->counters.nseries; s++) {
		const struct trace_counter *c = &t->counters.series[s];
		trace_device_label(t, c->domain, c->input, c->device, v[t->ngpus + s].label,
				   sizeof(v[0].label));
	}
	for (size_t i = 0; i < n; i++)
		v[i].index = (uint32_t)i;
	sort_with(v, n, sizeof(*v), by_label, NULL);
	uint32_t r = 0;
	for (size_t i = 0; i < n; i++) {
		if (i > 0 && strcmp(v[i].label, v[i - 1].label) != 0)
			r++;
		rank[v[i].index] = r;
	}
	/* A counter whose GPU has no queue (ran no op) is idle. */
	uint8_t *ran = xcalloc(n ? n : 1, 1);
	for (size_t i = 0; i < tl->nlanes; i++) {
		struct tl_lane *l = &tl->lanes[i];
		if (l->kind == TL_GPU)
			ran[l->group = rank[t->queues[l->queue].gpu]] = 1;
		else if (l->kind == TL_COUNTER)
			l->group = rank[t->ngpus + l->series];
	}
	for (size_t i = 0; i < tl->nlanes; i++)
		tl->lanes[i].idle = tl->lanes[i].kind == TL_COUNTER && !ran[tl->lanes[i].group];
	free(ran);
	free(rank);
	free(v);
}

static void sort_lanes(const struct trace *t, struct timeline *tl)
{
	struct lane_order o = { t, natural_ranks(t, t->nthreads, trace_thread_label) };
	rank_groups(t, tl);
	sort_with(tl->lanes, tl->nlanes, sizeof(*tl->lanes), by_lane, &o);
	free(o.thread_rank);
	/* A counter lane right under its GPU's lanes is labelled by its
	 * counter alone. */
	for (size_t i = 1; i < tl->nlanes; i++) {
		struct tl_lane *l = &tl->lanes[i], *up = &tl->lanes[i - 1];
		l->headed = l->kind == TL_COUNTER && up->kind != TL_CPU && up->group == l->group;
	}
}

/* Blocks of 2^bits rows among n (each block has at least one). */
static size_t blocks(size_t n, unsigned bits)
{
	return (n + ((size_t)1 << bits) - 1) >> bits;
}

/* Time covered by row k of a lane: its length, none when it has none. */
static int64_t row_length(const struct tl_lane *l, size_t k)
{
	int64_t d = sat_sub(timeline_end(l, k), timeline_start(l, k));
	return d > 0 ? d : 0;
}

/* A row without a duration (roctx marks, zero-length calls) covers no
 * time: it is kept apart, to be found and shown. */
static void add_instant(struct tl_lane *l, size_t i, size_t *cap, size_t *cap_at)
{
	l->instant = xgrow(l->instant, cap, l->ninstant + 1, sizeof(*l->instant));
	l->instant_at = xgrow(l->instant_at, cap_at, l->ninstant + 1, sizeof(*l->instant_at));
	l->instant[l->ninstant] = timeline_start(l, i);
	l->instant_at[l->ninstant++] = (uint32_t)i;
}

/* A lane's rows by start, the first start of each block, the time covered
 * before every 2^TL_COVER_BITS-th row and the rows without a duration, in
 * one walk of the rows' times. */
static void index_lane(const struct trace *t, struct tl_lane *l)
{
	l->row_start = l->kind == TL_GPU ? t->ops.start : t->apis.start;
	l->row_end = l->kind == TL_GPU ? t->ops.end : t->apis.end;
	if (l->kind == TL_GPU)
		sort_nearly_keyed(l->ops, l->n, t->ops.start, op_cmp, t);
	size_t nb = blocks(l->n, TL_BLOCK_BITS), nc = blocks(l->n + 1, TL_COVER_BITS);
	l->block_start = xmalloc_array(nb ? nb : 1, sizeof(int64_t));
	l->covered = xmalloc_array(nc, sizeof(int64_t));
	for (size_t b = 0; b < nb; b++)
		l->block_start[b] = timeline_start(l, b << TL_BLOCK_BITS);
	const size_t mask = ((size_t)1 << TL_COVER_BITS) - 1;
	size_t cap = 0, cap_at = 0;
	int64_t covered = 0;
	for (size_t i = 0; i < l->n; i++) {
		if (!(i & mask))
			l->covered[i >> TL_COVER_BITS] = covered;
		int64_t d = row_length(l, i);
		if (d)
			covered = sat_add(covered, d);
		else
			add_instant(l, i, &cap, &cap_at);
	}
	if (!(l->n & mask))
		l->covered[l->n >> TL_COVER_BITS] = covered;
	if (l->ninstant) {
		l->instant = xrealloc_array(l->instant, l->ninstant, sizeof(*l->instant));
		l->instant_at = xrealloc_array(l->instant_at, l->ninstant, sizeof(*l->instant_at));
	}
}

#define MAX_DEPTH 32

/* Calls in thread and start order, those not in sel (when given) skipped. */
struct call_rows {
	const uint32_t *rows;
	size_t n;
	const struct selection *sel;
};

/* The selected calls grouped by thread (a counting sort), each thread's in
 * start order. */
static uint32_t *calls_by_thread(const struct trace *t, const struct selection *sel, size_t *n)
{
	size_t *first = xcalloc(t->nthreads + 1, sizeof(*first));
	for (size_t i = 0; i < t->apis.n; i++)
		if (selected_api(sel, i))
			first[t->apis.thread[i] + 1]++;
	for (size_t k = 0; k < t->nthreads; k++)
		first[k + 1] += first[k];
	*n = first[t->nthreads];
	uint32_t *calls = xmalloc_huge(*n, sizeof(*calls));
	size_t *fill = xmalloc_array(t->nthreads, sizeof(*fill));
	memcpy(fill, first, t->nthreads * sizeof(*fill));
	for (size_t i = 0; i < t->apis.n; i++)
		if (selected_api(sel, i))
			calls[fill[t->apis.thread[i]]++] = (uint32_t)i;
	for (size_t k = 0; k < t->nthreads; k++)
		sort_nearly_keyed(calls + first[k], first[k + 1] - first[k], t->apis.start, api_call_cmp, t);
	free(fill);
	free(first);
	return calls;
}

/* Where a thread's calls begin among the rows walked, and its lane for
 * each depth (SIZE_MAX: none). */
struct thread_run {
	size_t at;
	size_t lane_of[MAX_DEPTH];
};

/* A call the walk skipped (not in the selection). */
#define NO_DEPTH UINT8_MAX

/* A lane for each (thread, depth). A call's depth is the number of calls of
 * its thread still open when it starts. Walk the calls, thread by thread:
 * each gets its depth (depths[k] for rows[k]), each new (thread, depth) a
 * lane, and each lane its count of calls; runs[] says where each thread's
 * calls begin. */
static struct thread_run *walk_depths(const struct trace *t, const struct call_rows *c, struct timeline *tl,
				      uint8_t *depths, size_t *nruns)
{
	struct thread_run *runs = NULL;
	size_t cap = 0;
	*nruns = 0;
	int64_t open_end[MAX_DEPTH];
	int depth = 0;
	size_t *lane_of = NULL;
	uint32_t thread = TRACE_NONE;
	for (size_t k = 0; k < c->n; k++) {
		uint32_t i = c->rows[k];
		if (c->sel && !selected_api(c->sel, i)) {
			depths[k] = NO_DEPTH;
			continue;
		}
		if (t->apis.thread[i] != thread) {
			thread = t->apis.thread[i];
			depth = 0;
			runs = xgrow(runs, &cap, *nruns + 1, sizeof(*runs));
			runs[*nruns].at = k;
			lane_of = runs[(*nruns)++].lane_of;
			for (int d = 0; d < MAX_DEPTH; d++)
				lane_of[d] = SIZE_MAX;
		}
		while (depth > 0 && open_end[depth - 1] <= t->apis.start[i])
			depth--;
		int d = depth < MAX_DEPTH ? depth : MAX_DEPTH - 1;
		if (lane_of[d] == SIZE_MAX) {
			tl->lanes = xrealloc_array(tl->lanes, tl->nlanes + 1, sizeof(*tl->lanes));
			struct tl_lane *l = &tl->lanes[tl->nlanes];
			memset(l, 0, sizeof(*l));
			l->kind = TL_CPU;
			l->thread = thread;
			l->depth = d;
			lane_of[d] = tl->nlanes++;
		}
		tl->lanes[lane_of[d]].cap++;
		depths[k] = (uint8_t)d;
		if (depth < MAX_DEPTH)
			open_end[depth++] = t->apis.end[i];
	}
	return runs;
}

/* Each call into its lane, in the order walked: the depths and runs say
 * which, so that the calls' times are not read again. */
static void place_calls(const struct call_rows *c, struct timeline *tl, const uint8_t *depths,
			const struct thread_run *runs, size_t nruns)
{
	for (size_t r = 0; r < nruns; r++) {
		size_t end = r + 1 < nruns ? runs[r + 1].at : c->n;
		for (size_t k = runs[r].at; k < end; k++) {
			if (depths[k] == NO_DEPTH)
				continue;
			struct tl_lane *l = &tl->lanes[runs[r].lane_of[depths[k]]];
			l->ops[l->n++] = c->rows[k];
		}
	}
}

/* The trace's calls by thread and start (the session's order of calls,
 * or the one a cache file kept, with the selection left to the walk), or
 * the selected calls sorted here. */
static void add_cpu_lanes(const struct trace *t, const struct selection *sel, const struct api_order *order,
			  struct timeline *tl)
{
	size_t first = tl->nlanes;
	uint32_t *calls = NULL;
	struct call_rows c = { .sel = sel };
	if (order && order->napis == t->apis.n && order->rows) {
		c.rows = order->rows;
		c.n = order->napis;
	} else if (t->call_order) {
		c.rows = t->call_order;
		c.n = t->apis.n;
	} else {
		c.rows = calls = calls_by_thread(t, sel, &c.n);
		c.sel = NULL;
	}
	uint8_t *depths = xmalloc_huge(c.n ? c.n : 1, 1);
	size_t nruns;
	struct thread_run *runs = walk_depths(t, &c, tl, depths, &nruns);
	for (size_t k = first; k < tl->nlanes; k++)
		tl->lanes[k].ops = xmalloc_huge(tl->lanes[k].cap, sizeof(uint32_t));
	place_calls(&c, tl, depths, runs, nruns);
	free(runs);
	free(depths);
	free(calls);
}

/* Lanes are indexed independently: as many threads as cores share them. */
struct indexer {
	const struct trace *t;
	struct timeline *tl;
	atomic_size_t next;
};

static void *index_worker(void *arg)
{
	struct indexer *ix = arg;
	size_t q;
	while ((q = atomic_fetch_add(&ix->next, 1)) < ix->tl->nlanes)
		index_lane(ix->t, &ix->tl->lanes[q]);
	return NULL;
}

static void index_lanes(const struct trace *t, struct timeline *tl)
{
	struct indexer ix = { .t = t, .tl = tl };
	atomic_init(&ix.next, 0);
	pthread_t th[7];
	int extra = threads_acquire(7), started = 0;
	while (started < extra && pthread_create(&th[started], NULL, index_worker, &ix) == 0)
		started++;
	index_worker(&ix);
	for (int k = 0; k < started; k++)
		pthread_join(th[k], NULL);
	threads_release(extra);
}

/* A lane per counter series, whatever the filter (counters have no names
 * it matches), and their index. */
static void add_counter_lanes(const struct trace *t, const struct selection *sel, struct timeline *tl)
{
	const struct trace_counters *c = &t->counters;
	if (c->nseries == 0)
		return;
	tl->lanes = xrealloc_array(tl->lanes, tl->nlanes + c->nseries, sizeof(*tl->lanes));
	/* Scaled over every sample, whatever the window. */
	struct counter_scale *scale = xmalloc_array(c->nseries, sizeof(*scale));
	counter_scales(t, scale);
	for (size_t s = 0; s < c->nseries; s++) {
		struct tl_lane *l = &tl->lanes[tl->nlanes++];
		memset(l, 0, sizeof(*l));
		l->kind = TL_COUNTER;
		l->series = (uint32_t)s;
		l->scale = scale[s];
	}
	free(scale);
	if (!sel || !sel->window.active) {
		counter_index_build(c, &tl->counters);
		return;
	}
	/* What the lanes show follows the window as the ops do. */
	struct trace_counters clipped;
	counter_clip(c, &sel->window, &clipped);
	counter_index_build(&clipped, &tl->counters);
	counter_clip_free(&clipped);
}

void timeline_build(const struct trace *t, const struct selection *sel, struct timeline *tl)
{
	timeline_build_ordered(t, sel, NULL, tl);
}

/* The CPU lanes, made on a core of their own while the GPU lanes are
 * filled: lanes of their own, with the span of every call. */
struct cpu_part {
	const struct trace *t;
	const struct selection *sel;
	const struct api_order *order;
	struct timeline tl;
	int64_t start, end;
};

static void *cpu_part_build(void *arg)
{
	struct cpu_part *c = arg;
	const struct trace *t = c->t;
	c->start = INT64_MAX;
	c->end = INT64_MIN;
	for (size_t i = 0; i < t->apis.n; i++) {
		if (t->apis.start[i] < c->start)
			c->start = t->apis.start[i];
		if (t->apis.end[i] > c->end)
			c->end = t->apis.end[i];
	}
	add_cpu_lanes(t, c->sel, c->order, &c->tl);
	return NULL;
}

static void add_gpu_lanes(const struct trace *t, const struct selection *sel, struct timeline *tl)
{
	tl->lanes = xcalloc(t->nqueues ? t->nqueues : 1, sizeof(*tl->lanes));
	size_t *count = xcalloc(t->nqueues ? t->nqueues : 1, sizeof(*count));
	for (size_t i = 0; i < t->ops.n; i++)
		if (selected_op(sel, i))
			count[t->ops.queue[i]]++;
	for (size_t q = 0; q < t->nqueues; q++) {
		tl->lanes[q].kind = TL_GPU;
		tl->lanes[q].queue = (uint32_t)q;
		tl->lanes[q].ops = xmalloc_huge(count[q], sizeof(uint32_t));
	}
	for (size_t i = 0; i < t->ops.n; i++) {
		if (!selected_op(sel, i))
			continue;
		struct tl_lane *l = &tl->lanes[t->ops.queue[i]];
		l->ops[l->n++] = (uint32_t)i;
	}
	tl->nlanes = t->nqueues;
	free(count);
}

void timeline_build_ordered(const struct trace *t, const struct selection *sel, const struct api_order *order,
			    struct timeline *tl)
{
	memset(tl, 0, sizeof(*tl));
	struct cpu_part cpu = { .t = t, .sel = sel, .order = order };
	pthread_t th;
	int extra = threads_acquire(1);
	int apart = extra > 0 && pthread_create(&th, NULL, cpu_part_build, &cpu) == 0;
	tl->origin = tl->start = t->op_first_start;
	tl->end = t->op_last_end;
	add_gpu_lanes(t, sel, tl);
	add_counter_lanes(t, sel, tl);
	if (apart)
		pthread_join(th, NULL);
	else
		cpu_part_build(&cpu);
	threads_release(extra);
	/* API calls often begin before the first op: the view reaches them,
	 * all of them, so that the whole view is the trace's extent whatever
	 * the filter or window leaves out (a window is a part of it). */
	tl->start = cpu.start < tl->start ? cpu.start : tl->start;
	tl->end = cpu.end > tl->end ? cpu.end : tl->end;
	tl->lanes = xrealloc_array(tl->lanes, tl->nlanes + cpu.tl.nlanes, sizeof(*tl->lanes));
	if (cpu.tl.nlanes)
		memcpy(tl->lanes + tl->nlanes, cpu.tl.lanes, cpu.tl.nlanes * sizeof(*tl->lanes));
	tl->nlanes += cpu.tl.nlanes;
	free(cpu.tl.lanes);
	index_lanes(t, tl);
	sort_lanes(t, tl);
}

void timeline_free(struct timeline *tl)
{
	for (size_t i = 0; i < tl->nlanes; i++) {
		free(tl->lanes[i].ops);
		free(tl->lanes[i].block_start);
		free(tl->lanes[i].covered);
		free(tl->lanes[i].instant);
		free(tl->lanes[i].instant_at);
	}
	free(tl->lanes);
	counter_index_free(&tl->counters);
	memset(tl, 0, sizeof(*tl));
}

/* How many ops start before x. */
static size_t starting_before(const struct tl_lane *l, int64_t x)
{
	/* The block first (its starts are few and stay in cache), then its
	 * rows. */
	size_t b = lower_bound_i64(l->block_start, 0, blocks(l->n, TL_BLOCK_BITS), x);
	size_t lo = b > 0 ? (b - 1) << TL_BLOCK_BITS : 0, hi = b << TL_BLOCK_BITS;
	if (hi > l->n)
		hi = l->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (timeline_start(l, mid) < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Time covered by a lane's rows before the k-th (k <= n). */
static int64_t covered_upto(const struct tl_lane *l, size_t k)
{
	size_t from = k >> TL_COVER_BITS << TL_COVER_BITS;
	int64_t c = l->covered[k >> TL_COVER_BITS];
	for (size_t i = from; i < k; i++)
		c = sat_add(c, row_length(l, i));
	return c;
}

/* Time covered before x. */
static int64_t covered_before(const struct tl_lane *l, int64_t x)
{
	size_t k = starting_before(l, x);
	int64_t c = covered_upto(l, k);
	if (k > 0 && timeline_end(l, k - 1) > x)
		c = sat_sub(c, sat_sub(timeline_end(l, k - 1), x));
	return c;
}

int64_t timeline_busy(const struct tl_lane *l, int64_t from, int64_t to)
{
	int64_t b = sat_sub(covered_before(l, to), covered_before(l, from));
	if (b < 0)
		return 0;
	return b > sat_sub(to, from) ? sat_sub(to, from) : b;
}

size_t timeline_at(const struct tl_lane *l, int64_t time)
{
	size_t k = starting_before(l, sat_add(time, 1));
	if (k > 0 && timeline_end(l, k - 1) > time)
		return k - 1;
	return k;
}

size_t timeline_under(const struct tl_lane *l, int64_t time, int64_t from, int64_t to)
{
	size_t upto = starting_before(l, time + 1); /* rows starting at or before time */
	if (upto > 0 && timeline_end(l, upto - 1) > time)
		return upto - 1;
	size_t before = starting_before(l, time);
	if (before < upto)
		return before;
	size_t k = lower_bound_i64(l->instant, 0, l->ninstant, from);
	return k < l->ninstant && l->instant[k] < to ? l->instant_at[k] : l->n;
}

size_t timeline_before(const struct tl_lane *l, int64_t time)
{
	return starting_before(l, time);
}

uint32_t timeline_instant(const struct tl_lane *l, int64_t from, int64_t to)
{
	size_t k = lower_bound_i64(l->instant, 0, l->ninstant, from);
	return k < l->ninstant && l->instant[k] < to ? l->ops[l->instant_at[k]] : TRACE_NONE;
}

void timeline_columns(const struct tl_lane *l, int64_t start, int64_t dt, int cols, uint32_t *dominant,
		      int64_t *busy, uint32_t *instant)
{
	int64_t before = covered_before(l, start);
	size_t m = lower_bound_i64(l->instant, 0, l->ninstant, start);
	for (int c = 0; c < cols; c++) {
		int64_t a = start + c * dt, b = a + dt;
		int64_t upto = covered_before(l, b), part = upto - before;
		busy[c] = part < 0 ? 0 : part > dt ? dt : part;
		before = upto;
		dominant[c] = timeline_dominant(l, a, b);
		while (m < l->ninstant && l->instant[m] < a)
			m++;
		instant[c] = m < l->ninstant && l->instant[m] < b ? l->ops[l->instant_at[m]] : TRACE_NONE;
	}
}

uint32_t timeline_dominant(const struct tl_lane *l, int64_t from, int64_t to)
{
	size_t k = timeline_at(l, from + (to - from) / 2);
	if (k < l->n && timeline_start(l, k) < to && timeline_end(l, k) > from)
		return l->ops[k];
	k = timeline_at(l, from);
	if (k < l->n && timeline_start(l, k) < to)
		return l->ops[k];
	return TRACE_NONE;
}

/* Bytes of n elements of an array that exists. */
#define COL(p, n) ((p) ? (size_t)(n) * sizeof(*(p)) : 0)

void timeline_memory(const struct timeline *tl, struct mem_report *r)
{
	for (size_t k = 0; k < tl->nlanes; k++) {
		const struct tl_lane *l = &tl->lanes[k];
		const char *prefix = l->kind == TL_CPU ? "timeline CPU lanes: " : "timeline GPU lanes: ";
		size_t nb = blocks(l->n, TL_BLOCK_BITS), nc = blocks(l->n + 1, TL_COVER_BITS);
		mem_add(r, prefix, "rows", COL(l->ops, l->cap > l->n ? l->cap : l->n));
		mem_add(r, prefix, "starts and time covered",
			COL(l->block_start, nb ? nb : 1) + COL(l->covered, nc));
		mem_add(r, prefix, "instants",
			COL(l->instant, l->ninstant) + COL(l->instant_at, l->ninstant));
	}
	mem_add(r, "timeline: ", "lanes", COL(tl->lanes, tl->nlanes));
	const struct counter_index *c = &tl->counters;
	size_t steps = 0;
	for (size_t i = 0; i < c->nseries; i++)
		steps += c->series[i].n;
	mem_add(r, "timeline: ", "counter steps",
		COL(c->start, steps) + COL(c->end, steps) + COL(c->tree, 2 * steps));
}
