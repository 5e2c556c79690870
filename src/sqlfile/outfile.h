/* The end of writing an output under a temporary name beside its target
 * (tempname.h): the file synced to disk, then given its name; and the
 * temporary file removed at exit when the program ends before that (out
 * of memory, say). The database writer and the JSON export share it. */
#ifndef RPDTOP_SQLFILE_OUTFILE_H
#define RPDTOP_SQLFILE_OUTFILE_H

#include "util/error.h"

/* outfile_sync's answer when an interrupt came first. */
#define OUTFILE_STOPPED (-1)

/* tmp is being written: removed at exit unless outfile_done(tmp) comes
 * first. One file at a time. */
void outfile_pending(char *tmp);
void outfile_done(const char *tmp);

/* fsync the file at path: 0, an errno, or OUTFILE_STOPPED when an
 * interrupt came first (lock_fd, the file's lock, is not the syncing
 * child's to keep). */
int outfile_sync(const char *path, int lock_fd);

/* Give tmp the name path: without force the target is claimed with
 * link(), which fails rather than replace a file that appeared meanwhile
 * (tmp is then still there, for the caller to remove). 0, or -1 with
 * *err. */
int outfile_move(const char *tmp, const char *path, int force, struct rpd_error *err);

#endif
