/* A directory of the harness's own for the files it writes (the fuzzed
 * database, an export), under $TMPDIR, emptied and removed when the
 * fuzzer exits: a run leaves no file behind. */
#ifndef RPDTOP_FUZZ_TMP_H
#define RPDTOP_FUZZ_TMP_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char fuzz_dir[4096];
static char fuzz_files[4][4200];
static int fuzz_nfiles;

static void fuzz_tmp_cleanup(void)
{
	for (int i = 0; i < fuzz_nfiles; i++)
		unlink(fuzz_files[i]);
	if (fuzz_dir[0])
		rmdir(fuzz_dir);
}

/* The path of file name in the harness's directory (made on first use);
 * NULL when no directory can be made. */
static const char *fuzz_tmp_path(const char *name)
{
	if (!fuzz_dir[0]) {
		const char *t = getenv("TMPDIR");
		snprintf(fuzz_dir, sizeof(fuzz_dir), "%s/rpdtop-fuzz-XXXXXX", t && *t ? t : "/tmp");
		if (!mkdtemp(fuzz_dir)) {
			fuzz_dir[0] = '\0';
			return NULL;
		}
		atexit(fuzz_tmp_cleanup);
	}
	for (int i = 0; i < fuzz_nfiles; i++)
		if (strcmp(strrchr(fuzz_files[i], '/') + 1, name) == 0)
			return fuzz_files[i];
	if (fuzz_nfiles == 4)
		return NULL;
	snprintf(fuzz_files[fuzz_nfiles], sizeof(fuzz_files[0]), "%s/%s", fuzz_dir, name);
	return fuzz_files[fuzz_nfiles++];
}

#endif
