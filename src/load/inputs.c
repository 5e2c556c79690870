#include "config.h"
#include "load/inputs.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/i18n.h"
#include "util/xalloc.h"

/* Directories nested deeper than this are not followed (a loop guard). */
#define MAX_DEPTH 16

static void add(struct input_list *list, const char *path)
{
	list->paths = xgrow(list->paths, &list->cap, list->n + 1, sizeof(*list->paths));
	list->paths[list->n++] = xstrdup(path);
}

static int is_database_name(const char *name)
{
	size_t n = strlen(name);
	return (n > 4 && strcmp(name + n - 4, ".rpd") == 0) || (n > 3 && strcmp(name + n - 3, ".db") == 0);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* Every database file below dir, hidden entries skipped, in name order. */
static int scan(const char *dir, int depth, struct input_list *list, struct rpd_error *err)
{
	struct dirent **entries;
	int n = scandir(dir, &entries, NULL, by_name);
	if (n < 0)
		return err_set(err, "%s: %s", dir, strerror(errno));
	int rc = 0;
	for (int i = 0; i < n; i++) {
		const char *name = entries[i]->d_name;
		size_t len = strlen(dir) + strlen(name) + 2;
		char *path = xmalloc(len);
		snprintf(path, len, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", name);
		struct stat st;
		if (rc == 0 && name[0] != '.' && stat(path, &st) == 0) {
			if (S_ISDIR(st.st_mode) && depth < MAX_DEPTH)
				rc = scan(path, depth + 1, list, err);
			else if (S_ISREG(st.st_mode) && is_database_name(name))
				add(list, path);
		}
		free(path);
		free(entries[i]);
	}
	free(entries);
	return rc;
}

int inputs_expand(const char *const *args, size_t nargs, struct input_list *list, struct rpd_error *err)
{
	memset(list, 0, sizeof(*list));
	for (size_t i = 0; i < nargs; i++) {
		struct stat st;
		/* Anything but a directory is left for the loader to judge. */
		if (stat(args[i], &st) != 0 || !S_ISDIR(st.st_mode)) {
			add(list, args[i]);
			continue;
		}
		size_t before = list->n;
		if (scan(args[i], 0, list, err)) {
			inputs_free(list);
			return -1;
		}
		if (list->n == before) {
			inputs_free(list);
			return err_set(err, _("%s: no .rpd or .db files in this directory"), args[i]);
		}
	}
	return 0;
}

void inputs_free(struct input_list *list)
{
	for (size_t i = 0; i < list->n; i++)
		free(list->paths[i]);
	free(list->paths);
	memset(list, 0, sizeof(*list));
}
