/* The [categories] section of the settings file (util/settings_file.h):
 * "NAME = REGEX" lines, in the order they are to be tried. */
#ifndef RPDTOP_CATEGORIES_FILE_H
#define RPDTOP_CATEGORIES_FILE_H

#include "analysis/categories.h"

/* The categories of the settings file, or the built-in ones (with comm
 * as the communication pattern) when it names none. Bad lines are named
 * on stderr and ignored. */
void settings_categories_load(struct categories *c, const char *comm);

#endif
