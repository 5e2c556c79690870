/* A region of interest chosen for the user (raptor's automatic one):
 *
 * - hot: from the start of the first instance to the end of the last
 *   instance of the kernel with the most GPU time (the first ktop row);
 * - trim: from the first GPU op's start to the last one's end, dropping
 *   the idle time before and after.
 *
 * Both look at the ops in view (the filter and window), and a window
 * clips the region. */
#ifndef RPDTOP_ROI_H
#define RPDTOP_ROI_H

#include "session/select.h"
#include "session/window.h"
#include "trace/trace.h"

enum roi_kind { ROI_NONE, ROI_HOT, ROI_TRIM };

/* Parse "hot" or "trim"; -1 when it is neither. */
int roi_parse(const char *name, int *kind);
/* The region in the selection; -1 when there is none (no op in view). */
int roi_find(const struct trace *t, const struct selection *sel, int kind, struct window *out);

#endif
