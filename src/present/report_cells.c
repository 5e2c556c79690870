#include "config.h"
#include "present/report_cells.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/namestat.h"
#include "util/xalloc.h"

void report_set_str(struct table_cell *c, const char *s)
{
	table_set_text(c, s, strlen(s));
}

void report_set_gpu(const struct trace *t, struct table_cell *c, uint32_t gpu)
{
	char label[256];
	report_set_str(c, trace_gpu_label(t, gpu, label, sizeof(label)));
}

void report_set_lane(const struct trace *t, const struct gaps *g, struct table_cell *c, uint32_t lane)
{
	char gpu[256], queue[256], label[520];
	if (!g->per_queue) {
		report_set_gpu(t, c, lane);
		return;
	}
	snprintf(label, sizeof(label), "%s %s", trace_gpu_label(t, t->queues[lane].gpu, gpu, sizeof(gpu)),
		 trace_queue_label(t, lane, queue, sizeof(queue)));
	report_set_str(c, label);
}

int report_want_row(const struct report_params *p, size_t i)
{
	return !p->limit || i < p->limit;
}

void report_set_name(const struct trace *t, struct table_cell *c, uint32_t id)
{
	if (id != TRACE_NONE)
		table_set_text(c, trace_str(t, id), strtab_len(&t->strings, id));
	else
		table_set_text(c, "", 0);
}

const struct api_order *report_api_order(const struct trace *t, const struct report_params *p,
					 struct api_order *own)
{
	memset(own, 0, sizeof(*own));
	if (p->order && api_order_fits(p->order, t))
		return p->order;
	api_order_build(t, own);
	return own;
}

void *report_names_new(const struct report_params *p)
{
	struct namestat *part = xmalloc(sizeof(*part));
	(void)p;
	namestat_init(part);
	return part;
}

void report_names_encode(void *part, const struct trace *t, struct bytes_out *b)
{
	namestat_encode(part, t, b);
}

int report_names_merge(void *part, const struct part_in *in)
{
	return namestat_merge(part, in);
}

void report_names_free(void *part)
{
	namestat_free(part);
	free(part);
}

void names_set_cell(struct table_cell *cell, struct name_cache *c, const struct trace *t, uint32_t id)
{
	if (id == TRACE_NONE)
		table_set_ref(cell, "");
	else if (c)
		table_set_ref(cell, name_cache_get(c, t, id));
	else
		table_set_ref(cell, trace_str(t, id));
}

void names_set_cell_after(struct table_cell *cell, struct name_cache *c, const struct trace *t, uint32_t id)
{
	const char *name = c ? name_cache_get(c, t, id) : trace_str(t, id);
	size_t n = strlen(name);
	char *s = xmalloc(n + 7);
	memcpy(s, "after ", 6);
	memcpy(s + 6, name, n + 1);
	table_set_text(cell, s, n + 6);
	free(s);
}
