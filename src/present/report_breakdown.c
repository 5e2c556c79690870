#include "config.h"
#include "present/report.h"

#include <stdio.h>
#include <stdlib.h>

#include "analysis/breakdown.h"
#include "present/report_cells.h"
#include "util/i18n.h"
#include "util/xalloc.h"

static const struct table_col breakdown_cols[] = {
	{ "gpu", N_("GPU"), COL_LABEL },
	{ "span_ns", N_("SPAN"), COL_NS },
	{ "compute_ns", N_("COMPUTE"), COL_NS },
	{ "comm_ns", N_("COMM"), COL_NS },
	{ "copy_ns", N_("COPY"), COL_NS },
	{ "idle_ns", N_("IDLE"), COL_NS },
	{ "exposed_comm_ns", N_("EXPOSED COMM"), COL_NS },
	{ "exposed_copy_ns", N_("EXPOSED COPY"), COL_NS },
	{ "overlap_ratio", N_("OVERLAP"), COL_PERCENT },
};

static void breakdown_table(const struct trace *t, const struct report_params *p, const struct breakdown *bp,
			    struct table *out)
{
	const struct breakdown b = *bp;
	char pattern[256];
	filter_describe(&p->analysis->comm, pattern, sizeof(pattern));
	table_init(out, "breakdown", breakdown_cols, NCOLS(breakdown_cols));
	snprintf(out->caption, sizeof(out->caption),
		 P_("GPU time breakdown: %zu GPU, communication %s",
		    "GPU time breakdown: %zu GPUs, communication %s", b.n),
		 b.n, pattern);
	for (size_t i = 0; i < b.n && report_want_row(p, i); i++) {
		const struct breakdown_row *r = &b.rows[i];
		struct table_cell *c = table_add_row(out);
		report_set_gpu(t, &c[0], r->gpu);
		c[1].num = r->span;
		c[2].num = r->compute;
		c[3].num = r->comm;
		c[4].num = r->copy;
		c[5].num = r->idle;
		c[6].num = r->exposed_comm;
		c[7].num = r->exposed_copy;
		c[8].pct = r->overlap_ratio;
	}
}

static void build(const struct trace *t, const struct report_params *p, const struct selection *sel,
		  struct table *out)
{
	struct breakdown b;
	breakdown_per_gpu(t, sel, &p->analysis->comm, &b);
	breakdown_table(t, p, &b, out);
	breakdown_free(&b);
}

/* Node group by node group: each GPU's row, whole in its group. */
static void *part_new(const struct report_params *p)
{
	struct breakdown_part *part = xmalloc(sizeof(*part));
	(void)p;
	breakdown_part_init(part);
	return part;
}

static void part_add(void *part, const struct trace *t, const struct selection *sel,
		     const struct report_params *p, struct call_asks **asks)
{
	(void)asks;
	breakdown_part_add(part, t, sel, &p->analysis->comm);
}

static void part_encode(void *part, const struct trace *t, struct bytes_out *b)
{
	(void)t;
	breakdown_part_encode(part, b);
}

static int part_merge(void *part, const struct part_in *in)
{
	return breakdown_part_merge(part, in);
}

static void part_table(void *part, struct trace *whole, const struct window *window,
		       const struct report_params *p, struct table *out)
{
	struct breakdown b;
	(void)window;
	breakdown_part_finish(part, whole, &b);
	breakdown_table(whole, p, &b, out);
	breakdown_free(&b);
}

static void part_free(void *part)
{
	breakdown_part_free(part);
	free(part);
}

static const struct report_merge merge = { NULL,       part_new,   part_add, part_encode,
					   part_merge, part_table, part_free };

const struct report_def report_breakdown = { .name = "breakdown",
					     .help = N_("compute, communication, copies, idle per GPU"),
					     .cols = breakdown_cols,
					     .ncols = NCOLS(breakdown_cols),
					     .apis = API_NEED_NONE,
					     .build = build,
					     .merge = &merge };
