#include "config.h"
#include "analysis/part.h"

#include <stdlib.h>

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
