/* The figures of a report's row in its columns' cells (all but its
 * texts: names, labels), for the report's table and for the viewer's
 * pane that shows the same rows: a number on screen and the same number
 * in a report are made by one function. */
#ifndef RPDTOP_REPORT_ROWS_H
#define RPDTOP_REPORT_ROWS_H

#include "analysis/api_calls.h"
#include "analysis/busy.h"
#include "analysis/findings.h"
#include "analysis/markers.h"
#include "analysis/profile.h"
#include "present/table.h"

/* top and ktop (report_top.cols): calls to var, and the share. */
void report_profile_cells(const struct profile *p, const struct profile_row *r, struct table_cell *c);
/* busy (report_busy.cols): ops to span busy%, but the GPU and input. */
void report_busy_cells(const struct busy *b, const struct busy_row *r, struct table_cell *c);
/* api (report_api.cols): calls to percent. */
/* A finding's figures (rank, time, share, count, start, end) in the
 * findings report's cells; its texts are the caller's. */
void report_finding_cells(const struct finding *f, size_t rank, struct table_cell *c);
void report_api_cells(const struct api_calls *a, const struct api_call_row *r, struct table_cell *c);
/* markers (report_markers.cols): calls to ops. */
void report_marker_cells(const struct marker_row *r, struct table_cell *c);

#endif
