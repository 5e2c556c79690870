/* A conversion to rocpd (rocprofiler-sdk's schema 3, as rocpd_writer
 * writes it): a process for each pid of each machine (domain), on its
 * node (the input's node name, or when the trace has inputs of several
 * machines and a machine's name is not known, its input's file name),
 * listing its node's GPUs by their numbers. Calls are regions (their id
 * the tracer's correlation id), roctx ranges regions named
 * roctxThreadRangeA and marks samples named roctxMarkA, each with its text
 * as the event's message, as the rocpd reader expects them. Kernels and
 * the ops that are no copies are dispatches (a kernel's symbol and name as
 * rocprofv3 keeps them), copies memory copies by their direction with
 * their sizes, host-to-host copies copies between host agents; an op is
 * its launching call's process's, its event's stack id the call's id, and
 * a graph's replay carries the graph as graph_exec_id (its number, or
 * for a name that is none a number made from it). An op without a call
 * goes to its input's first process. Barriers are left out: rocpd has no
 * table for them. */
#include "config.h"
#include "export/convert.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/rocpd_writer.h"
#include "util/xalloc.h"

struct rocpd_out {
	struct convert *c;
	struct rocpd_writer *w;
	struct rocpd_process *procs;
	uint32_t *proc_domain;
	size_t nprocs;
	uint32_t *thread_proc; /* per thread of the trace */
	uint32_t *home;        /* per input: the process of its ops without a call */
	int64_t **gpus;        /* per domain: its GPUs' numbers, rising */
	size_t *ngpus;
	uint32_t *gpu_index;      /* per GPU of the trace: its place in its domain's */
	char **symbol, **display; /* per string id, once asked */
};

struct proc_key {
	uint32_t domain;
	int64_t pid;
};

static int by_key(const void *a, const void *b)
{
	const struct proc_key *x = a, *y = b;
	if (x->domain != y->domain)
		return x->domain < y->domain ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

static int by_number(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* The process of (domain, pid), which is there. */
static uint32_t proc_of(const struct rocpd_out *o, uint32_t domain, int64_t pid)
{
	size_t lo = 0, hi = o->nprocs;
	struct proc_key k = { domain, pid };
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		struct proc_key m = { o->proc_domain[mid], o->procs[mid].pid };
		if (by_key(&m, &k) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (uint32_t)lo;
}

/* An input's first thread's pid: its ops without a call are that
 * process's (0 when it has no thread). */
static int64_t home_pid(const struct trace *t, uint32_t input)
{
	for (size_t i = 0; i < t->nthreads; i++)
		if (t->threads[i].input == input)
			return t->threads[i].pid;
	return 0;
}

/* The node's name a domain is written under. */
static const char *node_name(const struct trace *t, uint32_t domain)
{
	const char *node = t->domains[domain].node;
	if (node && *node)
		return node;
	if (t->ndomains < 2)
		return NULL;
	for (size_t i = 0; i < t->ninputs; i++)
		if (t->inputs[i].domain == domain)
			return trace_input_name(t, (uint32_t)i);
	return NULL;
}

static void plan_places(struct rocpd_out *o)
{
	const struct trace *t = o->c->t;
	/* Each domain's GPUs. */
	size_t nd = t->ndomains ? t->ndomains : 1;
	o->gpus = xcalloc(nd, sizeof(*o->gpus));
	o->ngpus = xcalloc(nd, sizeof(*o->ngpus));
	for (size_t i = 0; i < t->ngpus; i++) {
		uint32_t d = t->gpus[i].domain;
		o->gpus[d] = xrealloc_array(o->gpus[d], o->ngpus[d] + 1, sizeof(**o->gpus));
		o->gpus[d][o->ngpus[d]++] = t->gpus[i].device;
	}
	for (size_t d = 0; d < nd; d++) {
		size_t n = 0;
		if (o->ngpus[d])
			qsort(o->gpus[d], o->ngpus[d], sizeof(**o->gpus), by_number);
		for (size_t k = 0; k < o->ngpus[d]; k++)
			if (n == 0 || o->gpus[d][n - 1] != o->gpus[d][k])
				o->gpus[d][n++] = o->gpus[d][k];
		o->ngpus[d] = n;
	}
	o->gpu_index = xcalloc(t->ngpus ? t->ngpus : 1, sizeof(*o->gpu_index));
	for (size_t i = 0; i < t->ngpus; i++) {
		uint32_t d = t->gpus[i].domain;
		int64_t *at =
			bsearch(&t->gpus[i].device, o->gpus[d], o->ngpus[d], sizeof(**o->gpus), by_number);
		o->gpu_index[i] = (uint32_t)(at - o->gpus[d]);
	}
	/* The processes: of the calls that go, and each input's first. */
	size_t nkeys = 0;
	struct proc_key *keys = xmalloc_array(t->nthreads + t->ninputs + 1, sizeof(*keys));
	uint8_t *used = xcalloc(t->nthreads ? t->nthreads : 1, 1);
	for (size_t i = 0; i < t->apis.n; i++)
		if (o->c->api_out[i])
			used[t->apis.thread[i]] = 1;
	for (size_t i = 0; i < t->nthreads; i++)
		if (used[i])
			keys[nkeys++] = (struct proc_key){ t->threads[i].domain, t->threads[i].pid };
	for (size_t i = 0; i < t->ninputs; i++)
		keys[nkeys++] = (struct proc_key){ t->inputs[i].domain, home_pid(t, (uint32_t)i) };
	free(used);
	qsort(keys, nkeys, sizeof(*keys), by_key);
	o->procs = xcalloc(nkeys ? nkeys : 1, sizeof(*o->procs));
	o->proc_domain = xcalloc(nkeys ? nkeys : 1, sizeof(*o->proc_domain));
	for (size_t i = 0; i < nkeys; i++) {
		if (o->nprocs && by_key(&keys[i - 1], &keys[i]) == 0)
			continue;
		uint32_t d = keys[i].domain;
		o->proc_domain[o->nprocs] = d;
		o->procs[o->nprocs++] = (struct rocpd_process){
			.pid = keys[i].pid, .node = node_name(t, d), .gpus = o->gpus[d], .ngpus = o->ngpus[d]
		};
	}
	free(keys);
	o->thread_proc = xcalloc(t->nthreads ? t->nthreads : 1, sizeof(*o->thread_proc));
	for (size_t i = 0; i < t->nthreads; i++)
		o->thread_proc[i] = proc_of(o, t->threads[i].domain, t->threads[i].pid);
	o->home = xcalloc(t->ninputs ? t->ninputs : 1, sizeof(*o->home));
	for (size_t i = 0; i < t->ninputs; i++)
		o->home[i] = proc_of(o, t->inputs[i].domain, home_pid(t, (uint32_t)i));
}

/* The category rocprofv3 files a call under. */
static const char *category(const char *name)
{
	if (strncmp(name, "hsa", 3) == 0)
		return "HSA_CORE_API";
	return "HIP_RUNTIME_API_EXT";
}

/* A graph's number: its name when that is one (rocpd's), else a number
 * made from it (rpd's "0x24922d90" is read as the number it writes). */
static int64_t graph_number(const char *name)
{
	char *end;
	long long n = strtoll(name, &end, 0);
	if (end != name && *end == '\0' && n > 0)
		return n;
	uint64_t h = 1469598103934665603ull;
	for (const char *s = name; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return (int64_t)((h >> 1) | 1);
}

static int write_calls(struct rocpd_out *o)
{
	const struct trace *t = o->c->t;
	for (size_t i = 0; i < t->apis.n; i++) {
		if (!o->c->api_out[i])
			continue;
		const struct trace_thread *th = &t->threads[t->apis.thread[i]];
		const char *name = trace_str(t, trace_api_name(t, i));
		uint32_t text = trace_api_text(t, i), graph = trace_graph_of(&t->graphs, (uint32_t)i);
		int marker = convert_is_marker(o->c, i), mark = marker && t->apis.start[i] == t->apis.end[i];
		struct rocpd_arg_row arg = { 0, "hipGraphExec_t", "graphExec",
					     graph != TRACE_NONE ? trace_str(t, graph) : NULL };
		struct rocpd_call_row c = {
			.id = o->c->api_out[i],
			.tid = th->tid,
			.start = t->apis.start[i],
			.end = t->apis.end[i],
			.name = !marker ? name
				: mark  ? "roctxMarkA"
					: "roctxThreadRangeA",
			.category = !marker ? category(name)
				    : mark  ? "MARKER_CORE_API"
					    : "MARKER_CORE_RANGE_API",
			.message = text != TRACE_NONE ? trace_str(t, text) : NULL,
			.args = &arg,
			.nargs = graph != TRACE_NONE,
			.region = !marker,
		};
		if (rocpd_writer_call_in(o->w, o->thread_proc[t->apis.thread[i]], &c))
			return -1;
	}
	return 0;
}

/* A kernel's names as rocprofv3 keeps them, made once a name. */
static void kernel_names(struct rocpd_out *o, uint32_t name, const char **symbol, const char **display)
{
	if (!o->symbol[name])
		rocpd_kernel_names(trace_str(o->c->t, name), &o->symbol[name], &o->display[name]);
	*symbol = o->symbol[name];
	*display = o->display[name];
}

static int write_ops(struct rocpd_out *o)
{
	const struct trace *t = o->c->t;
	for (size_t i = 0; i < t->ops.n; i++) {
		if (!o->c->op_out[i])
			continue;
		uint32_t api = trace_op_launch(t, (uint32_t)i);
		if (api != TRACE_NONE && !o->c->api_out[api])
			api = TRACE_NONE;
		uint32_t proc =
			api != TRACE_NONE ? o->thread_proc[t->apis.thread[api]] : o->home[o->c->op_input[i]];
		uint32_t gpu = trace_op_gpu(t, i), q = t->ops.queue[i];
		char qname[40];
		if (t->queues[q].name == TRACE_NONE)
			snprintf(qname, sizeof(qname), "Queue %lld", (long long)t->queues[q].queue);
		struct rocpd_gpu_row g = {
			.tid = api != TRACE_NONE ? t->threads[t->apis.thread[api]].tid : o->procs[proc].pid,
			.gpu = o->gpu_index[gpu],
			.queue = q,
			.stream = q,
			.start = t->ops.start[i],
			.end = t->ops.end[i],
			.launch = api != TRACE_NONE ? o->c->api_out[api] : 0,
			.queue_name =
				t->queues[q].name != TRACE_NONE ? trace_str(t, t->queues[q].name) : qname,
		};
		if (t->ops.kind[i] == OP_COPY) {
			int kind = convert_copy_kind(trace_str(t, t->ops.name[i]));
			uint32_t fact = trace_copy_find(&t->copies, (uint32_t)i);
			g.copy_kind = kind < 0 ? ROCPD_D2D : kind;
			g.size = fact != TRACE_NONE ? t->copies.bytes[fact] : 0;
		} else {
			kernel_names(o, t->ops.name[i], &g.kernel_name, &g.display_name);
			uint32_t graph = api != TRACE_NONE ? trace_graph_of(&t->graphs, api) : TRACE_NONE;
			if (graph != TRACE_NONE)
				g.graph_exec = graph_number(trace_str(t, graph));
		}
		if (rocpd_writer_gpu_in(o->w, proc, &g))
			return -1;
	}
	return 0;
}

/* Copies between host memories: their input's first process's. */
static int write_host_copies(struct rocpd_out *o)
{
	const struct trace *t = o->c->t;
	const struct trace_host_copies *h = &t->host_copies;
	for (size_t i = 0; i < h->n; i++) {
		if (!selected_host_copy(o->c->req->sel, i))
			continue;
		uint32_t proc = o->home[h->input[i]];
		struct rocpd_gpu_row g = { .tid = o->procs[proc].pid,
					   .gpu = -1,
					   .queue = -1,
					   .stream = -1,
					   .start = h->start[i],
					   .end = h->end[i],
					   .copy_kind = ROCPD_H2H };
		if (rocpd_writer_gpu_in(o->w, proc, &g))
			return -1;
	}
	return 0;
}

static int put_metadata(void *ctx, const char *tag, const char *value)
{
	return rocpd_writer_metadata(ctx, tag, value);
}

static void free_out(struct rocpd_out *o)
{
	const struct trace *t = o->c->t;
	for (size_t i = 0; o->symbol && i < t->strings.count; i++) {
		free(o->symbol[i]);
		free(o->display[i]);
	}
	free(o->symbol);
	free(o->display);
	for (size_t d = 0; o->gpus && d < (t->ndomains ? t->ndomains : 1); d++)
		free(o->gpus[d]);
	free(o->gpus);
	free(o->ngpus);
	free(o->gpu_index);
	free(o->procs);
	free(o->proc_domain);
	free(o->thread_proc);
	free(o->home);
}

int convert_rocpd(struct convert *c)
{
	const struct trace *t = c->t;
	struct rocpd_out o = { .c = c };
	plan_places(&o);
	o.symbol = xcalloc(t->strings.count ? t->strings.count : 1, sizeof(*o.symbol));
	o.display = xcalloc(t->strings.count ? t->strings.count : 1, sizeof(*o.display));
	struct rocpd_job job = { .pids = NULL,
				 .nprocs = o.nprocs,
				 .ppid = 1,
				 .command = "",
				 .procs = o.procs,
				 .graphs = t->graphs.n > 0 };
	int rc = rocpd_writer_open(&o.w, c->req->path, c->req->force, &job, c->err);
	if (rc == 0) {
		rc = write_calls(&o) || write_ops(&o) || write_host_copies(&o) ||
		     convert_metadata(c, put_metadata, o.w);
		if (rc) {
			err_set(c->err, "%s: %s", c->req->path, rocpd_writer_errmsg(o.w));
			rocpd_writer_abort(o.w);
		} else {
			rc = rocpd_writer_commit(o.w, c->err);
		}
	}
	free_out(&o);
	return rc ? -1 : 0;
}
