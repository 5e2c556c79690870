#include "config.h"
#include "session/session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session/named.h"
#include "util/i18n.h"
#include "util/xalloc.h"

/* The window on view k's clock: text is parsed against its span (10%:20%
 * is a share of each trace), a span of the first trace's clock is moved
 * to start as far from this trace's start. Text that makes no window of
 * this trace (":T" with T before its start) keeps nothing of it: no
 * window at all would widen what was asked for to the whole trace. */
static void resolve_window(const struct session *s, struct session_view *v)
{
	const struct trace *t = &v->trace, *first = session_trace(s);
	const char *text = v->own_window[0] ? v->own_window : s->window_text;
	char err[256];
	memset(&v->window, 0, sizeof(v->window));
	if (text[0]) {
		if (window_parse(text, t->op_first_start, t->op_last_end, &v->window, err, sizeof(err)))
			v->window = (struct window){ .active = 1,
						     .start = t->op_first_start,
						     .end = t->op_first_start };
	} else if (s->window_set) {
		v->window.active = 1;
		v->window.start = t->op_first_start + (s->window_from - first->op_first_start);
		v->window.end = t->op_first_start + (s->window_to - first->op_first_start);
	}
}

/* Does one of the texts pass f? */
static int any_passes(const struct filter *f, const char *const *texts, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (texts[i] && filter_passes(f, texts[i], strlen(texts[i])))
			return 1;
	return 0;
}

/* The GPUs and inputs of t the place filters keep (NULL: no filter). */
static void places_pass(const struct session *s, const struct trace *t, uint8_t **gpus, uint8_t **inputs)
{
	if (s->gpus.n) {
		*gpus = xcalloc(t->ngpus ? t->ngpus : 1, 1);
		for (size_t g = 0; g < t->ngpus; g++) {
			char label[256], number[32];
			trace_gpu_label(t, (uint32_t)g, label, sizeof(label));
			snprintf(number, sizeof(number), "%lld", (long long)t->gpus[g].device);
			(*gpus)[g] = (uint8_t)any_passes(&s->gpus, (const char *const[]){ label, number }, 2);
		}
	}
	if (s->inputs.n) {
		*inputs = xcalloc(t->ninputs ? t->ninputs : 1, 1);
		for (size_t k = 0; k < t->ninputs; k++) {
			const char *texts[] = { trace_input_name(t, (uint32_t)k), t->inputs[k].path,
						t->domains[t->inputs[k].domain].node };
			(*inputs)[k] = (uint8_t)any_passes(&s->inputs, texts, 3);
		}
	}
}

static void select_view(struct session *s, struct session_view *v)
{
	selection_free(&v->sel);
	resolve_window(s, v);
	/* The order the enclosing rule walks is the trace's: made once, when
	 * a filter or window first needs it (and again when API rows came). */
	const struct trace *t = &v->trace;
	if ((s->filter.n || s->gpus.n || s->inputs.n || v->window.active) && t->apis.n &&
	    v->order.napis != t->apis.n) {
		api_order_free(&v->order);
		api_order_build(t, &v->order);
	}
	uint8_t *gpus = NULL, *inputs = NULL;
	places_pass(s, t, &gpus, &inputs);
	struct select_places places = { gpus, inputs };
	selection_build_places(t, &s->filter, &places, &v->window, &v->order, &v->sel);
	free(gpus);
	free(inputs);
}

int session_refresh(struct session *s)
{
	if (!s->stale)
		return 0;
	for (size_t k = 0; k < s->ntraces; k++)
		select_view(s, &s->views[k]);
	s->stale = 0;
	s->generation++;
	return 1;
}

void session_add_trace(struct session *s, struct trace *t)
{
	s->views[s->ntraces].trace = *t;
	memset(t, 0, sizeof(*t));
	s->ntraces++;
	s->stale = 1;
	session_refresh(s);
}

void session_open_trace(struct session *s, struct trace *t)
{
	memset(s, 0, sizeof(*s));
	filter_init(&s->filter);
	filter_init(&s->gpus);
	filter_init(&s->inputs);
	session_add_trace(s, t);
}

void session_close(struct session *s)
{
	for (size_t k = 0; k < s->ntraces; k++) {
		selection_free(&s->views[k].sel);
		api_order_free(&s->views[k].order);
		trace_free(&s->views[k].trace);
	}
	filter_free(&s->filter);
	filter_free(&s->gpus);
	filter_free(&s->inputs);
	memset(s, 0, sizeof(*s));
}

int session_set_filter(struct session *s, const char *const *rules, size_t n, char *err, size_t errsize)
{
	struct filter next;
	filter_init(&next);
	for (size_t i = 0; i < n; i++) {
		if (filter_push(&next, rules[i], err, errsize)) {
			filter_free(&next);
			return -1;
		}
	}
	filter_free(&s->filter);
	s->filter = next;
	s->stale = 1;
	return 0;
}

int session_add_filter(struct session *s, const char *rule, char *err, size_t errsize)
{
	if (filter_push(&s->filter, rule, err, errsize))
		return -1;
	s->stale = 1;
	return 0;
}

int session_pop_filter(struct session *s)
{
	if (!filter_pop(&s->filter))
		return 0;
	s->stale = 1;
	return 1;
}

/* A filter of one rule, or none for NULL or "". */
static int one_rule(const char *text, struct filter *out, char *err, size_t errsize)
{
	filter_init(out);
	if (text && *text && filter_push(out, text, err, errsize)) {
		filter_free(out);
		return -1;
	}
	return 0;
}

/* A GPU pattern of digits alone (with a leading ! to exclude) is a GPU
 * number: 1 is GPU 1 of every node, not every label with a 1 in it. */
static const char *gpu_rule(const char *text, char *buf, size_t size)
{
	const char *digits = text && text[0] == '!' ? text + 1 : text;
	if (!digits || !*digits || strspn(digits, "0123456789") != strlen(digits))
		return text;
	snprintf(buf, size, "%s^%s$", digits == text ? "" : "!", digits);
	return buf;
}

int session_set_places(struct session *s, const char *gpu, const char *input, char *err, size_t errsize)
{
	struct filter g, in;
	char number[64];
	if (one_rule(gpu_rule(gpu, number, sizeof(number)), &g, err, errsize))
		return -1;
	if (one_rule(input, &in, err, errsize)) {
		filter_free(&g);
		return -1;
	}
	filter_free(&s->gpus);
	filter_free(&s->inputs);
	s->gpus = g;
	s->inputs = in;
	s->stale = 1;
	return 0;
}

int session_set_window(struct session *s, const char *text, char *err, size_t errsize)
{
	if (!text || !*text) {
		session_clear_window(s);
		return 0;
	}
	/* Checked against the first trace; the others take it as it comes. */
	const struct trace *t = session_trace(s);
	struct window w;
	if (window_is_named(text)) {
		/* Named once, on the first trace: the others take its span. */
		if (window_names_markers(text) && !t->apis_read && !t->apis.n) {
			snprintf(err, errsize, "%s", _("window: the roctx ranges are still being read"));
			return -1;
		}
		if (window_named(text, t, &w, err, errsize))
			return -1;
		session_set_window_ns(s, w.start, w.end);
		return 0;
	}
	if (window_parse(text, t->op_first_start, t->op_last_end, &w, err, errsize))
		return -1;
	if (strlen(text) >= sizeof(s->window_text)) {
		snprintf(err, errsize, _("window '%.40s...' too long"), text);
		return -1;
	}
	snprintf(s->window_text, sizeof(s->window_text), "%s", text);
	s->window_set = 1;
	s->stale = 1;
	return 0;
}

int session_set_own_window(struct session *s, size_t k, const char *text, char *err, size_t errsize)
{
	struct session_view *v = &s->views[k];
	struct window w;
	if (window_parse(text, v->trace.op_first_start, v->trace.op_last_end, &w, err, errsize))
		return -1;
	if (strlen(text) >= sizeof(v->own_window)) {
		snprintf(err, errsize, _("window '%.40s...' too long"), text);
		return -1;
	}
	snprintf(v->own_window, sizeof(v->own_window), "%s", text);
	s->stale = 1;
	return 0;
}

void session_set_window_ns(struct session *s, int64_t start, int64_t end)
{
	s->window_text[0] = '\0';
	s->window_set = end > start;
	s->window_from = start;
	s->window_to = end;
	s->stale = 1;
}

void session_clear_window(struct session *s)
{
	s->window_text[0] = '\0';
	s->window_set = 0;
	s->stale = 1;
}

void session_describe(const struct session *s, char *filter, size_t fsize, char *window, size_t wsize)
{
	filter_describe(&s->filter, filter, fsize);
	window[0] = '\0';
	if (session_window(s)->active)
		window_describe(session_window(s), session_trace(s)->op_first_start, window, wsize);
}

void session_describe_places(const struct session *s, char *buf, size_t size)
{
	char g[128] = "", in[128] = "";
	filter_describe(&s->gpus, g, sizeof(g));
	filter_describe(&s->inputs, in, sizeof(in));
	if (g[0] && in[0])
		snprintf(buf, size, _("on GPU %s of input %s"), g, in);
	else if (g[0])
		snprintf(buf, size, _("on GPU %s"), g);
	else if (in[0])
		snprintf(buf, size, _("of input %s"), in);
	else
		buf[0] = '\0';
}

void session_take_order(struct session *s, size_t k, struct api_order *o)
{
	struct session_view *v = &s->views[k];
	if (o->rows && api_order_fits(o, &v->trace)) {
		api_order_free(&v->order);
		v->order = *o;
		memset(o, 0, sizeof(*o));
	}
	api_order_free(o);
}

void session_order_calls(struct session *s)
{
	for (size_t k = 0; k < s->ntraces; k++) {
		struct session_view *v = &s->views[k];
		if (v->trace.apis.n && v->order.napis != v->trace.apis.n) {
			api_order_free(&v->order);
			api_order_build(&v->trace, &v->order);
		}
	}
}

void session_hold(struct session *s)
{
	s->readers++;
}

void session_release(struct session *s)
{
	if (s->readers > 0)
		s->readers--;
}

uint32_t session_first_op_named(const struct session *s, uint32_t name)
{
	const struct trace *t = session_trace(s);
	const struct selection *sel = session_sel(s);
	uint32_t first = TRACE_NONE;
	for (size_t i = 0; i < t->ops.n; i++)
		if (t->ops.name[i] == name && selected_op(sel, i) &&
		    (first == TRACE_NONE || t->ops.start[i] < t->ops.start[first]))
			first = (uint32_t)i;
	return first;
}
