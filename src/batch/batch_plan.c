/* The inputs of a batch run, grouped by the node they were recorded on:
 * inputs that share a node share GPUs and processes, so each group can be
 * reduced alone. A file whose processes name several nodes joins their
 * groups into one; a file that names none is a group of its own (or, with
 * --same-node, one with every other such file). */
#include "config.h"
#include "batch/batch_plan.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "load/inputs.h"
#include "load/nodes.h"
#include "util/i18n.h"
#include "util/xalloc.h"

/* Union-find over the files: a file is joined with the first file of
 * each node it names. */
static size_t root(size_t *up, size_t i)
{
	while (up[i] != i)
		i = up[i] = up[up[i]];
	return i;
}

static void join(size_t *up, size_t a, size_t b)
{
	a = root(up, a);
	b = root(up, b);
	/* The earlier file is the root: groups keep the order of their first. */
	if (a < b)
		up[b] = a;
	else if (b < a)
		up[a] = b;
}

struct node_seen {
	char *name; /* NULL: the shared unknown node of --same-node */
	size_t file;
};

static void join_node(struct node_seen **seen, size_t *n, size_t *up, const char *name, size_t file)
{
	for (size_t i = 0; i < *n; i++) {
		const char *s = (*seen)[i].name;
		if ((!s && !name) || (s && name && strcmp(s, name) == 0)) {
			join(up, (*seen)[i].file, file);
			return;
		}
	}
	*seen = xrealloc_array(*seen, *n + 1, sizeof(**seen));
	(*seen)[(*n)++] = (struct node_seen){ name ? xstrdup(name) : NULL, file };
}

/* Join each file with the others of its nodes; the first node named is
 * its group's. */
static int read_nodes(struct batch_plan *plan, size_t *up, char **first, struct rpd_error *err)
{
	struct node_seen *seen = NULL;
	size_t nseen = 0;
	int rc = 0;
	for (size_t f = 0; f < plan->npaths && rc == 0; f++) {
		struct input_nodes nodes;
		rc = input_nodes_read(plan->paths[f], &nodes, err);
		/* With --skip-bad an input that cannot be read is a group of
		 * its own (nodes empty), skipped when that group is read. */
		if (rc && plan->skip_bad)
			rc = 0;
		for (size_t i = 0; rc == 0 && i < nodes.n; i++) {
			if (nodes.names[i] || plan->same_node)
				join_node(&seen, &nseen, up, nodes.names[i], f);
			if (!first[f] && nodes.names[i])
				first[f] = xstrdup(nodes.names[i]);
		}
		/* An rpd file names no node: with --same-node it shares the
		 * unknown node, else it is alone. */
		if (rc == 0 && nodes.n == 0 && plan->same_node)
			join_node(&seen, &nseen, up, NULL, f);
		input_nodes_free(&nodes);
	}
	for (size_t i = 0; i < nseen; i++)
		free(seen[i].name);
	free(seen);
	return rc;
}

static uint64_t file_size(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && st.st_size > 0 ? (uint64_t)st.st_size : 0;
}

static void make_groups(struct batch_plan *plan, size_t *up, char **first)
{
	size_t *index = xmalloc_array(plan->npaths ? plan->npaths : 1, sizeof(*index));
	plan->groups = xcalloc(plan->npaths ? plan->npaths : 1, sizeof(*plan->groups));
	for (size_t f = 0; f < plan->npaths; f++) {
		size_t r = root(up, f);
		if (r == f) {
			index[f] = plan->ngroups++;
			plan->groups[index[f]].node = first[f] ? xstrdup(first[f]) : NULL;
		}
		struct batch_group *g = &plan->groups[index[r]];
		plan->group_of[f] = index[r];
		g->paths = xrealloc_array(g->paths, g->npaths + 1, sizeof(*g->paths));
		g->paths[g->npaths++] = plan->paths[f];
		g->bytes += file_size(plan->paths[f]);
	}
	free(index);
}

int batch_plan_make(const struct workspace_options *o, struct batch_plan *plan, struct rpd_error *err)
{
	struct input_list in;
	memset(plan, 0, sizeof(*plan));
	plan->same_node = o->same_node;
	plan->skip_bad = o->skip_bad;
	if (inputs_expand(o->paths, o->npaths, &in, err))
		return -1;
	plan->paths = in.paths;
	plan->npaths = in.n;
	size_t n = in.n ? in.n : 1;
	size_t *up = xmalloc_array(n, sizeof(*up));
	char **first = xcalloc(n, sizeof(*first));
	plan->group_of = xcalloc(n, sizeof(*plan->group_of));
	for (size_t f = 0; f < in.n; f++)
		up[f] = f;
	int rc = read_nodes(plan, up, first, err);
	if (rc == 0)
		make_groups(plan, up, first);
	for (size_t f = 0; f < in.n; f++)
		free(first[f]);
	free(first);
	free(up);
	if (rc)
		batch_plan_free(plan);
	return rc;
}

void batch_plan_free(struct batch_plan *plan)
{
	for (size_t g = 0; g < plan->ngroups; g++) {
		free(plan->groups[g].paths); /* the paths are the plan's */
		free(plan->groups[g].node);
	}
	free(plan->groups);
	for (size_t f = 0; f < plan->npaths; f++)
		free(plan->paths[f]);
	free(plan->paths);
	free(plan->group_of);
	memset(plan, 0, sizeof(*plan));
}

int batch_bad_part(size_t g, struct rpd_error *err)
{
	return err_set(err, _("the partial result of input group %zu is malformed"), g + 1);
}
