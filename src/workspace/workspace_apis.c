/* A workspace's API rows: read on other threads while the viewer shows
 * the ops, moved into the traces when no job reads them; or read at once
 * when wanted before that. */
#include "config.h"
#include "workspace/workspace.h"

#include "export/export.h"
#include "load/background.h"
#include "load/load.h"
#include "workspace/workspace_cache.h"

void workspace_read_apis(struct workspace *w)
{
	for (size_t k = 0; k < w->session.ntraces; k++)
		if (!w->io[k].bg)
			w->io[k].bg = bg_apis_start(session_trace_at(&w->session, k));
	/* A trace that came with every API row (read in one pass) is whole
	 * now: its cache file is written meanwhile. */
	workspace_cache_start(w);
}

enum workspace_apis workspace_apis(const struct workspace *w)
{
	for (size_t k = 0; k < w->session.ntraces; k++)
		if (w->io[k].bg)
			return WORKSPACE_APIS_READING;
	return WORKSPACE_APIS_NONE;
}

int workspace_apis_ready(const struct workspace *w)
{
	for (size_t k = 0; k < w->session.ntraces; k++)
		if (w->io[k].bg && !bg_apis_done(w->io[k].bg))
			return 0;
	return 1;
}

int workspace_take_apis(struct workspace *w, int wait, struct rpd_error *err)
{
	struct session *s = &w->session;
	if (workspace_apis(w) != WORKSPACE_APIS_READING || s->readers > 0 ||
	    (!wait && !workspace_apis_ready(w)))
		return 0;
	int rc = 1;
	for (size_t k = 0; k < s->ntraces; k++) {
		struct session_view *v = &s->views[k];
		if (w->io[k].bg && bg_apis_finish(w->io[k].bg, &v->trace, &v->order, err))
			rc = -1;
		w->io[k].bg = NULL;
	}
	if (rc == 1)
		workspace_cache_start(w);
	s->stale = 1;
	session_refresh(s);
	return rc;
}

int workspace_load_apis(struct workspace *w, struct rpd_error *err)
{
	struct session *s = &w->session;
	int rc = 0;
	workspace_cache_end(w);
	for (size_t k = 0; k < s->ntraces; k++) {
		struct trace *t = &s->views[k].trace;
		if (w->io[k].bg || t->apis.n > 0 || t->apis_read || t->no_op_ids)
			continue;
		if (trace_load_apis(t, err))
			rc = -1;
		s->stale = 1;
	}
	if (rc == 0)
		workspace_cache_start(w);
	session_refresh(s);
	return rc;
}

int workspace_ready_for_export(struct workspace *w, struct rpd_error *err)
{
	/* The selection is of the trace as read: another file's rows are not
	 * to be written under it. */
	if (workspace_inputs_unchanged(w, 0, err))
		return -1;
	const struct trace *t = session_trace(&w->session);
	const struct session *s = &w->session;
	/* A window alone over one rpd file: the export picks the calls as
	 * they stream by. */
	int need = session_filtered(s) && !export_streams_window(t, &s->filter, session_sel(s));
	for (size_t i = 0; i < t->ninputs; i++)
		need |= t->inputs[i].format == INPUT_ROCPD;
	if (!need || t->apis_read)
		return 0;
	if (workspace_apis(w) == WORKSPACE_APIS_READING) {
		/* Taken once read, unless a job still reads the trace. */
		int rc = workspace_take_apis(w, 1, err);
		return rc < 0 ? -1 : rc == 0 ? 1 : 0;
	}
	return workspace_load_apis(w, err);
}
