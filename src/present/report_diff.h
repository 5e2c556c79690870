/* The diff of two runs (--diff): the session's two traces compared by
 * name and by GPU, in text, CSV, JSON or Markdown. */
#ifndef RPDTOP_REPORT_DIFF_H
#define RPDTOP_REPORT_DIFF_H

#include <stdio.h>

#include "present/table.h"
#include "session/session.h"

#define REPORT_DIFF_GATED 3 /* the exit status when the gate trips */

struct diff_params {
	double tolerance; /* percent: same within it */
	double gate;      /* percent, < 0: no gate */
	unsigned style;   /* how names are shown and compared (enum name_style) */
	size_t limit;     /* at most this many names besides *total*, 0: all */
};

/* Compare the session's second trace (new) with its first (base) and
 * write the result. Returns 0, or REPORT_DIFF_GATED when the gate tripped.
 * What a format cannot hold (CSV: warnings, the gate) goes to stderr. */
int report_diff(const struct session *s, const struct diff_params *p, enum table_format format, FILE *out);

#endif
