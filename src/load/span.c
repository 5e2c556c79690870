#include "config.h"
#include "load/span.h"

#include <stdlib.h>
#include <string.h>

#include "load/inputs.h"
#include "load/kineto.h"
#include "load/load.h"
#include "load/nsys.h"
#include "load/rocpd.h"
#include "load/rocprof.h"
#include "load/rocprofv3.h"
#include "util/xalloc.h"

/* An input's processes (rpd's one, which has no guid) and their spans. */
struct input_span {
	struct op_span *part;
	char **guid; /* NULL or "": a process that is never read twice */
	size_t n;
};

static void forget(void *ctx)
{
	struct input_span *in = ctx;
	for (size_t i = 0; i < in->n; i++)
		free(in->guid[i]);
	free(in->guid);
	free(in->part);
	memset(in, 0, sizeof(*in));
}

static void make_parts(struct input_span *in, size_t n)
{
	in->n = n;
	in->part = xcalloc(n ? n : 1, sizeof(*in->part));
	in->guid = xcalloc(n ? n : 1, sizeof(*in->guid));
}

static int span_rocpd(void *ctx, sqlite3 *db, const char *path, const struct rocpd_file *f,
		      struct rpd_error *err)
{
	struct input_span *in = ctx;
	make_parts(in, f->n);
	for (size_t i = 0; i < f->n; i++)
		in->guid[i] = xstrdup(f->parts[i].guid);
	return rocpd_span(db, path, f, in->part, err);
}

static int span_rpd(void *ctx, sqlite3 *db, const char *path, int version, struct rpd_error *err)
{
	struct input_span *in = ctx;
	(void)version;
	make_parts(in, 1);
	return rpd_span(db, path, in->part, err);
}

static int span_kineto(void *ctx, const char *path, struct rpd_error *err)
{
	struct input_span *in = ctx;
	make_parts(in, 1);
	return kineto_span(path, in->part, err);
}

static int span_nsys(void *ctx, sqlite3 *db, const char *path, const struct nsys_file *f,
		     struct rpd_error *err)
{
	struct input_span *in = ctx;
	make_parts(in, 1);
	return nsys_span(db, path, f, in->part, err);
}

static int span_rocprof(void *ctx, sqlite3 *db, const char *path, const struct rocprof_file *f,
			struct rpd_error *err)
{
	struct input_span *in = ctx;
	make_parts(in, 1);
	return rocprof_span(db, path, f, in->part, err);
}

static int span_rocprofv3(void *ctx, const char *path, struct rpd_error *err)
{
	struct input_span *in = ctx;
	make_parts(in, 1);
	return rocprofv3_span(path, in->part, err);
}

/* The guids of the processes taken so far, in the order of the inputs. */
struct seen {
	char **guid;
	size_t n;
};

static int seen_among(const struct seen *s, size_t n, const char *guid)
{
	for (size_t i = 0; guid && *guid && i < n; i++)
		if (strcmp(s->guid[i], guid) == 0)
			return 1;
	return 0;
}

/* The input's processes into the span but those an earlier input had (the
 * load merges a process once: load.c's repeated_processes). */
static void take(const struct input_span *in, struct seen *s, struct op_span *out)
{
	size_t before = s->n;
	for (size_t i = 0; i < in->n; i++) {
		if (seen_among(s, before, in->guid[i]))
			continue;
		op_span_merge(out, &in->part[i]);
		if (in->guid[i] && *in->guid[i]) {
			s->guid = xrealloc_array(s->guid, s->n + 1, sizeof(*s->guid));
			s->guid[s->n++] = xstrdup(in->guid[i]);
		}
	}
}

int load_span(const char *const *args, size_t nargs, int skip_bad, struct op_span *out, struct rpd_error *err)
{
	struct input_list list;
	struct seen seen = { 0 };
	memset(out, 0, sizeof(*out));
	if (inputs_expand(args, nargs, &list, err))
		return -1;
	int rc = 0;
	for (size_t i = 0; i < list.n && rc == 0; i++) {
		struct input_span in = { 0 };
		struct input_reader rd = { span_rocpd,   span_rpd,       span_kineto, span_nsys,
					   span_rocprof, span_rocprofv3, forget,      &in };
		if (load_input(list.paths[i], &rd, err) == 0)
			take(&in, &seen, out);
		else if (!skip_bad)
			rc = -1;
		forget(&in);
	}
	for (size_t i = 0; i < seen.n; i++)
		free(seen.guid[i]);
	free(seen.guid);
	inputs_free(&list);
	return rc;
}
