/* What the reports share: to fill their tables' cells (texts, GPU and
 * lane labels, names, the row limit, the API order), and the partial
 * results by name of api and markers. */
#ifndef RPDTOP_REPORT_CELLS_H
#define RPDTOP_REPORT_CELLS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/gaps.h"
#include "present/report.h"

/* The cell's text, copied from s. */
void report_set_str(struct table_cell *c, const char *s);
/* The label of GPU gpu of t. */
void report_set_gpu(const struct trace *t, struct table_cell *c, uint32_t gpu);
/* A lane of gaps: its GPU, or its GPU and queue ("0 q1") per queue. */
void report_set_lane(const struct trace *t, const struct gaps *g, struct table_cell *c, uint32_t lane);
/* Is row i within the limit? */
int report_want_row(const struct report_params *p, size_t i);
/* A report's name cell: the name as c shows it (NULL: as recorded), or ""
 * for TRACE_NONE. The cell points at it, not a copy: the trace and the
 * cache outlive the table (a gaps report has millions of rows). */
void names_set_cell(struct table_cell *cell, struct name_cache *c, const struct trace *t, uint32_t id);
/* The same for a call the host had finished: "after NAME" (a keyword of
 * the data, as the gaps' causes are: not translated). */
void names_set_cell_after(struct table_cell *cell, struct name_cache *c, const struct trace *t, uint32_t id);
/* String id of t as recorded ("" for TRACE_NONE). */
void report_set_name(const struct trace *t, struct table_cell *c, uint32_t id);
/* t's API order: the caller's when it is of these rows, else made in own. */
const struct api_order *report_api_order(const struct trace *t, const struct report_params *p,
					 struct api_order *own);

/* The hooks of a partial result kept as figures by name (struct namestat:
 * api, markers), but for adding and the table. */
void *report_names_new(const struct report_params *p);
void report_names_encode(void *part, const struct trace *t, struct bytes_out *b);
int report_names_merge(void *part, const struct part_in *in);
void report_names_free(void *part);

#endif
