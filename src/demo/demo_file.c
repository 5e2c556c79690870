#include "config.h"
#include "demo/demo.h"

#include <stdio.h>
#include <string.h>

#include "export/rocpd_writer.h"
#include "export/rpd_writer.h"

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

/* rocpd: API calls are regions (correlated by their id), roctx ranges are
 * marker regions, GPU ops carry the id of their launch. Barriers have no
 * rocpd table and are not written. */
static int rocpd_op(void *ctx, const struct gen_op *o)
{
	if (!o->kernel && !o->copy)
		return 0;
	struct rocpd_gpu_row g = {
		.pid = o->pid,
		.gpu = o->gpu,
		.queue = o->queue,
		.start = o->start,
		.end = o->end,
		.kernel = o->kernel ? o->kernel->kernel : NULL,
		.copy_kind = o->copy ? o->copy->kind : 0,
		.size = o->copy ? o->copy->size : 0,
		.correlation = o->launch,
	};
	for (int i = 0; o->kernel && i < 3; i++) {
		g.grid[i] = o->kernel->grid[i];
		g.workgroup[i] = o->kernel->workgroup[i];
	}
	return rocpd_writer_gpu(ctx, &g);
}

static int rocpd_api(void *ctx, const struct gen_api *a)
{
	int marker = strcmp(a->name, "UserMarker") == 0;
	struct rocpd_region_row r = {
		.pid = a->pid,
		.tid = a->tid,
		.start = a->start,
		.end = a->end,
		.name = marker ? a->args : a->name,
		.marker = marker,
		.correlation = a->id,
	};
	return rocpd_writer_region(ctx, &r);
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
	struct rocpd_writer *w;
	if (rocpd_writer_open(&w, path, out->force, out->node, err))
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
