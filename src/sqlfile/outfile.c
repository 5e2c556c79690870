#include "config.h"
#include "sqlfile/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util/i18n.h"
#include "util/interrupt.h"

/* The temporary file being written, removed at exit if the program ends
 * before it was moved into place (out of memory, say). */
static char *pending_tmp;

static void remove_pending(void)
{
	if (pending_tmp)
		unlink(pending_tmp);
}

void outfile_pending(char *tmp)
{
	static int registered;
	if (!registered && atexit(remove_pending) == 0)
		registered = 1;
	pending_tmp = tmp;
}

void outfile_done(const char *tmp)
{
	if (pending_tmp == tmp)
		pending_tmp = NULL;
}

int outfile_move(const char *tmp, const char *path, int force, struct rpd_error *err)
{
	if (force ? rename(tmp, path) == 0 : link(tmp, path) == 0) {
		if (!force)
			unlink(tmp);
		return 0;
	}
	if (errno == EEXIST)
		return err_set(err, _("%s: already exists (use --force to replace it)"), path);
	return err_set(err, "%s: %s", path, strerror(errno));
}

#define SYNC_POLL_NS 20000000L

/* RPDTOP_TEST_SYNC_PAUSE=MS: the sync waits first, as on a slow disk. */
static void test_sync_pause(void)
{
	const char *v = getenv("RPDTOP_TEST_SYNC_PAUSE");
	long ms = v ? strtol(v, NULL, 10) : 0;
	if (ms > 0 && ms <= 60000) {
		struct timespec ts = { ms / 1000, ms % 1000 * 1000000L };
		nanosleep(&ts, NULL);
	}
}

/* Wait for the syncing child: its status, or OUTFILE_STOPPED when an
 * interrupt came first (the child is left to end on its own). */
static int wait_sync(pid_t child)
{
	struct timespec ts = { 0, SYNC_POLL_NS };
	for (;;) {
		int status;
		pid_t got = waitpid(child, &status, WNOHANG);
		if (got == child)
			return WIFEXITED(status) ? WEXITSTATUS(status) : EIO;
		if (got < 0 && errno != EINTR)
			return errno;
		if (interrupt_pending()) {
			kill(child, SIGKILL);
			return OUTFILE_STOPPED;
		}
		nanosleep(&ts, NULL);
	}
}

/* A large file's fsync on a slow disk takes many seconds and cannot be
 * interrupted, nor can a process end while one of its threads is in it:
 * a child process syncs, so that Ctrl-C acts at once (the file is
 * unlinked, and the child ends when the disk is done with it). */
int outfile_sync(const char *path, int lock_fd)
{
	if (interrupt_pending())
		return OUTFILE_STOPPED;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	pid_t child = fork();
	if (child == 0) {
		/* The parent's lock on the file is not the child's to keep: a
		 * parent killed meanwhile leaves the file stale at once. */
		if (lock_fd >= 0)
			close(lock_fd);
		test_sync_pause();
		_exit(fsync(fd) == 0 ? 0 : errno & 0xff);
	}
	int rc;
	if (child < 0) /* no process to spare: sync here */
		rc = fsync(fd) == 0 ? 0 : errno;
	else
		rc = wait_sync(child);
	close(fd);
	/* A Ctrl-C during the sync still wins over the rename. */
	return rc == 0 && interrupt_pending() ? OUTFILE_STOPPED : rc;
}
