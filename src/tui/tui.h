/* The interactive viewer. */
#ifndef RPDTOP_TUI_H
#define RPDTOP_TUI_H

#include "workspace/workspace.h"

struct tui_options {
	/* Headless: read keys and commands from this file instead of a
	 * terminal (see tests/tui-*.test); NULL for a terminal. */
	const char *script;
	int64_t gap_threshold; /* --gap-threshold (ns) */
	const char *comm;      /* --comm: communication kernels; NULL: the default */
	double tolerance;      /* --tolerance: the diff's "same" (percent) */
	int strip;             /* --strip: names start stripped */
	int debug_memory;      /* --debug-memory: where memory went, on stderr at the end */
};

/* Run until the user quits; returns the exit status. The viewer starts
 * with the workspace's session, its filter and window; the trace gets its
 * API rows in the background once the first screen is up. */
int tui_run(struct workspace *w, const struct tui_options *o);

#endif
