#include "config.h"
#include "workspace/workspace_cache.h"

#include "load/cache.h"

/* Wait for the cache files being written: the traces change next. */
void cache_jobs_end(struct session *s)
{
	for (size_t k = 0; k < s->ntraces; k++) {
		cache_job_end(s->views[k].cache_job, 0);
		s->views[k].cache_job = NULL;
	}
}

/* Everything is read: the cache files are written meanwhile, the traces
 * being only read from now on. */
void cache_jobs_start(struct session *s)
{
	for (size_t k = 0; k < s->ntraces; k++) {
		struct session_view *v = &s->views[k];
		if (v->cache && !v->cache_job && v->trace.apis_read) {
			v->cache_job = cache_job_start(v->cache, &v->trace);
			v->cache = NULL;
		}
	}
}

int session_save_cache(struct session *s, struct rpd_error *err)
{
	int rc = 0;
	cache_jobs_end(s);
	for (size_t k = 0; k < s->ntraces; k++) {
		struct session_view *v = &s->views[k];
		if (v->cache && cache_save(v->cache, &v->trace, NULL, err))
			rc = -1;
		cache_entry_free(v->cache);
		v->cache = NULL;
	}
	return rc;
}
