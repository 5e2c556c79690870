#include "config.h"
#include "trace/merge.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* src string id -> dst string id, interning every string of src. */
static uint32_t *map_strings(struct trace *dst, const struct trace *src)
{
	uint32_t *map = xmalloc_array(src->strings.count, sizeof(*map));
	for (uint32_t i = 0; i < src->strings.count; i++)
		map[i] = strtab_intern_len(&dst->strings, strtab_get(&src->strings, i),
					   strtab_len(&src->strings, i));
	return map;
}

/* What merging one trace into another translates: strings, inputs, and
 * lanes, the lanes made in dst only when a row kept uses them (an input
 * left out must leave no empty GPU behind). */
struct merge {
	struct trace *dst;
	const struct trace *src;
	const uint8_t *skip;
	uint32_t *str, *input, *gpu, *queue, *thread;
};

static int kept(const struct merge *m, uint32_t input)
{
	return !m->skip || !m->skip[input];
}

static void map_inputs(struct merge *m, size_t op_base, size_t api_base)
{
	const struct trace *src = m->src;
	for (size_t i = 0; i < src->ninputs; i++) {
		const struct trace_input *in = &src->inputs[i];
		m->input[i] = TRACE_NONE;
		if (!kept(m, (uint32_t)i))
			continue;
		uint32_t k = trace_add_input(m->dst, in->path, in->format, in->schema_version);
		trace_input_set_node(m->dst, k, src->domains[in->domain].node);
		trace_input_set_uuid(m->dst, k, in->uuid, in->guid);
		m->input[i] = k;
		struct trace_input *out = &m->dst->inputs[k];
		out->op_first = op_base;
		out->op_count = in->op_count;
		out->api_first = api_base;
		out->api_count = in->api_count;
		out->launches_only = in->launches_only;
		out->apis_with_ops = in->apis_with_ops;
		out->ops_left_out = in->ops_left_out;
		out->rank = in->rank;
		out->world_size = in->world_size;
		out->stamp = in->stamp;
		op_base += in->op_count;
		api_base += in->api_count;
	}
}

static uint32_t queue_of(struct merge *m, uint32_t q)
{
	if (m->queue[q] != TRACE_NONE)
		return m->queue[q];
	const struct trace_queue *sq = &m->src->queues[q];
	uint32_t g = sq->gpu;
	if (m->gpu[g] == TRACE_NONE)
		m->gpu[g] = trace_gpu(m->dst, m->input[m->src->gpus[g].input], m->src->gpus[g].device);
	m->queue[q] = trace_queue(m->dst, m->gpu[g], sq->queue);
	if (sq->name != TRACE_NONE)
		trace_queue_set_name(m->dst, m->queue[q], m->str[sq->name]);
	return m->queue[q];
}

static uint32_t thread_of(struct merge *m, uint32_t th)
{
	if (m->thread[th] == TRACE_NONE) {
		const struct trace_thread *s = &m->src->threads[th];
		m->thread[th] = trace_thread(m->dst, m->input[s->input], s->pid, s->tid);
		if (s->name != TRACE_NONE)
			trace_thread_set_name(m->dst, m->thread[th], m->str[s->name]);
	}
	return m->thread[th];
}

/* An input's ops, or the ops of every input when they are not kept as
 * runs (each input's rows are one run in a loaded trace). */
static void merge_ops(struct merge *m, size_t from, size_t to, size_t *map)
{
	const struct trace *src = m->src;
	const struct trace_ops *o = &src->ops;
	for (size_t i = from; i < to; i++) {
		uint32_t row = trace_add_op(m->dst, src->no_op_ids ? 0 : trace_op_id(src, i), o->start[i],
					    o->end[i], 0, m->str[o->name[i]], queue_of(m, o->queue[i]));
		/* The name and kind are taken as they are rather than derived
		 * again from a description. */
		m->dst->ops.name[row] = m->str[o->name[i]];
		m->dst->ops.kind[row] = o->kind[i];
		map[i] = row;
	}
}

static void merge_apis(struct merge *m, size_t from, size_t to, size_t *map)
{
	const struct trace_apis *a = &m->src->apis;
	for (size_t i = from; i < to; i++) {
		uint32_t text = trace_api_text(m->src, i);
		map[i] = trace_add_api(m->dst, trace_api_id(m->src, i), a->start[i], a->end[i],
				       m->str[trace_api_name(m->src, i)],
				       text == TRACE_NONE ? TRACE_NONE : m->str[text],
				       thread_of(m, a->thread[i]));
	}
}

static void merge_rows(struct merge *m, size_t *op_map, size_t *api_map)
{
	const struct trace *src = m->src;
	for (size_t i = 0; i < src->ninputs; i++) {
		const struct trace_input *in = &src->inputs[i];
		if (!kept(m, (uint32_t)i))
			continue;
		merge_ops(m, in->op_first, in->op_first + in->op_count, op_map);
		merge_apis(m, in->api_first, in->api_first + in->api_count, api_map);
	}
	for (size_t i = 0; i < src->links.n; i++)
		if (api_map[src->links.api[i]] != SIZE_MAX && op_map[src->links.op[i]] != SIZE_MAX)
			trace_add_link(m->dst, (uint32_t)api_map[src->links.api[i]],
				       (uint32_t)op_map[src->links.op[i]]);
	trace_counters_merge(m->dst, &src->counters, m->str, m->input);
	trace_copies_merge(m->dst, &src->copies, op_map, m->str);
	trace_graphs_merge(m->dst, &src->graphs, api_map, m->str);
	trace_host_copies_merge(m->dst, &src->host_copies, m->str, m->input);
}

static uint32_t *none_array(size_t n)
{
	uint32_t *a = xmalloc_array(n, sizeof(*a));
	memset(a, 0xff, (n ? n : 1) * sizeof(*a));
	return a;
}

void trace_merge(struct trace *dst, const struct trace *src, const uint8_t *skip)
{
	struct merge m = { .dst = dst, .src = src, .skip = skip };
	m.str = map_strings(dst, src);
	m.input = none_array(src->ninputs);
	m.gpu = none_array(src->ngpus);
	m.queue = none_array(src->nqueues);
	m.thread = none_array(src->nthreads);
	size_t *op_map = xmalloc_array(src->ops.n, sizeof(*op_map));
	size_t *api_map = xmalloc_array(src->apis.n, sizeof(*api_map));
	memset(op_map, 0xff, (src->ops.n ? src->ops.n : 1) * sizeof(*op_map));
	memset(api_map, 0xff, (src->apis.n ? src->apis.n : 1) * sizeof(*api_map));
	map_inputs(&m, dst->ops.n, dst->apis.n);
	merge_rows(&m, op_map, api_map);
	free(op_map);
	free(api_map);
	free(m.str);
	free(m.input);
	free(m.gpu);
	free(m.queue);
	free(m.thread);
}
