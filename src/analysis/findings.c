/* The findings' driver: every rule of analysis/findings_list.h over one
 * selection, the shared analyses made once, the findings ranked. */
#include "config.h"
#include "analysis/findings.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/params.h"
#include "util/i18n.h"
#include "util/idmap.h"
#include "util/satmath.h"
#include "util/sort.h"
#include "util/threads.h"
#include "util/xalloc.h"

static const struct {
	const char *name;
	void (*rule)(struct findings_ctx *c, struct findings *out);
	unsigned scope;
	int steps; /* reads the steps */
} rules[] = {
#define FINDING(fn, name, scope, steps) { name, finding_##fn, FINDING_SCOPE_##scope, steps },
#include "analysis/findings_list.h"
#undef FINDING
};

const char *finding_id_name(enum finding_id id)
{
	return (size_t)id < FINDING_NIDS ? rules[id].name : "?";
}

unsigned finding_id_scope(enum finding_id id)
{
	return (size_t)id < FINDING_NIDS ? rules[id].scope : 0;
}

/* What each rule says, short (the manual's FINDINGS has it whole). */
static const char *const helps[FINDING_NIDS] = {
	[FINDING_host_wait] = N_("The GPU waited for the host: its gaps whose next op was launched after the "
				 "gap began, over the GPU's span."),
	[FINDING_sync_call] =
		N_("Host-wait gaps that began while the launching thread was in a blocking call "
		   "(a synchronous copy or fill, a synchronize, a stream wait), by the call's name."),
	[FINDING_launch_bound] = N_("Kernels whose launch outlasted them: the lesser of the gap before each "
				    "and its call, summed over those kernels of a name on a GPU."),
	[FINDING_outlier] = N_("Instances of a kernel far slower than its usual time (z-score and a multiple "
			       "of the median): their time over the median, against the GPU's time."),
	[FINDING_slow_step] = N_("A step much longer than the median of the others: its time over the "
				 "median."),
	[FINDING_warmup] = N_("The first step, much longer than the median of the others: its time over "
			      "the median."),
	[FINDING_exposed_comm] = N_("Communication kernels running while no other kernel of the GPU did: "
				    "the exposed communication, over the GPU's span."),
	[FINDING_straggler] = N_("A rank the others waited for in the collectives: their waits, against "
				 "their communication time."),
	[FINDING_low_util] = N_("A stretch of the GPU's span (in hundredths) mostly idle: the idle time "
				"inside it."),
	[FINDING_imbalance] = N_("GPUs with very different busy shares: what the others would add "
				 "working as the busiest did."),
	[FINDING_graph_gap] = N_("Idle inside the replays of a graph: the gaps between its nodes."),
};

const char *finding_id_help(enum finding_id id)
{
	return (size_t)id < FINDING_NIDS ? helps[id] : "";
}

struct finding *findings_add(struct findings *f, enum finding_id id)
{
	f->v = xgrow(f->v, &f->cap, f->n + 1, sizeof(*f->v));
	struct finding *x = &f->v[f->n++];
	memset(x, 0, sizeof(*x));
	x->id = id;
	x->gpu = x->input = x->name = TRACE_NONE;
	return x;
}

void finding_say(struct finding *f, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(f->evidence, sizeof(f->evidence), fmt, ap);
	va_end(ap);
}

double findings_percent(int64_t part, int64_t whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

const struct gaps *findings_ctx_gaps(struct findings_ctx *c)
{
	if (!c->have_gaps) {
		struct gaps_params gp = { .threshold = c->ap->gap_threshold,
					  .keep = SIZE_MAX,
					  .in_lane_order = 1 };
		gaps_find_in(c->t, c->sel, findings_ctx_lanes(c), &gp, &c->gaps);
		c->have_gaps = 1;
	}
	return &c->gaps;
}

const struct lane_ops *findings_ctx_lanes(struct findings_ctx *c)
{
	if (!c->have_lanes) {
		lane_ops_build(c->t, c->sel, 0, &c->lanes);
		c->have_lanes = 1;
	}
	return &c->lanes;
}

void findings_group(const uint64_t *key, size_t n, struct findings_groups *g)
{
	struct idmap ids;
	idmap_init(&ids);
	uint32_t *of = xmalloc_array(n ? n : 1, sizeof(*of)), id;
	size_t ng = 0;
	for (size_t i = 0; i < n; i++) {
		if (!idmap_get(&ids, key[i], &id)) {
			id = (uint32_t)ng++;
			idmap_put(&ids, key[i], id);
		}
		of[i] = id;
	}
	idmap_free(&ids);
	findings_group_ids(of, n, ng, g);
	free(of);
}

void findings_group_ids(const uint32_t *of, size_t n, size_t ng, struct findings_groups *g)
{
	g->n = ng;
	g->first = xcalloc(ng + 2, sizeof(*g->first));
	for (size_t i = 0; i < n; i++)
		g->first[of[i] + 2]++;
	for (size_t k = 2; k < ng + 2; k++)
		g->first[k] += g->first[k - 1];
	/* first[k + 1] counts group k's place as it fills: then its end. */
	g->rows = xmalloc_array(n ? n : 1, sizeof(*g->rows));
	for (size_t i = 0; i < n; i++)
		g->rows[g->first[of[i] + 1]++] = (uint32_t)i;
}

void findings_groups_free(struct findings_groups *g)
{
	free(g->rows);
	free(g->first);
	memset(g, 0, sizeof(*g));
}

const int64_t *findings_ctx_spans(struct findings_ctx *c)
{
	if (!c->spans) {
		const struct gaps *g = findings_ctx_gaps(c);
		c->spans = xcalloc(c->t->ngpus ? c->t->ngpus : 1, sizeof(*c->spans));
		for (size_t k = 0; k < g->nlanes; k++)
			c->spans[g->lanes[k].lane] = gap_lane_span(&g->lanes[k]);
	}
	return c->spans;
}

void findings_each_lane(struct findings_ctx *c,
			void (*fn)(struct findings_ctx *c, const struct gap_lane *l, const struct gap *gaps,
				   size_t n, void *arg),
			void *arg)
{
	const struct gaps *g = findings_ctx_gaps(c);
	size_t i = 0;
	/* The gaps come lane by lane, in the lanes' order. */
	for (size_t k = 0; k < g->nlanes; k++) {
		size_t from = i;
		while (i < g->n && g->gaps[i].lane == g->lanes[k].lane)
			i++;
		fn(c, &g->lanes[k], i > from ? g->gaps + from : NULL, i - from, arg);
	}
}

void findings_gap_groups(struct findings_ctx *c, const struct gap_item *v, size_t n, findings_gap_group_fn fn,
			 struct findings *out)
{
	const int64_t *span = findings_ctx_spans(c);
	uint64_t *key = xmalloc_array(n ? n : 1, sizeof(*key));
	for (size_t i = 0; i < n; i++)
		key[i] = (uint64_t)v[i].gpu << 32 | v[i].key;
	struct findings_groups gr;
	findings_group(key, n, &gr);
	for (size_t k = 0; k < gr.n; k++) {
		const uint32_t *idx = gr.rows + gr.first[k];
		fn(c, v, idx, gr.first[k + 1] - gr.first[k], span[v[idx[0]].gpu], out);
	}
	findings_groups_free(&gr);
	free(key);
}

int64_t gap_items_sum(const struct gap_item *all, const uint32_t *idx, size_t n,
		      const struct gap_item **longest)
{
	int64_t sum = 0;
	*longest = &all[idx[0]];
	for (size_t i = 0; i < n; i++) {
		const struct gap_item *x = &all[idx[i]];
		sum = sat_add(sum, sat_sub(x->end, x->start));
		if (sat_sub(x->end, x->start) > sat_sub((*longest)->end, (*longest)->start))
			*longest = x;
	}
	return sum;
}

struct finding *findings_add_step(struct findings *out, enum finding_id id, const struct step_row *r,
				  int64_t median)
{
	struct finding *f = findings_add(out, id);
	f->name = r->text;
	f->time_ns = sat_sub(r->dur, median);
	f->share = findings_percent(f->time_ns, sat_sub(out->run_end, out->run_start));
	f->count = 1;
	f->start = r->start;
	f->end = sat_add(r->start, r->dur);
	return f;
}

/* The steps of the instances m whose text passes (m may hold only those). */
static void set_steps_passing(struct findings_ctx *c, const struct step_marks *m, const uint8_t *pass)
{
	steps_of_marks(m, pass, &c->steps);
	c->have_steps = 1;
	int64_t *d = xmalloc_array(c->steps.n ? c->steps.n : 1, sizeof(*d));
	size_t k = 0;
	for (size_t i = 0; i < c->steps.n; i++)
		if (c->steps.rows[i].number != 1)
			d[k++] = c->steps.rows[i].dur;
	sort_int64(d, k);
	c->step_median = k ? d[(k + 1) / 2 - 1] : -1;
	free(d);
}

void findings_ctx_set_steps(struct findings_ctx *c, const struct trace *names, const struct step_marks *m)
{
	char pattern[256];
	uint8_t *pass = steps_pass_of_marks(names, c->ap, m, pattern, sizeof(pattern));
	set_steps_passing(c, m, pass);
	free(pass);
}

/* The step texts of c's trace, from each text's summary, and the
 * instances of those texts alone: the same steps as of every instance
 * (findings_ctx_set_steps), without a record for each of millions of
 * ranges. */
static uint8_t *trace_step_marks(const struct findings_ctx *c, struct step_marks *m)
{
	char pattern[256];
	uint8_t *pass = steps_pass_of_trace(c->t, c->ap, pattern, sizeof(pattern));
	step_marks_passing(c->t, c->sel, pass, m);
	return pass;
}

const struct steps *findings_ctx_steps(struct findings_ctx *c)
{
	if (!c->have_steps) {
		struct step_marks m;
		uint8_t *pass = trace_step_marks(c, &m);
		set_steps_passing(c, &m, pass);
		step_marks_free(&m);
		free(pass);
	}
	return &c->steps;
}

static int cmp_u32(uint32_t a, uint32_t b)
{
	return (a > b) - (a < b);
}

static int cmp_i64(int64_t a, int64_t b)
{
	return (a > b) - (a < b);
}

/* Names by their text, so that a trace merged from node groups (its
 * strings interned in another order) ranks as the whole load does. */
static int cmp_name(const struct trace *t, uint32_t a, uint32_t b)
{
	if (a == b)
		return 0;
	if (a == TRACE_NONE || b == TRACE_NONE)
		return a == TRACE_NONE ? -1 : 1;
	return strcmp(trace_str(t, a), trace_str(t, b));
}

/* The most GPU time first; ties in the rules' order, then by place. */
static int by_time(const void *pa, const void *pb, void *ctx)
{
	const struct finding *a = pa, *b = pb;
	if (a->time_ns != b->time_ns)
		return a->time_ns < b->time_ns ? 1 : -1;
	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	int c = cmp_u32(a->gpu, b->gpu);
	if (!c)
		c = cmp_u32(a->input, b->input);
	if (!c)
		c = cmp_name(ctx, a->name, b->name);
	if (!c)
		c = cmp_i64(a->start, b->start);
	if (!c)
		c = cmp_i64(a->end, b->end);
	return c ? c : strcmp(a->evidence, b->evidence);
}

void findings_rank(const struct trace *t, struct findings *f)
{
	sort_with(f->v, f->n, sizeof(*f->v), by_time, (void *)t);
}

/* The rules of the scopes in mask that read the steps or not (steps 0,
 * 1; -1: either). */
static void run_rules(struct findings_ctx *c, unsigned mask, int steps, struct findings *out)
{
	for (size_t i = 0; i < FINDING_NIDS; i++)
		if ((rules[i].scope & mask) && (steps < 0 || rules[i].steps == steps))
			rules[i].rule(c, out);
}

void findings_run(struct findings_ctx *c, unsigned mask, struct findings *out)
{
	run_rules(c, mask, -1, out);
}

/* The work of findings_find on two cores. The second chooses the steps'
 * marker instances and runs the outlier rule, which read the trace alone,
 * while the first finds the gaps and what the rules share (the gaps, the
 * lanes, the spans); then both take the rules that read no steps one at
 * a time, each into its own list, reading the shared parts only. */
struct beside {
	struct findings_ctx *c;
	struct step_marks marks; /* of the step texts alone */
	uint8_t *pass;           /* the step texts */
	struct findings out;
	pthread_mutex_t lock;
	pthread_cond_t shared_made;
	int ready;   /* the shared parts are made */
	size_t next; /* the next rule to look at */
};

/* The next rule that reads no steps (outlier aside), or FINDING_NIDS. */
static size_t next_rule(struct beside *b)
{
	pthread_mutex_lock(&b->lock);
	while (!b->ready)
		pthread_cond_wait(&b->shared_made, &b->lock);
	size_t i = b->next;
	while (i < FINDING_NIDS && (rules[i].steps || i == FINDING_outlier))
		i++;
	b->next = i < FINDING_NIDS ? i + 1 : i;
	pthread_mutex_unlock(&b->lock);
	return i;
}

static void run_shared(struct beside *b, struct findings *out)
{
	size_t i = next_rule(b); /* once the shared parts are made */
	/* Rules of a run read the run's span off the list they add to. */
	out->run_start = b->c->gaps.range_start;
	out->run_end = b->c->gaps.range_end;
	for (; i < FINDING_NIDS; i = next_rule(b))
		rules[i].rule(b->c, out);
}

static void *beside_run(void *arg)
{
	struct beside *b = arg;
	b->pass = trace_step_marks(b->c, &b->marks);
	finding_outlier(b->c, &b->out);
	run_shared(b, &b->out);
	return NULL;
}

/* The parts the rules share, made before they run side by side. */
static void make_shared(struct findings_ctx *c)
{
	findings_ctx_gaps(c);
	findings_ctx_lanes(c);
	findings_ctx_spans(c);
}

void findings_ctx_free(struct findings_ctx *c)
{
	if (c->have_gaps)
		gaps_free(&c->gaps);
	if (c->have_steps)
		steps_free(&c->steps);
	if (c->have_lanes)
		lane_ops_free(&c->lanes);
	free(c->spans);
	c->have_gaps = c->have_steps = c->have_lanes = 0;
	c->spans = NULL;
}

void findings_find(const struct trace *t, const struct selection *sel, const struct analysis_params *ap,
		   const struct api_order *order, struct findings *out)
{
	memset(out, 0, sizeof(*out));
	struct findings_ctx c = { .t = t, .sel = sel, .ap = ap, .order = order };
	struct beside b = { .c = &c };
	pthread_mutex_init(&b.lock, NULL);
	pthread_cond_init(&b.shared_made, NULL);
	pthread_t th;
	int slot = threads_acquire(1), apart = slot && pthread_create(&th, NULL, beside_run, &b) == 0;
	make_shared(&c);
	pthread_mutex_lock(&b.lock);
	b.ready = 1;
	pthread_cond_broadcast(&b.shared_made);
	pthread_mutex_unlock(&b.lock);
	/* The findings are ranked in full at the end: which core found one
	 * and in what order does not show. */
	if (!apart)
		beside_run(&b);
	run_shared(&b, out);
	if (apart)
		pthread_join(th, NULL);
	threads_release(slot);
	pthread_cond_destroy(&b.shared_made);
	pthread_mutex_destroy(&b.lock);
	set_steps_passing(&c, &b.marks, b.pass);
	step_marks_free(&b.marks);
	free(b.pass);
	run_rules(&c, FINDING_SCOPE_GPU | FINDING_SCOPE_RUN, 1, out);
	for (size_t i = 0; i < b.out.n; i++)
		*findings_add(out, b.out.v[i].id) = b.out.v[i];
	findings_free(&b.out);
	findings_rank(t, out);
	findings_ctx_free(&c);
}

void findings_free(struct findings *f)
{
	free(f->v);
	memset(f, 0, sizeof(*f));
}
