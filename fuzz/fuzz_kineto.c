/* libFuzzer harness for the Kineto reader: JSON (or gzip) bytes in, a
 * trace (and the analyses over it) or one clean error out, whichever of
 * its ways the load reads it (the ops alone, the ops with the calls).
 * Never a crash, a leak or a hang. */
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
	for (size_t i = 0; i < sizeof(whats) / sizeof(whats[0]); i++) {
		struct trace t;
		struct rpd_error err;
		struct load_options o = { .what = whats[i] };
		const char *paths[] = { path };
		if (trace_load(&t, paths, 1, &o, &err) == 0) {
			analyse(&t);
			trace_free(&t);
		} else if (strchr(err.msg, '\n')) {
			abort(); /* an error is one line */
		}
	}
	return 0;
}
