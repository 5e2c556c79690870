/* Batch reports group by group: which reports go that way, the partial
 * result of one group as bytes, and the report made of them all. A
 * partial starts with the group's inputs (path, format, node), from which
 * the report's GPU labels and input list are made again as the whole load
 * makes them; names travel as text, every group having its own strings. */
#include "config.h"
#include "batch/batch.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "display/names.h"
#include "load/load.h"
#include "load/span.h"
#include "session/named.h"
#include "util/bytes.h"
#include "util/i18n.h"
#include "util/satmath.h"
#include "util/xalloc.h"
#include "workspace/workspace.h"

#define PART_VERSION 3

/* The partials being read, and the trace their inputs make again: the
 * whole load's inputs, domains and (for reports by GPU) GPUs, without any
 * op. */
struct merge_state {
	struct trace skel;
	struct bytes_in *in; /* each part's reader, past its inputs */
	size_t **global;     /* each part's inputs: their index in skel */
	size_t *nlocal;      /* and their number */
	uint64_t ops;
	struct window window; /* the request's, on the whole span */
	/* The inputs --skip-bad left out, of every group: file, why. */
	struct skipped_input *skipped;
	size_t nskipped;
};

struct skipped_input {
	uint64_t file;
	char *why;
};

/* The report's parameters as the request gives them, the analyses' in
 * a copy of the thread's own (freed by the caller). */
static void request_params(const struct batch_request *req, struct analysis_params *own,
			   struct report_params *rp)
{
	analysis_params_copy(req->analysis, own);
	*rp = (struct report_params){ .limit = req->limit, .analysis = own };
}

int batch_groupwise(const struct batch_plan *plan, const struct batch_request *req)
{
	const char *env = getenv("RPDTOP_WHOLE_LOAD");
	if (req->whole_load || (env && *env && strcmp(env, "0") != 0))
		return 0;
	/* One group is the whole load. */
	if (plan && plan->ngroups < 2)
		return 0;
	/* A window named by markers or kernels is searched for over the
	 * whole trace (a window of times is placed on the span a first pass
	 * finds); the place filters match labels that depend on every input. */
	if ((req->window && window_is_named(req->window)) || req->roi || req->gpu || req->input)
		return 0;
	/* Every entry says how it merges, or that it does not. */
	const struct report_merge *merge = req->report->merge;
	assert(merge);
	/* The parameters as given: nothing is matched here. */
	struct report_params rp = { .limit = req->limit, .analysis = req->analysis };
	return merge != &report_whole_load && (!merge->can || merge->can(&rp));
}

/* Does the request narrow the view (a filter, a window, a place)? */
static int narrows(const struct batch_request *req)
{
	return req->nrules || req->window || req->roi || req->gpu || req->input;
}

/* The group's session: its inputs, the filter; none of its own reading
 * fails for having no GPU ops (another group may have them). */
static int open_group(const struct batch_plan *plan, size_t g, const struct batch_request *req,
		      struct workspace *ws, struct load_skipped *skipped, struct rpd_error *err)
{
	const struct batch_group *grp = &plan->groups[g];
	struct workspace_options so = { .paths = (const char *const *)grp->paths,
					.npaths = grp->npaths,
					.same_node = plan->same_node,
					.skip_bad = plan->skip_bad,
					.skipped = skipped,
					.progress = plan->at_once <= 1,
					.allow_empty = 1,
					.apis = api_need_narrowed(req->report->apis, narrows(req)),
					.order_calls = (req->report->uses & REPORT_USES_CALL_ORDER) != 0,
					.ops_unused = (req->report->uses & REPORT_USES_NO_OPS) != 0 };
	char msg[512];
	if (workspace_open(ws, &so, err))
		return -1;
	struct session *s = &ws->session;
	if (session_set_filter(s, req->rules, req->nrules, msg, sizeof(msg))) {
		workspace_close(ws);
		return err_set(err, "%s", msg);
	}
	/* The window on the whole trace's span, not on this group's. */
	struct window w;
	if (batch_window(plan, req, &w, msg, sizeof(msg))) {
		workspace_close(ws);
		return err_set(err, "%s", msg);
	}
	if (w.active)
		session_set_window_ns(s, w.start, w.end);
	session_refresh(s);
	return 0;
}

int batch_needs_span(const struct batch_request *req)
{
	return req->window != NULL;
}

int batch_span_group(const struct batch_plan *plan, size_t g, int64_t *lo, int64_t *hi, uint64_t *ops,
		     struct rpd_error *err)
{
	const struct batch_group *grp = &plan->groups[g];
	struct op_span span;
	/* Read without loading the ops; the inputs --skip-bad leaves out are
	 * said by the report's pass. */
	if (load_span((const char *const *)grp->paths, grp->npaths, plan->skip_bad, &span, err))
		return -1;
	*lo = span.first;
	*hi = span.last;
	*ops = span.ops;
	return 0;
}

void batch_plan_set_span(struct batch_plan *plan, int64_t lo, int64_t hi)
{
	plan->have_span = 1;
	plan->span_lo = lo;
	plan->span_hi = hi;
}

int batch_window(const struct batch_plan *plan, const struct batch_request *req, struct window *w, char *msg,
		 size_t size)
{
	memset(w, 0, sizeof(*w));
	if (!req->window)
		return 0;
	if (!plan->have_span) {
		snprintf(msg, size, "%s", "batch_window: no span");
		return -1;
	}
	return window_parse(req->window, plan->span_lo, plan->span_hi, w, msg, size) ? -1 : 0;
}

/* The file (index into the plan's paths) an input of the group is. */
static size_t file_of(const struct batch_plan *plan, size_t g, const char *path)
{
	for (size_t f = 0; f < plan->npaths; f++)
		if (plan->group_of[f] == g && strcmp(plan->paths[f], path) == 0)
			return f;
	return SIZE_MAX;
}

static void put_inputs(const struct batch_plan *plan, size_t g, const struct trace *t, struct bytes_out *b)
{
	/* Whether the group has ops, for a run none of whose inputs has: one
	 * left unread counts. */
	bytes_put_u64(b, t->ops.n ? t->ops.n : (uint64_t)trace_ops_left_out(t));
	bytes_put_u64(b, t->ninputs);
	for (size_t k = 0; k < t->ninputs; k++) {
		const struct trace_input *in = &t->inputs[k];
		bytes_put_u64(b, file_of(plan, g, in->path));
		bytes_put_str(b, in->path);
		bytes_put_u32(b, (uint32_t)in->format);
		bytes_put_u32(b, (uint32_t)in->schema_version);
		bytes_put_str(b, t->domains[in->domain].node);
		bytes_put_u64(b, (uint64_t)in->rank);
		bytes_put_u64(b, (uint64_t)in->world_size);
	}
}

/* The group's inputs that --skip-bad left out: their file and why. */
static void put_skipped(const struct batch_plan *plan, size_t g, const struct load_skipped *sk,
			struct bytes_out *b)
{
	bytes_put_u64(b, sk->n);
	for (size_t i = 0; i < sk->n; i++) {
		bytes_put_u64(b, file_of(plan, g, sk->paths[i]));
		bytes_put_str(b, sk->why[i]);
	}
}

/* The group's partial result, as bytes after its inputs: 0, or -1 when
 * the group's inputs could not answer what the report asks of them. */
static int reduce(const struct batch_request *req, struct workspace *ws, struct bytes_out *b,
		  struct rpd_error *err)
{
	struct session *s = &ws->session;
	const struct report_merge *merge = req->report->merge;
	const struct trace *t = session_trace(s);
	struct analysis_params own;
	struct report_params rp;
	struct call_asks *asks = NULL;
	int rc = 0;
	request_params(req, &own, &rp);
	if (req->report->uses & REPORT_USES_CALL_ORDER)
		session_order_calls(s);
	rp.order = &s->views[0].order;
	void *part = merge->part_new(&rp);
	merge->part_add(part, t, session_sel(s), &rp, &asks);
	/* What the report asks of the group's inputs (the host's calls at
	 * the gaps of a group read with its launching calls alone). */
	if (asks && asks->n && workspace_probe_calls(ws, asks->probe, asks->n, err))
		rc = -1;
	else
		merge->part_encode(part, t, b);
	merge->part_free(part);
	analysis_params_free(&own);
	return rc;
}

int batch_reduce_group(const struct batch_plan *plan, size_t g, const struct batch_request *req,
		       unsigned char **buf, size_t *len, struct rpd_error *err)
{
	int rc = 0;
	struct workspace ws;
	struct bytes_out b = { 0 };
	struct load_skipped skipped = { 0 };
	if (open_group(plan, g, req, &ws, &skipped, err)) {
		load_skipped_free(&skipped);
		return -1;
	}
	struct session *s = &ws.session;
	const struct trace *t = session_trace(s);
	/* A pattern that runs into PCRE2's limits on a name of the group is
	 * a usage error, as in the whole load. */
	char msg[512];
	if (filter_limit_hit(&s->filter, msg, sizeof(msg)) ||
	    analysis_params_check(req->analysis, t, msg, sizeof(msg))) {
		err_set(err, "%s", msg);
		workspace_close(&ws);
		load_skipped_free(&skipped);
		return -2;
	}
	bytes_put_u8(&b, PART_VERSION);
	bytes_put_u8(&b, (uint8_t)report_index(req->report));
	put_inputs(plan, g, t, &b);
	put_skipped(plan, g, &skipped, &b);
	load_skipped_free(&skipped);
	rc = reduce(req, &ws, &b, err);
	/* Each group's trace goes to the cache as a whole load's does, so
	 * that the next report reads the group from there; a cache that
	 * cannot be written is passed over (the report is not the cache's). */
	struct rpd_error cache_err;
	if (rc == 0)
		workspace_save_cache(&ws, &cache_err);
	workspace_close(&ws);
	if (rc) {
		free(b.p);
		return -1;
	}
	*buf = b.p;
	*len = b.n;
	return 0;
}

struct part_input {
	uint64_t file;
	char *path, *node;
	uint32_t format, version;
	int64_t rank, world_size;
};

static int read_inputs(struct bytes_in *in, struct part_input **out, size_t *n, uint64_t *ops)
{
	*ops = bytes_get_u64(in);
	*n = (size_t)bytes_get_count(in, 8 + 8 + 4 + 4 + 8 + 8 + 8);
	*out = xcalloc(*n ? *n : 1, sizeof(**out));
	for (size_t j = 0; j < *n && !in->bad; j++) {
		struct part_input *p = &(*out)[j];
		p->file = bytes_get_u64(in);
		p->path = bytes_get_str(in);
		p->format = bytes_get_u32(in);
		p->version = bytes_get_u32(in);
		p->node = bytes_get_str(in);
		p->rank = (int64_t)bytes_get_u64(in);
		p->world_size = (int64_t)bytes_get_u64(in);
		if (!p->path)
			in->bad = 1;
	}
	return in->bad ? -1 : 0;
}

static int read_skipped(struct bytes_in *in, struct merge_state *m)
{
	uint64_t n = bytes_get_count(in, 8 + 8);
	for (uint64_t i = 0; i < n && !in->bad; i++) {
		uint64_t file = bytes_get_u64(in);
		char *why = bytes_get_str(in);
		if (!why)
			return in->bad = 1, -1;
		m->skipped = xrealloc_array(m->skipped, m->nskipped + 1, sizeof(*m->skipped));
		m->skipped[m->nskipped++] = (struct skipped_input){ file, why };
	}
	return in->bad ? -1 : 0;
}

static int by_file(const void *a, const void *b)
{
	const struct skipped_input *x = a, *y = b;
	return (x->file > y->file) - (x->file < y->file);
}

/* What --skip-bad left out, as the whole load says it: each input in the
 * order of the inputs, then how many of how many; none read is an error. */
static int say_skipped(const struct batch_plan *plan, struct merge_state *m, struct rpd_error *err)
{
	if (m->nskipped == 0)
		return 0;
	qsort(m->skipped, m->nskipped, sizeof(*m->skipped), by_file);
	for (size_t i = 0; i < m->nskipped; i++)
		load_say_skipped(m->skipped[i].why);
	return load_say_skipped_count(m->nskipped, plan->npaths, err);
}

/* The inputs in the order the whole load adds them: by file, each file's
 * inputs (a rocpd file's nodes) in the order its group read them. */
static int add_inputs(const struct batch_plan *plan, struct merge_state *m, struct part_input **pin,
		      const size_t *npin, struct rpd_error *err)
{
	size_t *cursor = xcalloc(plan->ngroups, sizeof(*cursor));
	int rc = 0;
	for (size_t f = 0; f < plan->npaths && rc == 0; f++) {
		size_t g = plan->group_of[f];
		while (cursor[g] < npin[g] && pin[g][cursor[g]].file == f) {
			const struct part_input *p = &pin[g][cursor[g]];
			uint32_t k = trace_add_input(&m->skel, p->path, (int)p->format, (int)p->version);
			trace_input_set_node(&m->skel, k, p->node);
			m->skel.inputs[k].rank = p->rank;
			m->skel.inputs[k].world_size = p->world_size;
			m->global[g][cursor[g]++] = k;
		}
	}
	for (size_t g = 0; g < plan->ngroups && rc == 0; g++)
		if (cursor[g] != npin[g])
			rc = batch_bad_part(g, err);
	free(cursor);
	return rc;
}

static int merge_open(const struct batch_plan *plan, const struct batch_request *req,
		      unsigned char *const *parts, const size_t *lens, struct merge_state *m,
		      struct rpd_error *err)
{
	memset(m, 0, sizeof(*m));
	trace_init(&m->skel);
	m->skel.same_node = plan->same_node;
	m->in = xcalloc(plan->ngroups ? plan->ngroups : 1, sizeof(*m->in));
	m->global = xcalloc(plan->ngroups ? plan->ngroups : 1, sizeof(*m->global));
	m->nlocal = xcalloc(plan->ngroups ? plan->ngroups : 1, sizeof(*m->nlocal));
	struct part_input **pin = xcalloc(plan->ngroups ? plan->ngroups : 1, sizeof(*pin));
	size_t *npin = m->nlocal;
	int rc = 0;
	for (size_t g = 0; g < plan->ngroups && rc == 0; g++) {
		uint64_t ops = 0;
		bytes_in_init(&m->in[g], parts[g], lens[g]);
		if (bytes_get_u8(&m->in[g]) != PART_VERSION ||
		    bytes_get_u8(&m->in[g]) != (uint8_t)report_index(req->report) ||
		    read_inputs(&m->in[g], &pin[g], &npin[g], &ops) || read_skipped(&m->in[g], m))
			rc = batch_bad_part(g, err);
		m->ops += ops;
		m->global[g] = xcalloc(npin[g] ? npin[g] : 1, sizeof(**m->global));
	}
	if (rc == 0)
		rc = add_inputs(plan, m, pin, npin, err);
	for (size_t g = 0; g < plan->ngroups; g++) {
		for (size_t j = 0; j < npin[g]; j++) {
			free(pin[g][j].path);
			free(pin[g][j].node);
		}
		free(pin[g]);
	}
	free(pin);
	return rc;
}

static void merge_close(const struct batch_plan *plan, struct merge_state *m)
{
	for (size_t i = 0; i < m->nskipped; i++)
		free(m->skipped[i].why);
	free(m->skipped);
	for (size_t g = 0; g < plan->ngroups; g++)
		free(m->global ? m->global[g] : NULL);
	free(m->global);
	free(m->nlocal);
	free(m->in);
	trace_free(&m->skel);
}

/* Group g's partial as merge_state holds it. */
static struct part_in batch_part_in(struct merge_state *m, size_t g)
{
	return (struct part_in){ &m->in[g], &m->skel, m->global[g], m->nlocal[g] };
}

/* The table of every group's partial result merged. */
static int merged_table(const struct batch_plan *plan, const struct batch_request *req, struct merge_state *m,
			const struct report_params *rp, struct table *tb, struct rpd_error *err)
{
	const struct report_merge *merge = req->report->merge;
	void *part = merge->part_new(rp);
	for (size_t g = 0; g < plan->ngroups; g++) {
		struct part_in in = batch_part_in(m, g);
		if (merge->part_merge(part, &in)) {
			merge->part_free(part);
			return batch_bad_part(g, err);
		}
	}
	merge->part_table(part, &m->skel, &m->window, rp, tb);
	merge->part_free(part);
	return 0;
}

int batch_finish(const struct batch_plan *plan, const struct batch_request *req, unsigned char *const *parts,
		 const size_t *lens, FILE *out, struct rpd_error *err)
{
	struct merge_state m;
	char wmsg[512];
	int rc = merge_open(plan, req, parts, lens, &m, err);
	if (rc == 0)
		rc = say_skipped(plan, &m, err);
	if (rc == 0 && batch_window(plan, req, &m.window, wmsg, sizeof(wmsg)))
		rc = err_set(err, "%s", wmsg);
	if (rc == 0 && m.ops == 0)
		rc = plan->npaths == 1 ? err_set(err, _("%s: trace has no GPU ops"), plan->paths[0])
				       : err_set(err, _("none of the %zu inputs has GPU ops"), plan->npaths);
	struct name_cache names;
	struct table tb;
	struct table_sink sink;
	struct filter f;
	char msg[512];
	name_cache_init(&names, NAME_DEMANGLE);
	filter_init(&f);
	struct analysis_params own;
	struct report_params rp;
	request_params(req, &own, &rp);
	rp.names = req->raw_names ? NULL : &names;
	report_open_table(&tb, &sink, req->format, out);
	if (rc == 0)
		rc = merged_table(plan, req, &m, &rp, &tb, err);
	if (rc == 0) {
		/* The rules were checked before anything was read. */
		for (size_t i = 0; i < req->nrules; i++)
			filter_push(&f, req->rules[i], msg, sizeof(msg));
		filter_describe(&f, tb.filter, sizeof(tb.filter));
		tb.window[0] = tb.places[0] = '\0';
		if (m.window.active)
			window_describe(&m.window, plan->span_lo, tb.window, sizeof(tb.window));
		report_write(&tb, &m.skel, req->format, out);
		table_free(&tb);
	}
	filter_free(&f);
	analysis_params_free(&own);
	name_cache_free(&names);
	merge_close(plan, &m);
	return rc;
}
