#include "config.h"
#include "util/settings_file.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/i18n.h"

char *settings_trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	char *e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

int settings_file_path(char *buf, size_t size)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	if (xdg && *xdg)
		snprintf(buf, size, "%s/rpdtop/config", xdg);
	else if (home && *home)
		snprintf(buf, size, "%s/.config/rpdtop/config", home);
	else
		return -1;
	return 0;
}

void settings_file_complain(const char *path, int lineno, const char *why)
{
	fprintf(stderr, _("rpdtop: %s:%d: ignored: %s\n"), path, lineno, why);
}

/* Longer lines are refused, not cut. */
#define SETTINGS_LINE_MAX 65536

int settings_file_read(const char *path, settings_line_fn fn, void *ctx)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, section[64] = "";
	size_t cap = 0;
	ssize_t got;
	int n = 0, bad = 0;
	if (!f)
		return 0;
	/* Lines are read whole: a line cut short would make a comment's tail
	 * a setting and shift every line number after it. */
	while ((got = getline(&line, &cap, f)) >= 0) {
		n++;
		if (got > SETTINGS_LINE_MAX) {
			settings_file_complain(path, n, _("a line longer than 65536 bytes"));
			bad++;
			continue;
		}
		char *s = settings_trim(line);
		size_t len = strlen(s);
		if (!*s || *s == '#')
			continue;
		if (s[0] == '[' && s[len - 1] == ']' && len - 2 < sizeof(section)) {
			s[len - 1] = '\0';
			snprintf(section, sizeof(section), "%s", settings_trim(s + 1));
			continue;
		}
		int rc = fn(ctx, section, s, path, n);
		if (rc == -1)
			settings_file_complain(path, n, _("not a setting this version knows"));
		bad += rc != 0;
	}
	free(line);
	fclose(f);
	return bad;
}
