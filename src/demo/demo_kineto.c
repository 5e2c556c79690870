/* The generated trace as the PyTorch profiler (Kineto) writes one: a
 * Chrome-trace JSON file, gzipped when its name ends in .gz. Kernels and
 * copies are kernel and gpu_memcpy events on their GPU (pid, args.device)
 * and stream (tid, args.stream); HIP calls cuda_runtime events (as
 * Kineto files HIP's calls on ROCm), their ops sharing their correlation
 * id and an ac2g flow; roctx ranges user_annotation events, the steps
 * named ProfilerStep#N as the profiler names them; marks (no duration)
 * instant events. Times are microseconds with three decimals from
 * baseTimeNanoseconds, written after the events. Barriers have no Kineto
 * event and are not written. */
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
#include "util/i18n.h"
#include "util/xalloc.h"

/* Times are written from here on: below the generator's clock, which
 * starts at 10^12 ns. */
#define KINETO_BASE_NS 999000000000LL

struct kout {
	FILE *f;
	gzFile gz;
	int failed;
	int first; /* no event written yet */
};

static void put(struct kout *o, const char *s, size_t n)
{
	if (o->failed || n == 0)
		return;
	if (o->gz)
		o->failed = gzwrite(o->gz, s, (unsigned)n) != (int)n;
	else
		o->failed = fwrite(s, 1, n, o->f) != n;
}

static void putf(struct kout *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void putf(struct kout *o, const char *fmt, ...)
{
	char buf[512];
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

/* A JSON string. */
static void put_string(struct kout *o, const char *s)
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

/* ns as microseconds from the base, to the ns. */
static void put_time(struct kout *o, const char *key, int64_t ns)
{
	putf(o, ", \"%s\": %lld.%03lld", key, (long long)(ns / 1000), (long long)(ns % 1000));
}

/* The start of an event, after the one before. */
static void begin(struct kout *o, const char *ph, const char *cat, const char *name)
{
	PUTS(o, o->first ? "\n  {" : ",\n  {");
	o->first = 0;
	putf(o, "\"ph\": \"%s\", \"cat\": \"%s\", \"name\": ", ph, cat);
	put_string(o, name);
}

static int kineto_op(void *ctx, const struct gen_op *op)
{
	struct kout *o = ctx;
	static const char *const copies[] = { NULL, "Memcpy HtoD (Host -> Device)",
					      "Memcpy DtoH (Device -> Host)",
					      "Memcpy DtoD (Device -> Device)" };
	int kind = op->copy && op->copy->kind >= 1 && op->copy->kind <= 3 ? op->copy->kind : 0;
	if (!op->kernel && !kind)
		return 0;
	begin(o, "X", kind ? "gpu_memcpy" : "kernel", kind ? copies[kind] : op->desc);
	putf(o, ", \"pid\": %lld, \"tid\": %lld", (long long)op->gpu, (long long)op->queue);
	put_time(o, "ts", op->start - KINETO_BASE_NS);
	put_time(o, "dur", op->end - op->start);
	putf(o, ", \"args\": {\"External id\": %lld, \"device\": %lld, \"stream\": %lld", (long long)op->id,
	     (long long)op->gpu, (long long)op->queue);
	if (op->launch)
		putf(o, ", \"correlation\": %lld", (long long)op->launch);
	if (kind)
		putf(o, ", \"bytes\": %lld", (long long)op->copy->size);
	if (op->kernel)
		putf(o, ", \"grid\": [%lld, 1, 1], \"block\": [%lld, 1, 1]", (long long)op->kernel->grid[0],
		     (long long)op->kernel->workgroup[0]);
	PUTS(o, "}}");
	/* The flow's end, at the op, as Kineto draws it. */
	if (op->launch) {
		begin(o, "f", "ac2g", "ac2g");
		putf(o, ", \"id\": %lld, \"pid\": %lld, \"tid\": %lld, \"bp\": \"e\"", (long long)op->launch,
		     (long long)op->gpu, (long long)op->queue);
		put_time(o, "ts", op->start - KINETO_BASE_NS);
		PUTS(o, "}");
	}
	return o->failed ? -1 : 0;
}

static int kineto_api(void *ctx, const struct gen_api *a)
{
	struct kout *o = ctx;
	int marker = strcmp(a->name, "UserMarker") == 0;
	unsigned long long step;
	char text[64];
	const char *name = marker ? a->args : a->name;
	if (marker && sscanf(a->args, "step %llu", &step) == 1) {
		snprintf(text, sizeof(text), "ProfilerStep#%llu", step);
		name = text;
	}
	/* A mark takes no time: an instant event, which is no range. */
	begin(o, marker && a->start == a->end ? "i" : "X", marker ? "user_annotation" : "cuda_runtime", name);
	putf(o, ", \"pid\": %lld, \"tid\": %lld", (long long)a->pid, (long long)a->tid);
	put_time(o, "ts", a->start - KINETO_BASE_NS);
	if (marker && a->start == a->end) {
		PUTS(o, ", \"s\": \"t\"}");
		return o->failed ? -1 : 0;
	}
	put_time(o, "dur", a->end - a->start);
	if (marker)
		PUTS(o, ", \"args\": {\"External id\": 0}}");
	else
		putf(o, ", \"args\": {\"cbid\": 0, \"correlation\": %lld}}", (long long)a->id);
	if (!marker) {
		begin(o, "s", "ac2g", "ac2g");
		putf(o, ", \"id\": %lld, \"pid\": %lld, \"tid\": %lld", (long long)a->id, (long long)a->pid,
		     (long long)a->tid);
		put_time(o, "ts", a->start - KINETO_BASE_NS);
		PUTS(o, "}");
	}
	return o->failed ? -1 : 0;
}

static int kineto_link(void *ctx, int64_t api, int64_t op)
{
	(void)ctx;
	(void)api;
	(void)op;
	return 0;
}

/* The metadata events Kineto writes first: each process's name. */
static void metadata(struct kout *o, const struct gen_params *p)
{
	for (unsigned i = 0; i < gen_processes(p); i++) {
		begin(o, "M", "__metadata", "process_name");
		putf(o, ", \"pid\": %lld, \"tid\": 0, \"args\": {\"name\": \"python3\"}}",
		     (long long)gen_pid(p, i));
		begin(o, "M", "__metadata", "process_labels");
		putf(o, ", \"pid\": %u, \"tid\": 0, \"args\": {\"labels\": \"GPU %u\"}}", i, i);
	}
}

static int finish(struct kout *o, const struct gen_params *p)
{
	PUTS(o, "\n  ],\n");
	putf(o, "  \"traceName\": \"rpdgen seed %llu\",\n  \"displayTimeUnit\": \"ms\",\n",
	     (unsigned long long)p->seed);
	putf(o, "  \"baseTimeNanoseconds\": %lld\n}\n", KINETO_BASE_NS);
	int failed = o->failed;
	if (o->gz)
		failed |= gzclose(o->gz) != Z_OK;
	else
		failed |= fclose(o->f) != 0;
	return failed ? -1 : 0;
}

static int ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), m = strlen(end);
	return n >= m && strcmp(s + n - m, end) == 0;
}

int demo_write_kineto(const char *path, const struct gen_params *p, const struct demo_output *out,
		      struct rpd_error *err)
{
	if (!out->force && access(path, F_OK) == 0)
		return err_set(err, _("%s: already exists (use --force to replace it)"), path);
	int lock_fd = -1;
	char *tmp = tempname_create(path, &lock_fd);
	if (!tmp)
		return err_set(err, _("%s: cannot create a file there: %s"), path, strerror(errno));
	struct kout o = { .first = 1 };
	if (ends_with(path, ".gz"))
		o.gz = gzopen(tmp, "wb6");
	else
		o.f = fopen(tmp, "wb");
	int rc = -1;
	if (o.gz || o.f) {
		PUTS(&o, "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [");
		for (unsigned i = 0; i < gen_processes(p); i++)
			putf(&o, "%s{\"id\": %u, \"name\": \"rpdgen GPU\", \"warpSize\": 64}", i ? ", " : "",
			     i);
		PUTS(&o,
		     "],\n  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 0, \"world_size\": 1},\n");
		PUTS(&o, "  \"traceEvents\": [");
		metadata(&o, p);
		struct gen_sink sink = { .ctx = &o, .op = kineto_op, .api = kineto_api, .link = kineto_link };
		int gen = gen_run(p, &sink);
		rc = finish(&o, p) || gen ? -1 : 0;
	}
	if (rc == 0 && rename(tmp, path) != 0)
		rc = -1;
	if (rc)
		err_set(err, _("%s: cannot write: %s"), path, strerror(errno ? errno : EIO));
	if (rc)
		unlink(tmp);
	close(lock_fd);
	free(tmp);
	return rc;
}
