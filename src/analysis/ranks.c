#include "config.h"
#include "analysis/ranks.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/lane_ops.h"
#include "util/natcmp.h"
#include "util/satmath.h"
#include "util/sort.h"
#include "util/xalloc.h"

static int by_start(const void *ctx, uint32_t a, uint32_t b)
{
	const struct trace *t = ctx;
	if (t->ops.start[a] != t->ops.start[b])
		return t->ops.start[a] < t->ops.start[b] ? -1 : 1;
	return (a > b) - (a < b);
}

/* Each op's GPU as a place in the order GPUs are sorted in (the last:
 * ops of no GPU). */
static size_t gpu_place(const struct trace *t, size_t op)
{
	uint32_t g = trace_op_gpu(t, op);
	return g < t->ngpus ? g : t->ngpus;
}

/* Where each GPU's ops of the input in view begin in an array of them
 * all (first[ngpus + 1]: how many), to deal them to their GPUs in row
 * order (a counting sort: a trace has few GPUs). */
static size_t *gpu_firsts(const struct trace *t, const struct selection *sel, const struct trace_input *in)
{
	size_t *first = xcalloc(t->ngpus + 2, sizeof(*first));
	for (size_t i = in->op_first; i < in->op_first + in->op_count; i++)
		if (selected_op(sel, i))
			first[gpu_place(t, i) + 1]++;
	for (size_t g = 0; g <= t->ngpus; g++)
		first[g + 1] += first[g];
	return first;
}

/* Per GPU the union of the ops' intervals (sorted by GPU, then start),
 * inside the window, summed; and the number of GPUs. */
static int64_t busy_over_gpus(const struct trace *t, const uint32_t *ops, size_t n, const struct window *w,
			      size_t *gpus)
{
	int64_t total = 0;
	struct span_union u = SPAN_UNION_INIT;
	uint32_t gpu = TRACE_NONE;
	*gpus = 0;
	for (size_t k = 0; k < n; k++) {
		uint32_t op = ops[k];
		int64_t from = t->ops.start[op], to = t->ops.end[op];
		select_clip(w, &from, &to);
		if (trace_op_gpu(t, op) != gpu) {
			gpu = trace_op_gpu(t, op);
			total = sat_add(total, u.total);
			u = (struct span_union)SPAN_UNION_INIT;
			(*gpus)++;
		}
		span_union_add(&u, from, to);
	}
	return sat_add(total, u.total);
}

/* One rank's figures from its ops in the selection; 0 when it has none. */
static int one_rank(const struct trace *t, const struct selection *sel, const uint8_t *comm_names,
		    uint32_t input, struct rank_row *r)
{
	static const struct window none;
	const struct window *w = sel ? &sel->window : &none;
	const struct trace_input *in = &t->inputs[input];
	uint32_t *ops = xmalloc_array(in->op_count ? in->op_count : 1, sizeof(*ops));
	size_t n = 0, *first = gpu_firsts(t, sel, in), *fill = xmalloc_array(t->ngpus + 1, sizeof(*fill));
	memcpy(fill, first, (t->ngpus + 1) * sizeof(*fill));
	memset(r, 0, sizeof(*r));
	r->input = input;
	for (size_t i = in->op_first; i < in->op_first + in->op_count; i++) {
		if (!selected_op(sel, i))
			continue;
		int64_t inside = select_clipped(w, t->ops.start[i], t->ops.end[i]);
		int64_t from = w->active && t->ops.start[i] < w->start ? w->start : t->ops.start[i];
		int64_t to = w->active && t->ops.end[i] > w->end ? w->end : t->ops.end[i];
		if (!n || from < r->first)
			r->first = from;
		if (!n || to > r->last)
			r->last = to;
		r->gpu = sat_add(r->gpu, inside);
		if (t->ops.kind[i] == OP_KERNEL && comm_names[t->ops.name[i]])
			r->comm = sat_add(r->comm, inside);
		ops[fill[gpu_place(t, i)]++] = (uint32_t)i;
		n++;
	}
	r->ops = n;
	/* By GPU, then start, then row: each GPU's nearly are by start
	 * already (each queue's come so). */
	for (size_t g = 0; g <= t->ngpus; g++)
		sort_nearly_keyed(ops + first[g], first[g + 1] - first[g], t->ops.start, by_start, t);
	free(fill);
	free(first);
	r->busy = busy_over_gpus(t, ops, n, w, &r->gpus);
	free(ops);
	return n > 0;
}

void ranks_part_init(struct ranks_part *p)
{
	memset(p, 0, sizeof(*p));
}

void ranks_part_free(struct ranks_part *p)
{
	free(p->rows);
	free(p->inst);
	memset(p, 0, sizeof(*p));
}

/* The input's collectives in the selection: its comm kernels. */
static void add_instances(struct ranks_part *p, const struct trace *t, const struct selection *sel,
			  const uint8_t *comm_names, uint32_t input)
{
	const struct trace_input *in = &t->inputs[input];
	for (size_t i = in->op_first; i < in->op_first + in->op_count; i++) {
		if (!selected_op(sel, i) || t->ops.kind[i] != OP_KERNEL || !comm_names[t->ops.name[i]])
			continue;
		p->inst = xgrow(p->inst, &p->icap, p->ninst + 1, sizeof(*p->inst));
		p->inst[p->ninst++] = (struct rank_instance){ t->ops.name[i], input, i - in->op_first,
							      t->ops.start[i], t->ops.end[i] };
	}
}

void ranks_part_add(struct ranks_part *p, const struct trace *t, const struct selection *sel,
		    const struct filter *comm)
{
	uint8_t *comm_names = filter_kernel_names(comm, t);
	for (size_t k = 0; k < t->ninputs; k++) {
		p->rows = xgrow(p->rows, &p->cap, p->n + 1, sizeof(*p->rows));
		if (!one_rank(t, sel, comm_names, (uint32_t)k, &p->rows[p->n]))
			continue;
		p->n++;
		add_instances(p, t, sel, comm_names, (uint32_t)k);
	}
	free(comm_names);
}

#define RANKS_BYTES_VERSION 1
#define ROW_BYTES (4 + 8 + 8 + 5 * 8)
#define INSTANCE_BYTES (4 + 4 + 8 + 8 + 8)

/* The names of the instances, each once: their place in the list. */
static uint32_t *instance_names(const struct ranks_part *p, const struct trace *t, uint32_t **names,
				size_t *n)
{
	uint32_t *slot = xmalloc_array(t->strings.count ? t->strings.count : 1, sizeof(*slot));
	memset(slot, 0xff, (t->strings.count ? t->strings.count : 1) * sizeof(*slot));
	*names = xmalloc_array(p->ninst ? p->ninst : 1, sizeof(**names));
	*n = 0;
	for (size_t i = 0; i < p->ninst; i++) {
		if (slot[p->inst[i].name] == UINT32_MAX) {
			slot[p->inst[i].name] = (uint32_t)*n;
			(*names)[(*n)++] = p->inst[i].name;
		}
	}
	return slot;
}

void ranks_part_encode(const struct ranks_part *p, const struct trace *t, struct bytes_out *b)
{
	bytes_put_u8(b, RANKS_BYTES_VERSION);
	bytes_put_u64(b, p->n);
	for (size_t i = 0; i < p->n; i++) {
		const struct rank_row *r = &p->rows[i];
		const int64_t v[] = { r->gpu, r->busy, r->first, r->last, r->comm };
		bytes_put_u32(b, r->input);
		bytes_put_u64(b, r->gpus);
		bytes_put_u64(b, r->ops);
		for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++)
			bytes_put_i64(b, v[k]);
	}
	uint32_t *names;
	size_t nnames;
	uint32_t *slot = instance_names(p, t, &names, &nnames);
	bytes_put_u64(b, nnames);
	for (size_t k = 0; k < nnames; k++)
		bytes_put_str(b, trace_str(t, names[k]));
	bytes_put_u64(b, p->ninst);
	for (size_t i = 0; i < p->ninst; i++) {
		const struct rank_instance *x = &p->inst[i];
		bytes_put_u32(b, slot[x->name]);
		bytes_put_u32(b, x->input);
		bytes_put_u64(b, x->seq);
		bytes_put_i64(b, x->start);
		bytes_put_i64(b, x->end);
	}
	free(names);
	free(slot);
}

static int merge_rows(struct ranks_part *p, const size_t *global, size_t nlocal, struct bytes_in *b)
{
	uint64_t n = bytes_get_count(b, ROW_BYTES);
	for (uint64_t i = 0; i < n && !b->bad; i++) {
		p->rows = xgrow(p->rows, &p->cap, p->n + 1, sizeof(*p->rows));
		struct rank_row *r = &p->rows[p->n];
		memset(r, 0, sizeof(*r));
		uint32_t input = bytes_get_u32(b);
		r->gpus = (size_t)bytes_get_u64(b);
		r->ops = bytes_get_u64(b);
		r->gpu = bytes_get_i64(b);
		r->busy = bytes_get_i64(b);
		r->first = bytes_get_i64(b);
		r->last = bytes_get_i64(b);
		r->comm = bytes_get_i64(b);
		if (input >= nlocal)
			return b->bad = 1, -1;
		r->input = (uint32_t)global[input];
		p->n++;
	}
	return b->bad ? -1 : 0;
}

int ranks_part_merge(struct ranks_part *p, const struct part_in *in)
{
	struct bytes_in *b = in->in;
	struct strtab *strings = &in->whole->strings;
	const size_t *global = in->input;
	size_t nlocal = in->ninputs;
	if (bytes_get_u8(b) != RANKS_BYTES_VERSION || merge_rows(p, global, nlocal, b))
		return -1;
	uint64_t nnames = bytes_get_count(b, 8);
	uint32_t *name = xmalloc_array(nnames ? nnames : 1, sizeof(*name));
	for (uint64_t k = 0; k < nnames && !b->bad; k++) {
		char *text = bytes_get_str(b);
		if (!text) {
			b->bad = 1;
			break;
		}
		name[k] = strtab_intern(strings, text);
		free(text);
	}
	uint64_t n = b->bad ? 0 : bytes_get_count(b, INSTANCE_BYTES);
	for (uint64_t i = 0; i < n && !b->bad; i++) {
		uint32_t k = bytes_get_u32(b), input = bytes_get_u32(b);
		struct rank_instance x = { 0, 0, bytes_get_u64(b), 0, 0 };
		x.start = bytes_get_i64(b);
		x.end = bytes_get_i64(b);
		if (k >= nnames || input >= nlocal) {
			b->bad = 1;
			break;
		}
		x.name = name[k];
		x.input = (uint32_t)global[input];
		p->inst = xgrow(p->inst, &p->icap, p->ninst + 1, sizeof(*p->inst));
		p->inst[p->ninst++] = x;
	}
	free(name);
	return b->bad ? -1 : 0;
}

/* Instances are matched with their input turned into its rank (its row
 * in the report), in place: no copy of what may be millions. */
static int by_name_rank_start(const void *a, const void *b, void *ctx)
{
	const struct rank_instance *x = a, *y = b;
	(void)ctx;
	if (x->name != y->name)
		return x->name < y->name ? -1 : 1;
	if (x->input != y->input)
		return x->input < y->input ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* The instances of one name, [lo, hi), sorted by rank then start: matched
 * when every rank has the same number c of them. Returns c, or 0. */
static size_t matched_count(const struct rank_instance *v, size_t lo, size_t hi, size_t nranks)
{
	size_t c = 0, ranks = 0;
	for (size_t k = lo; k < hi;) {
		size_t e = k;
		while (e < hi && v[e].input == v[k].input)
			e++;
		if (ranks++ == 0)
			c = e - k;
		else if (e - k != c)
			return 0;
		k = e;
	}
	return ranks == nranks ? c : 0;
}

/* Each matched instance: every rank waits for the latest start, at most
 * for its instance's duration; the latest rank is credited the waits. */
static void match_name(const struct rank_instance *v, size_t lo, size_t c, struct ranks *out)
{
	size_t nr = out->n;
	for (size_t i = 0; i < c; i++) {
		int64_t latest = INT64_MIN;
		size_t late = 0;
		for (size_t r = 0; r < nr; r++) {
			const struct rank_instance *x = &v[lo + r * c + i];
			if (x->start > latest) {
				latest = x->start;
				late = r;
			}
		}
		for (size_t r = 0; r < nr; r++) {
			const struct rank_instance *x = &v[lo + r * c + i];
			int64_t dur = sat_sub(x->end, x->start), wait = sat_sub(latest, x->start);
			wait = wait < dur ? wait : dur;
			wait = wait > 0 ? wait : 0;
			out->rows[r].comm_wait = sat_add(out->rows[r].comm_wait, wait);
			out->rows[late].waited_for = sat_add(out->rows[late].waited_for, wait);
		}
	}
	out->instances += c;
	out->collectives++;
}

static void match_collectives(const struct trace *t, struct ranks_part *p, struct ranks *out)
{
	uint32_t *rank_of = xmalloc_array(t->ninputs ? t->ninputs : 1, sizeof(*rank_of));
	for (size_t r = 0; r < out->n; r++)
		rank_of[out->rows[r].input] = (uint32_t)r;
	struct rank_instance *v = p->inst;
	size_t n = p->ninst;
	for (size_t i = 0; i < n; i++)
		v[i].input = rank_of[v[i].input];
	free(rank_of);
	sort_with(v, n, sizeof(*v), by_name_rank_start, NULL);
	for (size_t lo = 0, hi; lo < n; lo = hi) {
		for (hi = lo; hi < n && v[hi].name == v[lo].name;)
			hi++;
		size_t c = out->n > 1 ? matched_count(v, lo, hi, out->n) : 0;
		if (c)
			match_name(v, lo, c, out);
	}
}

static int by_input_name(const void *a, const void *b, void *ctx)
{
	const struct trace *t = ctx;
	const struct rank_row *x = a, *y = b;
	int c = natcmp(trace_input_name(t, x->input), trace_input_name(t, y->input));
	return c ? c : (x->input > y->input) - (x->input < y->input);
}

void ranks_part_finish(struct ranks_part *p, const struct trace *t, struct ranks *out)
{
	memset(out, 0, sizeof(*out));
	out->straggler = SIZE_MAX;
	out->rows = p->rows;
	out->n = p->n;
	p->rows = NULL;
	sort_with(out->rows, out->n, sizeof(*out->rows), by_input_name, (void *)t);
	match_collectives(t, p, out);
	for (size_t r = 0; r < out->n; r++)
		if (out->rows[r].waited_for > 0 &&
		    (out->straggler == SIZE_MAX ||
		     out->rows[r].waited_for > out->rows[out->straggler].waited_for))
			out->straggler = r;
	ranks_part_free(p);
}

/* The same figures from one trace as from the partial results of its
 * parts: the whole trace is one part. */
void ranks_per_input(const struct trace *t, const struct selection *sel, const struct filter *comm,
		     struct ranks *out)
{
	struct ranks_part p;
	ranks_part_init(&p);
	ranks_part_add(&p, t, sel, comm);
	ranks_part_finish(&p, t, out);
}

void ranks_free(struct ranks *r)
{
	free(r->rows);
	memset(r, 0, sizeof(*r));
}
