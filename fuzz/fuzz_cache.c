/* libFuzzer harness for cache files: the bytes of a .rpdc file, their
 * hashes made anew (cache_format_rehash) so that the mutations reach the
 * checks of what the columns hold, read as the cache reads them; a trace
 * taken goes through every report. Never a crash, a leak or a hang. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "load/cache_format.h"
#include "util/threads.h"

#include "every_report.h"
#include "fuzz_tmp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned char *bytes = malloc(size ? size : 1);
	memcpy(bytes, data, size);
	int level = 0;
	char *key = cache_format_key(bytes, size, &level);
	const char *path = fuzz_tmp_path("in.rpdc");
	FILE *f = key && path && cache_format_rehash(bytes, size) == 0 ? fopen(path, "wb") : NULL;
	if (f) {
		fwrite(bytes, 1, size, f);
		fclose(f);
		threads_set_limit(1);
		/* Every load the file can serve: what it holds, and less. */
		for (int want = 0; want <= level && want < CACHE_LEVELS; want++) {
			FILE *r = fopen(path, "rb");
			struct trace t;
			if (r && cache_format_read(fileno(r), size, &t, level, want, key) == 0) {
				every_report(&t);
				trace_free(&t);
			}
			if (r)
				fclose(r);
		}
	}
	free(key);
	free(bytes);
	return 0;
}
