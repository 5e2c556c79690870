/* Findings: what is wrong with a trace, what it costs and where to look.
 * Each finding comes from one rule over the analyses that exist (gaps,
 * steps, breakdown, ranks, busy, the names' durations), stated in the
 * manual (FINDINGS), and is quiet below its threshold. time_ns is the
 * GPU time at stake, share its part of the span it is of: the GPU's
 * span for a finding of one GPU, the run's (the trace's span, or the
 * window) for a run-wide one. The rules are listed in
 * analysis/findings_list.h, each a function of its own file. */
#ifndef RPDTOP_FINDINGS_H
#define RPDTOP_FINDINGS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/busy.h"
#include "analysis/findings_thresholds.h"
#include "analysis/gaps.h"
#include "analysis/lane_ops.h"
#include "analysis/part.h"
#include "analysis/ranks.h"
#include "analysis/steps.h"
#include "session/select.h"
#include "session/window.h"
#include "trace/api_order.h"
#include "trace/trace.h"

struct analysis_params;

enum finding_id {
#define FINDING(fn, name, scope, steps) FINDING_##fn,
#include "analysis/findings_list.h"
#undef FINDING
	FINDING_NIDS
};

struct finding {
	enum finding_id id;
	int64_t time_ns;    /* the GPU time at stake */
	double share;       /* time_ns over its span, percent */
	uint64_t count;     /* instances behind it */
	uint32_t gpu;       /* the GPU's index, or TRACE_NONE (run-wide) */
	uint32_t input;     /* the input, or TRACE_NONE */
	uint32_t name;      /* the kernel, call, step text or rank's name (string id), or TRACE_NONE */
	int64_t start, end; /* the worst instance, for the jump */
	char evidence[320]; /* one line a person reads */
};

struct findings {
	struct finding *v; /* by time_ns descending, then id, GPU, input, name, start */
	size_t n, cap;
	int64_t run_start, run_end; /* the run's span (the window's) */
};

/* What the rules work on: the trace, the selection, the parameters, and
 * the analyses several rules share, made on first use. */
struct findings_ctx {
	const struct trace *t;
	const struct selection *sel;
	const struct analysis_params *ap;
	const struct api_order *order; /* t's API order */
	/* shared, made by findings_ctx_gaps */
	int have_gaps;
	struct gaps gaps; /* every gap, lane by lane, of each GPU */
	int have_lanes;
	struct lane_ops lanes; /* each GPU's ops in view, made by findings_ctx_lanes */
	/* made by findings_ctx_steps */
	int have_steps;
	struct steps steps;  /* the steps in view, in time order */
	int64_t step_median; /* of their durations but the first step's; -1: none */
	int64_t *spans;      /* each GPU's span (its gaps' lane), made by findings_ctx_spans */
	/* The run's figures when they come merged from node groups (NULL:
	 * found in t when a rule needs them): the busy report's, the ranks'. */
	const struct busy *busy;
	const struct ranks *ranks;
};

/* The rules of a scope (analysis/findings_list.h), as a mask. */
enum {
	FINDING_SCOPE_GPU = 1,
	FINDING_SCOPE_RUN = 2,
};

/* Every rule's findings over the selection, ranked. order: t's API
 * order (api_order_build). */
void findings_find(const struct trace *t, const struct selection *sel, const struct analysis_params *ap,
		   const struct api_order *order, struct findings *out);
void findings_free(struct findings *f);
/* The rules of the scopes in mask over c, adding to out. */
void findings_run(struct findings_ctx *c, unsigned mask, struct findings *out);
/* Put f in its order: the most time first, ties by rule, GPU, input, the
 * name's text (t's strings), place and evidence. */
void findings_rank(const struct trace *t, struct findings *f);
/* What findings_ctx_* made. */
void findings_ctx_free(struct findings_ctx *c);
/* Set c's steps from marker instances m, their texts t's strings. */
void findings_ctx_set_steps(struct findings_ctx *c, const struct trace *t, const struct step_marks *m);
/* "host-wait", "sync-call"... */
const char *finding_id_name(enum finding_id id);
/* FINDING_SCOPE_GPU or FINDING_SCOPE_RUN (analysis/findings_list.h). */
unsigned finding_id_scope(enum finding_id id);
/* What the rule says, in the language of the messages (N_ text). */
const char *finding_id_help(enum finding_id id);

/* For the rules: a new finding of id (its fields zero, gpu, input and
 * name TRACE_NONE), and its evidence as printf makes it. */
struct finding *findings_add(struct findings *f, enum finding_id id);
void finding_say(struct finding *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The gaps of the selection, every one, each GPU's in start order. */
const struct gaps *findings_ctx_gaps(struct findings_ctx *c);
/* Each GPU's ops in view by start (lane_ops_build), which the gaps, the
 * breakdown and the busy shares sweep. */
const struct lane_ops *findings_ctx_lanes(struct findings_ctx *c);
/* The steps in view (the steps report's) and their median duration, the
 * trace's first step left out (nearest rank; -1 without another step). */
const struct steps *findings_ctx_steps(struct findings_ctx *c);
/* Items grouped by key, in O(n): group k is rows[first[k]] ..
 * rows[first[k + 1] - 1], indices of the items in the order given; the
 * groups in the order their keys first came. */
struct findings_groups {
	uint32_t *rows;
	size_t *first;
	size_t n;
};
void findings_group(const uint64_t *key, size_t n, struct findings_groups *g);
/* The same when each item's group is known: of[i] < ng. */
void findings_group_ids(const uint32_t *of, size_t n, size_t ng, struct findings_groups *g);
void findings_groups_free(struct findings_groups *g);
/* Each GPU's span in view (index: the GPU; 0 without ops). */
const int64_t *findings_ctx_spans(struct findings_ctx *c);
/* fn for each GPU's gaps lane: gaps[0..n) are its own, by start. */
void findings_each_lane(struct findings_ctx *c,
			void (*fn)(struct findings_ctx *c, const struct gap_lane *l, const struct gap *gaps,
				   size_t n, void *arg),
			void *arg);

/* Gaps kept by a rule, each with a key (a call's name, a graph) and the
 * call it is of; grouped by GPU and key, each group given to fn with its
 * GPU's span (the rules of gaps of one kind: sync-call, graph-gap). */
struct gap_item {
	uint32_t gpu, key, call;
	int64_t start, end;
};
typedef void (*findings_gap_group_fn)(struct findings_ctx *c, const struct gap_item *all, const uint32_t *idx,
				      size_t n, int64_t span, struct findings *out);
void findings_gap_groups(struct findings_ctx *c, const struct gap_item *v, size_t n, findings_gap_group_fn fn,
			 struct findings *out);
/* The sum of a group's gaps' lengths, and its longest (the first of equals). */
int64_t gap_items_sum(const struct gap_item *all, const uint32_t *idx, size_t n,
		      const struct gap_item **longest);
/* A finding of a step (slow-step, warmup): its duration over median. */
struct finding *findings_add_step(struct findings *out, enum finding_id id, const struct step_row *r,
				  int64_t median);
/* part over whole, in percent (0 when whole is 0). */
double findings_percent(int64_t part, int64_t whole);

/* The findings' partial result (analysis/findings_part.c): the findings
 * of the rules of scope GPU, whole in the node group holding the GPU, and
 * what the rules of scope RUN need of every group (busy rows, the ranks'
 * collectives, the marker instances, the span of the ops), so that the
 * parts merged find what findings_find finds in the whole load. */
struct findings_part {
	struct findings rows;      /* names: the group's string ids, then the whole's */
	struct part_gpu_list gpus; /* each row's GPU (unset for a row of none) */
	struct busy_part busy;
	struct ranks_part ranks;
	struct step_marks marks; /* texts and inputs as rows' names */
	uint64_t ops;
	int64_t first, last; /* the span of every op */
};

void findings_part_init(struct findings_part *p);
void findings_part_free(struct findings_part *p);
/* order: t's API order (api_order_build). */
void findings_part_add(struct findings_part *p, const struct trace *t, const struct selection *sel,
		       const struct analysis_params *ap, const struct api_order *order);
void findings_part_encode(const struct findings_part *p, const struct trace *t, struct bytes_out *b);
int findings_part_merge(struct findings_part *p, const struct part_in *in);
/* The findings of what p merged, ranked; window: the request's on the
 * whole span (inactive: none). p's rows move to out. */
void findings_part_finish(struct findings_part *p, struct trace *whole, const struct window *window,
			  const struct analysis_params *ap, struct findings *out);

/* The rules (analysis/findings_list.h): each adds its findings. */
#define FINDING(fn, name, scope, steps) void finding_##fn(struct findings_ctx *c, struct findings *out);
#include "analysis/findings_list.h"
#undef FINDING

#endif
