/* Opening the inputs into a workspace's session, and closing it. */
#include "config.h"
#include "workspace/workspace.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "load/background.h"
#include "load/cache.h"
#include "load/load.h"
#include "util/i18n.h"
#include "util/xalloc.h"
#include "workspace/workspace_cache.h"

/* Load the inputs into t; io keeps what the cache file is to hold. */
static int load_trace(struct trace *t, struct workspace_io *io, const struct workspace_options *o,
		      struct api_order *order, struct rpd_error *err)
{
	memset(io, 0, sizeof(*io));
	struct load_options lo = { .what = LOAD_OPS,
				   .skip_bad = o->skip_bad,
				   .same_node = o->same_node,
				   .progress = o->progress,
				   .allow_empty = o->allow_empty,
				   .skipped = o->skipped };
	if (o->apis != API_NEED_NONE)
		lo.what |= LOAD_APIS | (o->apis == API_NEED_LAUNCHES ? LOAD_LAUNCHES : 0) |
			   (o->apis == API_NEED_CALLS ? LOAD_NO_MARKERS : 0) |
			   (o->apis == API_NEED_MARKERS ? LOAD_MARKERS_ONLY : 0) |
			   (o->apis == API_NEED_COUNTERS ? LOAD_NO_CALLS : 0);
	else if (!o->op_ids)
		lo.what |= LOAD_NO_OP_IDS;
	if (o->apis_later && o->apis == API_NEED_NONE)
		lo.what |= LOAD_APIS_LATER;
	lo.cache_entry = &io->cache;
	lo.cache_want_all = o->apis_later && o->apis == API_NEED_NONE;
	memset(order, 0, sizeof(*order));
	if (o->order_calls && (o->apis == API_NEED_ALL || o->apis == API_NEED_CALLS))
		lo.order = order;
	if (o->ops_unused && o->apis == API_NEED_CALLS)
		lo.what |= LOAD_OPS_UNUSED;
	return trace_load(t, o->paths, o->npaths, &lo, err);
}

static void stamp_of(const char *path, struct workspace_stamp *s)
{
	struct stat st;
	memset(s, 0, sizeof(*s));
	if (stat(path, &st) != 0)
		return;
	*s = (struct workspace_stamp){ 1, (uint64_t)st.st_dev, (uint64_t)st.st_ino, (int64_t)st.st_size };
}

/* Each input's file as it is now that it has been read. */
static void stamp_inputs(const struct trace *t, struct workspace_io *io)
{
	io->stamps = xcalloc(t->ninputs ? t->ninputs : 1, sizeof(*io->stamps));
	io->nstamps = t->ninputs;
	for (size_t i = 0; i < t->ninputs; i++)
		stamp_of(t->inputs[i].path, &io->stamps[i]);
}

int workspace_inputs_unchanged(const struct workspace *w, size_t k, struct rpd_error *err)
{
	const struct trace *t = &w->session.views[k].trace;
	const struct workspace_io *io = &w->io[k];
	for (size_t i = 0; i < io->nstamps && i < t->ninputs; i++) {
		struct workspace_stamp now;
		stamp_of(t->inputs[i].path, &now);
		const struct workspace_stamp *then = &io->stamps[i];
		/* A profiler may still be adding to it (the export reads one
		 * state of it): replaced or cut shorter is another file. */
		if (!then->ok || !now.ok || now.dev != then->dev || now.ino != then->ino ||
		    now.size < then->size)
			return err_set(err, _("%s: changed since it was read; open it again to export it"),
				       t->inputs[i].path);
	}
	return 0;
}

int workspace_open(struct workspace *w, const struct workspace_options *o, struct rpd_error *err)
{
	struct trace t;
	struct api_order order;
	memset(w, 0, sizeof(*w));
	if (load_trace(&t, &w->io[0], o, &order, err))
		return -1;
	stamp_inputs(&t, &w->io[0]);
	session_open_trace(&w->session, &t);
	session_take_order(&w->session, 0, &order);
	return 0;
}

void workspace_open_trace(struct workspace *w, struct trace *t)
{
	memset(w, 0, sizeof(*w));
	session_open_trace(&w->session, t);
}

int workspace_add_trace(struct workspace *w, const struct workspace_options *o, struct rpd_error *err)
{
	struct session *s = &w->session;
	struct trace t;
	if (s->ntraces == SESSION_MAX_TRACES)
		return err_set(err, _("at most %d traces in a session"), SESSION_MAX_TRACES);
	struct api_order order;
	if (load_trace(&t, &w->io[s->ntraces], o, &order, err))
		return -1;
	stamp_inputs(&t, &w->io[s->ntraces]);
	session_add_trace(s, &t);
	session_take_order(s, s->ntraces - 1, &order);
	return 0;
}

void workspace_close(struct workspace *w)
{
	workspace_cache_end(w);
	for (size_t k = 0; k < w->session.ntraces; k++) {
		cache_entry_free(w->io[k].cache);
		bg_apis_cancel(w->io[k].bg);
		free(w->io[k].stamps);
	}
	session_close(&w->session);
	memset(w, 0, sizeof(*w));
}
