/* Steps: the instances of one roctx range (an iteration, a decode step)
 * and what the GPUs did while each ran, to spot the slow ones.
 *
 * A step's busy time is the union of the intervals of the GPU ops in
 * view (any GPU, any queue) inside [start, end) of the step; its top
 * kernel the kernel name with the most time inside it. Steps are
 * numbered as windows name them (marker:REGEX#N): in time order over
 * every instance in the trace, from 1. */
#ifndef RPDTOP_STEPS_H
#define RPDTOP_STEPS_H

#include <stddef.h>
#include <stdint.h>

#include "session/select.h"
#include "trace/trace.h"

struct analysis_params;

struct step_row {
	size_t number;       /* 1-based, among every instance */
	uint32_t api;        /* its API row (TRACE_NONE: steps_of_marks) */
	uint32_t text;       /* its text (string id) */
	int64_t start, dur;  /* the range's, whole */
	int64_t busy;        /* GPU busy time inside it */
	uint32_t top_kernel; /* string id, or TRACE_NONE */
};

struct steps {
	struct step_row *rows; /* the instances in view by their text
				* (selected_api_named), in time order */
	size_t n;
};

/* A marker instance as the steps' rule reads it: its range, its text,
 * where it is (its input and row there, for ties of time) and whether it
 * is in view (selected_api_named). */
struct step_mark {
	int64_t start, end;
	uint32_t text, input, row;
	uint8_t in_view;
};

struct step_marks {
	struct step_mark *v;
	size_t n, cap;
};

/* As the API rows of their instances are ordered (named_api_cmp): by
 * start, the longer first, then by input and row. */
int step_mark_cmp(const struct step_mark *a, const struct step_mark *b);
/* Every marker instance of t (rows in t's order, which is its inputs'
 * order, then each input's). */
void step_marks_of(const struct trace *t, const struct selection *sel, struct step_marks *out);
/* Those of them whose text passes (one byte per string of t). */
void step_marks_passing(const struct trace *t, const struct selection *sel, const uint8_t *pass,
			struct step_marks *out);
void step_marks_free(struct step_marks *m);
/* Each text's instances summed: how many, their whole time, and the
 * first of them in time (step_mark_cmp). */
struct step_text {
	uint32_t text;
	size_t count;
	int64_t time;
	struct step_mark earliest;
};

struct step_texts {
	struct step_text *v; /* in the order their first instances came */
	size_t n, cap;
};

/* The texts of the instances m, or of every marker instance of t (what
 * step_marks_of(t, NULL) would give, without keeping the instances). */
void step_texts_of_marks(const struct trace *t, const struct step_marks *m, struct step_texts *out);
void step_texts_of_trace(const struct trace *t, struct step_texts *out);
void step_texts_free(struct step_texts *x);
/* The texts that are steps (one byte per string of t, freed by the
 * caller), of every marker instance of t or of the instances m: those
 * passing --step, or by default the PyTorch profiler's (ProfilerStep#N)
 * when there are any, else the text taking the most time (of the
 * repeated texts, the most time, then the most instances, then the first
 * in time). pattern: what they are. */
uint8_t *steps_pass_of_trace(const struct trace *t, const struct analysis_params *ap, char *pattern,
			     size_t size);
uint8_t *steps_pass_of_marks(const struct trace *t, const struct analysis_params *ap,
			     const struct step_marks *m, char *pattern, size_t size);
#define STEPS_PROFILER_STEP "ProfilerStep#N"
/* The steps in view of the instances of m whose text passes, numbered in
 * time order over all of them; their range and text alone (no busy time,
 * no top kernel). */
void steps_of_marks(const struct step_marks *m, const uint8_t *pass, struct steps *out);

/* The API rows that are steps, in time order (*n of them; freed by the
 * caller): those whose text passes the steps' pattern (--step), or by
 * default the PyTorch profiler's (ProfilerStep#N) when there are any,
 * else those of the text taking the most time. pattern: what they are,
 * for a caption. */
uint32_t *steps_rows(const struct trace *t, const struct analysis_params *ap, size_t *n, char *pattern,
		     size_t size);
/* The steps of rows, n API rows in time order (named_marker_rows). */
void steps_find(const struct trace *t, const struct selection *sel, const uint32_t *rows, size_t n,
		struct steps *out);
/* steps_rows then steps_find, the ops' side on a second core when there
 * is one. */
void steps_find_asked(const struct trace *t, const struct analysis_params *ap, const struct selection *sel,
		      char *pattern, size_t size, struct steps *out);
void steps_free(struct steps *s);
/* busy as a share of the step's duration, in percent. */
double step_busy_percent(const struct step_row *r);

#endif
