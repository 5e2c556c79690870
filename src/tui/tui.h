/* The interactive viewer. */
#ifndef RPDTOP_TUI_H
#define RPDTOP_TUI_H

#include "analysis/params.h"
#include "workspace/workspace.h"

struct tui_options {
	/* Headless: read keys and commands from this file instead of a
	 * terminal (see tests/tui-*.test); NULL for a terminal. */
	const char *script;
	const struct analysis_params *analysis; /* the analyses' parameters, which it copies */
	int strip;                              /* --strip: names start stripped */
	int debug_memory;                       /* --debug-memory: where memory went, on stderr at the end */
};

/* Run until the user quits; returns the exit status. The viewer starts
 * with the workspace's session, its filter and window; the trace gets its
 * API rows in the background once the first screen is up. */
int tui_run(struct workspace *w, const struct tui_options *o);

#endif
