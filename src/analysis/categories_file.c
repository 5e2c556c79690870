#include "config.h"
#include "analysis/categories_file.h"

#include <string.h>

#include "util/settings_file.h"

static int category_line(void *ctx, const char *section, char *s, const char *path, int lineno)
{
	struct categories *c = ctx;
	char err[256];
	if (strcmp(section, "categories") != 0)
		return 0; /* the viewer's, or unknown: the viewer names those */
	char *eq = strchr(s, '=');
	if (!eq)
		return -1;
	*eq = '\0';
	char *name = settings_trim(s), *pattern = settings_trim(eq + 1);
	if (!*name || !*pattern)
		return -1;
	if (categories_add(c, name, pattern, err, sizeof(err))) {
		settings_file_complain(path, lineno, err);
		return -2;
	}
	return 0;
}

void settings_categories_load(struct categories *c, const char *comm)
{
	char path[4096];
	categories_init(c);
	if (settings_file_path(path, sizeof(path)) == 0)
		settings_file_read(path, category_line, c);
	if (c->n == 0)
		categories_defaults(c, comm);
}
