/* The partial results of the reports with a row per GPU: busy and idle.
 * A GPU belongs to one node, so its row is made whole by its group; the
 * finish only makes its GPU again (in the order the whole load makes
 * GPUs: of their first ops) and puts the rows in the reports' order. */
#include "config.h"
#include "batch/batch_part.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/gaps.h"
#include "present/report_waits.h"
#include "util/satmath.h"
#include "util/sort.h"
#include "util/xalloc.h"

/* Where each GPU of t runs its first op: the input and the op's place in
 * it (SIZE_MAX: it runs none). */
struct gpu_firsts {
	size_t *offset;
	uint32_t *input;
};

static void gpu_firsts_of(const struct trace *t, struct gpu_firsts *f)
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

static void gpu_firsts_free(struct gpu_firsts *f)
{
	free(f->offset);
	free(f->input);
}

static void put_gpu(struct bytes_out *b, const struct trace *t, const struct gpu_firsts *f, uint32_t gpu)
{
	bytes_put_u32(b, f->input[gpu]);
	bytes_put_u64(b, f->offset[gpu]);
	bytes_put_u32(b, t->gpus[gpu].input);
	bytes_put_i64(b, t->gpus[gpu].device);
}

#define GPU_BYTES (4 + 8 + 4 + 8)

/* A row's GPU as it came: its first op (input in skel, place in it), the
 * input it is labelled by and its number. */
struct gpu_came {
	size_t input, offset;
	uint32_t label_input;
	int64_t device;
	size_t row; /* the row it came with */
};

static int get_gpu(struct merge_state *m, size_t g, struct gpu_came *c)
{
	struct bytes_in *r = &m->in[g];
	uint32_t input = bytes_get_u32(r);
	uint64_t offset = bytes_get_u64(r);
	uint32_t label = bytes_get_u32(r);
	c->device = bytes_get_i64(r);
	if (r->bad || input >= m->nlocal[g] || label >= m->nlocal[g])
		return r->bad = 1, -1;
	c->input = m->global[g][input];
	c->offset = (size_t)offset;
	c->label_input = (uint32_t)m->global[g][label];
	return 0;
}

static int by_first_op(const void *a, const void *b)
{
	const struct gpu_came *x = a, *y = b;
	if (x->input != y->input)
		return x->input < y->input ? -1 : 1;
	return (x->offset > y->offset) - (x->offset < y->offset);
}

/* Make the GPUs in skel in the whole load's order; gpu[c.row] their
 * indices. Returns the rows' order: by GPU index. */
static size_t *make_gpus(struct merge_state *m, struct gpu_came *came, size_t n, uint32_t *gpu)
{
	size_t *order = xmalloc_array(n ? n : 1, sizeof(*order));
	qsort(came, n, sizeof(*came), by_first_op);
	for (size_t i = 0; i < n; i++) {
		gpu[came[i].row] = trace_gpu(&m->skel, came[i].label_input, came[i].device);
		order[i] = came[i].row;
	}
	return order;
}

void batch_put_busy(const struct trace *t, const struct selection *sel, struct bytes_out *b)
{
	struct busy bz;
	struct busy_inputs in;
	struct gpu_firsts f;
	busy_per_gpu(t, sel, &bz);
	busy_inputs_of(t, &in);
	gpu_firsts_of(t, &f);
	bytes_put_u64(b, in.ops);
	bytes_put_i64(b, in.first);
	bytes_put_i64(b, in.last);
	for (size_t k = 0; k < in.n; k++) {
		bytes_put_u64(b, in.count[k]);
		bytes_put_i64(b, in.from[k]);
		bytes_put_i64(b, in.to[k]);
	}
	/* The GPUs that ran an op, as the whole load has them. */
	uint64_t n = 0;
	for (size_t i = 0; i < bz.n; i++)
		n += f.offset[bz.rows[i].gpu] != SIZE_MAX;
	bytes_put_u64(b, n);
	for (size_t i = 0; i < bz.n; i++) {
		const struct busy_row *r = &bz.rows[i];
		if (f.offset[r->gpu] == SIZE_MAX)
			continue;
		put_gpu(b, t, &f, r->gpu);
		bytes_put_u64(b, r->ops);
		const int64_t v[] = { r->sum, r->busy, r->first, r->last, r->span_from, r->span_to };
		for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++)
			bytes_put_i64(b, v[k]);
	}
	gpu_firsts_free(&f);
	busy_inputs_free(&in);
	busy_free(&bz);
}

/* Every input's span, as busy_inputs_of gives them. */
static void read_busy_inputs(struct merge_state *m, size_t g, struct busy_inputs *in)
{
	struct bytes_in *r = &m->in[g];
	uint64_t ops = bytes_get_u64(r);
	int64_t first = bytes_get_i64(r), last = bytes_get_i64(r);
	if (ops && (!in->ops || first < in->first))
		in->first = first;
	if (ops && (!in->ops || last > in->last))
		in->last = last;
	in->ops += ops;
	for (size_t j = 0; j < m->nlocal[g]; j++) {
		size_t k = m->global[g][j];
		in->count[k] = bytes_get_u64(r);
		in->from[k] = bytes_get_i64(r);
		in->to[k] = bytes_get_i64(r);
	}
}

static void read_busy_rows(struct merge_state *m, size_t g, struct busy *b, struct gpu_came **came,
			   size_t *cap, size_t *ccap)
{
	struct bytes_in *r = &m->in[g];
	uint64_t count = bytes_get_count(r, GPU_BYTES + 7 * 8);
	for (uint64_t i = 0; i < count && !r->bad; i++) {
		*came = xgrow(*came, ccap, b->n + 1, sizeof(**came));
		b->rows = xgrow(b->rows, cap, b->n + 1, sizeof(*b->rows));
		if (get_gpu(m, g, &(*came)[b->n]))
			break;
		(*came)[b->n].row = b->n;
		struct busy_row *row = &b->rows[b->n++];
		row->ops = bytes_get_u64(r);
		row->sum = bytes_get_i64(r);
		row->busy = bytes_get_i64(r);
		row->first = bytes_get_i64(r);
		row->last = bytes_get_i64(r);
		row->span_from = bytes_get_i64(r);
		row->span_to = bytes_get_i64(r);
	}
}

int batch_merge_busy(const struct batch_plan *plan, struct merge_state *m, struct busy *b,
		     struct rpd_error *err)
{
	struct busy_inputs in = { .n = m->skel.ninputs };
	size_t n = in.n ? in.n : 1, cap = 0, ccap = 0;
	struct gpu_came *came = NULL;
	in.count = xcalloc(n, sizeof(*in.count));
	in.from = xcalloc(n, sizeof(*in.from));
	in.to = xcalloc(n, sizeof(*in.to));
	memset(b, 0, sizeof(*b));
	int rc = 0;
	for (size_t g = 0; g < plan->ngroups && rc == 0; g++) {
		read_busy_inputs(m, g, &in);
		read_busy_rows(m, g, b, &came, &cap, &ccap);
		rc = m->in[g].bad ? batch_bad_part(g, err) : 0;
	}
	if (rc == 0) {
		/* The rows from the whole load's order of GPUs, then sorted. */
		uint32_t *gpu = xcalloc(b->n ? b->n : 1, sizeof(*gpu));
		size_t *order = make_gpus(m, came, b->n, gpu);
		struct busy_row *rows = xmalloc_array(b->n ? b->n : 1, sizeof(*rows));
		for (size_t i = 0; i < b->n; i++) {
			rows[i] = b->rows[order[i]];
			rows[i].gpu = gpu[order[i]];
		}
		free(b->rows);
		b->rows = rows;
		free(order);
		free(gpu);
		busy_set_walls(b, &in, &m->window);
		busy_sort(b, &m->skel);
	}
	free(came);
	busy_inputs_free(&in);
	return rc;
}

void batch_put_idle(const struct trace *t, const struct selection *sel, const struct batch_request *req,
		    struct bytes_out *b)
{
	struct gaps g;
	struct gpu_firsts f;
	struct gaps_params gp = { .threshold = req->gap_threshold, .per_queue = 0, .keep = 0 };
	gaps_find(t, sel, &gp, &g);
	gpu_firsts_of(t, &f);
	bytes_put_u64(b, t->ops.n);
	bytes_put_i64(b, t->op_first_start);
	bytes_put_i64(b, t->op_last_end);
	/* Every GPU that ran an op, its lane empty when the selection keeps
	 * none of them: the whole load orders its lanes among all its GPUs. */
	const struct gap_lane **lane = xcalloc(t->ngpus ? t->ngpus : 1, sizeof(*lane));
	uint64_t n = 0;
	for (size_t i = 0; i < g.nlanes; i++)
		lane[g.lanes[i].lane] = &g.lanes[i];
	for (size_t k = 0; k < t->ngpus; k++)
		n += f.offset[k] != SIZE_MAX;
	bytes_put_u64(b, n);
	for (size_t k = 0; k < t->ngpus; k++) {
		if (f.offset[k] == SIZE_MAX)
			continue;
		static const struct gap_lane none;
		const struct gap_lane *l = lane[k] ? lane[k] : &none;
		put_gpu(b, t, &f, (uint32_t)k);
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
	free(lane);
	gpu_firsts_free(&f);
	gaps_free(&g);
}

static void read_lanes(struct merge_state *m, size_t g, struct gap_lane **lanes, size_t *n, size_t *cap,
		       struct gpu_came **came, size_t *ccap)
{
	struct bytes_in *r = &m->in[g];
	uint64_t count = bytes_get_count(r, GPU_BYTES + 8 * (6 + GAP_NCAUSES + GAPS_NBUCKETS));
	for (uint64_t i = 0; i < count && !r->bad; i++) {
		*came = xgrow(*came, ccap, *n + 1, sizeof(**came));
		*lanes = xgrow(*lanes, cap, *n + 1, sizeof(**lanes));
		if (get_gpu(m, g, &(*came)[*n]))
			break;
		(*came)[*n].row = *n;
		struct gap_lane *l = &(*lanes)[(*n)++];
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

int batch_idle_table(const struct batch_plan *plan, struct merge_state *m, const struct report_params *rp,
		     struct table *tb, struct rpd_error *err)
{
	struct gaps g = { 0 };
	struct gpu_came *came = NULL;
	struct gap_lane *lanes = NULL;
	size_t n = 0, cap = 0, ccap = 0;
	uint64_t ops = 0;
	int rc = 0;
	for (size_t k = 0; k < plan->ngroups && rc == 0; k++) {
		struct bytes_in *r = &m->in[k];
		uint64_t o = bytes_get_u64(r);
		int64_t first = bytes_get_i64(r), last = bytes_get_i64(r);
		if (o && (!ops || first < g.range_start))
			g.range_start = first;
		if (o && (!ops || last > g.range_end))
			g.range_end = last;
		ops += o;
		read_lanes(m, k, &lanes, &n, &cap, &came, &ccap);
		rc = r->bad ? batch_bad_part(k, err) : 0;
	}
	if (m->window.active) {
		g.range_start = m->window.start;
		g.range_end = m->window.end;
	}
	if (rc == 0) {
		uint32_t *gpu = xcalloc(n ? n : 1, sizeof(*gpu));
		size_t *order = make_gpus(m, came, n, gpu);
		g.lanes = xcalloc(n ? n : 1, sizeof(*g.lanes));
		for (size_t i = 0; i < n; i++) {
			g.lanes[i] = lanes[order[i]];
			g.lanes[i].lane = gpu[order[i]];
		}
		sort_with(g.lanes, n, sizeof(*g.lanes), by_lane_gpu, &m->skel);
		/* Lanes of no op in the selection are not listed. */
		for (size_t i = 0; i < n; i++) {
			struct gap_lane *l = &g.lanes[i];
			if (!l->ops)
				continue;
			l->leading = l->first - g.range_start;
			l->trailing = g.range_end - l->last;
			g.lanes[g.nlanes++] = *l;
		}
		report_idle_table(&m->skel, rp, &g, tb);
		free(order);
		free(gpu);
	}
	free(g.lanes);
	free(lanes);
	free(came);
	return rc;
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

void batch_put_breakdown(const struct trace *t, const struct selection *sel, const struct filter *comm,
			 struct bytes_out *b)
{
	struct breakdown bd;
	struct gpu_firsts f;
	breakdown_per_gpu(t, sel, comm, &bd);
	gpu_firsts_of(t, &f);
	/* Every GPU that ran an op, with its row when it has one. */
	const struct breakdown_row **row = xcalloc(t->ngpus ? t->ngpus : 1, sizeof(*row));
	uint64_t n = 0;
	for (size_t i = 0; i < bd.n; i++)
		row[bd.rows[i].gpu] = &bd.rows[i];
	for (size_t k = 0; k < t->ngpus; k++)
		n += f.offset[k] != SIZE_MAX;
	bytes_put_u64(b, n);
	for (size_t k = 0; k < t->ngpus; k++) {
		if (f.offset[k] == SIZE_MAX)
			continue;
		static const struct breakdown_row none;
		const struct breakdown_row *r = row[k] ? row[k] : &none;
		put_gpu(b, t, &f, (uint32_t)k);
		bytes_put_u8(b, row[k] != NULL);
		const int64_t v[] = { r->span, r->compute,      r->comm,        r->copy,
				      r->idle, r->exposed_comm, r->exposed_copy };
		for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
			bytes_put_i64(b, v[i]);
		put_double(b, r->overlap_ratio);
	}
	free(row);
	gpu_firsts_free(&f);
	breakdown_free(&bd);
}

/* A breakdown row as it came: whether the GPU has one. */
struct breakdown_came {
	struct breakdown_row row;
	int present;
};

static void read_breakdown(struct merge_state *m, size_t g, struct breakdown_came **rows, size_t *n,
			   size_t *cap, struct gpu_came **came, size_t *ccap)
{
	struct bytes_in *r = &m->in[g];
	uint64_t count = bytes_get_count(r, GPU_BYTES + 1 + 8 * 8);
	for (uint64_t i = 0; i < count && !r->bad; i++) {
		*came = xgrow(*came, ccap, *n + 1, sizeof(**came));
		*rows = xgrow(*rows, cap, *n + 1, sizeof(**rows));
		if (get_gpu(m, g, &(*came)[*n]))
			break;
		(*came)[*n].row = *n;
		struct breakdown_came *c = &(*rows)[(*n)++];
		c->present = bytes_get_u8(r);
		c->row.span = bytes_get_i64(r);
		c->row.compute = bytes_get_i64(r);
		c->row.comm = bytes_get_i64(r);
		c->row.copy = bytes_get_i64(r);
		c->row.idle = bytes_get_i64(r);
		c->row.exposed_comm = bytes_get_i64(r);
		c->row.exposed_copy = bytes_get_i64(r);
		c->row.overlap_ratio = get_double(r);
	}
}

static int by_row_gpu(const void *a, const void *b, void *ctx)
{
	const struct trace *t = ctx;
	uint32_t x = ((const struct breakdown_came *)a)->row.gpu,
		 y = ((const struct breakdown_came *)b)->row.gpu;
	int c = trace_gpu_cmp(t, x, y);
	return c ? c : (x > y) - (x < y);
}

int batch_breakdown_table(const struct batch_plan *plan, struct merge_state *m,
			  const struct report_params *rp, struct table *tb, struct rpd_error *err)
{
	struct breakdown_came *rows = NULL, *sorted = NULL;
	struct gpu_came *came = NULL;
	size_t n = 0, cap = 0, ccap = 0;
	int rc = 0;
	for (size_t k = 0; k < plan->ngroups && rc == 0; k++) {
		read_breakdown(m, k, &rows, &n, &cap, &came, &ccap);
		rc = m->in[k].bad ? batch_bad_part(k, err) : 0;
	}
	if (rc == 0) {
		uint32_t *gpu = xcalloc(n ? n : 1, sizeof(*gpu));
		size_t *order = make_gpus(m, came, n, gpu);
		sorted = xcalloc(n ? n : 1, sizeof(*sorted));
		for (size_t i = 0; i < n; i++) {
			sorted[i] = rows[order[i]];
			sorted[i].row.gpu = gpu[order[i]];
		}
		/* In the report's order of lanes, those with a row. */
		sort_with(sorted, n, sizeof(*sorted), by_row_gpu, &m->skel);
		struct breakdown bd = { .rows = xcalloc(n ? n : 1, sizeof(*bd.rows)) };
		for (size_t i = 0; i < n; i++)
			if (sorted[i].present)
				bd.rows[bd.n++] = sorted[i].row;
		report_breakdown_table(&m->skel, rp, &bd, tb);
		breakdown_free(&bd);
		free(order);
		free(gpu);
	}
	free(sorted);
	free(rows);
	free(came);
	return rc;
}

/* The names a group's gaps refer to, each once: local index by string id. */
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

int batch_put_gaps(const struct trace *t, const struct selection *sel, const struct batch_request *req,
		   const struct report_params *rp, struct bytes_out *b, struct rpd_error *err)
{
	struct gaps g;
	struct gpu_firsts f;
	struct gaps_params gp = { .threshold = req->gap_threshold,
				  .per_queue = 0,
				  .keep = req->limit ? req->limit : SIZE_MAX };
	gaps_find(t, sel, &gp, &g);
	uint32_t *cpu = xmalloc_array(g.n ? g.n : 1, sizeof(*cpu));
	/* The loader's question fails with its reason in err (probe_ctx). */
	(void)err;
	if (report_gaps_cpu(t, rp, &g, cpu)) {
		free(cpu);
		gaps_free(&g);
		return -1;
	}
	gpu_firsts_of(t, &f);
	bytes_put_u64(b, g.total);
	bytes_put_i64(b, report_gaps_idle(&g));
	/* Every GPU that ran an op (the order of gaps of equal length and
	 * start is that of their GPUs among all of them). */
	uint32_t *at = xmalloc_array(t->ngpus ? t->ngpus : 1, sizeof(*at));
	uint64_t n = 0;
	for (size_t k = 0; k < t->ngpus; k++)
		n += f.offset[k] != SIZE_MAX;
	bytes_put_u64(b, n);
	n = 0;
	for (size_t k = 0; k < t->ngpus; k++) {
		if (f.offset[k] == SIZE_MAX)
			continue;
		at[k] = (uint32_t)n++;
		put_gpu(b, t, &f, (uint32_t)k);
	}
	struct name_list names = { .index = xmalloc_array(t->strings.count ? t->strings.count : 1, 4) };
	memset(names.index, 0xff, t->strings.count * sizeof(*names.index));
	uint32_t *ref = xmalloc_array(3 * (g.n ? g.n : 1), sizeof(*ref));
	for (size_t i = 0; i < g.n; i++) {
		ref[3 * i] = list_name(&names, t->ops.name[g.gaps[i].before]);
		ref[3 * i + 1] = list_name(&names, t->ops.name[g.gaps[i].after]);
		ref[3 * i + 2] = list_name(&names, cpu[i]);
	}
	bytes_put_u64(b, names.n);
	for (size_t i = 0; i < names.n; i++)
		bytes_put_str(b, trace_str(t, names.ids[i]));
	bytes_put_u64(b, g.n);
	for (size_t i = 0; i < g.n; i++) {
		const struct gap *x = &g.gaps[i];
		bytes_put_u32(b, at[x->lane]);
		bytes_put_i64(b, x->start);
		bytes_put_i64(b, x->end);
		bytes_put_u8(b, (uint8_t)x->cause);
		for (int k = 0; k < 3; k++)
			bytes_put_u32(b, ref[3 * i + k]);
	}
	free(ref);
	free(names.index);
	free(names.ids);
	free(at);
	free(cpu);
	gpu_firsts_free(&f);
	gaps_free(&g);
	return 0;
}

/* The gaps of every group as they came. */
struct gaps_came {
	struct gap *gaps;
	uint32_t (*names)[3];
	size_t n, cap, ncap;
	struct gpu_came *came;
	size_t ngpus, ccap;
	uint64_t total;
	int64_t idle;
};

static void read_gaps(struct merge_state *m, size_t g, struct gaps_came *gc)
{
	struct bytes_in *r = &m->in[g];
	gc->total += bytes_get_u64(r);
	gc->idle = sat_add(gc->idle, bytes_get_i64(r));
	size_t base = gc->ngpus;
	uint64_t ngpus = bytes_get_count(r, GPU_BYTES);
	for (uint64_t i = 0; i < ngpus && !r->bad; i++) {
		gc->came = xgrow(gc->came, &gc->ccap, gc->ngpus + 1, sizeof(*gc->came));
		if (get_gpu(m, g, &gc->came[gc->ngpus]))
			return;
		gc->came[gc->ngpus].row = gc->ngpus;
		gc->ngpus++;
	}
	uint64_t nnames = bytes_get_count(r, 8);
	uint32_t *id = xmalloc_array(nnames ? nnames : 1, sizeof(*id));
	for (uint64_t i = 0; i < nnames && !r->bad; i++) {
		char *s = bytes_get_str(r);
		id[i] = s ? strtab_intern(&m->skel.strings, s) : 0;
		r->bad |= !s;
		free(s);
	}
	uint64_t n = bytes_get_count(r, 4 + 8 + 8 + 1 + 12);
	for (uint64_t i = 0; i < n && !r->bad; i++) {
		gc->gaps = xgrow(gc->gaps, &gc->cap, gc->n + 1, sizeof(*gc->gaps));
		gc->names = xgrow(gc->names, &gc->ncap, gc->n + 1, sizeof(*gc->names));
		struct gap *x = &gc->gaps[gc->n];
		uint32_t lane = bytes_get_u32(r);
		x->start = bytes_get_i64(r);
		x->end = bytes_get_i64(r);
		x->cause = (enum gap_cause)bytes_get_u8(r);
		for (int k = 0; k < 3; k++) {
			uint32_t ref = bytes_get_u32(r);
			r->bad |= ref != UINT32_MAX && ref >= nnames;
			gc->names[gc->n][k] = ref == UINT32_MAX || r->bad ? TRACE_NONE : id[ref];
		}
		r->bad |= lane >= ngpus || x->cause >= GAP_NCAUSES;
		x->lane = (uint32_t)(base + lane); /* a GPU as it came, for now */
		gc->n++;
	}
	free(id);
}

struct gap_order {
	const struct gap *gaps;
	const uint32_t *rank; /* of each GPU of skel */
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

static void gaps_finish(struct merge_state *m, struct gaps_came *gc, const struct report_params *rp,
			struct table *tb)
{
	uint32_t *gpu = xcalloc(gc->ngpus ? gc->ngpus : 1, sizeof(*gpu));
	free(make_gpus(m, gc->came, gc->ngpus, gpu));
	for (size_t i = 0; i < gc->n; i++)
		gc->gaps[i].lane = gpu[gc->gaps[i].lane];
	uint32_t *rank = gpu_ranks(&m->skel);
	size_t *order = xmalloc_array(gc->n ? gc->n : 1, sizeof(*order));
	for (size_t i = 0; i < gc->n; i++)
		order[i] = i;
	struct gap_order o = { gc->gaps, rank };
	sort_with(order, gc->n, sizeof(*order), by_gap, &o);
	size_t keep = rp->limit && rp->limit < gc->n ? rp->limit : gc->n;
	struct gaps g = { .gaps = xmalloc_array(keep ? keep : 1, sizeof(*g.gaps)),
			  .n = keep,
			  .total = gc->total };
	struct gap_names names = { xmalloc_array(keep ? keep : 1, sizeof(uint32_t)),
				   xmalloc_array(keep ? keep : 1, sizeof(uint32_t)),
				   xmalloc_array(keep ? keep : 1, sizeof(uint32_t)) };
	for (size_t i = 0; i < keep; i++) {
		g.gaps[i] = gc->gaps[order[i]];
		names.before[i] = gc->names[order[i]][0];
		names.after[i] = gc->names[order[i]][1];
		names.cpu[i] = gc->names[order[i]][2];
	}
	report_gaps_table(&m->skel, rp, &g, &names, gc->idle, tb);
	free(names.before);
	free(names.after);
	free(names.cpu);
	free(g.gaps);
	free(order);
	free(rank);
	free(gpu);
}

int batch_gaps_table(const struct batch_plan *plan, struct merge_state *m, const struct report_params *rp,
		     struct table *tb, struct rpd_error *err)
{
	struct gaps_came gc = { 0 };
	int rc = 0;
	for (size_t k = 0; k < plan->ngroups && rc == 0; k++) {
		read_gaps(m, k, &gc);
		rc = m->in[k].bad ? batch_bad_part(k, err) : 0;
	}
	if (rc == 0)
		gaps_finish(m, &gc, rp, tb);
	free(gc.gaps);
	free(gc.names);
	free(gc.came);
	return rc;
}
