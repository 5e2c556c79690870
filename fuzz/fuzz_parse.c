/* libFuzzer harness for what users type: filter patterns, windows, and
 * the name display (demangling and stripping). */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "display/names.h"
#include "session/filter.h"
#include "session/window.h"
#include "util/utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void sink(const char *piece, size_t len, void *ctx)
{
	(void)piece;
	*(size_t *)ctx += len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	char *s = malloc(size);
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	char err[512];
	switch (data[0] % 4) {
	case 0: {
		struct filter f;
		filter_init(&f);
		if (filter_push(&f, s, err, sizeof(err)) == 0)
			filter_passes(&f, s, strlen(s));
		filter_free(&f);
		break;
	}
	case 1: {
		struct window w;
		window_parse(s, 1000, 5000000000LL, &w, err, sizeof(err));
		break;
	}
	case 2:
		free(name_display(s, NAME_DEMANGLE | NAME_STRIP));
		break;
	default: {
		size_t n = 0;
		utf8_write_escaped(s, sink, &n);
		break;
	}
	}
	free(s);
	return 0;
}
