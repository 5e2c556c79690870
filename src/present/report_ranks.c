#include "config.h"
#include "present/report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/ranks.h"
#include "util/i18n.h"
#include "util/satmath.h"
#include "util/units.h"
#include "util/utf8.h"
#include "util/xalloc.h"

static const struct table_col ranks_cols[] = {
	{ "input", N_("INPUT"), COL_LABEL },         { "node", N_("NODE"), COL_LABEL },
	{ "gpus", N_("GPUS"), COL_COUNT },           { "ops", N_("OPS"), COL_COUNT },
	{ "gpu_ns", N_("GPU TIME"), COL_NS },        { "busy_ns", N_("BUSY"), COL_NS },
	{ "span_ns", N_("SPAN"), COL_NS },           { "first_ns", N_("FIRST"), COL_COUNT },
	{ "last_ns", N_("LAST"), COL_COUNT },        { "comm_ns", N_("COMM"), COL_NS },
	{ "comm_wait_ns", N_("COMM WAIT"), COL_NS }, { "rank", N_("RANK"), COL_COUNT },
};

struct text {
	char buf[512];
	size_t n;
};

static void put_text(const char *piece, size_t len, void *ctx)
{
	struct text *t = ctx;
	for (size_t i = 0; i < len && t->n + 1 < sizeof(t->buf); i++)
		t->buf[t->n++] = piece[i];
	t->buf[t->n] = '\0';
}

/* The footer: who the others waited for most, in words. The input's name
 * may hold control characters: escaped, as the rows' are. */
static char *straggler_footer(const struct trace *t, const struct ranks *rk)
{
	char waited[UNITS_BUFSZ], line[1024];
	struct text name = { { 0 }, 0 };
	if (rk->n < 2)
		return NULL;
	if (rk->collectives == 0) {
		snprintf(line, sizeof(line), "%s\n",
			 _("No collective ran the same number of times on every rank."));
	} else if (rk->straggler == SIZE_MAX) {
		snprintf(line, sizeof(line), "%s\n",
			 _("No straggler: the ranks started every matched collective together."));
	} else {
		const struct rank_row *r = &rk->rows[rk->straggler];
		utf8_write_escaped(trace_input_name(t, r->input), put_text, &name);
		snprintf(line, sizeof(line),
			 _("Likely straggler: %s (the other ranks waited %s for it, in %zu collectives)\n"),
			 name.buf, units_format_ns(r->waited_for, waited, sizeof(waited)), rk->collectives);
	}
	return xstrdup(line);
}

static int by_value(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* A job's ranks some of whose traces are missing: how many are here. The
 * straggler found among those here may be waiting for one that is not. */
static char *missing_line(const struct trace *t, const struct ranks *rk)
{
	int64_t world = 0, *ranks = xmalloc_array(rk->n ? rk->n : 1, sizeof(*ranks));
	size_t n = 0, distinct = 0;
	for (size_t i = 0; i < rk->n; i++) {
		const struct trace_input *in = &t->inputs[rk->rows[i].input];
		if (in->world_size > world)
			world = in->world_size;
		if (in->rank >= 0)
			ranks[n++] = in->rank;
	}
	qsort(ranks, n, sizeof(*ranks), by_value);
	for (size_t i = 0; i < n; i++)
		distinct += i == 0 || ranks[i] != ranks[i - 1];
	free(ranks);
	if (world == 0 || (int64_t)distinct >= world)
		return NULL;
	char line[256];
	snprintf(line, sizeof(line),
		 P_("%zu of the job's %lld ranks is here: the others' traces are not among the inputs.\n",
		    "%zu of the job's %lld ranks are here: the others' traces are not among the inputs.\n",
		    distinct),
		 distinct, (long long)world);
	return xstrdup(line);
}

static void ranks_table(const struct trace *t, const struct report_params *p, const struct ranks *rk,
			struct table *out)
{
	table_init(out, "ranks", ranks_cols, NCOLS(ranks_cols));
	snprintf(out->caption, sizeof(out->caption),
		 P_("Ranks: %zu input, %zu collectives matched across them",
		    "Ranks: %zu inputs, %zu collectives matched across them", rk->n),
		 rk->n, rk->collectives);
	for (size_t i = 0; i < rk->n && (!p->limit || i < p->limit); i++) {
		const struct rank_row *r = &rk->rows[i];
		struct table_cell *c = table_add_row(out);
		const char *name = trace_input_name(t, r->input);
		const char *node = t->domains[t->inputs[r->input].domain].node;
		table_set_text(&c[0], name, strlen(name));
		table_set_text(&c[1], node ? node : "", node ? strlen(node) : 0);
		c[2].num = (int64_t)r->gpus;
		c[3].num = (int64_t)r->ops;
		c[4].num = r->gpu;
		c[5].num = r->busy;
		c[6].num = sat_sub(r->last, r->first);
		c[7].num = r->first;
		c[8].num = r->last;
		c[9].num = r->comm;
		c[10].num = r->comm_wait;
		/* The rank the input says it is (Kineto's distributedInfo). */
		c[11].num = t->inputs[r->input].rank;
		c[11].empty = t->inputs[r->input].rank < 0;
	}
	out->footer = straggler_footer(t, rk);
	char *missing = missing_line(t, rk);
	if (missing && out->footer) {
		char *both = xmalloc(strlen(out->footer) + strlen(missing) + 1);
		strcpy(stpcpy(both, out->footer), missing);
		free(out->footer);
		free(missing);
		out->footer = both;
	} else if (missing) {
		out->footer = missing;
	}
}

static void build(const struct trace *t, const struct report_params *p, const struct selection *sel,
		  struct table *out)
{
	struct ranks rk;
	ranks_per_input(t, sel, &p->analysis->comm, &rk);
	ranks_table(t, p, &rk, out);
	ranks_free(&rk);
}

/* Node group by node group: each input's row, whole in its group, and
 * its collectives' instances, matched across every group's ranks when
 * they are merged. */
static void *part_new(const struct report_params *p)
{
	struct ranks_part *part = xmalloc(sizeof(*part));
	(void)p;
	ranks_part_init(part);
	return part;
}

static void part_add(void *part, const struct trace *t, const struct selection *sel,
		     const struct report_params *p, struct call_asks **asks)
{
	(void)asks;
	ranks_part_add(part, t, sel, &p->analysis->comm);
}

static void part_encode(void *part, const struct trace *t, struct bytes_out *b)
{
	ranks_part_encode(part, t, b);
}

static int part_merge(void *part, const struct part_in *in)
{
	return ranks_part_merge(part, in);
}

static void part_table(void *part, struct trace *whole, const struct window *window,
		       const struct report_params *p, struct table *out)
{
	struct ranks rk;
	(void)window;
	ranks_part_finish(part, whole, &rk);
	ranks_table(whole, p, &rk, out);
	ranks_free(&rk);
}

static void part_free(void *part)
{
	ranks_part_free(part);
	free(part);
}

static const struct report_merge merge = { NULL,       part_new,   part_add, part_encode,
					   part_merge, part_table, part_free };

const struct report_def report_ranks = {
	.name = "ranks",
	.help = N_("per input: busy, communication and time waiting for other ranks"),
	.cols = ranks_cols,
	.ncols = NCOLS(ranks_cols),
	.apis = API_NEED_NONE,
	.build = build,
	.merge = &merge
};
