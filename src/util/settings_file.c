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

int settings_file_read(const char *path, settings_line_fn fn, void *ctx)
{
	FILE *f = fopen(path, "r");
	char line[1024], section[64] = "";
	int n = 0, bad = 0;
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		n++;
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
	fclose(f);
	return bad;
}
