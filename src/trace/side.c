#include "config.h"
#include "trace/side.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void trace_side_init(struct trace *side, const struct trace *t)
{
	trace_init(side);
	side->same_node = t->same_node;
	for (size_t i = 0; i < t->ndomains; i++) {
		side->domains = xgrow(side->domains, &side->domains_cap, i + 1, sizeof(*side->domains));
		side->domains[i].node = t->domains[i].node ? xstrdup(t->domains[i].node) : NULL;
	}
	side->ndomains = t->ndomains;
	side->inputs = xcalloc(t->ninputs ? t->ninputs : 1, sizeof(*side->inputs));
	side->inputs_cap = t->ninputs ? t->ninputs : 1;
	for (size_t i = 0; i < t->ninputs; i++) {
		side->inputs[i] = t->inputs[i];
		side->inputs[i].path = xstrdup(t->inputs[i].path);
		side->inputs[i].uuid = t->inputs[i].uuid ? xstrdup(t->inputs[i].uuid) : NULL;
		side->inputs[i].guid = t->inputs[i].guid ? xstrdup(t->inputs[i].guid) : NULL;
	}
	side->ninputs = t->ninputs;
	/* Borrowed, read-only: the trace's ops do not change while shown. */
	side->ops.id = t->ops.id;
	side->ops.n = t->ops.n;
}

void trace_side_free(struct trace *side)
{
	memset(&side->ops, 0, sizeof(side->ops));
	trace_free(side);
}

void trace_side_take(struct trace *t, struct trace *side)
{
	trace_own_apis(t);
	assert(t->apis.n == 0 && t->links.n == 0);
	uint32_t *str = xmalloc_array(side->strings.count, sizeof(*str));
	for (uint32_t i = 0; i < side->strings.count; i++)
		str[i] = strtab_intern_len(&t->strings, strtab_get(&side->strings, i),
					   strtab_len(&side->strings, i));
	uint32_t *thread = xmalloc_array(side->nthreads, sizeof(*thread));
	for (size_t i = 0; i < side->nthreads; i++) {
		const struct trace_thread *th = &side->threads[i];
		thread[i] = trace_thread(t, th->input, th->pid, th->tid);
		if (th->name != TRACE_NONE)
			trace_thread_set_name(t, thread[i], str[th->name]);
	}
	struct trace_apis *a = &side->apis;
	for (size_t i = 0; i < a->n; i++) {
		a->name[i] = str[a->name[i]];
		a->thread[i] = thread[a->thread[i]];
	}
	if (a->marker_name != TRACE_NONE)
		a->marker_name = str[a->marker_name];
	for (size_t i = 0; i < t->ninputs && i < side->ninputs; i++) {
		t->inputs[i].api_first = side->inputs[i].api_first;
		t->inputs[i].api_count = side->inputs[i].api_count;
	}
	free(t->apis.id);
	free(t->apis.runs.row);
	free(t->apis.runs.id);
	free(t->apis.start);
	free(t->apis.end);
	free(t->apis.name);
	free(t->apis.thread);
	free(t->apis.texted);
	free(t->links.api);
	free(t->links.op);
	t->apis = side->apis;
	t->links = side->links;
	memset(&side->apis, 0, sizeof(side->apis));
	side->apis.marker_name = TRACE_NONE;
	memset(&side->links, 0, sizeof(side->links));
	/* Counters and copies' sizes are read with the API rows and replace
	 * them as they do;
	 * the side's inputs are t's. */
	trace_counters_free(&t->counters);
	trace_counters_merge(t, &side->counters, str, NULL);
	trace_copies_free(&t->copies);
	trace_copies_merge(t, &side->copies, NULL, str);
	trace_graphs_free(&t->graphs);
	trace_graphs_merge(t, &side->graphs, NULL, str);
	free(str);
	free(thread);
	trace_side_free(side);
	t->apis_read = 1;
	trace_finish(t);
}
