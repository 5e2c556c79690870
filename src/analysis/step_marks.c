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

void step_marks_of(const struct trace *t, const struct selection *sel, struct step_marks *out)
{
	uint32_t marker = api_marker_name(t);
	memset(out, 0, sizeof(*out));
	if (marker == TRACE_NONE)
		return;
	size_t count = api_marker_count(t);
	out->cap = count ? count : 1;
	out->v = xmalloc_array(out->cap, sizeof(*out->v));
	for (size_t i = 0; i < t->apis.n; i++) {
		if (trace_api_name(t, i) != marker)
			continue;
		out->v[out->n++] = (struct step_mark){ t->apis.start[i],
						       t->apis.end[i],
						       trace_api_shown_name(t, i),
						       t->threads[t->apis.thread[i]].input,
						       (uint32_t)i,
						       (uint8_t)selected_api_named(sel, i) };
	}
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

/* The PyTorch profiler's step texts get pass set; how many instances
 * have one. */
static size_t profiler_steps(const struct trace *t, const struct step_marks *m, uint8_t *pass)
{
	size_t n = 0;
	for (size_t i = 0; i < m->n; i++) {
		uint32_t name = m->v[i].text;
		if (pass[name] || profiler_step_text(trace_str(t, name), strtab_len(&t->strings, name))) {
			pass[name] = 1;
			n++;
		}
	}
	return n;
}

/* The default step text: of the texts with more than one instance (any
 * text when none repeats), the one whose instances take the most time
 * (whole durations), then the one with more instances, then the first in
 * time; TRACE_NONE without instances. */
static uint32_t default_step(const struct trace *t, const struct step_marks *m)
{
	size_t distinct = 0, best = SIZE_MAX, nstr = t->strings.count, n = m->n ? m->n : 1;
	uint32_t *slot = xmalloc_array(nstr ? nstr : 1, sizeof(*slot));
	uint32_t *names = xmalloc_array(n, sizeof(*names)), *earliest = xmalloc_array(n, sizeof(*earliest));
	size_t *counts = xcalloc(n, sizeof(*counts));
	int64_t *time = xcalloc(n, sizeof(*time));
	for (size_t i = 0; i < nstr; i++)
		slot[i] = TRACE_NONE;
	for (size_t i = 0; i < m->n; i++) {
		const struct step_mark *x = &m->v[i];
		if (slot[x->text] == TRACE_NONE) {
			slot[x->text] = (uint32_t)distinct;
			names[distinct] = x->text;
			earliest[distinct++] = (uint32_t)i;
		}
		size_t j = slot[x->text];
		if (step_mark_cmp(x, &m->v[earliest[j]]) < 0)
			earliest[j] = (uint32_t)i;
		counts[j]++;
		time[j] = sat_add(time[j], sat_sub(x->end, x->start));
	}
	int repeated = 0;
	for (size_t j = 0; j < distinct; j++)
		repeated |= counts[j] > 1;
	for (size_t j = 0; j < distinct; j++) {
		if (repeated && counts[j] < 2)
			continue;
		if (best == SIZE_MAX || time[j] > time[best] ||
		    (time[j] == time[best] &&
		     (counts[j] > counts[best] ||
		      (counts[j] == counts[best] &&
		       step_mark_cmp(&m->v[earliest[j]], &m->v[earliest[best]]) < 0))))
			best = j;
	}
	uint32_t name = best == SIZE_MAX ? TRACE_NONE : names[best];
	free(time);
	free(counts);
	free(earliest);
	free(names);
	free(slot);
	return name;
}

uint8_t *steps_pass(const struct trace *t, const struct analysis_params *ap, const struct step_marks *m,
		    char *pattern, size_t size)
{
	if (analysis_params_step(ap)) {
		filter_describe(analysis_params_step(ap), pattern, size);
		return filter_strings(analysis_params_step(ap), t, NULL);
	}
	uint8_t *pass = xcalloc(t->strings.count ? t->strings.count : 1, 1);
	if (profiler_steps(t, m, pass) > 0) {
		snprintf(pattern, size, "%s", STEPS_PROFILER_STEP);
	} else {
		uint32_t deflt = default_step(t, m);
		snprintf(pattern, size, "%s", deflt != TRACE_NONE ? trace_str(t, deflt) : "-");
		if (deflt != TRACE_NONE)
			pass[deflt] = 1;
	}
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
