/* The generated trace as rocprofv3 writes it with --output-format json:
 * {"rocprofiler-sdk-tool": [...]}, a process per GPU (gzipped when the
 * file's name ends in .gz). Each process has its metadata (pid, node),
 * the node's agents (a CPU, then a GPU per process, numbered by
 * logical_node_type_id), the names of the kinds and operations of its
 * records (strings.buffer_records: HIP_RUNTIME_API's are the generator's
 * calls), its roctx messages by correlation id (strings.marker_api), its
 * kernel symbols (the descriptors' names, ending in .kd) and its records:
 * kernel_dispatch (on the GPU's agent and the queue), memory_copy (from
 * and to the agents of its direction, on the stream of the copy queue),
 * hip_api (the calls; an op's correlation_id.internal is its call's) and
 * marker_api (roctx ranges and marks). A JSON object's keys have no order:
 * the second process (and every other after it) has its records before
 * its agents, strings and symbols. Barriers have no record and are not
 * written. */
#include "config.h"
#include "demo/demo.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "sqlfile/tempname.h"
#include "trace/strtab.h"
#include "util/i18n.h"
#include "util/xalloc.h"

/* rocprofiler-sdk's buffer tracing kinds, in the order of their enum (the
 * index of strings.buffer_records), up to the ones written. */
enum { K_HIP = 5, K_MARKER = 7, K_COPY = 10, K_DISPATCH = 11, NKINDS = 12 };
static const char *const kind_names[NKINDS] = {
	"NONE",
	"HSA_CORE_API",
	"HSA_AMD_EXT_API",
	"HSA_IMAGE_EXT_API",
	"HSA_FINALIZE_EXT_API",
	"HIP_RUNTIME_API",
	"HIP_COMPILER_API",
	"MARKER_CORE_API",
	"MARKER_CONTROL_API",
	"MARKER_NAME_API",
	"MEMORY_COPY",
	"KERNEL_DISPATCH",
};
static const char *const marker_ops[] = { "roctxMarkA",       "roctxRangePushA", "roctxRangePop",
					  "roctxRangeStartA", "roctxRangeStop",  "roctxGetThreadId" };
static const char *const copy_ops[] = { "MEMORY_COPY_NONE", "MEMORY_COPY_HOST_TO_HOST",
					"MEMORY_COPY_HOST_TO_DEVICE", "MEMORY_COPY_DEVICE_TO_HOST",
					"MEMORY_COPY_DEVICE_TO_DEVICE" };
static const char *const dispatch_ops[] = { "KERNEL_DISPATCH_NONE", "KERNEL_DISPATCH_ENQUEUE",
					    "KERNEL_DISPATCH_COMPLETE" };

/* Agents' handles: the CPU's, then GPU i's is one more than i's. */
#define CPU_HANDLE 9000
#define GPU_HANDLE(gpu) (9001 + (gpu))

/* What is written in one pass of the generator. */
enum what { W_MESSAGES, W_DISPATCH, W_COPY, W_HIP, W_MARKER };

struct rout {
	FILE *f;
	gzFile gz;
	int failed;
	int first; /* nothing written yet in the current list */
	enum what what;
	int64_t pid;
	struct strtab kernels, calls; /* kernel ids and HIP operations: their ids */
};

static void put(struct rout *o, const char *s, size_t n)
{
	if (o->failed || n == 0)
		return;
	if (o->gz)
		o->failed = gzwrite(o->gz, s, (unsigned)n) != (int)n;
	else
		o->failed = fwrite(s, 1, n, o->f) != n;
}

static void putf(struct rout *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void putf(struct rout *o, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(buf)) {
		o->failed = 1;
		return;
	}
	put(o, buf, (size_t)n);
}

#define PUTS(o, s) put((o), (s), strlen(s))

static void put_string(struct rout *o, const char *s)
{
	PUTS(o, "\"");
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			putf(o, "\\%c", *p);
		else if (*p < 0x20)
			putf(o, "\\u%04x", *p);
		else
			put(o, (const char *)p, 1);
	}
	PUTS(o, "\"");
}

/* The next element of a list. */
static void element(struct rout *o)
{
	PUTS(o, o->first ? "\n      " : ",\n      ");
	o->first = 0;
}

static int marker(const struct gen_api *a)
{
	return strcmp(a->name, "UserMarker") == 0;
}

/* The first pass: the names the records refer to by id. */
static int collect_op(void *ctx, const struct gen_op *op)
{
	struct rout *o = ctx;
	if (op->kernel)
		strtab_intern(&o->kernels, op->desc);
	return 0;
}

static int collect_api(void *ctx, const struct gen_api *a)
{
	struct rout *o = ctx;
	if (!marker(a))
		strtab_intern(&o->calls, a->name);
	return 0;
}

static int no_link(void *ctx, int64_t api, int64_t op)
{
	(void)ctx;
	(void)api;
	(void)op;
	return 0;
}

static void put_times(struct rout *o, int64_t start, int64_t end)
{
	putf(o, "\"start_timestamp\": %lld, \"end_timestamp\": %lld", (long long)start, (long long)end);
}

static int write_op(void *ctx, const struct gen_op *op)
{
	struct rout *o = ctx;
	if (op->pid != o->pid)
		return 0;
	if (o->what == W_DISPATCH && op->kernel) {
		uint32_t id = strtab_find(&o->kernels, op->desc, strlen(op->desc));
		element(o);
		putf(o,
		     "{\"size\": 184, \"kind\": %d, \"operation\": 2, \"thread_id\": %lld, "
		     "\"correlation_id\": "
		     "{\"internal\": %lld, \"external\": 0}, ",
		     K_DISPATCH, (long long)op->tid, (long long)op->launch);
		put_times(o, op->start, op->end);
		putf(o,
		     ", \"dispatch_info\": {\"size\": 72, \"agent_id\": {\"handle\": %lld}, \"queue_id\": "
		     "{\"handle\": %lld}, \"kernel_id\": %u, \"dispatch_id\": %lld, "
		     "\"private_segment_size\": 0, "
		     "\"group_segment_size\": 0, \"workgroup_size\": {\"x\": %lld, \"y\": 1, \"z\": 1}, "
		     "\"grid_size\": {\"x\": %lld, \"y\": 1, \"z\": 1}}, \"stream_id\": {\"handle\": %lld}}",
		     (long long)GPU_HANDLE(op->gpu), (long long)op->queue, id, (long long)op->id,
		     (long long)op->kernel->workgroup[0], (long long)op->kernel->grid[0],
		     (long long)op->queue);
	} else if (o->what == W_COPY && op->copy && op->copy->kind >= 1 && op->copy->kind <= 3) {
		int kind = op->copy->kind;
		long long gpu = GPU_HANDLE(op->gpu);
		element(o);
		putf(o,
		     "{\"size\": 64, \"kind\": %d, \"operation\": %d, \"thread_id\": %lld, "
		     "\"correlation_id\": "
		     "{\"internal\": %lld, \"external\": 0}, ",
		     K_COPY, kind + 1, (long long)op->tid, (long long)op->launch);
		put_times(o, op->start, op->end);
		putf(o,
		     ", \"dst_agent_id\": {\"handle\": %lld}, \"src_agent_id\": {\"handle\": %lld}, "
		     "\"bytes\": %lld, \"stream_id\": {\"handle\": %lld}}",
		     kind == 2 ? (long long)CPU_HANDLE : gpu, kind == 1 ? (long long)CPU_HANDLE : gpu,
		     (long long)op->copy->size, (long long)op->queue);
	}
	return o->failed ? -1 : 0;
}

static int write_api(void *ctx, const struct gen_api *a)
{
	struct rout *o = ctx;
	if (a->pid != o->pid)
		return 0;
	int m = marker(a);
	if (o->what == W_MESSAGES && m) {
		element(o);
		putf(o, "{\"key\": %lld, \"value\": ", (long long)a->id);
		put_string(o, a->args);
		PUTS(o, "}");
	} else if ((o->what == W_HIP && !m) || (o->what == W_MARKER && m)) {
		/* A mark takes no time (roctxMarkA), a range some (roctxRangePushA). */
		int kind = m ? K_MARKER : K_HIP;
		unsigned op = m ? (a->start == a->end ? 0 : 1)
				: strtab_find(&o->calls, a->name, strlen(a->name)) - 1;
		element(o);
		putf(o,
		     "{\"size\": 48, \"kind\": %d, \"operation\": %u, \"correlation_id\": {\"internal\": "
		     "%lld, "
		     "\"external\": 0}, ",
		     kind, op, (long long)a->id);
		put_times(o, a->start, a->end);
		putf(o, ", \"thread_id\": %lld}", (long long)a->tid);
	}
	return o->failed ? -1 : 0;
}

/* A list of the process's records (or messages), in one pass. */
static int list(struct rout *o, const struct gen_params *p, const char *name, enum what what)
{
	putf(o, "\"%s\": [", name);
	o->what = what;
	o->first = 1;
	struct gen_sink sink = { .ctx = o, .op = write_op, .api = write_api, .link = no_link };
	int rc = gen_run(p, &sink);
	PUTS(o, o->first ? "]" : "\n    ]");
	return rc;
}

static void operations(struct rout *o, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		PUTS(o, i ? ", " : "");
		put_string(o, names[i]);
	}
}

static void agents(struct rout *o, const struct gen_params *p)
{
	PUTS(o, "\"agents\": [\n      ");
	putf(o,
	     "{\"size\": 312, \"id\": {\"handle\": %d}, \"type\": 1, \"node_id\": 0, \"logical_node_id\": 0, "
	     "\"logical_node_type_id\": 0, \"name\": \"rpdgen CPU\"}",
	     CPU_HANDLE);
	for (unsigned i = 0; i < gen_processes(p); i++)
		putf(o,
		     ",\n      {\"size\": 312, \"id\": {\"handle\": %d}, \"type\": 2, \"node_id\": %u, "
		     "\"logical_node_id\": %u, \"logical_node_type_id\": %u, \"name\": \"gfx942\", "
		     "\"product_name\": \"rpdgen GPU\"}",
		     GPU_HANDLE(i), i + 1, i + 1, i);
	PUTS(o, "\n    ]");
}

static int strings(struct rout *o, const struct gen_params *p)
{
	PUTS(o, "\"strings\": {\n    \"callback_records\": [],\n    \"buffer_records\": [");
	for (int k = 0; k < NKINDS; k++) {
		putf(o, "%s\n      {\"kind\": \"%s\", \"operations\": [", k ? "," : "", kind_names[k]);
		if (k == K_HIP)
			for (uint32_t i = 1; i < o->calls.count; i++) {
				PUTS(o, i > 1 ? ", " : "");
				put_string(o, strtab_get(&o->calls, i));
			}
		else if (k == K_MARKER)
			operations(o, marker_ops, sizeof(marker_ops) / sizeof(marker_ops[0]));
		else if (k == K_COPY)
			operations(o, copy_ops, sizeof(copy_ops) / sizeof(copy_ops[0]));
		else if (k == K_DISPATCH)
			operations(o, dispatch_ops, sizeof(dispatch_ops) / sizeof(dispatch_ops[0]));
		PUTS(o, "]}");
	}
	PUTS(o, "\n    ],\n    ");
	int rc = list(o, p, "marker_api", W_MESSAGES);
	PUTS(o, ",\n    \"correlation_id\": {\"external\": []}\n    }");
	return rc;
}

static void symbols(struct rout *o)
{
	PUTS(o, "\"kernel_symbols\": [\n      {\"size\": 0, \"kernel_id\": 0, \"code_object_id\": 0, "
		"\"kernel_name\": \"\", \"formatted_kernel_name\": \"0\", \"demangled_kernel_name\": \"0\", "
		"\"truncated_kernel_name\": \"0\"}");
	for (uint32_t i = 1; i < o->kernels.count; i++) {
		const char *name = strtab_get(&o->kernels, i);
		char symbol[512];
		snprintf(symbol, sizeof(symbol), "%s.kd", name);
		putf(o, ",\n      {\"size\": 88, \"kernel_id\": %u, \"code_object_id\": 1, \"kernel_name\": ",
		     i);
		put_string(o, symbol);
		PUTS(o, ", \"formatted_kernel_name\": ");
		put_string(o, name);
		PUTS(o, ", \"demangled_kernel_name\": ");
		put_string(o, symbol);
		PUTS(o, "}");
	}
	PUTS(o, "\n    ]");
}

static int records(struct rout *o, const struct gen_params *p)
{
	PUTS(o, "\"buffer_records\": {\n    ");
	int rc = list(o, p, "kernel_dispatch", W_DISPATCH);
	PUTS(o, ",\n    ");
	rc |= list(o, p, "hip_api", W_HIP);
	PUTS(o, ",\n    ");
	rc |= list(o, p, "marker_api", W_MARKER);
	PUTS(o, ",\n    ");
	rc |= list(o, p, "memory_copy", W_COPY);
	PUTS(o, ",\n    \"scratch_memory\": []\n    }");
	return rc;
}

static int process(struct rout *o, const struct gen_params *p, unsigned i)
{
	o->pid = gen_pid(p, i);
	PUTS(o, i ? ",\n  {\n    " : "\n  {\n    ");
	int rc = 0;
	if (i % 2) {
		rc |= records(o, p);
		PUTS(o, ",\n    ");
	}
	putf(o,
	     "\"metadata\": {\"node\": {\"id\": 0, \"hostname\": \"rpdgen\"}, \"pid\": %lld, \"init_time\": "
	     "0, "
	     "\"fini_time\": 0, \"command\": [\"python3\", \"train.py\"]},\n    ",
	     (long long)o->pid);
	agents(o, p);
	PUTS(o, ",\n    ");
	rc |= strings(o, p);
	PUTS(o, ",\n    ");
	symbols(o);
	if (i % 2 == 0) {
		PUTS(o, ",\n    ");
		rc |= records(o, p);
	}
	PUTS(o, "\n  }");
	return rc;
}

static int ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), m = strlen(end);
	return n >= m && strcmp(s + n - m, end) == 0;
}

int demo_write_rocprofv3(const char *path, const struct gen_params *p, const struct demo_output *out,
			 struct rpd_error *err)
{
	if (!out->force && access(path, F_OK) == 0)
		return err_set(err, _("%s: already exists (use --force to replace it)"), path);
	int lock_fd = -1;
	char *tmp = tempname_create(path, &lock_fd);
	if (!tmp)
		return err_set(err, _("%s: cannot create a file there: %s"), path, strerror(errno));
	struct rout o = { 0 };
	strtab_init(&o.kernels);
	strtab_init(&o.calls);
	struct gen_sink names = { .ctx = &o, .op = collect_op, .api = collect_api, .link = no_link };
	int rc = gen_run(p, &names);
	if (rc == 0) {
		if (ends_with(path, ".gz"))
			o.gz = gzopen(tmp, "wb6");
		else
			o.f = fopen(tmp, "wb");
		rc = o.gz || o.f ? 0 : -1;
	}
	if (rc == 0) {
		PUTS(&o, "{\"rocprofiler-sdk-tool\": [");
		for (unsigned i = 0; i < gen_processes(p); i++)
			rc |= process(&o, p, i);
		PUTS(&o, "\n]}\n");
		rc |= o.failed;
		if (o.gz)
			rc |= gzclose(o.gz) != Z_OK;
		else
			rc |= fclose(o.f) != 0;
	}
	if (rc == 0 && rename(tmp, path) != 0)
		rc = -1;
	if (rc)
		err_set(err, _("%s: cannot write: %s"), path, strerror(errno ? errno : EIO));
	if (rc)
		unlink(tmp);
	close(lock_fd);
	free(tmp);
	strtab_free(&o.kernels);
	strtab_free(&o.calls);
	return rc ? -1 : 0;
}
