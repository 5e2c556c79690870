/* A deterministic generator of realistic training-step traces: several GPUs
 * with compute, copy and collective queues, HIP API calls linked to their
 * ops, nested roctx ranges, a roctx mark per step and calls too short to
 * have a duration. The same seed always gives the same trace. */
#ifndef RPDTOP_GENERATOR_H
#define RPDTOP_GENERATOR_H

#include <stdint.h>

#include "export/rpd_writer.h"

struct gen_params {
	uint64_t seed;
	uint64_t ops;     /* exact number of GPU ops to produce */
	unsigned gpus;    /* one process per GPU */
	int no_barriers;  /* rocpd has no barrier ops */
	int collectives;  /* a collective on the communication queue in every layer */
	int graphs;       /* each step's forward pass after the first is one graph
			   * launch call's replay (two graphs, in turn) */
	int64_t pid_base; /* first process id (0: the default) */
};

struct gen_op {
	int64_t id, start, end;
	int64_t gpu, queue;
	const char *desc, *type;
	int64_t pid, tid;                       /* the process and thread that launched it */
	int64_t launch;                         /* id of the API call that launched it, 0: none */
	const struct rpd_kernel_launch *kernel; /* kernels only */
	const struct rpd_copy_launch *copy;     /* copies only */
};

/* An API call; start == end for one too short to have a duration (a
 * roctx mark, a query). roctx ranges and marks are named UserMarker, their
 * text in args. */
struct gen_api {
	int64_t id, start, end;
	int64_t pid, tid;
	const char *name, *args;
	const struct rpd_kernel_launch *kernel; /* kernel launches only */
	const struct rpd_copy_launch *copy;     /* memory copies only */
};

/* Where generated rows go. Rows arrive with ascending ids per table; a link
 * arrives after both of its rows. A callback returning non-zero stops. */
struct gen_sink {
	void *ctx;
	int (*op)(void *ctx, const struct gen_op *op);
	int (*api)(void *ctx, const struct gen_api *api);
	int (*link)(void *ctx, int64_t api_id, int64_t op_id);
};

#define GEN_DEFAULT_SEED 42
#define GEN_DEMO_OPS 20000
#define GEN_DEMO_GPUS 4

int gen_run(const struct gen_params *params, const struct gen_sink *sink);

/* The number of processes (one per GPU) and the pid of process i. */
unsigned gen_processes(const struct gen_params *params);
int64_t gen_pid(const struct gen_params *params, unsigned i);

#endif
