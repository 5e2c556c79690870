/* The cache files of a workspace's traces: written on other threads once
 * everything is read, or at once by the batch modes. */
#include "config.h"
#include "workspace/workspace_cache.h"

#include "load/cache.h"

/* The session's order of a trace's calls, when made for its rows as
 * they are: kept with the trace, a reopen need not sort them again. */
static const uint32_t *call_order(const struct workspace *w, size_t k)
{
	const struct session_view *v = &w->session.views[k];
	return api_order_fits(&v->order, &v->trace) ? v->order.rows : NULL;
}

void workspace_cache_end(struct workspace *w)
{
	for (size_t k = 0; k < w->session.ntraces; k++) {
		cache_job_end(w->io[k].cache_job, 0);
		w->io[k].cache_job = NULL;
	}
}

/* Everything is read: the cache files are written meanwhile, the traces
 * being only read from now on. */
void workspace_cache_start(struct workspace *w)
{
	for (size_t k = 0; k < w->session.ntraces; k++) {
		struct workspace_io *io = &w->io[k];
		const struct trace *t = session_trace_at(&w->session, k);
		if (io->cache && !io->cache_job && t->apis_read) {
			io->cache_job = cache_job_start(io->cache, t, call_order(w, k));
			io->cache = NULL;
		}
	}
}

int workspace_save_cache(struct workspace *w, struct rpd_error *err)
{
	int rc = 0;
	workspace_cache_end(w);
	for (size_t k = 0; k < w->session.ntraces; k++) {
		struct workspace_io *io = &w->io[k];
		if (io->cache &&
		    cache_save(io->cache, session_trace_at(&w->session, k), call_order(w, k), NULL, err))
			rc = -1;
		cache_entry_free(io->cache);
		io->cache = NULL;
	}
	return rc;
}
