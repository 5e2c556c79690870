#include "config.h"
#include "session/session.h"

#include <string.h>

#include "load/background.h"
#include "load/cache.h"
#include "load/load.h"
#include "util/i18n.h"
#include "workspace/workspace_cache.h"

static int load_view(struct session_view *v, const struct session_options *o, struct rpd_error *err)
{
	memset(v, 0, sizeof(*v));
	struct load_options lo = { .what = LOAD_OPS,
				   .skip_bad = o->skip_bad,
				   .same_node = o->same_node,
				   .progress = o->progress,
				   .allow_empty = o->allow_empty,
				   .skipped = o->skipped };
	if (o->apis != API_NEED_NONE)
		lo.what |= LOAD_APIS | (o->apis == API_NEED_LAUNCHES ? LOAD_LAUNCHES : 0);
	else if (!o->op_ids)
		lo.what |= LOAD_NO_OP_IDS;
	lo.cache_entry = &v->cache;
	lo.cache_want_all = o->apis_later && o->apis == API_NEED_NONE;
	return trace_load(&v->trace, o->paths, o->npaths, &lo, err);
}

int session_open(struct session *s, const struct session_options *o, struct rpd_error *err)
{
	memset(s, 0, sizeof(*s));
	filter_init(&s->filter);
	filter_init(&s->gpus);
	filter_init(&s->inputs);
	if (load_view(&s->views[0], o, err))
		return -1;
	s->ntraces = 1;
	s->stale = 1;
	session_refresh(s);
	return 0;
}

int session_add_trace(struct session *s, const struct session_options *o, struct rpd_error *err)
{
	if (s->ntraces == SESSION_MAX_TRACES)
		return err_set(err, _("at most %d traces in a session"), SESSION_MAX_TRACES);
	if (load_view(&s->views[s->ntraces], o, err))
		return -1;
	s->ntraces++;
	s->stale = 1;
	session_refresh(s);
	return 0;
}

void session_close(struct session *s)
{
	cache_jobs_end(s);
	for (size_t k = 0; k < s->ntraces; k++) {
		cache_entry_free(s->views[k].cache);
		bg_apis_cancel(s->views[k].bg);
		selection_free(&s->views[k].sel);
		api_order_free(&s->views[k].order);
		trace_free(&s->views[k].trace);
	}
	filter_free(&s->filter);
	filter_free(&s->gpus);
	filter_free(&s->inputs);
	memset(s, 0, sizeof(*s));
}
