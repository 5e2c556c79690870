#include "config.h"
#include "export/export_path.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/i18n.h"

/* path with its directory resolved (the file itself may not exist yet):
 * the name an input's companion would have. 0, or -1. */
static int canonical_out(const char *path, char *buf, size_t size)
{
	char dir[PATH_MAX], base[PATH_MAX], real[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", path);
	snprintf(base, sizeof(base), "%s", path);
	if (!realpath(dirname(dir), real))
		return -1;
	return snprintf(buf, size, "%s/%s", real, basename(base)) < (int)size ? 0 : -1;
}

/* The input whose companion path is, and which (suffix), or -1. */
static long companion_of(const struct trace *t, const char *path, const char **suffix)
{
	static const char *const suffixes[] = { "-journal", "-wal", "-shm" };
	char out[PATH_MAX + 1], in[PATH_MAX];
	if (canonical_out(path, out, sizeof(out)))
		return -1;
	for (size_t i = 0; i < t->ninputs; i++) {
		if (!realpath(t->inputs[i].path, in))
			continue;
		size_t n = strlen(in);
		for (size_t k = 0; k < sizeof(suffixes) / sizeof(suffixes[0]); k++)
			if (strncmp(out, in, n) == 0 && strcmp(out + n, suffixes[k]) == 0) {
				*suffix = suffixes[k];
				return (long)i;
			}
	}
	return -1;
}

int export_check_path(const struct trace *t, const char *path, int force, struct rpd_error *err)
{
	struct stat out, in;
	int exists = stat(path, &out) == 0;
	for (size_t i = 0; exists && i < t->ninputs; i++)
		if (stat(t->inputs[i].path, &in) == 0 && in.st_dev == out.st_dev && in.st_ino == out.st_ino)
			return err_set(err, _("%s: is an input; it is never overwritten"), path);
	const char *suffix = NULL;
	long k = companion_of(t, path, &suffix);
	if (k >= 0)
		return err_set(err, _("%s: is the %s file of the input %s; it is never written"), path,
			       suffix, t->inputs[k].path);
	if (exists && force && !S_ISREG(out.st_mode))
		return err_set(err, _("%s: not a regular file; --force replaces only regular files"), path);
	return 0;
}
