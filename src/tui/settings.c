#include "config.h"
#include "tui/settings.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "display/names.h"
#include "util/i18n.h"
#include "util/settings_file.h"

static const char *const panes[] = { "profile", "kernels", "busy" };

/* The settings of the name style (enum name_style). */
static const struct {
	const char *name;
	unsigned bit;
} name_styles[] = {
	{ "demangle", NAME_DEMANGLE },
	{ "strip-templates", NAME_STRIP },
	{ "tensile-short", NAME_TENSILE },
};

static int yes_no(const char *v, int *out)
{
	if (!strcmp(v, "yes") || !strcmp(v, "on") || !strcmp(v, "true")) {
		*out = 1;
		return 0;
	}
	if (!strcmp(v, "no") || !strcmp(v, "off") || !strcmp(v, "false")) {
		*out = 0;
		return 0;
	}
	return -1;
}

static int setting(struct tui_config *c, const char *name, const char *value)
{
	int on;
	if (!strcmp(name, "theme")) {
		if (strcmp(value, "default") && strcmp(value, "mono"))
			return -1;
		c->mono = !strcmp(value, "mono");
		return 0;
	}
	if (!strcmp(name, "pane")) {
		for (size_t i = 0; i < sizeof(panes) / sizeof(panes[0]); i++)
			if (!strcmp(value, panes[i])) {
				c->pane = i;
				return 0;
			}
		return -1;
	}
	for (size_t i = 0; i < sizeof(name_styles) / sizeof(name_styles[0]); i++) {
		if (strcmp(name, name_styles[i].name) != 0)
			continue;
		if (yes_no(value, &on))
			return -1;
		unsigned bit = name_styles[i].bit;
		c->names = on ? c->names | bit : c->names & ~bit;
		return 0;
	}
	return -1;
}

/* "bind KEY COMMAND": KEY in libtermkey notation, COMMAND a name from the
 * help screen's list (move-down, quit, ...). */
static int bind(char *rest)
{
	char *key = strtok(rest, " \t"), *cmd = strtok(NULL, " \t");
	if (!key || !cmd || strtok(NULL, " \t"))
		return -1;
	enum request r = request_by_name(cmd);
	return r == REQ_NONE ? -1 : request_bind(key, r);
}

/* The viewer's lines are those before any section; other sections
 * ([categories]) are the reports'. */
static int viewer_line(void *ctx, const char *section, char *s, const char *path, int lineno)
{
	struct tui_config *c = ctx;
	char *eq = strchr(s, '=');
	(void)path;
	(void)lineno;
	if (*section)
		return strcmp(section, "categories") == 0 || strcmp(section, "findings") == 0 ? 0 : -1;
	if (!strncmp(s, "bind", 4) && isspace((unsigned char)s[4]))
		return bind(s + 4);
	if (!eq)
		return -1;
	*eq = '\0';
	return setting(c, settings_trim(s), settings_trim(eq + 1));
}

int config_read(struct tui_config *c, const char *path)
{
	return settings_file_read(path, viewer_line, c);
}

void config_load(struct tui_config *c)
{
	char path[4096];
	memset(c, 0, sizeof(*c));
	c->names = NAME_DEMANGLE;
	if (settings_file_path(path, sizeof(path)) == 0)
		config_read(c, path);
}
