/* The cache files of a workspace's traces, written on threads of their
 * own while the traces are only read (workspace.h has the rest). */
#ifndef RPDTOP_WORKSPACE_CACHE_H
#define RPDTOP_WORKSPACE_CACHE_H

#include "workspace/workspace.h"

/* Wait for the cache files being written, before the traces change. */
void workspace_cache_end(struct workspace *w);
/* Start writing the cache files of the traces whose API rows are in. */
void workspace_cache_start(struct workspace *w);

#endif
