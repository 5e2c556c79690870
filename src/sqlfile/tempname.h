/* The temporary file an output is written to, beside its target: named so
 * that it is hidden and known as ours, locked while it is written, and
 * removed by a later write to the same directory when the process that
 * wrote it died without removing it (SIGKILL, a power cut). */
#ifndef RPDTOP_SQLFILE_TEMPNAME_H
#define RPDTOP_SQLFILE_TEMPNAME_H

/* Create ".NAME.rpdtop-PID.XXXXXX" beside path (NAME its last component),
 * an ordinary file (umask applies), flock'ed through *lock_fd for as long
 * as that stays open. Returns its path (caller frees), or NULL with errno. */
char *tempname_create(const char *path, int *lock_fd);

/* Remove the temporary files of our naming in path's directory whose
 * writer is gone: no lock on them, their process not running, owned by
 * us. Returns how many were removed. */
int tempname_remove_stale(const char *path);

#endif
