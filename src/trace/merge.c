#include "config.h"
#include "trace/merge.h"

#include <stdlib.h>

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

static uint32_t *map_inputs(struct trace *dst, const struct trace *src, size_t op_base, size_t api_base)
{
	uint32_t *map = xmalloc_array(src->ninputs, sizeof(*map));
	for (size_t i = 0; i < src->ninputs; i++) {
		const struct trace_input *in = &src->inputs[i];
		map[i] = trace_add_input(dst, in->path, in->format, in->schema_version);
		trace_input_set_node(dst, map[i], src->domains[in->domain].node);
		trace_input_set_uuid(dst, map[i], in->uuid, in->guid);
		dst->inputs[map[i]].op_first = op_base + in->op_first;
		dst->inputs[map[i]].op_count = in->op_count;
		dst->inputs[map[i]].api_first = api_base + in->api_first;
		dst->inputs[map[i]].api_count = in->api_count;
	}
	return map;
}

static void merge_ops(struct trace *dst, const struct trace *src, const uint32_t *str, const uint32_t *queue)
{
	const struct trace_ops *o = &src->ops;
	for (size_t i = 0; i < o->n; i++) {
		uint32_t row = trace_add_op(dst, src->no_op_ids ? 0 : trace_op_id(src, i), o->start[i],
					    o->end[i], 0, str[o->name[i]], queue[o->queue[i]]);
		/* The name and kind are taken as they are rather than derived
		 * again from a description. */
		dst->ops.name[row] = str[o->name[i]];
		dst->ops.kind[row] = o->kind[i];
	}
}

static void merge_apis(struct trace *dst, const struct trace *src, const uint32_t *str,
		       const uint32_t *thread)
{
	const struct trace_apis *a = &src->apis;
	for (size_t i = 0; i < a->n; i++)
		trace_add_api(dst, trace_api_id(src, i), a->start[i], a->end[i], str[a->name[i]], TRACE_NONE,
			      thread[a->thread[i]]);
}

void trace_merge(struct trace *dst, const struct trace *src)
{
	size_t op_base = dst->ops.n, api_base = dst->apis.n;
	uint32_t *str = map_strings(dst, src);
	uint32_t *input = map_inputs(dst, src, op_base, api_base);
	uint32_t *gpu = xmalloc_array(src->ngpus, sizeof(*gpu));
	uint32_t *queue = xmalloc_array(src->nqueues, sizeof(*queue));
	uint32_t *thread = xmalloc_array(src->nthreads, sizeof(*thread));

	for (size_t i = 0; i < src->ngpus; i++)
		gpu[i] = trace_gpu(dst, input[src->gpus[i].input], src->gpus[i].device);
	for (size_t i = 0; i < src->nqueues; i++) {
		queue[i] = trace_queue(dst, gpu[src->queues[i].gpu], src->queues[i].queue);
		if (src->queues[i].name != TRACE_NONE)
			trace_queue_set_name(dst, queue[i], str[src->queues[i].name]);
	}
	for (size_t i = 0; i < src->nthreads; i++) {
		const struct trace_thread *th = &src->threads[i];
		thread[i] = trace_thread(dst, input[th->input], th->pid, th->tid);
	}
	merge_ops(dst, src, str, queue);
	merge_apis(dst, src, str, thread);
	for (size_t i = 0; i < src->texts.n; i++)
		trace_add_api_text(dst, (uint32_t)(api_base + src->texts.api[i]), str[src->texts.text[i]]);
	for (size_t i = 0; i < src->links.n; i++)
		trace_add_link(dst, (uint32_t)(api_base + src->links.api[i]),
			       (uint32_t)(op_base + src->links.op[i]));
	free(str);
	free(input);
	free(gpu);
	free(queue);
	free(thread);
}
