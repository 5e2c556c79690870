/* The viewer's settings in the settings file (util/settings_file.h):
 * "name = value" lines and "bind KEY COMMAND" before any section; the
 * [categories] section is the reports' (session/settings_categories.h).
 * A bad line is named with its number on stderr and ignored. */
#ifndef RPDTOP_SETTINGS_H
#define RPDTOP_SETTINGS_H

#include <stddef.h>

#include "tui/request.h"

#define CONFIG_MAX_BINDS 64

struct tui_config {
	int mono;       /* theme = mono: no colours */
	size_t pane;    /* pane = profile | kernels | busy */
	unsigned names; /* demangle / strip-templates (enum name_style) */
};

/* Read the settings file if there is one; defaults otherwise. */
void config_load(struct tui_config *c);
/* Parse one settings file (for tests too); returns the bad lines. */
int config_read(struct tui_config *c, const char *path);

#endif
