#include "config.h"
#include "present/report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/busy.h"
#include "present/report_rows.h"
#include "util/i18n.h"
#include "util/satmath.h"
#include "util/units.h"
#include "util/xalloc.h"

static const struct table_col busy_cols[] = {
	{ "gpu", N_("GPU"), COL_LABEL },
	{ "ops", N_("OPS"), COL_COUNT },
	{ "sum_ns", N_("SUM"), COL_NS },
	{ "busy_ns", N_("BUSY"), COL_NS },
	{ "wall_ns", N_("WALL"), COL_NS },
	{ "busy_percent", N_("BUSY%"), COL_PERCENT },
	{ "input", N_("INPUT"), COL_LABEL },
	{ "first_ns", N_("FIRST"), COL_COUNT },
	{ "last_ns", N_("LAST"), COL_COUNT },
	{ "span_ns", N_("SPAN"), COL_NS },
	{ "span_busy_percent", N_("SPAN BUSY%"), COL_PERCENT },
};

void report_busy_cells(const struct busy *b, const struct busy_row *r, struct table_cell *c)
{
	c[1].num = (int64_t)r->ops;
	c[2].num = r->sum;
	c[3].num = r->busy;
	c[4].num = r->wall;
	c[5].pct = busy_row_percent(b, r);
	c[7].num = r->first;
	c[8].num = r->last;
	c[9].num = sat_sub(r->last, r->first);
	c[10].pct = busy_row_span_percent(r);
}

static void busy_table(const struct trace *t, size_t limit, const struct busy *bp, struct table *out)
{
	const struct busy b = *bp;
	char wall[UNITS_BUFSZ], label[256];
	table_init(out, "busy", busy_cols, NCOLS(busy_cols));
	if (b.disjoint)
		snprintf(out->caption, sizeof(out->caption), "%s",
			 _("GPU busy: the inputs do not overlap in time, so each GPU's wall time "
			   "is its input's span"));
	else
		snprintf(out->caption, sizeof(out->caption),
			 P_("GPU busy: %zu GPU over %s of wall time",
			    "GPU busy: %zu GPUs over %s of wall time", b.n),
			 b.n, units_format_ns(b.wall, wall, sizeof(wall)));
	for (size_t i = 0; i < b.n && (!limit || i < limit); i++) {
		const struct busy_row *r = &b.rows[i];
		struct table_cell *c = table_add_row(out);
		trace_gpu_label(t, r->gpu, label, sizeof(label));
		table_set_text(&c[0], label, strlen(label));
		report_busy_cells(&b, r, c);
		const char *place = trace_gpu_place(t, r->gpu);
		table_set_text(&c[6], place, strlen(place));
	}
}

static void build(const struct trace *t, const struct report_params *p, const struct selection *sel,
		  struct table *out)
{
	struct busy b;
	busy_per_gpu(t, sel, &b);
	busy_table(t, p->limit, &b, out);
	busy_free(&b);
}

/* Node group by node group: each GPU's row, whole in its group. */
static void *part_new(const struct report_params *p)
{
	struct busy_part *part = xmalloc(sizeof(*part));
	(void)p;
	busy_part_init(part);
	return part;
}

static void part_add(void *part, const struct trace *t, const struct selection *sel,
		     const struct report_params *p, struct call_asks **asks)
{
	(void)p;
	(void)asks;
	busy_part_add(part, t, sel);
}

static void part_encode(void *part, const struct trace *t, struct bytes_out *b)
{
	(void)t;
	busy_part_encode(part, b);
}

static int part_merge(void *part, const struct part_in *in)
{
	return busy_part_merge(part, in);
}

static void part_table(void *part, struct trace *whole, const struct window *window,
		       const struct report_params *p, struct table *out)
{
	struct busy b;
	busy_part_finish(part, whole, window, &b);
	busy_table(whole, p->limit, &b, out);
	busy_free(&b);
}

static void part_free(void *part)
{
	busy_part_free(part);
	free(part);
}

static const struct report_merge merge = { NULL,       part_new,   part_add, part_encode,
					   part_merge, part_table, part_free };

const struct report_def report_busy = { .name = "busy",
					.help = N_("per GPU"),
					.cols = busy_cols,
					.ncols = NCOLS(busy_cols),
					.apis = API_NEED_NONE,
					.build = build,
					.merge = &merge };
