#include "config.h"
#include "load/tabled.h"

#include <string.h>

int tabled_read(struct trace *t, uint32_t input, const struct tabled_reader *rd, int apis)
{
	size_t op_base = t->ops.n, api_base = t->apis.n;
	int rc = rd->ops(rd->ctx);
	struct trace_input *in = &t->inputs[input];
	in->op_first = op_base;
	in->op_count = t->ops.n - op_base;
	if (rc == 0 && apis)
		rc = rd->calls(rd->ctx);
	if (apis) {
		in->api_first = api_base;
		in->api_count = t->apis.n - api_base;
	}
	return rc;
}

int tabled_read_apis(struct trace *t, uint32_t input, const struct tabled_reader *rd)
{
	size_t api_base = t->apis.n;
	int rc = rd->ops(rd->ctx) || rd->calls(rd->ctx) ? -1 : 0;
	t->inputs[input].api_first = api_base;
	t->inputs[input].api_count = t->apis.n - api_base;
	return rc;
}

long tabled_input_of(const struct trace *t, const char *path, int format)
{
	for (size_t i = 0; i < t->ninputs; i++)
		if (t->inputs[i].format == format && strcmp(t->inputs[i].path, path) == 0)
			return (long)i;
	return -1;
}
