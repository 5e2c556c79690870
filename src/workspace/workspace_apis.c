#include "config.h"
#include "session/session.h"

#include "load/background.h"
#include "load/load.h"
#include "workspace/workspace_cache.h"

void session_read_apis(struct session *s)
{
	for (size_t k = 0; k < s->ntraces; k++)
		if (!s->views[k].bg)
			s->views[k].bg = bg_apis_start(&s->views[k].trace);
}

enum session_apis session_apis(const struct session *s)
{
	for (size_t k = 0; k < s->ntraces; k++)
		if (s->views[k].bg)
			return SESSION_APIS_READING;
	return SESSION_APIS_NONE;
}

int session_apis_ready(const struct session *s)
{
	for (size_t k = 0; k < s->ntraces; k++)
		if (s->views[k].bg && !bg_apis_done(s->views[k].bg))
			return 0;
	return 1;
}

int session_take_apis(struct session *s, int wait, struct rpd_error *err)
{
	if (session_apis(s) != SESSION_APIS_READING || s->readers > 0 || (!wait && !session_apis_ready(s)))
		return 0;
	int rc = 1;
	for (size_t k = 0; k < s->ntraces; k++) {
		struct session_view *v = &s->views[k];
		if (v->bg && bg_apis_finish(v->bg, &v->trace, &v->order, err))
			rc = -1;
		v->bg = NULL;
	}
	if (rc == 1)
		cache_jobs_start(s);
	s->stale = 1;
	session_refresh(s);
	return rc;
}

int session_load_apis(struct session *s, struct rpd_error *err)
{
	int rc = 0;
	cache_jobs_end(s);
	for (size_t k = 0; k < s->ntraces; k++) {
		struct trace *t = &s->views[k].trace;
		if (s->views[k].bg || t->apis.n > 0 || t->no_op_ids)
			continue;
		if (trace_load_apis(t, err))
			rc = -1;
		s->stale = 1;
	}
	if (rc == 0)
		cache_jobs_start(s);
	session_refresh(s);
	return rc;
}

int session_ready_for_export(struct session *s, struct rpd_error *err)
{
	const struct trace *t = session_trace(s);
	int need = session_filtered(s);
	for (size_t i = 0; i < t->ninputs; i++)
		need |= t->inputs[i].format == INPUT_ROCPD;
	if (!need || t->apis_read)
		return 0;
	if (session_apis(s) == SESSION_APIS_READING) {
		/* Taken once read, unless a job still reads the trace. */
		int rc = session_take_apis(s, 1, err);
		return rc < 0 ? -1 : rc == 0 ? 1 : 0;
	}
	return session_load_apis(s, err);
}
