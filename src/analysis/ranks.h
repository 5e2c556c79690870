/* Ranks: one row per input (a process, a rank of a job), and the time its
 * collectives spent waiting for the other ranks (HTA's straggler idea).
 *
 * Over the ops in the selection: gpus (GPUs it ran ops on), ops, gpu (sum
 * of durations inside the window), busy (per GPU the union of its ops'
 * intervals inside the window, summed over its GPUs), first and last (its
 * first op's start and last op's end, inside the window), comm (the
 * kernels whose names match the comm pattern: their time inside the
 * window) and comm_wait: for each collective (a comm kernel's name) that
 * every rank runs the same number of times, the i-th instances are
 * matched across ranks (in start order), and each rank's wait is the
 * latest start among them minus its own start, at most the instance's
 * (whole) duration. The rank whose instance started latest is waited
 * for: it is credited with the others' waits, and the rank credited most
 * is the likely straggler. */
#ifndef RPDTOP_RANKS_H
#define RPDTOP_RANKS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/part.h"
#include "session/filter.h"
#include "session/select.h"
#include "trace/trace.h"
#include "util/bytes.h"

struct rank_row {
	uint32_t input; /* index into trace.inputs */
	size_t gpus;
	uint64_t ops;
	int64_t gpu, busy, first, last, comm, comm_wait;
	int64_t waited_for; /* the others' waits for this rank's instances */
};

struct ranks {
	struct rank_row *rows; /* inputs with ops in the selection, natural order */
	size_t n;
	size_t collectives; /* names matched across every rank */
	uint64_t instances; /* instances matched (per rank) */
	size_t straggler;   /* row waited for most, or SIZE_MAX (none waited) */
};

/* comm: the pattern that makes a kernel communication. */
void ranks_per_input(const struct trace *t, const struct selection *sel, const struct filter *comm,
		     struct ranks *out);
void ranks_free(struct ranks *r);

/* A collective's instance on one rank: its name (a string id), input,
 * place among its input's ops (what orders instances starting together)
 * and times. */
struct rank_instance {
	uint32_t name, input;
	uint64_t seq;
	int64_t start, end;
};

/* The partial result of ranks_per_input, to be merged with others: an
 * input's row is whole in the part that read it; the matching across
 * ranks needs every rank's collectives, so their instances travel. */
struct ranks_part {
	struct rank_row *rows; /* waits not yet known */
	size_t n, cap;
	struct rank_instance *inst;
	size_t ninst, icap;
};

void ranks_part_init(struct ranks_part *p);
void ranks_part_free(struct ranks_part *p);
void ranks_part_add(struct ranks_part *p, const struct trace *t, const struct selection *sel,
		    const struct filter *comm);
/* As bytes: inputs by their index in t, names by their text. */
void ranks_part_encode(const struct ranks_part *p, const struct trace *t, struct bytes_out *b);
/* Merge encoded bytes into p: an input k of the part is input global[k]
 * (k < nlocal) of the merged trace; names are interned in strings. -1
 * when the bytes are malformed. */
int ranks_part_merge(struct ranks_part *p, const struct part_in *in);
/* The rows, matched (t holds the inputs and names); p is emptied. */
void ranks_part_finish(struct ranks_part *p, const struct trace *t, struct ranks *out);

#endif
