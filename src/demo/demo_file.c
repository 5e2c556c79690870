#include "config.h"
#include "demo/demo.h"

#include <stdio.h>

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

int demo_write_file(const char *path, const struct gen_params *p, int force, struct rpd_error *err)
{
	struct rpd_writer *w;
	if (rpd_writer_open(&w, path, force, err))
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
