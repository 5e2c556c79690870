#include "config.h"
#include "trace/graphs.h"

#include <stdlib.h>
#include <string.h>

#include "trace/trace.h"
#include "util/sort.h"
#include "util/xalloc.h"

int trace_graph_launch_name(const char *name)
{
	static const char *const apis[] = { "hip", "cuda", "cu" };
	for (size_t i = 0; i < sizeof(apis) / sizeof(apis[0]); i++) {
		size_t n = strlen(apis[i]);
		if (strncmp(name, apis[i], n) == 0 && strncmp(name + n, "GraphLaunch", 11) == 0)
			return name[n + 11] == '\0' || name[n + 11] == '_';
	}
	return 0;
}

int trace_graph_exec_arg(const char *args, char *out, size_t n)
{
	const char *p = args ? strstr(args, "graphExec") : NULL;
	if (!p || n == 0)
		return 0;
	p += strlen("graphExec");
	p += strspn(p, " ");
	if (*p++ != '=')
		return 0;
	p += strspn(p, " ");
	size_t len = strcspn(p, " \t\n|,;)");
	if (len == 0 || len >= n)
		return 0;
	memcpy(out, p, len);
	out[len] = '\0';
	return 1;
}

void graph_calls_begin(struct graph_calls *g, const struct trace *t)
{
	g->n = t->strings.count;
	g->is = xcalloc(g->n ? g->n : 1, 1);
}

int graph_calls_named(struct graph_calls *g, const struct trace *t, uint32_t name)
{
	if (name >= g->n)
		return 0;
	if (g->is[name] == 0)
		g->is[name] = trace_graph_launch_name(trace_str(t, name)) ? 1 : 2;
	return g->is[name] == 1;
}

void graph_calls_init(struct graph_calls *g, const struct trace *t)
{
	graph_calls_begin(g, t);
	/* Only the names calls have are asked for; when the strings are far
	 * fewer than the calls, asking each string once costs less than
	 * finding which ones calls have (an answer for a string no call has
	 * is never asked for). */
	if (t->strings.count < t->apis.n / 8) {
		for (uint32_t k = 0; k < t->strings.count; k++)
			graph_calls_named(g, t, k);
		return;
	}
	for (size_t i = 0; i < t->apis.n; i++)
		graph_calls_named(g, t, trace_api_name(t, i));
}

void graph_calls_free(struct graph_calls *g)
{
	free(g->is);
	memset(g, 0, sizeof(*g));
}

void trace_graphs_free(struct trace_graphs *g)
{
	free(g->api);
	free(g->exec);
	memset(g, 0, sizeof(*g));
}

static void add(struct trace_graphs *g, uint32_t api, uint32_t exec)
{
	if (g->n == g->cap) {
		g->cap = g->cap < 64 ? 64 : g->cap * 2;
		g->api = xrealloc_array(g->api, g->cap, sizeof(*g->api));
		g->exec = xrealloc_array(g->exec, g->cap, sizeof(*g->exec));
	}
	g->sorted = g->n == 0 || (g->sorted && g->api[g->n - 1] < api);
	g->api[g->n] = api;
	g->exec[g->n++] = exec;
}

void trace_add_graph(struct trace *t, uint32_t api, uint32_t exec)
{
	trace_own_apis(t);
	add(&t->graphs, api, exec);
}

static int by_api(const void *a, const void *b, void *ctx)
{
	const struct trace_graphs *g = ctx;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	if (g->api[x] != g->api[y])
		return g->api[x] < g->api[y] ? -1 : 1;
	return (x > y) - (x < y); /* the first read first */
}

void trace_graphs_sort(struct trace_graphs *g)
{
	if (g->sorted || g->n == 0) {
		g->sorted = 1;
		return;
	}
	uint32_t *order = xmalloc_array(g->n, sizeof(*order));
	for (size_t i = 0; i < g->n; i++)
		order[i] = (uint32_t)i;
	sort_with(order, g->n, sizeof(*order), by_api, g);
	struct trace_graphs s = { 0 };
	for (size_t i = 0; i < g->n; i++) {
		uint32_t k = order[i];
		if (s.n == 0 || s.api[s.n - 1] != g->api[k])
			add(&s, g->api[k], g->exec[k]);
	}
	free(order);
	trace_graphs_free(g);
	*g = s;
	g->sorted = 1;
}

uint32_t trace_graph_of(const struct trace_graphs *g, uint32_t api)
{
	size_t lo = 0, hi = g->sorted ? g->n : 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (g->api[mid] < api)
			lo = mid + 1;
		else
			hi = mid;
	}
	return g->sorted && lo < g->n && g->api[lo] == api ? g->exec[lo] : TRACE_NONE;
}

void trace_graphs_merge(struct trace *t, const struct trace_graphs *src, const size_t *api,
			const uint32_t *str)
{
	trace_own_apis(t);
	for (size_t i = 0; i < src->n; i++) {
		size_t row = api ? api[src->api[i]] : src->api[i];
		if (row != SIZE_MAX)
			add(&t->graphs, (uint32_t)row, str ? str[src->exec[i]] : src->exec[i]);
	}
}
