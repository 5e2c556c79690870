/* The partial results of the reports with a row per GPU: busy, idle and
 * breakdown, and the GPUs of the gaps. A GPU belongs to one node, so its
 * row is made whole by its part; the finish only makes its GPU again (in
 * the order the whole load makes GPUs: of their first ops) and puts the
 * rows in the reports' order. */
#include "config.h"
#include "batch/batch_part.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/gaps.h"
#include "present/report_waits.h"
#include "util/satmath.h"
#include "util/sort.h"
#include "util/xalloc.h"

void part_gpus_of(const struct trace *t, struct part_gpus *f)
{
	size_t n = t->ngpus ? t->ngpus : 1;
	f->offset = xmalloc_array(n, sizeof(*f->offset));
	f->input = xcalloc(n, sizeof(*f->input));
	for (size_t g = 0; g < t->ngpus; g++)
		f->offset[g] = SIZE_MAX;
	for (size_t k = t->ninputs; k-- > 0;) {
		const struct trace_input *ti = &t->inputs[k];
		for (size_t i = ti->op_first + ti->op_count; i-- > ti->op_first;) {
			f->offset[trace_op_gpu(t, i)] = i - ti->op_first;
			f->input[trace_op_gpu(t, i)] = (uint32_t)k;
		}
	}
}

void part_gpus_free(struct part_gpus *f)
{
	free(f->offset);
	free(f->input);
}

struct part_gpu part_gpu_of(const struct trace *t, const struct part_gpus *f, uint32_t gpu)
{
	return (struct part_gpu){ .input = f->input[gpu],
				  .offset = f->offset[gpu],
				  .label_input = t->gpus[gpu].input,
				  .device = t->gpus[gpu].device };
}

void part_put_gpu(struct bytes_out *b, const struct part_gpu *g)
{
	bytes_put_u32(b, (uint32_t)g->input);
	bytes_put_u64(b, g->offset);
	bytes_put_u32(b, g->label_input);
	bytes_put_i64(b, g->device);
}

int part_get_gpu(const struct part_in *in, struct part_gpu *g)
{
	struct bytes_in *r = in->in;
	uint32_t input = bytes_get_u32(r);
	uint64_t offset = bytes_get_u64(r);
	uint32_t label = bytes_get_u32(r);
	g->device = bytes_get_i64(r);
	if (r->bad || input >= in->ninputs || label >= in->ninputs)
		return r->bad = 1, -1;
	g->input = in->input[input];
	g->offset = (size_t)offset;
	g->label_input = (uint32_t)in->input[label];
	return 0;
}

struct came {
	struct part_gpu gpu;
	size_t row;
};

static int by_first_op(const void *a, const void *b)
{
	const struct part_gpu *x = &((const struct came *)a)->gpu, *y = &((const struct came *)b)->gpu;
	if (x->input != y->input)
		return x->input < y->input ? -1 : 1;
	return (x->offset > y->offset) - (x->offset < y->offset);
}

size_t *part_make_gpus(struct trace *whole, const struct part_gpu *gpus, size_t n, uint32_t *gpu)
{
	struct came *came = xmalloc_array(n ? n : 1, sizeof(*came));
	size_t *order = xmalloc_array(n ? n : 1, sizeof(*order));
	for (size_t i = 0; i < n; i++)
		came[i] = (struct came){ gpus[i], i };
	qsort(came, n, sizeof(*came), by_first_op);
	for (size_t i = 0; i < n; i++) {
		gpu[came[i].row] = trace_gpu(whole, came[i].gpu.label_input, came[i].gpu.device);
		order[i] = came[i].row;
	}
	free(came);
	return order;
}

void part_gpu_list_add(struct part_gpu_list *l, const struct part_gpu *g)
{
	l->v = xgrow(l->v, &l->cap, l->n + 1, sizeof(*l->v));
	l->v[l->n++] = *g;
}

void busy_part_init(struct busy_part *p)
{
	memset(p, 0, sizeof(*p));
}

void busy_part_free(struct busy_part *p)
{
	busy_inputs_free(&p->in);
	free(p->rows);
	free(p->gpus.v);
	memset(p, 0, sizeof(*p));
}

void busy_part_add(struct busy_part *p, const struct trace *t, const struct selection *sel)
{
	struct busy b;
	struct part_gpus f;
	busy_per_gpu(t, sel, &b);
	busy_inputs_of(t, &p->in);
	part_gpus_of(t, &f);
	/* The GPUs that ran an op, as the whole load has them. */
	for (size_t i = 0; i < b.n; i++) {
		if (!part_gpu_ran(&f, b.rows[i].gpu))
			continue;
		struct part_gpu g = part_gpu_of(t, &f, b.rows[i].gpu);
		p->rows = xgrow(p->rows, &p->cap, p->n + 1, sizeof(*p->rows));
		p->rows[p->n++] = b.rows[i];
		part_gpu_list_add(&p->gpus, &g);
	}
	part_gpus_free(&f);
	busy_free(&b);
}

void busy_part_encode(const struct busy_part *p, struct bytes_out *b)
{
	bytes_put_u64(b, p->in.ops);
	bytes_put_i64(b, p->in.first);
	bytes_put_i64(b, p->in.last);
	for (size_t k = 0; k < p->in.n; k++) {
		bytes_put_u64(b, p->in.count[k]);
		bytes_put_i64(b, p->in.from[k]);
		bytes_put_i64(b, p->in.to[k]);
	}
	bytes_put_u64(b, p->n);
	for (size_t i = 0; i < p->n; i++) {
		const struct busy_row *r = &p->rows[i];
		part_put_gpu(b, &p->gpus.v[i]);
		bytes_put_u64(b, r->ops);
		const int64_t v[] = { r->sum, r->busy, r->first, r->last, r->span_from, r->span_to };
		for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++)
			bytes_put_i64(b, v[k]);
	}
}

/* Every input's span, as busy_inputs_of gives them: the whole's inputs
 * are made on the first part. */
static void merge_busy_inputs(struct busy_inputs *all, const struct part_in *in)
{
	struct bytes_in *r = in->in;
	if (!all->count) {
		size_t n = in->whole->ninputs ? in->whole->ninputs : 1;
		all->n = in->whole->ninputs;
		all->count = xcalloc(n, sizeof(*all->count));
		all->from = xcalloc(n, sizeof(*all->from));
		all->to = xcalloc(n, sizeof(*all->to));
	}
	uint64_t ops = bytes_get_u64(r);
	int64_t first = bytes_get_i64(r), last = bytes_get_i64(r);
	if (ops && (!all->ops || first < all->first))
		all->first = first;
	if (ops && (!all->ops || last > all->last))
		all->last = last;
	all->ops += ops;
	for (size_t j = 0; j < in->ninputs; j++) {
		size_t k = in->input[j];
		all->count[k] = bytes_get_u64(r);
		all->from[k] = bytes_get_i64(r);
		all->to[k] = bytes_get_i64(r);
	}
}

int busy_part_merge(struct busy_part *p, const struct part_in *in)
{
	struct bytes_in *r = in->in;
	merge_busy_inputs(&p->in, in);
	uint64_t count = bytes_get_count(r, PART_GPU_BYTES + 7 * 8);
	for (uint64_t i = 0; i < count && !r->bad; i++) {
		struct part_gpu g;
		if (part_get_gpu(in, &g))
			break;
		part_gpu_list_add(&p->gpus, &g);
		p->rows = xgrow(p->rows, &p->cap, p->n + 1, sizeof(*p->rows));
		struct busy_row *row = &p->rows[p->n++];
		memset(row, 0, sizeof(*row));
		row->ops = bytes_get_u64(r);
		row->sum = bytes_get_i64(r);
		row->busy = bytes_get_i64(r);
		row->first = bytes_get_i64(r);
		row->last = bytes_get_i64(r);
		row->span_from = bytes_get_i64(r);
		row->span_to = bytes_get_i64(r);
	}
	return r->bad ? -1 : 0;
}

void busy_part_finish(struct busy_part *p, struct trace *whole, const struct window *window, struct busy *out)
{
	/* The rows from the whole load's order of GPUs, then sorted. */
	uint32_t *gpu = xcalloc(p->n ? p->n : 1, sizeof(*gpu));
	size_t *order = part_make_gpus(whole, p->gpus.v, p->n, gpu);
	memset(out, 0, sizeof(*out));
	out->rows = xmalloc_array(p->n ? p->n : 1, sizeof(*out->rows));
	out->n = p->n;
	for (size_t i = 0; i < p->n; i++) {
		out->rows[i] = p->rows[order[i]];
		out->rows[i].gpu = gpu[order[i]];
	}
	free(order);
	free(gpu);
	busy_set_walls(out, &p->in, window);
	busy_sort(out, whole);
	busy_part_free(p);
}

void idle_part_init(struct idle_part *p)
{
	memset(p, 0, sizeof(*p));
}

void idle_part_free(struct idle_part *p)
{
	free(p->lanes);
	free(p->gpus.v);
	memset(p, 0, sizeof(*p));
}

void idle_part_add(struct idle_part *p, const struct trace *t, const struct selection *sel, int64_t threshold)
{
	struct gaps g;
	struct part_gpus f;
	struct gaps_params gp = { .threshold = threshold, .per_queue = 0, .keep = 0 };
	gaps_find(t, sel, &gp, &g);
	part_gpus_of(t, &f);
	p->ops = t->ops.n;
	p->first = t->op_first_start;
	p->last = t->op_last_end;
	/* Every GPU that ran an op, its lane empty when the selection keeps
	 * none of them: the whole load orders its lanes among all its GPUs. */
	const struct gap_lane **lane = xcalloc(t->ngpus ? t->ngpus : 1, sizeof(*lane));
	for (size_t i = 0; i < g.nlanes; i++)
		lane[g.lanes[i].lane] = &g.lanes[i];
	for (size_t k = 0; k < t->ngpus; k++) {
		if (!part_gpu_ran(&f, (uint32_t)k))
			continue;
		static const struct gap_lane none;
		struct part_gpu pg = part_gpu_of(t, &f, (uint32_t)k);
		p->lanes = xgrow(p->lanes, &p->cap, p->n + 1, sizeof(*p->lanes));
		p->lanes[p->n++] = lane[k] ? *lane[k] : none;
		part_gpu_list_add(&p->gpus, &pg);
	}
	free(lane);
	part_gpus_free(&f);
	gaps_free(&g);
}

void idle_part_encode(const struct idle_part *p, struct bytes_out *b)
{
	bytes_put_u64(b, p->ops);
	bytes_put_i64(b, p->first);
	bytes_put_i64(b, p->last);
	bytes_put_u64(b, p->n);
	for (size_t i = 0; i < p->n; i++) {
		const struct gap_lane *l = &p->lanes[i];
		part_put_gpu(b, &p->gpus.v[i]);
		bytes_put_u64(b, l->ops);
		bytes_put_i64(b, l->first);
		bytes_put_i64(b, l->last);
		bytes_put_i64(b, l->busy);
		bytes_put_u64(b, l->ngaps);
		for (int c = 0; c < GAP_NCAUSES; c++)
			bytes_put_i64(b, l->cause_ns[c]);
		bytes_put_i64(b, l->max_gap);
		for (int h = 0; h < GAPS_NBUCKETS; h++)
			bytes_put_u64(b, l->hist[h]);
	}
}

int idle_part_merge(struct idle_part *p, const struct part_in *in)
{
	struct bytes_in *r = in->in;
	uint64_t ops = bytes_get_u64(r);
	int64_t first = bytes_get_i64(r), last = bytes_get_i64(r);
	if (ops && (!p->ops || first < p->first))
		p->first = first;
	if (ops && (!p->ops || last > p->last))
		p->last = last;
	p->ops += ops;
	uint64_t count = bytes_get_count(r, PART_GPU_BYTES + 8 * (6 + GAP_NCAUSES + GAPS_NBUCKETS));
	for (uint64_t i = 0; i < count && !r->bad; i++) {
		struct part_gpu g;
		if (part_get_gpu(in, &g))
			break;
		part_gpu_list_add(&p->gpus, &g);
		p->lanes = xgrow(p->lanes, &p->cap, p->n + 1, sizeof(*p->lanes));
		struct gap_lane *l = &p->lanes[p->n++];
		memset(l, 0, sizeof(*l));
		l->ops = bytes_get_u64(r);
		l->first = bytes_get_i64(r);
		l->last = bytes_get_i64(r);
		l->busy = bytes_get_i64(r);
		l->ngaps = bytes_get_u64(r);
		for (int c = 0; c < GAP_NCAUSES; c++)
			l->cause_ns[c] = bytes_get_i64(r);
		l->max_gap = bytes_get_i64(r);
		for (int h = 0; h < GAPS_NBUCKETS; h++)
			l->hist[h] = bytes_get_u64(r);
	}
	return r->bad ? -1 : 0;
}

/* The lanes in the idle report's order: by GPU (trace_gpu_cmp), then by
 * index, as lane_ops_report_order sorts them. */
static int by_lane_gpu(const void *a, const void *b, void *ctx)
{
	const struct trace *t = ctx;
	uint32_t x = ((const struct gap_lane *)a)->lane, y = ((const struct gap_lane *)b)->lane;
	int c = trace_gpu_cmp(t, x, y);
	return c ? c : (x > y) - (x < y);
}

void idle_part_finish(struct idle_part *p, struct trace *whole, const struct window *window, struct gaps *out)
{
	memset(out, 0, sizeof(*out));
	if (p->ops) {
		out->range_start = p->first;
		out->range_end = p->last;
	}
	if (window && window->active) {
		out->range_start = window->start;
		out->range_end = window->end;
	}
	uint32_t *gpu = xcalloc(p->n ? p->n : 1, sizeof(*gpu));
	size_t *order = part_make_gpus(whole, p->gpus.v, p->n, gpu);
	out->lanes = xcalloc(p->n ? p->n : 1, sizeof(*out->lanes));
	for (size_t i = 0; i < p->n; i++) {
		out->lanes[i] = p->lanes[order[i]];
		out->lanes[i].lane = gpu[order[i]];
	}
	sort_with(out->lanes, p->n, sizeof(*out->lanes), by_lane_gpu, whole);
	/* Lanes of no op in the selection are not listed. */
	for (size_t i = 0; i < p->n; i++) {
		struct gap_lane *l = &out->lanes[i];
		if (!l->ops)
			continue;
		l->leading = l->first - out->range_start;
		l->trailing = out->range_end - l->last;
		out->lanes[out->nlanes++] = *l;
	}
	free(order);
	free(gpu);
	idle_part_free(p);
}

static void put_double(struct bytes_out *b, double v)
{
	uint64_t bits;
	memcpy(&bits, &v, sizeof(bits));
	bytes_put_u64(b, bits);
}

static double get_double(struct bytes_in *b)
{
	uint64_t bits = bytes_get_u64(b);
	double v;
	memcpy(&v, &bits, sizeof(v));
	return v;
}

void breakdown_part_init(struct breakdown_part *p)
{
	memset(p, 0, sizeof(*p));
}

void breakdown_part_free(struct breakdown_part *p)
{
	free(p->rows);
	free(p->gpus.v);
	memset(p, 0, sizeof(*p));
}

static void add_breakdown_row(struct breakdown_part *p, const struct breakdown_row *r, int present,
			      const struct part_gpu *g)
{
	p->rows = xgrow(p->rows, &p->cap, p->n + 1, sizeof(*p->rows));
	p->rows[p->n].row = *r;
	p->rows[p->n++].present = present;
	part_gpu_list_add(&p->gpus, g);
}

void breakdown_part_add(struct breakdown_part *p, const struct trace *t, const struct selection *sel,
			const struct filter *comm)
{
	struct breakdown bd;
	struct part_gpus f;
	breakdown_per_gpu(t, sel, comm, &bd);
	part_gpus_of(t, &f);
	/* Every GPU that ran an op, with its row when it has one. */
	const struct breakdown_row **row = xcalloc(t->ngpus ? t->ngpus : 1, sizeof(*row));
	for (size_t i = 0; i < bd.n; i++)
		row[bd.rows[i].gpu] = &bd.rows[i];
	for (size_t k = 0; k < t->ngpus; k++) {
		if (!part_gpu_ran(&f, (uint32_t)k))
			continue;
		static const struct breakdown_row none;
		struct part_gpu g = part_gpu_of(t, &f, (uint32_t)k);
		add_breakdown_row(p, row[k] ? row[k] : &none, row[k] != NULL, &g);
	}
	free(row);
	part_gpus_free(&f);
	breakdown_free(&bd);
}

void breakdown_part_encode(const struct breakdown_part *p, struct bytes_out *b)
{
	bytes_put_u64(b, p->n);
	for (size_t i = 0; i < p->n; i++) {
		const struct breakdown_row *r = &p->rows[i].row;
		part_put_gpu(b, &p->gpus.v[i]);
		bytes_put_u8(b, (uint8_t)p->rows[i].present);
		const int64_t v[] = { r->span, r->compute,      r->comm,        r->copy,
				      r->idle, r->exposed_comm, r->exposed_copy };
		for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++)
			bytes_put_i64(b, v[k]);
		put_double(b, r->overlap_ratio);
	}
}

int breakdown_part_merge(struct breakdown_part *p, const struct part_in *in)
{
	struct bytes_in *r = in->in;
	uint64_t count = bytes_get_count(r, PART_GPU_BYTES + 1 + 8 * 8);
	for (uint64_t i = 0; i < count && !r->bad; i++) {
		struct part_gpu g;
		struct breakdown_row row = { 0 };
		if (part_get_gpu(in, &g))
			break;
		int present = bytes_get_u8(r);
		row.span = bytes_get_i64(r);
		row.compute = bytes_get_i64(r);
		row.comm = bytes_get_i64(r);
		row.copy = bytes_get_i64(r);
		row.idle = bytes_get_i64(r);
		row.exposed_comm = bytes_get_i64(r);
		row.exposed_copy = bytes_get_i64(r);
		row.overlap_ratio = get_double(r);
		add_breakdown_row(p, &row, present, &g);
	}
	return r->bad ? -1 : 0;
}

static int by_row_gpu(const void *a, const void *b, void *ctx)
{
	const struct trace *t = ctx;
	uint32_t x = ((const struct breakdown_part_row *)a)->row.gpu,
		 y = ((const struct breakdown_part_row *)b)->row.gpu;
	int c = trace_gpu_cmp(t, x, y);
	return c ? c : (x > y) - (x < y);
}

void breakdown_part_finish(struct breakdown_part *p, struct trace *whole, struct breakdown *out)
{
	uint32_t *gpu = xcalloc(p->n ? p->n : 1, sizeof(*gpu));
	size_t *order = part_make_gpus(whole, p->gpus.v, p->n, gpu);
	struct breakdown_part_row *sorted = xcalloc(p->n ? p->n : 1, sizeof(*sorted));
	for (size_t i = 0; i < p->n; i++) {
		sorted[i] = p->rows[order[i]];
		sorted[i].row.gpu = gpu[order[i]];
	}
	/* In the report's order of lanes, those with a row. */
	sort_with(sorted, p->n, sizeof(*sorted), by_row_gpu, whole);
	memset(out, 0, sizeof(*out));
	out->rows = xcalloc(p->n ? p->n : 1, sizeof(*out->rows));
	for (size_t i = 0; i < p->n; i++)
		if (sorted[i].present)
			out->rows[out->n++] = sorted[i].row;
	free(sorted);
	free(order);
	free(gpu);
	breakdown_part_free(p);
}

void gaps_part_init(struct gaps_part *p)
{
	memset(p, 0, sizeof(*p));
}

void gaps_part_free(struct gaps_part *p)
{
	free(p->gaps);
	free(p->names);
	free(p->gpus.v);
	gap_names_free(&p->made);
	memset(p, 0, sizeof(*p));
}

void gaps_part_add(struct gaps_part *p, const struct trace *t, const struct selection *sel,
		   const struct gaps_params *gp, const struct api_order *order)
{
	struct gaps g;
	struct part_gpus f;
	gaps_find(t, sel, gp, &g);
	gap_names_find(t, order, &g, &p->made);
	part_gpus_of(t, &f);
	p->total = g.total;
	p->idle = gaps_idle_time(&g);
	/* Every GPU that ran an op (the order of gaps of equal length and
	 * start is that of their GPUs among all of them). */
	uint32_t *at = xmalloc_array(t->ngpus ? t->ngpus : 1, sizeof(*at));
	for (size_t k = 0; k < t->ngpus; k++) {
		if (!part_gpu_ran(&f, (uint32_t)k))
			continue;
		struct part_gpu pg = part_gpu_of(t, &f, (uint32_t)k);
		at[k] = (uint32_t)p->gpus.n;
		part_gpu_list_add(&p->gpus, &pg);
	}
	for (size_t i = 0; i < g.n; i++)
		g.gaps[i].lane = at[g.gaps[i].lane];
	p->gaps = g.gaps;
	p->n = p->cap = g.n;
	g.gaps = NULL;
	free(at);
	part_gpus_free(&f);
	gaps_free(&g);
}

/* The names a part's gaps refer to, each once: local index by string id. */
struct name_list {
	uint32_t *index; /* by string id, UINT32_MAX: not listed */
	uint32_t *ids;
	size_t n, cap;
};

static uint32_t list_name(struct name_list *l, uint32_t id)
{
	if (id == TRACE_NONE)
		return UINT32_MAX;
	if (l->index[id] == UINT32_MAX) {
		l->ids = xgrow(l->ids, &l->cap, l->n + 1, sizeof(*l->ids));
		l->ids[l->n] = id;
		l->index[id] = (uint32_t)l->n++;
	}
	return l->index[id];
}

void gaps_part_encode(struct gaps_part *p, const struct trace *t, struct bytes_out *b)
{
	gap_names_answered(&p->made);
	bytes_put_u64(b, p->total);
	bytes_put_i64(b, p->idle);
	bytes_put_u64(b, p->gpus.n);
	for (size_t k = 0; k < p->gpus.n; k++)
		part_put_gpu(b, &p->gpus.v[k]);
	struct name_list names = { .index = xmalloc_array(t->strings.count ? t->strings.count : 1, 4) };
	memset(names.index, 0xff, t->strings.count * sizeof(*names.index));
	uint32_t *ref = xmalloc_array(3 * (p->n ? p->n : 1), sizeof(*ref));
	for (size_t i = 0; i < p->n; i++) {
		ref[3 * i] = list_name(&names, p->made.before[i]);
		ref[3 * i + 1] = list_name(&names, p->made.after[i]);
		ref[3 * i + 2] = list_name(&names, p->made.cpu[i]);
	}
	bytes_put_u64(b, names.n);
	for (size_t i = 0; i < names.n; i++)
		bytes_put_str(b, trace_str(t, names.ids[i]));
	bytes_put_u64(b, p->n);
	for (size_t i = 0; i < p->n; i++) {
		const struct gap *x = &p->gaps[i];
		bytes_put_u32(b, x->lane);
		bytes_put_i64(b, x->start);
		bytes_put_i64(b, x->end);
		bytes_put_u8(b, (uint8_t)x->cause);
		for (int k = 0; k < 3; k++)
			bytes_put_u32(b, ref[3 * i + k]);
	}
	free(ref);
	free(names.index);
	free(names.ids);
}

/* The names of a part, interned in the whole's strings (*n of them). */
static uint32_t *merge_gap_names(const struct part_in *in, uint64_t *n)
{
	struct bytes_in *r = in->in;
	*n = bytes_get_count(r, 8);
	uint32_t *id = xmalloc_array(*n ? *n : 1, sizeof(*id));
	for (uint64_t i = 0; i < *n && !r->bad; i++) {
		char *s = bytes_get_str(r);
		id[i] = s ? strtab_intern(&in->whole->strings, s) : 0;
		r->bad |= !s;
		free(s);
	}
	return id;
}

int gaps_part_merge(struct gaps_part *p, const struct part_in *in)
{
	struct bytes_in *r = in->in;
	p->total += bytes_get_u64(r);
	p->idle = sat_add(p->idle, bytes_get_i64(r));
	size_t base = p->gpus.n;
	uint64_t ngpus = bytes_get_count(r, PART_GPU_BYTES);
	for (uint64_t i = 0; i < ngpus && !r->bad; i++) {
		struct part_gpu pg;
		if (part_get_gpu(in, &pg))
			return -1;
		part_gpu_list_add(&p->gpus, &pg);
	}
	uint64_t nnames;
	uint32_t *id = merge_gap_names(in, &nnames);
	uint64_t n = bytes_get_count(r, 4 + 8 + 8 + 1 + 12);
	for (uint64_t i = 0; i < n && !r->bad; i++) {
		p->gaps = xgrow(p->gaps, &p->cap, p->n + 1, sizeof(*p->gaps));
		p->names = xgrow(p->names, &p->ncap, p->n + 1, sizeof(*p->names));
		struct gap *x = &p->gaps[p->n];
		uint32_t lane = bytes_get_u32(r);
		x->start = bytes_get_i64(r);
		x->end = bytes_get_i64(r);
		x->cause = (enum gap_cause)bytes_get_u8(r);
		for (int k = 0; k < 3; k++) {
			uint32_t ref = bytes_get_u32(r);
			r->bad |= ref != UINT32_MAX && ref >= nnames;
			p->names[p->n][k] = ref == UINT32_MAX || r->bad ? TRACE_NONE : id[ref];
		}
		r->bad |= lane >= ngpus || x->cause >= GAP_NCAUSES;
		x->lane = (uint32_t)(base + lane); /* a GPU as it came, for now */
		p->n++;
	}
	free(id);
	return r->bad ? -1 : 0;
}

struct gap_order {
	const struct gap *gaps;
	const uint32_t *rank; /* of each GPU of the whole */
};

/* Longest first, then by start, then by the GPU's place in the report's
 * order of GPUs (gaps.c's order). */
static int by_gap(const void *a, const void *b, void *ctx)
{
	const struct gap_order *o = ctx;
	const struct gap *x = &o->gaps[*(const size_t *)a], *y = &o->gaps[*(const size_t *)b];
	int64_t lx = sat_sub(x->end, x->start), ly = sat_sub(y->end, y->start);
	if (lx != ly)
		return lx > ly ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (o->rank[x->lane] > o->rank[y->lane]) - (o->rank[x->lane] < o->rank[y->lane]);
}

static int by_gpu_index(const void *a, const void *b, void *ctx)
{
	const struct trace *t = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int c = trace_gpu_cmp(t, x, y);
	return c ? c : (x > y) - (x < y);
}

/* Each GPU's place in the report's order (lane_ops_report_order). */
static uint32_t *gpu_ranks(const struct trace *t)
{
	size_t n = t->ngpus ? t->ngpus : 1;
	uint32_t *order = xmalloc_array(n, sizeof(*order)), *rank = xmalloc_array(n, sizeof(*rank));
	for (size_t k = 0; k < t->ngpus; k++)
		order[k] = (uint32_t)k;
	sort_with(order, t->ngpus, sizeof(*order), by_gpu_index, (void *)t);
	for (size_t i = 0; i < t->ngpus; i++)
		rank[order[i]] = (uint32_t)i;
	free(order);
	return rank;
}

int64_t gaps_part_finish(struct gaps_part *p, struct trace *whole, size_t limit, struct gaps *out,
			 struct gap_names *names)
{
	uint32_t *gpu = xcalloc(p->gpus.n ? p->gpus.n : 1, sizeof(*gpu));
	free(part_make_gpus(whole, p->gpus.v, p->gpus.n, gpu));
	for (size_t i = 0; i < p->n; i++)
		p->gaps[i].lane = gpu[p->gaps[i].lane];
	uint32_t *rank = gpu_ranks(whole);
	size_t *order = xmalloc_array(p->n ? p->n : 1, sizeof(*order));
	for (size_t i = 0; i < p->n; i++)
		order[i] = i;
	struct gap_order o = { p->gaps, rank };
	sort_with(order, p->n, sizeof(*order), by_gap, &o);
	size_t keep = limit && limit < p->n ? limit : p->n;
	memset(out, 0, sizeof(*out));
	memset(names, 0, sizeof(*names));
	out->gaps = xmalloc_array(keep ? keep : 1, sizeof(*out->gaps));
	out->n = keep;
	out->total = p->total;
	names->before = xmalloc_array(keep ? keep : 1, sizeof(uint32_t));
	names->after = xmalloc_array(keep ? keep : 1, sizeof(uint32_t));
	names->cpu = xmalloc_array(keep ? keep : 1, sizeof(uint32_t));
	for (size_t i = 0; i < keep; i++) {
		out->gaps[i] = p->gaps[order[i]];
		names->before[i] = p->names[order[i]][0];
		names->after[i] = p->names[order[i]][1];
		names->cpu[i] = p->names[order[i]][2];
	}
	int64_t idle = p->idle;
	free(order);
	free(rank);
	free(gpu);
	gaps_part_free(p);
	return idle;
}
