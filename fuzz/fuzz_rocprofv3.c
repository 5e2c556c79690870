/* libFuzzer harness for the rocprofv3 JSON reader: JSON (or gzip) bytes
 * in, a trace (and the analyses over it) or one clean error out, whichever
 * of its ways the load reads it (the ops alone, the ops with the calls,
 * the ops first and the calls after, the span alone), read by the reader
 * itself (whatever the first key says) and by the load (which tells the
 * format by it). Never a crash, a leak or a hang. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/busy.h"
#include "analysis/markers.h"
#include "analysis/profile.h"
#include "load/load.h"
#include "load/rocprofv3.h"
#include "session/select.h"
#include "trace/api_order.h"
#include "util/threads.h"

#include "fuzz_tmp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void analyse(struct trace *t)
{
	struct profile p;
	struct busy b;
	struct selection sel;
	struct filter flt;
	struct window w = { 0 };
	filter_init(&flt);
	selection_build(t, &flt, &w, NULL, &sel);
	profile_by_name(t, PROFILE_ALL_OPS, &sel, &p);
	busy_per_gpu(t, &sel, &b);
	if (t->apis_read) {
		struct api_order o;
		struct markers m;
		api_order_build(t, &o);
		markers_find(t, &o, &sel, &m);
		markers_free(&m);
		api_order_free(&o);
	}
	profile_free(&p);
	busy_free(&b);
	selection_free(&sel);
	filter_free(&flt);
}

/* An error is one line. */
static void one_line(const struct rpd_error *err)
{
	if (strchr(err->msg, '\n'))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_tmp_path("in.json");
	FILE *f = path ? fopen(path, "wb") : NULL;
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);

	static const unsigned whats[] = { LOAD_OPS | LOAD_NO_OP_IDS, LOAD_OPS, LOAD_ALL };
	threads_set_limit(1);
	struct rpd_error err;
	for (size_t i = 0; i < sizeof(whats) / sizeof(whats[0]); i++) {
		struct trace t;
		trace_init(&t);
		t.no_op_ids = whats[i] == (LOAD_OPS | LOAD_NO_OP_IDS);
		t.apis_read = (whats[i] & LOAD_APIS) != 0;
		if (rocprofv3_read(&t, path, whats[i], &err) == 0) {
			trace_finish(&t);
			analyse(&t);
		} else {
			one_line(&err);
		}
		trace_free(&t);
	}
	/* The ops first (ids kept), then the calls, as the viewer reads them. */
	struct trace t;
	trace_init(&t);
	if (rocprofv3_read(&t, path, LOAD_OPS | LOAD_NO_OP_IDS, &err) == 0) {
		trace_finish(&t);
		if (trace_load_apis(&t, &err) == 0)
			analyse(&t);
		else
			one_line(&err);
	} else {
		one_line(&err);
	}
	trace_free(&t);
	struct op_span span;
	if (rocprofv3_span(path, &span, &err))
		one_line(&err);
	/* The load, which tells the format by the first key. */
	struct load_options o = { .what = LOAD_ALL };
	const char *paths[] = { path };
	if (trace_load(&t, paths, 1, &o, &err) == 0) {
		analyse(&t);
		trace_free(&t);
	} else {
		one_line(&err);
	}
	return 0;
}
