/* Busy's partial result. A GPU belongs to one node, so its row is made
 * whole by its part; the finish only makes its GPU again and puts the
 * rows in the report's order. */
#include "config.h"
#include "analysis/busy.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

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
