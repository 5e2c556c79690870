/* Where an export may go: never onto an input, a link to one, or one of
 * an SQLite input's companion files (its -journal, -wal or -shm, which
 * SQLite would take for the input's own and delete or replay), and with
 * --force only over a regular file (never a FIFO or a device node). */
#ifndef RPDTOP_EXPORT_PATH_H
#define RPDTOP_EXPORT_PATH_H

#include "trace/trace.h"
#include "util/error.h"

/* 0 when path may be written for t's export (force: an existing file
 * may be replaced), else -1 with the reason in err. */
int export_check_path(const struct trace *t, const char *path, int force, struct rpd_error *err);

#endif
