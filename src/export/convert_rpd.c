/* A conversion to rpd (schema 2, as rpd_writer writes it): ops with
 * their GPU and queue, calls with their pid and tid, their links, roctx
 * markers as UserMarker calls with their text as args (as rpd records
 * roctx), graph launches with their graph as the graphExec argument, the
 * copies' sizes with their launching calls (rocpd_copyapi) and the GPUs'
 * counters as monitor rows over the ops' span. An op's description and
 * opType come from its name and kind: a kernel's name is its description
 * (opType KernelExecution, or Task when a graph launch ran it, as rpd
 * records graph replays), another op's name its opType. GPUs and
 * processes of several machines are numbered apart (convert.h); queues
 * keep their numbers unless a GPU has one that is no small number
 * (rocpd's handles), when its queues are numbered from 0. */
#include "config.h"
#include "export/convert.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/rocpd_writer.h"
#include "export/rpd_writer.h"
#include "util/xalloc.h"

/* Queue numbers above this are handles, not numbers people read. */
#define SMALL_QUEUE ((int64_t)1 << 20)

struct rpd_out {
	struct convert *c;
	struct rpd_writer *w;
	struct convert_renumber gpus, pids;
	int64_t *queue_out; /* per queue of the trace */
};

static void number_places(struct rpd_out *o)
{
	const struct trace *t = o->c->t;
	convert_renumber_init(&o->gpus);
	convert_renumber_init(&o->pids);
	for (size_t i = 0; i < t->ngpus; i++)
		convert_renumber_add(&o->gpus, t->gpus[i].domain, t->gpus[i].device);
	for (size_t i = 0; i < t->counters.nseries; i++)
		convert_renumber_add(&o->gpus, t->counters.series[i].domain, t->counters.series[i].device);
	convert_renumber_build(&o->gpus);
	for (size_t i = 0; i < t->nthreads; i++)
		convert_renumber_add(&o->pids, t->threads[i].domain, t->threads[i].pid);
	convert_renumber_build(&o->pids);
	/* A GPU's queues keep their numbers when all are small. */
	uint8_t *renumber = xcalloc(t->ngpus ? t->ngpus : 1, 1);
	int64_t *next = xcalloc(t->ngpus ? t->ngpus : 1, sizeof(*next));
	for (size_t i = 0; i < t->nqueues; i++)
		if (t->queues[i].queue < 0 || t->queues[i].queue >= SMALL_QUEUE)
			renumber[t->queues[i].gpu] = 1;
	o->queue_out = xmalloc_array(t->nqueues ? t->nqueues : 1, sizeof(*o->queue_out));
	for (size_t i = 0; i < t->nqueues; i++) {
		uint32_t g = t->queues[i].gpu;
		o->queue_out[i] = renumber[g] ? next[g]++ : t->queues[i].queue;
	}
	free(renumber);
	free(next);
}

static int64_t gpu_out(const struct rpd_out *o, uint32_t gpu)
{
	const struct trace_gpu *g = &o->c->t->gpus[gpu];
	return convert_renumber_get(&o->gpus, g->domain, g->device);
}

/* An op's description and opType, from which rpd's readers give back
 * its name and kind. */
static void op_strings(struct rpd_out *o, size_t op, const char **desc, const char **type)
{
	const struct trace *t = o->c->t;
	const char *name = trace_str(t, t->ops.name[op]);
	*desc = "";
	*type = name;
	if (t->ops.kind[op] == OP_KERNEL) {
		uint32_t api = trace_op_launch(t, (uint32_t)op);
		*desc = name;
		*type = api != TRACE_NONE && convert_graph_call(o->c, api) ? "Task" : "KernelExecution";
	} else if (t->ops.kind[op] == OP_COPY && strncmp(name, "Copy", 4) != 0) {
		/* A copy of a direction rpd has no name for keeps its own. */
		*desc = name;
		*type = "CopyUnknown";
	}
}

static int write_ops(struct rpd_out *o)
{
	const struct trace *t = o->c->t;
	for (size_t i = 0; i < t->ops.n; i++) {
		if (!o->c->op_out[i])
			continue;
		const char *desc, *type;
		op_strings(o, i, &desc, &type);
		if (rpd_writer_op(o->w, o->c->op_out[i], gpu_out(o, trace_op_gpu(t, i)),
				  o->queue_out[t->ops.queue[i]], t->ops.start[i], t->ops.end[i], desc, type))
			return -1;
	}
	return 0;
}

static int write_calls(struct rpd_out *o)
{
	const struct trace *t = o->c->t;
	char args[160];
	for (size_t i = 0; i < t->apis.n; i++) {
		if (!o->c->api_out[i])
			continue;
		const struct trace_thread *th = &t->threads[t->apis.thread[i]];
		uint32_t text = trace_api_text(t, i), graph = trace_graph_of(&t->graphs, (uint32_t)i);
		const char *a = "";
		if (text != TRACE_NONE) {
			a = trace_str(t, text);
		} else if (graph != TRACE_NONE) {
			snprintf(args, sizeof(args), "graphExec = %s", trace_str(t, graph));
			a = args;
		}
		if (rpd_writer_api(o->w, o->c->api_out[i],
				   convert_renumber_get(&o->pids, th->domain, th->pid), th->tid,
				   t->apis.start[i], t->apis.end[i], trace_str(t, trace_api_name(t, i)), a))
			return -1;
	}
	return 0;
}

/* "GPU 3" (a rocpd agent) as the copy's device, else dflt. */
static int64_t copy_device(const struct rpd_out *o, uint32_t domain, uint32_t text, int64_t dflt)
{
	long long n;
	char rest;
	if (text == TRACE_NONE || sscanf(trace_str(o->c->t, text), "GPU %lld%c", &n, &rest) != 1)
		return dflt;
	return convert_renumber_get(&o->gpus, domain, n);
}

/* An address as rpd records it; other texts ("CPU 0") are none. */
static const char *copy_address(const struct trace *t, uint32_t text)
{
	const char *s = text == TRACE_NONE ? NULL : trace_str(t, text);
	return s && strncmp(s, "0x", 2) == 0 ? s : NULL;
}

/* The links, and with each copy's launching call its size and sides
 * (rpd keeps a copy's facts with its call: one row a call). */
static int write_links(struct rpd_out *o)
{
	const struct trace *t = o->c->t;
	uint64_t *copied = xcalloc(t->apis.n / 64 + 1, sizeof(*copied));
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < t->ops.n; i++) {
		uint32_t api = o->c->op_out[i] ? trace_op_launch(t, (uint32_t)i) : TRACE_NONE;
		if (api == TRACE_NONE || !o->c->api_out[api])
			continue;
		rc = rpd_writer_link(o->w, o->c->api_out[api], o->c->op_out[i]);
		uint32_t fact =
			t->ops.kind[i] == OP_COPY ? trace_copy_find(&t->copies, (uint32_t)i) : TRACE_NONE;
		if (rc || fact == TRACE_NONE || (copied[api / 64] >> (api % 64) & 1))
			continue;
		copied[api / 64] |= (uint64_t)1 << (api % 64);
		uint32_t gpu = trace_op_gpu(t, i), domain = t->gpus[gpu].domain;
		int64_t dev = gpu_out(o, gpu);
		/* hipMemcpyKind: 0 host to host, 1 to the device, 2 from it,
		 * 3 between devices, 4 as the pointers say. */
		static const int kinds[] = {
			[ROCPD_H2H] = 0, [ROCPD_H2D] = 1, [ROCPD_D2H] = 2, [ROCPD_D2D] = 3, [ROCPD_P2P] = 3
		};
		int k = convert_copy_kind(trace_str(t, t->ops.name[i]));
		struct rpd_copy_launch cl = {
			.size = t->copies.bytes[fact],
			.kind = k < 0 ? 4 : kinds[k],
			.src_device = copy_device(o, domain, t->copies.src[fact],
						  k == ROCPD_H2D || k == ROCPD_H2H ? -1 : dev),
			.dst_device = copy_device(o, domain, t->copies.dst[fact],
						  k == ROCPD_D2H || k == ROCPD_H2H ? -1 : dev),
			.src = copy_address(t, t->copies.src[fact]),
			.dst = copy_address(t, t->copies.dst[fact]),
		};
		rc = rpd_writer_copy(o->w, o->c->api_out[api], &cl);
	}
	free(copied);
	return rc;
}

/* The counters' samples over the span of the ops that go, as rpd's
 * monitor rows: a value as text, whole numbers without a point. */
static int write_counters(struct rpd_out *o)
{
	const struct trace *t = o->c->t;
	const struct trace_counters *k = &t->counters;
	char value[40];
	for (size_t i = 0; i < k->n; i++) {
		const struct trace_counter *s = &k->series[k->of[i]];
		if (k->start[i] > o->c->span_end || k->end[i] < o->c->span_start)
			continue;
		double v = k->value[i];
		if (v == floor(v) && fabs(v) < 9007199254740992.0)
			snprintf(value, sizeof(value), "%.0f", v);
		else
			snprintf(value, sizeof(value), "%.17g", v);
		if (rpd_writer_monitor(o->w, "gpu", convert_renumber_get(&o->gpus, s->domain, s->device),
				       trace_str(t, s->name), k->start[i], k->end[i], value))
			return -1;
	}
	return 0;
}

static int put_metadata(void *ctx, const char *tag, const char *value)
{
	return rpd_writer_metadata(ctx, tag, value);
}

/* Places that were numbered apart, said in the file: "GPU node-b/0 is
 * gpuId 2". */
static int renumbered(struct rpd_out *o)
{
	const struct trace *t = o->c->t;
	char label[256], buf[320];
	for (size_t i = 0; i < t->ngpus; i++) {
		int64_t out = gpu_out(o, (uint32_t)i);
		if (out == t->gpus[i].device)
			continue;
		trace_gpu_label(t, (uint32_t)i, label, sizeof(label));
		snprintf(buf, sizeof(buf), "GPU %s is gpuId %lld", label, (long long)out);
		if (rpd_writer_metadata(o->w, "rpdtop::renumbered", buf))
			return -1;
	}
	return 0;
}

int convert_rpd(struct convert *c)
{
	struct rpd_out o = { .c = c };
	if (rpd_writer_open(&o.w, c->req->path, c->req->force, c->err))
		return -1;
	number_places(&o);
	int rc = write_ops(&o) || write_calls(&o) || write_links(&o) || write_counters(&o) ||
		 convert_metadata(c, put_metadata, o.w) || renumbered(&o);
	if (rc) {
		err_set(c->err, "%s: %s", c->req->path, rpd_writer_errmsg(o.w));
		rpd_writer_abort(o.w);
	} else {
		rc = rpd_writer_commit(o.w, c->err);
	}
	convert_renumber_free(&o.gpus);
	convert_renumber_free(&o.pids);
	free(o.queue_out);
	return rc ? -1 : 0;
}
