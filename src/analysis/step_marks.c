/* The steps' rule over marker instances (struct step_mark): which texts
 * are steps, and the steps they make. A trace's instances and the
 * instances of several node groups merged go through the same code, so
 * that both choose and number the same steps. */
#include "config.h"
#include "analysis/steps.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/api_calls.h"
#include "analysis/params.h"
#include "session/filter.h"
#include "util/satmath.h"
#include "util/sort.h"
#include "util/xalloc.h"

int step_mark_cmp(const struct step_mark *a, const struct step_mark *b)
{
	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	if (a->end != b->end)
		return a->end > b->end ? -1 : 1;
	if (a->input != b->input)
		return a->input < b->input ? -1 : 1;
	return (a->row > b->row) - (a->row < b->row);
}

/* The marker instances of t whose text passes (pass NULL: all). */
static void marks_of(const struct trace *t, const struct selection *sel, const uint8_t *pass,
		     struct step_marks *out)
{
	uint32_t marker = api_marker_name(t);
	memset(out, 0, sizeof(*out));
	if (marker == TRACE_NONE)
		return;
	if (!pass) {
		size_t count = api_marker_count(t);
		out->cap = count ? count : 1;
		out->v = xmalloc_array(out->cap, sizeof(*out->v));
	}
	for (size_t i = 0; i < t->apis.n; i++) {
		if (trace_api_name(t, i) != marker || (pass && !pass[trace_api_shown_name(t, i)]))
			continue;
		if (pass)
			out->v = xgrow(out->v, &out->cap, out->n + 1, sizeof(*out->v));
		out->v[out->n++] = (struct step_mark){ t->apis.start[i],
						       t->apis.end[i],
						       trace_api_shown_name(t, i),
						       t->threads[t->apis.thread[i]].input,
						       (uint32_t)i,
						       (uint8_t)selected_api_named(sel, i) };
	}
}

void step_marks_of(const struct trace *t, const struct selection *sel, struct step_marks *out)
{
	marks_of(t, sel, NULL, out);
}

void step_marks_passing(const struct trace *t, const struct selection *sel, const uint8_t *pass,
			struct step_marks *out)
{
	marks_of(t, sel, pass, out);
}

void step_marks_free(struct step_marks *m)
{
	free(m->v);
	memset(m, 0, sizeof(*m));
}

static int profiler_step_text(const char *s, size_t n)
{
	static const char prefix[] = "ProfilerStep#";
	size_t k = sizeof(prefix) - 1;
	if (n <= k || memcmp(s, prefix, k) != 0)
		return 0;
	for (; k < n; k++)
		if (s[k] < '0' || s[k] > '9')
			return 0;
	return 1;
}

/* The summary of text, made when new (slot: each string id's place in
 * x, TRACE_NONE when it has none yet). */
static struct step_text *text_of(struct step_texts *x, uint32_t *slot, uint32_t text)
{
	if (slot[text] == TRACE_NONE) {
		x->v = xgrow(x->v, &x->cap, x->n + 1, sizeof(*x->v));
		x->v[x->n] = (struct step_text){ .text = text };
		slot[text] = (uint32_t)x->n++;
	}
	return &x->v[slot[text]];
}

static void text_add(struct step_text *s, const struct step_mark *m)
{
	if (s->count == 0 || step_mark_cmp(m, &s->earliest) < 0)
		s->earliest = *m;
	s->count++;
	s->time = sat_add(s->time, sat_sub(m->end, m->start));
}

static uint32_t *new_slots(const struct trace *t)
{
	size_t nstr = t->strings.count ? t->strings.count : 1;
	uint32_t *slot = xmalloc_array(nstr, sizeof(*slot));
	for (size_t i = 0; i < nstr; i++)
		slot[i] = TRACE_NONE;
	return slot;
}

void step_texts_of_marks(const struct trace *t, const struct step_marks *m, struct step_texts *out)
{
	uint32_t *slot = new_slots(t);
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < m->n; i++)
		text_add(text_of(out, slot, m->v[i].text), &m->v[i]);
	free(slot);
}

/* The same as of step_marks_of(t, NULL), without keeping every instance:
 * a trace may hold millions of ranges and a few texts. */
void step_texts_of_trace(const struct trace *t, struct step_texts *out)
{
	uint32_t marker = api_marker_name(t);
	memset(out, 0, sizeof(*out));
	if (marker == TRACE_NONE)
		return;
	uint32_t *slot = new_slots(t);
	for (size_t i = 0; i < t->apis.n; i++) {
		if (trace_api_name(t, i) != marker)
			continue;
		struct step_mark m = { t->apis.start[i],
				       t->apis.end[i],
				       trace_api_shown_name(t, i),
				       t->threads[t->apis.thread[i]].input,
				       (uint32_t)i,
				       0 };
		text_add(text_of(out, slot, m.text), &m);
	}
	free(slot);
}

void step_texts_free(struct step_texts *x)
{
	free(x->v);
	memset(x, 0, sizeof(*x));
}

/* The PyTorch profiler's step texts get pass set; how many instances
 * have one. */
static size_t profiler_steps(const struct trace *t, const struct step_texts *x, uint8_t *pass)
{
	size_t n = 0;
	for (size_t j = 0; j < x->n; j++) {
		uint32_t name = x->v[j].text;
		if (profiler_step_text(trace_str(t, name), strtab_len(&t->strings, name))) {
			pass[name] = 1;
			n += x->v[j].count;
		}
	}
	return n;
}

/* The default step text: of the texts with more than one instance (any
 * text when none repeats), the one whose instances take the most time
 * (whole durations), then the one with more instances, then the first in
 * time; TRACE_NONE without instances. */
static uint32_t default_step(const struct step_texts *x)
{
	const struct step_text *best = NULL;
	int repeated = 0;
	for (size_t j = 0; j < x->n; j++)
		repeated |= x->v[j].count > 1;
	for (size_t j = 0; j < x->n; j++) {
		const struct step_text *s = &x->v[j];
		if (repeated && s->count < 2)
			continue;
		if (!best || s->time > best->time ||
		    (s->time == best->time &&
		     (s->count > best->count ||
		      (s->count == best->count && step_mark_cmp(&s->earliest, &best->earliest) < 0))))
			best = s;
	}
	return best ? best->text : TRACE_NONE;
}

static uint8_t *steps_pass(const struct trace *t, const struct analysis_params *ap,
			   const struct step_texts *x, char *pattern, size_t size)
{
	if (analysis_params_step(ap)) {
		filter_describe(analysis_params_step(ap), pattern, size);
		return filter_strings(analysis_params_step(ap), t, NULL);
	}
	uint8_t *pass = xcalloc(t->strings.count ? t->strings.count : 1, 1);
	if (profiler_steps(t, x, pass) > 0) {
		snprintf(pattern, size, "%s", STEPS_PROFILER_STEP);
	} else {
		uint32_t deflt = default_step(x);
		snprintf(pattern, size, "%s", deflt != TRACE_NONE ? trace_str(t, deflt) : "-");
		if (deflt != TRACE_NONE)
			pass[deflt] = 1;
	}
	return pass;
}

/* --step chooses by text alone: the texts are summed only without it. */
uint8_t *steps_pass_of_trace(const struct trace *t, const struct analysis_params *ap, char *pattern,
			     size_t size)
{
	struct step_texts x = { 0 };
	if (!analysis_params_step(ap))
		step_texts_of_trace(t, &x);
	uint8_t *pass = steps_pass(t, ap, &x, pattern, size);
	step_texts_free(&x);
	return pass;
}

uint8_t *steps_pass_of_marks(const struct trace *t, const struct analysis_params *ap,
			     const struct step_marks *m, char *pattern, size_t size)
{
	struct step_texts x = { 0 };
	if (!analysis_params_step(ap))
		step_texts_of_marks(t, m, &x);
	uint8_t *pass = steps_pass(t, ap, &x, pattern, size);
	step_texts_free(&x);
	return pass;
}

static int by_mark(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	return step_mark_cmp(a, b);
}

void steps_of_marks(const struct step_marks *m, const uint8_t *pass, struct steps *out)
{
	size_t n = 0;
	struct step_mark *v = xmalloc_array(m->n ? m->n : 1, sizeof(*v));
	for (size_t i = 0; i < m->n; i++)
		if (pass[m->v[i].text])
			v[n++] = m->v[i];
	sort_with(v, n, sizeof(*v), by_mark, NULL);
	memset(out, 0, sizeof(*out));
	out->rows = xmalloc_array(n ? n : 1, sizeof(*out->rows));
	for (size_t i = 0; i < n; i++) {
		if (!v[i].in_view)
			continue;
		struct step_row *r = &out->rows[out->n++];
		memset(r, 0, sizeof(*r));
		r->number = i + 1;
		r->api = TRACE_NONE;
		r->text = v[i].text;
		r->start = v[i].start;
		r->dur = sat_sub(v[i].end, v[i].start);
		r->top_kernel = TRACE_NONE;
	}
	free(v);
}
