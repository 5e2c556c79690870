/* What the parts of a batch run share: the partials being merged, and the
 * partial results of the reports with a row per GPU (busy, idle). */
#ifndef RPDTOP_BATCH_PART_H
#define RPDTOP_BATCH_PART_H

#include "analysis/breakdown.h"
#include "analysis/busy.h"
#include "analysis/categories.h"
#include "analysis/gaps.h"
#include "batch/batch_plan.h"
#include "present/report_waits.h"
#include "session/window.h"
#include "trace/api_order.h"
#include "util/bytes.h"

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

/* One part's bytes being merged, and the trace they merge into: every
 * part's inputs (and their domains, and the GPUs that finishing makes
 * again), no op; names are interned in its strings. */
struct part_in {
	struct bytes_in *in;
	struct trace *whole;
	const size_t *input; /* the part's input k is whole's input[k] */
	size_t ninputs;
};

/* Group g's partial as merge_state holds it. */
struct part_in batch_part_in(struct merge_state *m, size_t g);

/* A GPU as a part knows it, to be made again in the whole in the order
 * the whole load makes GPUs (of their first ops): the input and place of
 * its first op, the input it is labelled by, its number. */
struct part_gpu {
	size_t input, offset;
	uint32_t label_input;
	int64_t device;
};

#define PART_GPU_BYTES (4 + 8 + 4 + 8)

struct part_gpu_list {
	struct part_gpu *v;
	size_t n, cap;
};

/* Where each GPU of a trace runs its first op: the input and the op's
 * place in it (offset SIZE_MAX: it runs none). */
struct part_gpus {
	size_t *offset;
	uint32_t *input;
};

void part_gpus_of(const struct trace *t, struct part_gpus *f);
void part_gpus_free(struct part_gpus *f);
/* Did GPU gpu run an op? */
static inline int part_gpu_ran(const struct part_gpus *f, uint32_t gpu)
{
	return f->offset[gpu] != SIZE_MAX;
}
/* GPU gpu of t, which ran an op, as a part knows it. */
struct part_gpu part_gpu_of(const struct trace *t, const struct part_gpus *f, uint32_t gpu);
void part_gpu_list_add(struct part_gpu_list *l, const struct part_gpu *g);
void part_put_gpu(struct bytes_out *b, const struct part_gpu *g);
/* A GPU read from in, its inputs those of the whole; -1 when malformed. */
int part_get_gpu(const struct part_in *in, struct part_gpu *g);
/* Make the n GPUs in whole, in the whole load's order: gpu[i] is made of
 * gpus[i]. Returns their order (indices of gpus, by the GPUs made). */
size_t *part_make_gpus(struct trace *whole, const struct part_gpu *gpus, size_t n, uint32_t *gpu);

/* Busy's partial result: every input's span, and a row for each GPU that
 * ran an op. */
struct busy_part {
	struct busy_inputs in;
	struct busy_row *rows;
	size_t n, cap;
	struct part_gpu_list gpus; /* each row's */
};

void busy_part_init(struct busy_part *p);
void busy_part_free(struct busy_part *p);
void busy_part_add(struct busy_part *p, const struct trace *t, const struct selection *sel);
void busy_part_encode(const struct busy_part *p, struct bytes_out *b);
int busy_part_merge(struct busy_part *p, const struct part_in *in);
/* window: the request's on the whole span (inactive: none). */
void busy_part_finish(struct busy_part *p, struct trace *whole, const struct window *window,
		      struct busy *out);

/* Idle's partial result: the trace's ops and their span, and a lane for
 * each GPU that ran an op (of no ops when the selection keeps none). */
struct idle_part {
	uint64_t ops;
	int64_t first, last;
	struct gap_lane *lanes;
	size_t n, cap;
	struct part_gpu_list gpus; /* each lane's */
};

void idle_part_init(struct idle_part *p);
void idle_part_free(struct idle_part *p);
void idle_part_add(struct idle_part *p, const struct trace *t, const struct selection *sel,
		   int64_t threshold);
void idle_part_encode(const struct idle_part *p, struct bytes_out *b);
int idle_part_merge(struct idle_part *p, const struct part_in *in);
/* The lanes in the idle report's order and the range they are of. */
void idle_part_finish(struct idle_part *p, struct trace *whole, const struct window *window,
		      struct gaps *out);

/* Breakdown's partial result: each GPU that ran an op, with its row when
 * the selection keeps an op of it. */
struct breakdown_part_row {
	struct breakdown_row row;
	int present;
};

struct breakdown_part {
	struct breakdown_part_row *rows;
	size_t n, cap;
	struct part_gpu_list gpus; /* each row's */
};

void breakdown_part_init(struct breakdown_part *p);
void breakdown_part_free(struct breakdown_part *p);
void breakdown_part_add(struct breakdown_part *p, const struct trace *t, const struct selection *sel,
			const struct filter *comm);
void breakdown_part_encode(const struct breakdown_part *p, struct bytes_out *b);
int breakdown_part_merge(struct breakdown_part *p, const struct part_in *in);
void breakdown_part_finish(struct breakdown_part *p, struct trace *whole, struct breakdown *out);

/* Kernel time by category, each category's calls and time summed. */
struct categories_part {
	struct category_times ct; /* a row per category, in their order */
};

void categories_part_init(struct categories_part *p, const struct categories *c);
void categories_part_free(struct categories_part *p);
void categories_part_add(struct categories_part *p, const struct trace *t, const struct selection *sel,
			 const struct categories *c);
void categories_part_encode(const struct categories_part *p, struct bytes_out *b);
int categories_part_merge(struct categories_part *p, const struct part_in *in);
void categories_part_finish(struct categories_part *p, struct category_times *out);

/* The gaps' partial result: the gaps found and their count, the idle
 * time between ops, the GPUs that ran an op (the gaps' lanes are their
 * indices) and the names around each gap. */
struct gaps_part {
	uint64_t total;
	int64_t idle;
	struct gap *gaps;
	size_t n, cap, ncap;
	struct gap_names made; /* added: the names, and what to ask */
	uint32_t (*names)[3];  /* merged: before, after, cpu (whole's ids) */
	struct part_gpu_list gpus;
};

void gaps_part_init(struct gaps_part *p);
void gaps_part_free(struct gaps_part *p);
/* The host's calls at the gaps are asked of the inputs when t holds its
 * launching calls alone: the caller answers p->made.asks before
 * encoding. order: t's API order (NULL: made when needed). */
void gaps_part_add(struct gaps_part *p, const struct trace *t, const struct selection *sel,
		   const struct gaps_params *gp, const struct api_order *order);
void gaps_part_encode(struct gaps_part *p, const struct trace *t, struct bytes_out *b);
int gaps_part_merge(struct gaps_part *p, const struct part_in *in);
/* The longest limit gaps (0: all) in the report's order, and their
 * names; returns the idle time between ops of every lane. */
int64_t gaps_part_finish(struct gaps_part *p, struct trace *whole, size_t limit, struct gaps *out,
			 struct gap_names *names);

/* API calls (kind REPORT_API) or roctx ranges (REPORT_MARKERS) by name;
 * o: t's API order. */
void batch_put_by_name(const struct trace *t, const struct api_order *o, const struct selection *sel,
		       enum report_kind kind, struct bytes_out *b);
int batch_by_name_table(const struct batch_plan *plan, enum report_kind kind, struct merge_state *m,
			const struct report_params *rp, struct table *tb, struct rpd_error *err);
void batch_put_ranks(const struct trace *t, const struct selection *sel, const struct filter *comm,
		     struct bytes_out *b);
int batch_ranks_table(const struct batch_plan *plan, struct merge_state *m, const struct report_params *rp,
		      struct table *tb, struct rpd_error *err);

#endif
