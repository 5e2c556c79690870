#include "config.h"
#include "demo/demo.h"

/* Generated ids start at 1 and have no gaps, so a row's index is id - 1. */
static int to_op(void *ctx, const struct gen_op *o)
{
	struct trace *t = ctx;
	uint32_t queue = trace_queue(t, trace_gpu(t, 0, o->gpu), o->queue);
	trace_add_op(t, o->id, o->start, o->end, strtab_intern(&t->strings, o->desc),
		     strtab_intern(&t->strings, o->type), queue);
	return 0;
}

static int to_api(void *ctx, const struct gen_api *a)
{
	struct trace *t = ctx;
	trace_add_api(t, a->id, a->start, a->end, strtab_intern(&t->strings, a->name),
		      strtab_intern(&t->strings, a->args), trace_thread(t, 0, a->pid, a->tid));
	return 0;
}

static int to_link(void *ctx, int64_t api, int64_t op)
{
	trace_add_link(ctx, (uint32_t)(api - 1), (uint32_t)(op - 1));
	return 0;
}

void demo_trace_build(struct trace *t, const struct gen_params *p)
{
	struct gen_sink sink = { .ctx = t, .op = to_op, .api = to_api, .link = to_link };
	trace_init(t);
	uint32_t in = trace_add_input(t, DEMO_INPUT_NAME, INPUT_RPD, 2);
	gen_run(p, &sink);
	/* Its rows are the input's, as a loader records them: the reports by
	 * input (ranks) find them there. */
	t->inputs[in].op_first = t->inputs[in].api_first = 0;
	t->inputs[in].op_count = t->ops.n;
	t->inputs[in].api_count = t->apis.n;
	trace_finish(t);
}
