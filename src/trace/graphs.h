/* The graph a graph launch call replayed, as its input names it (rpd: the
 * call's graphExec argument, "0x24922d90"). Kept for those calls alone,
 * read with the API rows; a call without an entry is named by its API
 * name. */
#ifndef RPDTOP_TRACE_GRAPHS_H
#define RPDTOP_TRACE_GRAPHS_H

#include <stddef.h>
#include <stdint.h>

struct trace;

struct trace_graphs {
	size_t n, cap;
	uint32_t *api;  /* API rows; rising once trace_graphs_sort has run */
	uint32_t *exec; /* string ids */
	int sorted;
};

/* Whether an API call of this name replays a graph: hipGraphLaunch,
 * cudaGraphLaunch, cuGraphLaunch and their per-thread forms
 * (hipGraphLaunch_spt, cudaGraphLaunch_ptsz). */
int trace_graph_launch_name(const char *name);
/* The graph an rpd graph launch's args name: the value of its graphExec
 * ("graphExec = 0x24922d90 | stream = 0x0" gives "0x24922d90"), put in
 * out (size n); 0 when the args name none. */
int trace_graph_exec_arg(const char *args, char *out, size_t n);

/* Which of t's strings name a graph launch call: a byte per string id
 * (0 not asked yet, 1 yes, 2 no). */
struct graph_calls {
	unsigned char *is;
	uint32_t n;
};

/* Every name of t's API rows asked. */
void graph_calls_init(struct graph_calls *g, const struct trace *t);
/* None asked yet: graph_calls_named asks as names come. */
void graph_calls_begin(struct graph_calls *g, const struct trace *t);
/* Does string name (of the strings g began with) name a graph launch? */
int graph_calls_named(struct graph_calls *g, const struct trace *t, uint32_t name);
void graph_calls_free(struct graph_calls *g);

void trace_graphs_free(struct trace_graphs *g);
void trace_add_graph(struct trace *t, uint32_t api, uint32_t exec);
/* Order by API row (and drop repeats: the first is kept). */
void trace_graphs_sort(struct trace_graphs *g);
/* The graph of API row api (a string id), or TRACE_NONE. */
uint32_t trace_graph_of(const struct trace_graphs *g, uint32_t api);
/* Add src's entries to t: API rows mapped by api (SIZE_MAX: left out,
 * NULL: the same), string ids by str (NULL: the same). */
void trace_graphs_merge(struct trace *t, const struct trace_graphs *src, const size_t *api,
			const uint32_t *str);

#endif
