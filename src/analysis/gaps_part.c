/* The gaps' partial result: every part's gaps, merged and put in the
 * report's order (the longest kept), their names travelling as text. */
#include "config.h"
#include "analysis/gaps.h"

#include <stdlib.h>
#include <string.h>

#include "util/satmath.h"
#include "util/sort.h"
#include "util/xalloc.h"

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
		bytes_put_u8(b, p->made.cpu_after[i]);
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
	uint64_t n = bytes_get_count(r, 4 + 8 + 8 + 1 + 12 + 1);
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
		uint8_t past = bytes_get_u8(r);
		r->bad |= past > 1;
		p->names[p->n][3] = past;
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
	names->cpu_after = xmalloc_array(keep ? keep : 1, 1);
	for (size_t i = 0; i < keep; i++) {
		out->gaps[i] = p->gaps[order[i]];
		names->before[i] = p->names[order[i]][0];
		names->after[i] = p->names[order[i]][1];
		names->cpu[i] = p->names[order[i]][2];
		names->cpu_after[i] = (unsigned char)p->names[order[i]][3];
	}
	int64_t idle = p->idle;
	free(order);
	free(rank);
	free(gpu);
	gaps_part_free(p);
	return idle;
}
