/* Partial results: what an analysis finds in part of a trace (a node
 * group's inputs, a process's share of the groups), kept in a form that
 * travels as bytes and merges, so that the parts merged give exactly what
 * the analysis gives of the whole trace.
 *
 * Every analysis's partial result is named alike, X the analysis:
 *   struct X_part                     the partial result
 *   X_part_init(p, ...)               empty
 *   X_part_add(p, t, sel, ...)        what the selected part of t holds
 *   X_part_encode(p, [t,] b)          as bytes: names by their text,
 *                                     inputs by their index in t
 *   X_part_merge(p, in)               one part's bytes decoded and merged
 *                                     in; -1 when they are malformed
 *   X_part_finish(p, [whole,] ..., out)  the analysis' own result of what
 *                                     p merged; p is emptied
 *   X_part_free(p)
 * api and markers keep theirs in the figures by name that top shares
 * (analysis/namestat.h). What follows is what the parts share: the bytes
 * being merged, and the GPUs they name. */
#ifndef RPDTOP_PART_H
#define RPDTOP_PART_H

#include <stddef.h>
#include <stdint.h>

#include "trace/trace.h"
#include "util/bytes.h"

/* One part's bytes being merged, and the trace they merge into: every
 * part's inputs (and their domains, and the GPUs that finishing makes
 * again), no op; names are interned in its strings. */
struct part_in {
	struct bytes_in *in;
	struct trace *whole;
	const size_t *input; /* the part's input k is whole's input[k] */
	size_t ninputs;
};

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

#endif
