#include "config.h"
#include "batch/batch_wire.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

#define PLAN_VERSION 1

/* The place in plan->paths of one of its paths (the same pointer). */
static size_t place_of(const struct batch_plan *plan, const char *path)
{
	for (size_t f = 0; f < plan->npaths; f++)
		if (plan->paths[f] == path)
			return f;
	return SIZE_MAX;
}

void batch_plan_encode(const struct batch_plan *plan, struct bytes_out *b)
{
	bytes_put_u8(b, PLAN_VERSION);
	bytes_put_u8(b, (uint8_t)plan->same_node);
	bytes_put_u8(b, (uint8_t)plan->skip_bad);
	bytes_put_u64(b, plan->npaths);
	for (size_t i = 0; i < plan->npaths; i++) {
		bytes_put_str(b, plan->paths[i]);
		bytes_put_u64(b, plan->group_of[i]);
	}
	bytes_put_u64(b, plan->ngroups);
	for (size_t g = 0; g < plan->ngroups; g++) {
		const struct batch_group *x = &plan->groups[g];
		bytes_put_str(b, x->node);
		bytes_put_u64(b, x->bytes);
		/* A group's paths are the plan's: by their place in it. */
		bytes_put_u64(b, x->npaths);
		for (size_t i = 0; i < x->npaths; i++)
			bytes_put_u64(b, place_of(plan, x->paths[i]));
	}
}

/* A string that must be there (a path). */
static char *need_str(struct bytes_in *in)
{
	char *s = bytes_get_str(in);
	if (!s)
		in->bad = 1;
	return s;
}

int batch_plan_decode(struct batch_plan *plan, const unsigned char *p, size_t n)
{
	struct bytes_in in;
	bytes_in_init(&in, p, n);
	memset(plan, 0, sizeof(*plan));
	if (bytes_get_u8(&in) != PLAN_VERSION)
		return -1;
	plan->same_node = bytes_get_u8(&in);
	plan->skip_bad = bytes_get_u8(&in);
	/* A path takes its length's 8 bytes at least. */
	size_t npaths = (size_t)bytes_get_count(&in, 16);
	plan->paths = xcalloc(npaths ? npaths : 1, sizeof(*plan->paths));
	plan->group_of = xcalloc(npaths ? npaths : 1, sizeof(*plan->group_of));
	for (size_t i = 0; i < npaths && !in.bad; i++) {
		plan->paths[i] = need_str(&in);
		plan->group_of[i] = (size_t)bytes_get_u64(&in);
		plan->npaths = i + 1;
	}
	size_t ngroups = (size_t)bytes_get_count(&in, 24);
	plan->groups = xcalloc(ngroups ? ngroups : 1, sizeof(*plan->groups));
	for (size_t g = 0; g < ngroups && !in.bad; g++) {
		struct batch_group *x = &plan->groups[g];
		plan->ngroups = g + 1;
		x->node = bytes_get_str(&in);
		x->bytes = bytes_get_u64(&in);
		size_t np = (size_t)bytes_get_count(&in, 8);
		x->paths = xcalloc(np ? np : 1, sizeof(*x->paths));
		for (size_t i = 0; i < np && !in.bad; i++) {
			uint64_t f = bytes_get_u64(&in);
			if (f >= plan->npaths) {
				in.bad = 1;
				break;
			}
			x->paths[i] = plan->paths[f];
			x->npaths = i + 1;
		}
	}
	for (size_t i = 0; i < plan->npaths && !in.bad; i++)
		if (plan->group_of[i] >= plan->ngroups)
			in.bad = 1;
	if (in.bad || in.at != in.n) {
		batch_plan_free(plan);
		memset(plan, 0, sizeof(*plan));
		return -1;
	}
	return 0;
}
