#include "config.h"
#include "demo/demo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/rocpd_writer.h"
#include "export/rpd_writer.h"
#include "util/xalloc.h"

static int file_op(void *ctx, const struct gen_op *o)
{
	return rpd_writer_op(ctx, o->id, o->gpu, o->queue, o->start, o->end, o->desc, o->type);
}

static int file_api(void *ctx, const struct gen_api *a)
{
	struct rpd_writer *w = ctx;
	if (rpd_writer_api(w, a->id, a->pid, a->tid, a->start, a->end, a->name, a->args))
		return -1;
	if (a->kernel && rpd_writer_kernel(w, a->id, a->kernel))
		return -1;
	return a->copy ? rpd_writer_copy(w, a->id, a->copy) : 0;
}

static int file_link(void *ctx, int64_t api, int64_t op)
{
	return rpd_writer_link(ctx, api, op);
}

/* rocpd, as rocprofv3 records the same program: HIP calls are regions
 * of HIP_RUNTIME_API_EXT, roctx ranges regions named roctxThreadRangeA
 * with their text as the event's message, and calls without a duration
 * (roctx marks among them) samples. A call's id is the tracer's
 * correlation id, which its GPU work carries as its event's stack id.
 * Barriers have no rocpd table and are not written. */

static int rocpd_op(void *ctx, const struct gen_op *o)
{
	if (!o->kernel && !o->copy)
		return 0;
	struct rocpd_gpu_row g = {
		.pid = o->pid,
		.tid = o->tid,
		.gpu = o->gpu,
		/* Compute kernels and collectives each have a queue and a
		 * stream of their own; copies go by the default stream. */
		.queue = o->kernel ? o->queue : -1,
		.stream = o->kernel ? o->queue : -1,
		.start = o->start,
		.end = o->end,
		.copy_kind = o->copy ? o->copy->kind : 0,
		.size = o->copy ? o->copy->size : 0,
		.launch = o->launch,
	};
	char *symbol = NULL, *display = NULL;
	if (o->kernel) {
		/* The generator knows some kernels by their mangled names or as
		 * C symbols (Tensile's), others only demangled. */
		rocpd_kernel_names(o->kernel->kernel, &symbol, &display);
		g.kernel_name = symbol;
		g.display_name = display;
	}
	for (int i = 0; o->kernel && i < 3; i++) {
		g.grid[i] = o->kernel->grid[i];
		g.workgroup[i] = o->kernel->workgroup[i];
	}
	int rc = rocpd_writer_gpu(ctx, &g);
	free(symbol);
	free(display);
	return rc;
}

/* A copy's size and kind, as the tracer records hipMemcpy's arguments. */
static size_t copy_args(const struct gen_api *a, struct rocpd_arg_row *args, char *size, char *kind)
{
	if (!a->copy)
		return 0;
	snprintf(size, 24, "%lld", (long long)a->copy->size);
	snprintf(kind, 24, "%d", a->copy->kind);
	args[0] = (struct rocpd_arg_row){ 2, "size_t", "sizeBytes", size };
	args[1] = (struct rocpd_arg_row){ 3, "hipMemcpyKind", "kind", kind };
	return 2;
}

static int rocpd_api(void *ctx, const struct gen_api *a)
{
	int marker = strcmp(a->name, "UserMarker") == 0;
	struct rocpd_arg_row args[2];
	char size[24], kind[24];
	struct rocpd_call_row c = {
		.id = a->id,
		.pid = a->pid,
		.tid = a->tid,
		.start = a->start,
		.end = a->end,
		.name = !marker              ? a->name
			: a->start == a->end ? "roctxMarkA"
					     : "roctxThreadRangeA",
		.category = marker ? "MARKER_CORE_RANGE_API" : "HIP_RUNTIME_API_EXT",
		.message = marker ? a->args : NULL,
		.args = args,
		.nargs = copy_args(a, args, size, kind),
	};
	return rocpd_writer_call(ctx, &c);
}

static int rocpd_link(void *ctx, int64_t api, int64_t op)
{
	(void)ctx;
	(void)api;
	(void)op;
	return 0;
}

static int write_rocpd(const char *path, const struct gen_params *p, const struct demo_output *out,
		       struct rpd_error *err)
{
	unsigned n = gen_processes(p);
	int64_t *pids = xmalloc_array(n, sizeof(*pids));
	for (unsigned i = 0; i < n; i++)
		pids[i] = gen_pid(p, i);
	struct rocpd_job job = { .node = out->node,
				 .gpus = n,
				 .pids = pids,
				 .nprocs = n,
				 .ppid = gen_pid(p, 0) - 1,
				 .command = "python3 train.py --steps 1000" };
	struct rocpd_writer *w;
	int rc = rocpd_writer_open(&w, path, out->force, &job, err);
	free(pids);
	if (rc)
		return -1;
	struct gen_sink sink = { .ctx = w, .op = rocpd_op, .api = rocpd_api, .link = rocpd_link };
	if (gen_run(p, &sink)) {
		err_set(err, "%s: %s", path, rocpd_writer_errmsg(w));
		rocpd_writer_abort(w);
		return -1;
	}
	return rocpd_writer_commit(w, err);
}

int demo_write_file(const char *path, const struct gen_params *p, const struct demo_output *out,
		    struct rpd_error *err)
{
	if (out->format == INPUT_ROCPD)
		return write_rocpd(path, p, out, err);
	if (out->format == INPUT_KINETO)
		return demo_write_kineto(path, p, out, err);
	if (out->format == INPUT_NSYS)
		return demo_write_nsys(path, p, out, err);
	if (out->format == INPUT_ROCPROF)
		return demo_write_rocprof(path, p, out, err);
	if (out->format == INPUT_ROCPROFV3)
		return demo_write_rocprofv3(path, p, out, err);
	struct rpd_writer *w;
	if (rpd_writer_open(&w, path, out->force, err))
		return -1;
	struct gen_sink sink = { .ctx = w, .op = file_op, .api = file_api, .link = file_link };
	char seed[32];
	snprintf(seed, sizeof(seed), "%llu", (unsigned long long)p->seed);
	if (gen_run(p, &sink) || rpd_writer_metadata(w, "rpdtop::generator_seed", seed)) {
		err_set(err, "%s: %s", path, rpd_writer_errmsg(w));
		rpd_writer_abort(w);
		return -1;
	}
	return rpd_writer_commit(w, err);
}
