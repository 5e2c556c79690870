/* libFuzzer harness for the loader: database bytes in, a trace (and the
 * analyses over it) or a clean error out. Never a crash, a leak or a hang. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/busy.h"
#include "analysis/profile.h"
#include "load/load.h"
#include "session/select.h"
#include "util/threads.h"

#include "fuzz_tmp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_tmp_path("in.rpd");
	FILE *f = path ? fopen(path, "wb") : NULL;
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);

	struct trace t;
	struct rpd_error err;
	struct load_options o = { .what = LOAD_ALL };
	threads_set_limit(1);
	const char *paths[] = { path };
	/* What the reports that read less ask of the reader: the calls but
	 * the markers and no op (api), no call (counters), the markers alone
	 * (steps), the launching calls (gaps). */
	static const unsigned fewer[] = { LOAD_ALL | LOAD_NO_MARKERS | LOAD_OPS_UNUSED,
					  LOAD_ALL | LOAD_NO_CALLS, LOAD_ALL | LOAD_MARKERS_ONLY,
					  LOAD_ALL | LOAD_LAUNCHES };
	for (size_t i = 0; i < sizeof(fewer) / sizeof(fewer[0]); i++) {
		struct load_options less = { .what = fewer[i] };
		if (trace_load(&t, paths, 1, &less, &err) == 0)
			trace_free(&t);
	}
	if (trace_load(&t, paths, 1, &o, &err) == 0) {
		struct profile p;
		struct busy b;
		struct filter flt;
		struct window w = { 0 };
		struct selection sel;
		char msg[256];
		filter_init(&flt);
		filter_push(&flt, "a|k", msg, sizeof(msg));
		selection_build(&t, &flt, &w, NULL, &sel);
		profile_by_name(&t, PROFILE_KERNELS, &sel, &p);
		busy_per_gpu(&t, &sel, &b);
		profile_free(&p);
		busy_free(&b);
		selection_free(&sel);
		filter_free(&flt);
		trace_free(&t);
	}
	return 0;
}
