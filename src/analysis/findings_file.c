#include "config.h"
#include "analysis/findings_file.h"

#include <string.h>

#include "util/i18n.h"
#include "util/settings_file.h"

static int findings_line(void *ctx, const char *section, char *s, const char *path, int lineno)
{
	if (strcmp(section, "findings") != 0)
		return 0; /* another's */
	char *eq = strchr(s, '=');
	if (!eq)
		return -1;
	*eq = '\0';
	char *name = settings_trim(s), *value = settings_trim(eq + 1);
	if (findings_threshold_set(ctx, name, value)) {
		settings_file_complain(path, lineno,
				       _("not a threshold of the findings, or not a number >= 0"));
		return -2;
	}
	return 0;
}

void settings_findings_load(struct findings_thresholds *th)
{
	char path[4096];
	if (settings_file_path(path, sizeof(path)) == 0)
		settings_file_read(path, findings_line, th);
}
