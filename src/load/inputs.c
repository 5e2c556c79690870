#include "config.h"
#include "load/inputs.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "load/load.h"
#include "util/i18n.h"
#include "util/natcmp.h"
#include "util/xalloc.h"

/* Directories nested deeper than this are not followed (a guard for
 * trees that are deep, not looped: loops are caught by identity). */
#define MAX_DEPTH 64

/* A file or directory by what it is, not by the path that reached it. */
struct file_id {
	dev_t dev;
	ino_t ino;
	size_t input; /* for a file: its index in the list */
};

/* What the expansion has reached so far: files read and directories
 * scanned, so that a path reaching either again (the same argument
 * twice, a hard link, a symlink, a `latest -> run42` directory, a
 * directory's link to itself) adds nothing. */
struct seen {
	struct file_id *files, *dirs;
	size_t nfiles, capfiles, ndirs, capdirs;
	size_t found; /* database files met, the ones met again included */
};

static const struct file_id *find_id(const struct file_id *ids, size_t n, const struct stat *st)
{
	for (size_t i = 0; i < n; i++)
		if (ids[i].dev == st->st_dev && ids[i].ino == st->st_ino)
			return &ids[i];
	return NULL;
}

static void add(struct input_list *list, const char *path)
{
	list->paths = xgrow(list->paths, &list->cap, list->n + 1, sizeof(*list->paths));
	list->paths[list->n++] = xstrdup(path);
}

/* A file, unless it was reached already (then a warning names both paths;
 * the names are shown with their control characters escaped). */
static void add_file(struct input_list *list, struct seen *seen, const char *path, const struct stat *st)
{
	const struct file_id *was = find_id(seen->files, seen->nfiles, st);
	if (was) {
		err_report(_("rpdtop: %s is the same file as %s; read once"), path, list->paths[was->input]);
		return;
	}
	seen->files = xgrow(seen->files, &seen->capfiles, seen->nfiles + 1, sizeof(*seen->files));
	seen->files[seen->nfiles++] = (struct file_id){ st->st_dev, st->st_ino, list->n };
	add(list, path);
}

/* A directory to scan, unless it was scanned already. */
static int first_visit(struct seen *seen, const struct stat *st)
{
	if (find_id(seen->dirs, seen->ndirs, st))
		return 0;
	seen->dirs = xgrow(seen->dirs, &seen->capdirs, seen->ndirs + 1, sizeof(*seen->dirs));
	seen->dirs[seen->ndirs++] = (struct file_id){ st->st_dev, st->st_ino, 0 };
	return 1;
}

static int ends_with(const char *name, const char *end)
{
	size_t n = strlen(name), e = strlen(end);
	return n > e && strcmp(name + n - e, end) == 0;
}

/* A directory's traces: databases by their usual names (.rpd, .db,
 * .sqlite), and JSON files (.json, .json.gz) that hold a trace; other
 * JSON files there (configurations, results) are passed over. */
static int is_trace_file(const char *name, const char *path)
{
	if (ends_with(name, ".rpd") || ends_with(name, ".db") || ends_with(name, ".sqlite"))
		return 1;
	return (ends_with(name, ".json") || ends_with(name, ".json.gz")) && load_json_is_trace(path);
}

/* Natural order: rank2.rpd before rank10.rpd. */
static int by_name(const struct dirent **a, const struct dirent **b)
{
	return natcmp((*a)->d_name, (*b)->d_name);
}

/* Every database file below dir, hidden entries skipped, in name order;
 * a directory reached a second time (by a link) is not scanned again. */
static int scan(const char *dir, int depth, struct input_list *list, struct seen *seen, struct rpd_error *err)
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
			if (S_ISDIR(st.st_mode) && depth < MAX_DEPTH && first_visit(seen, &st))
				rc = scan(path, depth + 1, list, seen, err);
			else if (S_ISREG(st.st_mode) && is_trace_file(name, path)) {
				seen->found++;
				add_file(list, seen, path, &st);
			}
		}
		free(path);
		free(entries[i]);
	}
	free(entries);
	return rc;
}

static int expand(const char *const *args, size_t nargs, struct input_list *list, struct seen *seen,
		  struct rpd_error *err)
{
	for (size_t i = 0; i < nargs; i++) {
		struct stat st;
		/* Anything but a file or a directory is left for the loader to
		 * judge (and to name in its message). */
		if (stat(args[i], &st) != 0 || (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode))) {
			add(list, args[i]);
			continue;
		}
		if (S_ISREG(st.st_mode)) {
			add_file(list, seen, args[i], &st);
			continue;
		}
		size_t before = seen->found;
		int again = !first_visit(seen, &st);
		if (!again && scan(args[i], 0, list, seen, err))
			return -1;
		if (again) {
			struct rpd_error w;
			err_set(&w, _("rpdtop: %s was read already (the same directory); read once"),
				args[i]);
			fprintf(stderr, "%s\n", w.msg);
		} else if (seen->found == before) {
			return err_set(err,
				       _("%s: no traces in this directory (.rpd, .db, .sqlite, or .json and "
					 ".json.gz holding a trace)"),
				       args[i]);
		}
	}
	return 0;
}

int inputs_expand(const char *const *args, size_t nargs, struct input_list *list, struct rpd_error *err)
{
	struct seen seen = { 0 };
	memset(list, 0, sizeof(*list));
	int rc = expand(args, nargs, list, &seen, err);
	free(seen.files);
	free(seen.dirs);
	if (rc)
		inputs_free(list);
	return rc;
}

void inputs_free(struct input_list *list)
{
	for (size_t i = 0; i < list->n; i++)
		free(list->paths[i]);
	free(list->paths);
	memset(list, 0, sizeof(*list));
}
