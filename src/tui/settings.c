#include "config.h"
#include "tui/settings.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "present/names.h"
#include "util/i18n.h"

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

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	char *e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
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

int config_read(struct tui_config *c, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	int n = 0, bad = 0;
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		n++;
		char *s = trim(line);
		if (!*s || *s == '#')
			continue;
		int rc;
		char *eq = strchr(s, '=');
		if (!strncmp(s, "bind", 4) && isspace((unsigned char)s[4])) {
			rc = bind(s + 4);
		} else if (eq) {
			*eq = '\0';
			rc = setting(c, trim(s), trim(eq + 1));
		} else {
			rc = -1;
		}
		if (rc) {
			fprintf(stderr, _("rpdtop: %s:%d: ignored: not a setting this version knows\n"), path,
				n);
			bad++;
		}
	}
	fclose(f);
	return bad;
}

void config_load(struct tui_config *c)
{
	char path[4096];
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	memset(c, 0, sizeof(*c));
	c->names = NAME_DEMANGLE;
	if (xdg && *xdg)
		snprintf(path, sizeof(path), "%s/rpdtop/config", xdg);
	else if (home && *home)
		snprintf(path, sizeof(path), "%s/.config/rpdtop/config", home);
	else
		return;
	config_read(c, path);
}
