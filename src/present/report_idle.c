#include "config.h"
#include "present/report.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/gaps.h"
#include "present/report_cells.h"
#include "util/i18n.h"
#include "util/satmath.h"
#include "util/units.h"
#include "util/xalloc.h"

static const struct table_col idle_cols[] = {
	{ "gpu", N_("GPU"), COL_LABEL },
	{ "span_ns", N_("SPAN"), COL_NS },
	{ "busy_ns", N_("BUSY"), COL_NS },
	{ "idle_ns", N_("IDLE"), COL_NS },
	{ "leading_ns", N_("LEADING"), COL_NS },
	{ "trailing_ns", N_("TRAILING"), COL_NS },
	{ "gaps", N_("GAPS"), COL_COUNT },
	{ "host_wait_ns", N_("HOST WAIT"), COL_NS },
	{ "kernel_wait_ns", N_("KERNEL WAIT"), COL_NS },
	{ "other_ns", N_("OTHER"), COL_NS },
	{ "max_gap_ns", N_("MAX GAP"), COL_NS },
	{ "graph_ns", N_("GRAPH"), COL_NS },
};

/* The histogram of gap lengths under the idle table. */
static char *gap_histogram(const struct gaps *g)
{
	static const char *const labels[GAPS_NBUCKETS] = { "< 5 us",    "5-10 us",  "10-20 us",
							   "20-100 us", "0.1-1 ms", ">= 1 ms" };
	uint64_t count[GAPS_NBUCKETS] = { 0 }, most = 0;
	size_t size = 4096, o = 0;
	char *buf = xmalloc(size);
	for (size_t k = 0; k < g->nlanes; k++)
		for (int b = 0; b < GAPS_NBUCKETS; b++)
			count[b] += g->lanes[k].hist[b];
	for (int b = 0; b < GAPS_NBUCKETS; b++)
		most = count[b] > most ? count[b] : most;
	o += (size_t)snprintf(buf + o, size - o, "%s\n", _("Gap lengths:"));
	for (int b = 0; b < GAPS_NBUCKETS; b++) {
		int bar = most ? (int)((40 * count[b] + most - 1) / most) : 0;
		o += (size_t)snprintf(buf + o, size - o, "  %-10s %10llu  ", labels[b],
				      (unsigned long long)count[b]);
		for (int i = 0; i < bar && o + 2 < size; i++)
			buf[o++] = '#';
		buf[o++] = '\n';
		buf[o] = '\0';
	}
	return buf;
}

static void idle_table(const struct trace *t, const struct report_params *p, const struct gaps *gp,
		       struct table *out)
{
	const struct gaps g = *gp;
	char range[UNITS_BUFSZ];
	table_init(out, "idle", idle_cols, NCOLS(idle_cols));
	snprintf(out->caption, sizeof(out->caption),
		 P_("GPU idle: %zu GPU over %s of wall time", "GPU idle: %zu GPUs over %s of wall time",
		    g.nlanes),
		 g.nlanes, units_format_ns(sat_sub(g.range_end, g.range_start), range, sizeof(range)));
	for (size_t i = 0; i < g.nlanes && report_want_row(p, i); i++) {
		const struct gap_lane *l = &g.lanes[i];
		struct table_cell *c = table_add_row(out);
		report_set_lane(t, &g, &c[0], l->lane);
		c[1].num = gap_lane_span(l);
		c[2].num = l->busy;
		c[3].num = gap_lane_span(l) - l->busy;
		c[4].num = l->leading;
		c[5].num = l->trailing;
		c[6].num = (int64_t)l->ngaps;
		c[7].num = l->cause_ns[GAP_HOST_WAIT];
		c[8].num = l->cause_ns[GAP_KERNEL_WAIT];
		c[9].num = l->cause_ns[GAP_OTHER];
		c[10].num = l->max_gap;
		c[11].num = l->cause_ns[GAP_GRAPH];
	}
	out->footer = gap_histogram(&g);
}

static void build(const struct trace *t, const struct report_params *p, const struct selection *sel,
		  struct table *out)
{
	struct gaps g;
	/* The lanes' sums are all it shows: no gap is kept. */
	struct gaps_params gp = { .threshold = p->analysis->gap_threshold,
				  .per_queue = p->analysis->per_queue,
				  .keep = 0 };
	gaps_find(t, sel, &gp, &g);
	idle_table(t, p, &g, out);
	gaps_free(&g);
}

/* Node group by node group: each GPU's lane, whole in its group. Of each
 * queue, a lane's label would need the queues' names. */
static int can_merge(const struct report_params *p)
{
	return !p->analysis->per_queue;
}

static void *part_new(const struct report_params *p)
{
	struct idle_part *part = xmalloc(sizeof(*part));
	(void)p;
	idle_part_init(part);
	return part;
}

static void part_add(void *part, const struct trace *t, const struct selection *sel,
		     const struct report_params *p, struct call_asks **asks)
{
	(void)asks;
	idle_part_add(part, t, sel, p->analysis->gap_threshold);
}

static void part_encode(void *part, const struct trace *t, struct bytes_out *b)
{
	(void)t;
	idle_part_encode(part, b);
}

static int part_merge(void *part, const struct part_in *in)
{
	return idle_part_merge(part, in);
}

static void part_table(void *part, struct trace *whole, const struct window *window,
		       const struct report_params *p, struct table *out)
{
	struct gaps g;
	idle_part_finish(part, whole, window, &g);
	idle_table(whole, p, &g, out);
	gaps_free(&g);
}

static void part_free(void *part)
{
	idle_part_free(part);
	free(part);
}

static const struct report_merge merge = { can_merge,  part_new,   part_add, part_encode,
					   part_merge, part_table, part_free };

const struct report_def report_idle = { .name = "idle",
					.help = N_("per GPU"),
					.cols = idle_cols,
					.ncols = NCOLS(idle_cols),
					.apis = API_NEED_LAUNCHES,
					.build = build,
					.merge = &merge };
