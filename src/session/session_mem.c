#include "config.h"
/* --debug-memory: what a session's traces and selections hold. */
#include "session/session.h"

#include <sys/stat.h>

#include "trace/trace_mem.h"

static size_t bits_bytes(const uint64_t *bits, size_t n)
{
	return bits ? (n + 63) / 64 * sizeof(uint64_t) : 0;
}

void session_memory(const struct session *s, struct mem_report *r)
{
	for (size_t k = 0; k < s->ntraces; k++) {
		const struct session_view *v = &s->views[k];
		const struct selection *sel = &v->sel;
		trace_memory(&v->trace, r);
		mem_add(r, "selection: ", "ops in view",
			bits_bytes(sel->op_bits, sel->nops) + bits_bytes(sel->place_bits, sel->nops));
		mem_add(r, "selection: ", "calls in view",
			bits_bytes(sel->api_bits, sel->napis) + bits_bytes(sel->named_bits, sel->napis));
		api_order_memory(&v->order, r, "API order: ");
	}
}

uint64_t session_input_bytes(const struct session *s)
{
	uint64_t sum = 0;
	for (size_t k = 0; k < s->ntraces; k++) {
		const struct trace *t = &s->views[k].trace;
		for (size_t i = 0; i < t->ninputs; i++) {
			struct stat st;
			if (t->inputs[i].path && stat(t->inputs[i].path, &st) == 0)
				sum += (uint64_t)st.st_size;
		}
	}
	return sum;
}
