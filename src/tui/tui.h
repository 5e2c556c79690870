/* The interactive viewer. */
#ifndef RPDTOP_TUI_H
#define RPDTOP_TUI_H

#include "trace/trace.h"

struct tui_options {
	/* Headless: read keys and commands from this file instead of a
	 * terminal (see tests/tui-*.test); NULL for a terminal. */
	const char *script;
};

/* Run until the user quits; returns the exit status. The trace gets its
 * API rows when the timeline first needs them. */
int tui_run(struct trace *t, const struct tui_options *o);

#endif
