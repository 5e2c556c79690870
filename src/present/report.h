/* The batch reports: which analysis each report runs and the table it makes. */
#ifndef RPDTOP_REPORT_H
#define RPDTOP_REPORT_H

#include <stddef.h>

#include "present/table.h"
#include "session/select.h"
#include "trace/trace.h"

enum report_kind { REPORT_TOP, REPORT_KTOP, REPORT_BUSY, REPORT_COUNTERS };

/* Parse a report name; returns -1 when unknown. */
int report_parse(const char *name, enum report_kind *kind);
/* Parse a format name; returns -1 when unknown. */
int report_parse_format(const char *name, enum table_format *format);

/* Build the report over the selected part of t (sel NULL: all of it),
 * keeping at most limit rows (0 = all). */
void report_build(const struct trace *t, enum report_kind kind, size_t limit, const struct selection *sel,
		  struct table *out);

/* Write the table in the given format to out. */
void report_write(const struct table *tb, const struct trace *t, enum table_format format, FILE *out);

#endif
