/* The cache files of a session's traces, written on threads of their own
 * while the traces are only read. */
#ifndef RPDTOP_WORKSPACE_CACHE_H
#define RPDTOP_WORKSPACE_CACHE_H

#include "session/session.h"

/* Wait for the cache files being written: the traces change next. */
void cache_jobs_end(struct session *s);
/* Start writing the cache files of the traces whose API rows are in. */
void cache_jobs_start(struct session *s);

#endif
