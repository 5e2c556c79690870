#include "config.h"
#include "sqlfile/tempname.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/xalloc.h"

#define MARK ".rpdtop-"

/* path's directory ("." for a bare name) and last component. */
static char *dir_of(const char *path, const char **base)
{
	const char *slash = strrchr(path, '/');
	*base = slash ? slash + 1 : path;
	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	size_t n = (size_t)(slash - path);
	char *dir = xmalloc(n + 1);
	memcpy(dir, path, n);
	dir[n] = '\0';
	return dir;
}

char *tempname_create(const char *path, int *lock_fd)
{
	const char *base;
	char *dir = dir_of(path, &base);
	size_t n = strlen(dir) + strlen(base) + 64;
	char *tmp = xmalloc(n);
	snprintf(tmp, n, "%s/.%s%s%ld.XXXXXX", dir, base, MARK, (long)getpid());
	free(dir);
	int fd = mkstemp(tmp);
	if (fd < 0) {
		free(tmp);
		return NULL;
	}
	/* mkstemp makes the file private; the result is an ordinary file. The
	 * lock says a writer is at it (SQLite's own locks are of another kind
	 * and do not meet it). */
	mode_t mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) != 0 || flock(fd, LOCK_EX | LOCK_NB) != 0) {
		int saved = errno;
		close(fd);
		unlink(tmp);
		free(tmp);
		errno = saved;
		return NULL;
	}
	*lock_fd = fd;
	return tmp;
}

/* The pid in a name of our making: ".NAME.rpdtop-PID.XXXXXX"; 0 when the
 * name is not one. */
static long our_pid(const char *name)
{
	if (name[0] != '.')
		return 0;
	const char *mark = NULL;
	for (const char *p = strstr(name + 1, MARK); p; p = strstr(p + 1, MARK))
		mark = p;
	if (!mark || mark == name + 1)
		return 0;
	const char *digits = mark + strlen(MARK);
	char *end;
	long pid = strtol(digits, &end, 10);
	if (end == digits || pid <= 0 || *end != '.' || strlen(end + 1) != 6)
		return 0;
	for (const char *s = end + 1; *s; s++)
		if (!isalnum((unsigned char)*s))
			return 0;
	return pid;
}

/* Is the file at name (in the directory open as dirfd) a stale one? It
 * is then removed, under its lock. */
static int remove_if_stale(int dirfd, const char *name, long pid)
{
	/* A process of that pid may still be writing it (or another may have
	 * its pid now): left alone either way. */
	if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
		return 0;
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return 0;
	struct stat st;
	int removed = 0;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
	    flock(fd, LOCK_EX | LOCK_NB) == 0)
		removed = unlinkat(dirfd, name, 0) == 0;
	close(fd);
	return removed;
}

int tempname_remove_stale(const char *path)
{
	const char *base;
	char *dir = dir_of(path, &base);
	DIR *d = opendir(dir);
	free(dir);
	if (!d)
		return 0;
	int removed = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		long pid = our_pid(e->d_name);
		if (pid > 0)
			removed += remove_if_stale(dirfd(d), e->d_name, pid);
	}
	closedir(d);
	return removed;
}
